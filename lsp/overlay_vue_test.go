package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// The editor's unsaved buffers are what the server checks, .vue files and
// scripts included (issue 20, point 8): an open file's diagnostics follow
// its buffer, version by version, and never the disk, which the tests
// check is left as it was; a file that exists only in the editor (a new
// page not saved yet) is checked too; closing a buffer gives the file
// back to the disk.

// noFW606 accepts a publication of version v without FW606.
func noFW606(v int) func(lsp.PublishDiagnosticsParams) bool {
	return func(p lsp.PublishDiagnosticsParams) bool {
		return p.Version != nil && *p.Version == v && find(p.Diagnostics, "FW606") == nil
	}
}

// unchanged fails the test when path's bytes on disk are not want.
func unchanged(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s changed on disk:\n%s", path, got)
	}
}

// TestUnsavedVueBuffer: an opened .vue page, edited and never saved. The
// disk's page has FW606 on line 3; the buffer first has none (the
// diagnostics say none), then has it on another line and column (they
// point there, in UTF-16 columns of the buffer's text), then none again;
// closing the buffer brings the disk's finding back, on the disk's line.
func TestUnsavedVueBuffer(t *testing.T) {
	dir := shopTree(t)
	page := filepath.Join(dir, "app/pages/index.vue")
	disk, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(disk), "route.meta.name") {
		t.Fatal("the tree's page has no FW606 on disk: the test would prove nothing")
	}
	c := startClient(t, lsp.Options{})

	clean := "<script setup lang=\"ts\">\nconst route = useRoute()\nconst title = route.name\n</script>\n<template><p>{{ title }}</p></template>\n"
	uri := c.open(page, clean)
	c.waitDiags(uri, noFW606(1))

	// The finding typed in the buffer, below a line of non-ASCII text (the
	// columns are the buffer's UTF-16 ones, not the disk's bytes).
	edited := "<script setup lang=\"ts\">\n// é 😀 unsaved\nconst route = useRoute()\nconst title = route.name\nconst  name = (route.meta.name)\n</script>\n<template><p>{{ title }}</p></template>\n"
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: edited}}})
	pub := c.waitDiags(uri, version(2))
	d := find(pub.Diagnostics, "FW606")
	if d == nil {
		t.Fatalf("the buffer's FW606 is not reported: %+v", pub.Diagnostics)
	}
	at := strings.Index(edited, "route.meta.name")
	if d.Range.Start != utf16Pos(edited, at) {
		t.Errorf("FW606 at %+v, want %+v (the buffer's position)", d.Range.Start, utf16Pos(edited, at))
	}

	// An incremental change removes it again.
	start := strings.Index(edited, "const  name")
	end := strings.Index(edited, "</script>")
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 3}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{
		Range: &lsp.Range{Start: utf16Pos(edited, start), End: utf16Pos(edited, end)}, Text: ""}}})
	c.waitDiags(uri, noFW606(3))
	unchanged(t, page, string(disk))

	// Closed unsaved: the disk's text is the file's again, and so is its
	// finding (published without a version: no buffer).
	c.notify("textDocument/didClose", lsp.DidCloseTextDocumentParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}})
	want := strings.Index(string(disk), "route.meta.name")
	pub = c.waitDiags(uri, func(p lsp.PublishDiagnosticsParams) bool {
		return p.Version == nil && find(p.Diagnostics, "FW606") != nil
	})
	if d := find(pub.Diagnostics, "FW606"); d.Range.Start != utf16Pos(string(disk), want) {
		t.Errorf("after close FW606 at %+v, want the disk's %+v", d.Range.Start, utf16Pos(string(disk), want))
	}
	unchanged(t, page, string(disk))
	c.shutdown()
}

// TestBufferOnlyFiles: a page and a composable (in a folder that does not
// exist on disk either) that exist only in the editor (created, never
// saved) get their diagnostics, and nothing is written to the disk for
// them; closed unsaved, their diagnostics are cleared.
func TestBufferOnlyFiles(t *testing.T) {
	dir := shopTree(t)
	c := startClient(t, lsp.Options{})
	for _, tc := range []struct{ name, text string }{
		{"app/pages/new.vue", "<script setup lang=\"ts\">\nconst route = useRoute()\nconst n = route.meta.name\n</script>\n<template><p>{{ n }}</p></template>\n"},
		{"app/composables/useTitle.ts", "export function useTitle() {\n  const route = useRoute()\n  return route.meta.name\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, filepath.FromSlash(tc.name))
			uri := c.open(path, tc.text)
			pub := c.waitDiags(uri, version(1))
			d := find(pub.Diagnostics, "FW606")
			if d == nil {
				t.Fatalf("the unsaved %s gets no FW606: %+v", tc.name, pub.Diagnostics)
			}
			if at := strings.Index(tc.text, "route.meta.name"); d.Range.Start != utf16Pos(tc.text, at) {
				t.Errorf("FW606 at %+v, want %+v", d.Range.Start, utf16Pos(tc.text, at))
			}
			if _, err := os.Lstat(path); err == nil {
				t.Errorf("%s was written to the disk", tc.name)
			}
			// Closed unsaved, the file is gone: so are its diagnostics.
			c.notify("textDocument/didClose", lsp.DidCloseTextDocumentParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}})
			c.waitDiags(uri, func(p lsp.PublishDiagnosticsParams) bool { return p.Version == nil && len(p.Diagnostics) == 0 })
		})
	}
	c.shutdown()
}
