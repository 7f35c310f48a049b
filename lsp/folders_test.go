package lsp

import (
	"os"
	"path/filepath"
	"testing"
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
	c := startClient(t, Options{})
	index := filepath.Join(dir, "pages", "index.vue")
	uri := c.open(index, page)
	if p := c.waitDiags(uri, version(1)); find(p.Diagnostics, "FW601") == nil {
		t.Fatalf("no FW601 in the page: %+v", p.Diagnostics)
	}
	has601 := func(p PublishDiagnosticsParams) bool { return find(p.Diagnostics, "FW601") != nil }
	empty := func(p PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 }
	edit := func(v int) {
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: v},
			ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: Position{Line: 4}, End: Position{Line: 4}}, Text: "<!-- -->"}},
		})
		c.waitDiags(uri, version(v))
	}

	// Created on disk: an edit of the page keeps the listing, which does
	// not hold it; the watched file's event makes the next check see it.
	other := filepath.Join(dir, "pages", "other.vue")
	writeFile(t, other, page)
	edit(2)
	c.mu.Lock()
	_, seen := c.diags[pathURI(other)]
	c.mu.Unlock()
	if seen {
		t.Fatal("a file created on disk was seen before the editor said so: the listing was not kept")
	}
	c.notify("workspace/didChangeWatchedFiles", DidChangeWatchedFilesParams{Changes: []FileEvent{{URI: pathURI(other), Type: 1}}})
	c.waitDiags(pathURI(other), has601)

	// Deleted: its diagnostics go.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didDeleteFiles", DeleteFilesParams{Files: []FileCreate{{URI: pathURI(other)}}})
	c.waitDiags(pathURI(other), empty)

	// Renamed, into a folder the listing does not know.
	third := filepath.Join(dir, "pages", "third.vue")
	writeFile(t, third, page)
	c.notify("workspace/didCreateFiles", CreateFilesParams{Files: []FileCreate{{URI: pathURI(third)}}})
	c.waitDiags(pathURI(third), has601)
	moved := filepath.Join(dir, "pages", "deep", "moved.vue")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(third, moved); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didRenameFiles", RenameFilesParams{Files: []FileRename{{OldURI: pathURI(third), NewURI: pathURI(moved)}}})
	c.waitDiags(pathURI(third), empty)
	c.waitDiags(pathURI(moved), has601)

	// A new buffer, then saved for the first time (in a new folder): the
	// listing does not know it; the save makes the check list again.
	fresh := filepath.Join(dir, "pages", "new", "fresh.vue")
	furi := c.open(fresh, page)
	c.waitDiags(furi, has601)
	if err := os.MkdirAll(filepath.Dir(fresh), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, fresh, page)
	c.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: furi}})
	edit(3)
	var actions []CodeAction // answered after the checks under way are published
	c.call("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{URI: uri}}, &actions)
	c.mu.Lock()
	p := c.diags[furi]
	c.mu.Unlock()
	if !has601(p) {
		t.Errorf("the file saved for the first time lost its diagnostics: %+v", p.Diagnostics)
	}
	c.shutdown()
}
