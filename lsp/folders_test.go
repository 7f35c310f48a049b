package lsp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// TestFilesComeAndGo: the server keeps the listing of a project's folders
// between checks (an edit of a buffer lists no folder), and a file
// created, deleted or renamed is seen once the editor says so: a watched
// file created, didDeleteFiles, didRenameFiles, and a new file saved for
// the first time.
func TestFilesComeAndGo(t *testing.T) {
	const page = "<script setup>\nconst { data } = await useFetch('/api/x')\nif (data.value === null) console.log(1)\n</script>\n<template><p>{{ data }}</p></template>\n"
	dir := writeTree(t, map[string]string{
		"fw.config.ts":    "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json":    `{"dependencies": {"fw": "^3.12.0"}}`,
		"pages/index.vue": page,
	})
	c := startClient(t, lsp.Options{})
	index := filepath.Join(dir, "pages", "index.vue")
	uri := c.open(index, page)
	if p := c.waitDiags(uri, version(1)); find(p.Diagnostics, "FW601") == nil {
		t.Fatalf("no FW601 in the page: %+v", p.Diagnostics)
	}
	has601 := func(p lsp.PublishDiagnosticsParams) bool { return find(p.Diagnostics, "FW601") != nil }
	empty := func(p lsp.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }
	edit := func(v int) {
		c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{
			TextDocument:   lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v},
			ContentChanges: []lsp.TextDocumentContentChangeEvent{{Range: &lsp.Range{Start: lsp.Position{Line: 4}, End: lsp.Position{Line: 4}}, Text: "<!-- -->"}},
		})
		c.waitDiags(uri, version(v))
	}

	// Created on disk: an edit of the page keeps the listing, which does
	// not hold it; the watched file's event makes the next check see it.
	other := filepath.Join(dir, "pages", "other.vue")
	writeFile(t, other, page)
	edit(2)
	c.mu.Lock()
	_, seen := c.diags[fileURI(other)]
	c.mu.Unlock()
	if seen {
		t.Fatal("a file created on disk was seen before the editor said so: the listing was not kept")
	}
	c.notify("workspace/didChangeWatchedFiles", lsp.DidChangeWatchedFilesParams{Changes: []lsp.FileEvent{{URI: fileURI(other), Type: 1}}})
	c.waitDiags(fileURI(other), has601)

	// Deleted: its diagnostics go.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didDeleteFiles", lsp.DeleteFilesParams{Files: []lsp.FileCreate{{URI: fileURI(other)}}})
	c.waitDiags(fileURI(other), empty)

	// Renamed, into a folder the listing does not know.
	third := filepath.Join(dir, "pages", "third.vue")
	writeFile(t, third, page)
	c.notify("workspace/didCreateFiles", lsp.CreateFilesParams{Files: []lsp.FileCreate{{URI: fileURI(third)}}})
	c.waitDiags(fileURI(third), has601)
	moved := filepath.Join(dir, "pages", "deep", "moved.vue")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(third, moved); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didRenameFiles", lsp.RenameFilesParams{Files: []lsp.FileRename{{OldURI: fileURI(third), NewURI: fileURI(moved)}}})
	c.waitDiags(fileURI(third), empty)
	c.waitDiags(fileURI(moved), has601)

	// A new buffer, then saved for the first time (in a new folder): the
	// listing does not know it; the save makes the check list again.
	fresh := filepath.Join(dir, "pages", "new", "fresh.vue")
	furi := c.open(fresh, page)
	c.waitDiags(furi, has601)
	if err := os.MkdirAll(filepath.Dir(fresh), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, fresh, page)
	c.notify("textDocument/didSave", lsp.DidSaveTextDocumentParams{TextDocument: lsp.TextDocumentIdentifier{URI: furi}})
	edit(3)
	var actions []lsp.CodeAction // answered after the checks under way are published
	c.call("textDocument/codeAction", lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}}, &actions)
	c.mu.Lock()
	p := c.diags[furi]
	c.mu.Unlock()
	if !has601(p) {
		t.Errorf("the file saved for the first time lost its diagnostics: %+v", p.Diagnostics)
	}
	c.shutdown()
}
