package lsp_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/lsp"
)

// TestNoTreeKept: between checks the server holds each file's results
// and text, not its syntax tree. The allocations of the session are
// sampled finely (one in 256 bytes, where the default is one in 512 KB)
// while a server checks an app, after edits of a page (the page alone
// parsed again), of a composable (every file read again) and of the
// config, and a code action (its file parsed on demand); then, the heap
// collected, the bytes still held that the parser allocated (its nodes,
// scopes, template elements: the trees) are a small part of those it
// allocated: the config's tree is kept (the rules read it), no source
// file's.
func TestNoTreeKept(t *testing.T) {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 256
	defer func() { runtime.MemProfileRate = old }()

	dir := t.TempDir()
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	n := 60
	if testing.Short() {
		n = 30
	}
	for name, src := range appgen.Dense(n) {
		files[name] = string(src)
	}
	testtree.Map(t, dir, files)
	var page, composable string
	for name := range files {
		switch {
		case strings.HasPrefix(name, "pages/") && strings.HasSuffix(name, ".vue") && (page == "" || name < page):
			page = name
		case strings.HasPrefix(name, "composables/") && (composable == "" || name < composable):
			composable = name
		}
	}
	if page == "" || composable == "" {
		t.Fatal("no page or composable in the generated app")
	}

	c := startClient(t, lsp.Options{})
	edit := func(name string, v int) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		uri := fileURI(path)
		if v == 1 {
			c.open(path, files[name])
		} else {
			// A line put in at the top: the file's findings move.
			c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{
				TextDocument:   lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v},
				ContentChanges: []lsp.TextDocumentContentChangeEvent{{Range: &lsp.Range{}, Text: "\n"}},
			})
		}
		c.waitDiags(uri, version(v))
	}
	edit(page, 1)
	edit(page, 2)
	edit(page, 3)
	edit(composable, 1)
	edit(composable, 2)
	edit("fw.config.ts", 1)
	edit("fw.config.ts", 2)
	edit(page, 4)
	// A code action of every finding of the page: each fix made on a tree
	// of the page parsed for it.
	var actions []lsp.CodeAction
	c.call("textDocument/codeAction", lsp.CodeActionParams{
		TextDocument: lsp.TextDocumentIdentifier{URI: fileURI(filepath.Join(dir, filepath.FromSlash(page)))},
		Range:        lsp.Range{End: lsp.Position{Line: 1 << 20}},
	}, &actions)

	// The profile is that of the last completed collection: collect twice.
	runtime.GC()
	runtime.GC()
	held, made := parserBytes(t)
	t.Logf("parser's bytes: %d allocated, %d held after the checks", made, held)
	if made == 0 {
		t.Fatal("no allocation of the parser recorded")
	}
	// n files and the config parsed at least once each: a tree of one
	// file in ten held is the trees of the app held.
	if held*10 > made {
		t.Errorf("the server holds %d of the %d bytes the parser allocated: syntax trees are kept between checks", held, made)
	}
	c.shutdown()
}

// parserBytes sums, over the memory profile, the bytes held and the bytes
// allocated by the JavaScript and template parser of package ast.
func parserBytes(t *testing.T) (held, made int64) {
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs = make([]runtime.MemProfileRecord, n+50)
		var ok bool
		n, ok = runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
	}
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if fn := f.Function; strings.HasPrefix(fn, "github.com/fwmigrate/fwmigrate/ast.(*parser).") ||
				strings.HasPrefix(fn, "github.com/fwmigrate/fwmigrate/ast.(*resolver).") ||
				strings.HasPrefix(fn, "github.com/fwmigrate/fwmigrate/ast.(*tmplReader).") {
				held += r.InUseBytes()
				made += r.AllocBytes
				break
			}
			if !more {
				break
			}
		}
	}
	return held, made
}

// TestPublishesChanged: after an edit, the server sends the lists of the
// files whose diagnostics changed, and the open documents' (the version
// tells the client which text a list is for), no other file's: an edit of
// a page of a large app sends one or two lists, not thousands.
func TestPublishesChanged(t *testing.T) {
	use := "<script setup lang=\"ts\">\nconst { data: m } = await useMine()\nif (m.value === null) console.log(m)\n</script>\n<template><div /></template>\n"
	dir := writeTree(t, map[string]string{
		"fw.config.ts":         "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json":         `{"dependencies": {"fw": "^3.12.0"}}`,
		"composables/mine.ts":  "export function useMine() { return useFetch('/api/mine') }\n",
		"pages/a.vue":          use,
		"pages/b.vue":          use,
		"pages/c.vue":          "<script setup lang=\"ts\">\nconst { data } = await useFetch('/api/x')\nif (data.value === null) console.log(1)\n</script>\n<template><div /></template>\n",
		"utils/zz.ts":          "export const zz = 1\n",
		"components/Plain.vue": "<template><div /></template>\n",
	})
	at := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	c := startClient(t, lsp.Options{})
	// utils/zz.ts is open: its list, sent after every check (an open
	// document), is the last of each check's (they go in path order).
	zz := c.open(at("utils/zz.ts"), "export const zz = 1\n")
	c.waitDiags(zz, version(1))
	// sent runs change and returns the files published by the check it
	// makes (all of them: the open zz.ts's list comes last).
	sent := func(change func()) []string {
		t.Helper()
		c.mu.Lock()
		from := len(c.log)
		c.mu.Unlock()
		change()
		var got []string
		c.await(func() bool {
			got = got[:0]
			for _, p := range c.log[from:] {
				name, _ := filepath.Rel(dir, must(uriFile(p.URI)))
				got = append(got, filepath.ToSlash(name))
				if p.URI == zz {
					sort.Strings(got)
					return true
				}
			}
			return false
		}, func() string { return fmt.Sprintf("no list of utils/zz.ts after the change; sent %q", got) })
		return got
	}
	same := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: sent %q, want %q", what, got, want)
		}
	}
	var a lsp.DocumentURI
	same("a page opened", sent(func() { a = c.open(at("pages/a.vue"), use) }), "pages/a.vue", "utils/zz.ts")
	findings := func(name string) []lsp.Diagnostic {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.diags[fileURI(at(name))].Diagnostics
	}
	for _, name := range []string{"pages/a.vue", "pages/b.vue", "pages/c.vue"} {
		if len(findings(name)) == 0 {
			t.Fatalf("%s: no finding to begin with", name)
		}
	}
	change := func(uri lsp.DocumentURI, v int, text string) func() {
		return func() {
			c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{
				TextDocument:   lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v},
				ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: text}},
			})
		}
	}
	// A page edited: its findings move; no other file's change.
	same("a page edited", sent(change(a, 2, "\n"+use)), "pages/a.vue", "utils/zz.ts")
	// The composable edited so that it no longer returns a data
	// composable's result: the page b, not open, loses its finding (a is
	// open and hears anyway); c keeps its own.
	var mine lsp.DocumentURI
	same("the composable opened", sent(func() {
		mine = c.open(at("composables/mine.ts"), "export function useMine() { return useFetch('/api/mine') }\n")
	}),
		"composables/mine.ts", "pages/a.vue", "utils/zz.ts")
	same("the composable edited", sent(change(mine, 2, "export function useMine() { return { data: { value: 1 } } }\n")),
		"composables/mine.ts", "pages/a.vue", "pages/b.vue", "utils/zz.ts")
	if ds := findings("pages/b.vue"); len(ds) != 0 {
		t.Errorf("pages/b.vue keeps its findings: %+v", ds)
	}
	// The same text again: only the open documents hear.
	same("no change", sent(change(mine, 3, "export function useMine() { return { data: { value: 1 } } }\n")),
		"composables/mine.ts", "pages/a.vue", "utils/zz.ts")
	c.shutdown()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
