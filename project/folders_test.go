package project_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestFoldersShared: the source walk and the TypeScript walk of a check
// list each folder once, through one listing; a Cache keeps the listing
// between checks, so that a check after an edit of a file's content lists
// no folder, and sees a file created, deleted or renamed once the listing
// is forgotten (ForgetFolders), as the language server does on the
// editor's file events. Stale says when a file saved for the first time
// is one the listing does not know.
func TestFoldersShared(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({})
-- package.json --
{ "dependencies": { "fw": "^3.12.0" } }
-- pages/index.vue --
<template><p>x</p></template>
-- components/A.vue --
<template><p>a</p></template>
-- stores/s.ts --
declare global { interface Window { s: 1 } }
-- types/t.d.ts --
declare const t: number
`)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string) string { return filepath.Join(real, filepath.FromSlash(name)) }
	cache := project.NewCache()
	load := func() *project.Project {
		l := project.NewLoader()
		l.Cache = cache
		return l.Load(at("fw.config.ts"), "fw.config.ts")
	}
	sources := func(p *project.Project) []string {
		var out []string
		for _, s := range p.Sources() {
			out = append(out, s.Rel)
		}
		return out
	}
	decls := func(p *project.Project) []string {
		var out []string
		for _, d := range p.TSFiles().Declarations {
			out = append(out, d.Rel)
		}
		return out
	}
	p := load()
	if got, want := sources(p), []string{"components/A.vue", "pages/index.vue"}; !slices.Equal(got, want) {
		t.Fatalf("sources %q, want %q", got, want)
	}
	if got, want := decls(p), []string{"stores/s.ts", "types/t.d.ts"}; !slices.Equal(got, want) {
		t.Fatalf("declarations %q, want %q", got, want)
	}
	listed := cache.Folders()
	if listed == 0 {
		t.Fatal("no folder listed in the cache")
	}

	// Created and deleted on disk: a check on the kept listing does not
	// list the folders again (the editor has not said a file came or
	// went); once forgotten, the next one sees both.
	if err := os.WriteFile(at("pages/new.vue"), []byte("<template><p>n</p></template>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(at("components/deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("components/deep/B.vue"), []byte("<template><p>b</p></template>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(at("components/A.vue")); err != nil {
		t.Fatal(err)
	}
	if !cache.Stale(at("pages/new.vue")) || !cache.Stale(at("components/deep/B.vue")) {
		t.Error("Stale: a new file (in a new folder) is known to the listing")
	}
	if cache.Stale(at("pages/index.vue")) {
		t.Error("Stale: a listed file is not known")
	}
	p = load()
	if got, want := sources(p), []string{"components/A.vue", "pages/index.vue"}; !slices.Equal(got, want) {
		t.Errorf("on the kept listing, sources %q, want the listing's %q", got, want)
	}
	decls(p)
	if cache.Folders() != listed {
		t.Errorf("a check on the kept listing listed folders: %d, then %d", listed, cache.Folders())
	}
	cache.ForgetFolders()
	if cache.Folders() != 0 {
		t.Fatalf("ForgetFolders kept %d folders", cache.Folders())
	}
	p = load()
	if got, want := sources(p), []string{"components/deep/B.vue", "pages/index.vue", "pages/new.vue"}; !slices.Equal(got, want) {
		t.Errorf("after ForgetFolders, sources %q, want %q", got, want)
	}
	// A buffer the editor has, not on disk: the kept list is not the
	// project's any more (its buffers are part of what it is kept for).
	l := project.NewLoader()
	l.Cache = cache
	buf := at("pages/buf.vue")
	l.Overlay = func(path string) ([]byte, bool) {
		if path == buf {
			return []byte("<template><p>b</p></template>\n"), true
		}
		return nil, false
	}
	l.Buffers = func() []string { return []string{buf} }
	if got, want := sources(l.Load(at("fw.config.ts"), "fw.config.ts")), []string{"components/deep/B.vue", "pages/buf.vue", "pages/index.vue", "pages/new.vue"}; !slices.Equal(got, want) {
		t.Errorf("with a buffer, sources %q, want %q", got, want)
	}
	if got, want := sources(load()), []string{"components/deep/B.vue", "pages/index.vue", "pages/new.vue"}; !slices.Equal(got, want) {
		t.Errorf("without the buffer again, sources %q, want %q", got, want)
	}

	// Renamed: the declaration follows.
	if err := os.Rename(at("types/t.d.ts"), at("types/u.d.ts")); err != nil {
		t.Fatal(err)
	}
	cache.ForgetFolders()
	if got, want := decls(load()), []string{"stores/s.ts", "types/u.d.ts"}; !slices.Equal(got, want) {
		t.Errorf("after a rename, declarations %q, want %q", got, want)
	}

	// A declaration's text changed on disk: the kept text until the disk
	// is said to change, then the new one.
	if err := os.WriteFile(at("stores/s.ts"), []byte("export const s = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := decls(load()), []string{"stores/s.ts", "types/u.d.ts"}; !slices.Equal(got, want) {
		t.Errorf("on the kept texts, declarations %q, want %q", got, want)
	}
	cache.ForgetFolders()
	if got, want := decls(load()), []string{"types/u.d.ts"}; !slices.Equal(got, want) {
		t.Errorf("after a change on disk, declarations %q, want %q", got, want)
	}

	// Without a Cache (a one-shot check), every check lists the disk.
	l = project.NewLoader()
	p = l.Load(at("fw.config.ts"), "fw.config.ts")
	if got, want := sources(p), []string{"components/deep/B.vue", "pages/index.vue", "pages/new.vue"}; !slices.Equal(got, want) {
		t.Errorf("without a cache, sources %q, want %q", got, want)
	}
}
