package project_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestReadConfinedToCheckout: nothing a project reaches through a symlink
// or a layer path outside its checkout is read: the config, a .env file,
// the tsconfig, a layer, a page and .fwignore. Inside the git work tree
// the same links are read through. Outside git, the paths given to the
// run (Tops) bound what is read.
func TestReadConfinedToCheckout(t *testing.T) {
	dir := writeArchive(t, `
-- outside/fw.config.ts --
export default defineFwConfig({ ssr: false })
-- outside/.env --
TOKEN=s3cret
-- outside/tsconfig.json --
{"compilerOptions": {}}
-- outside/page.vue --
<template><div/></template>
-- outside/layer/fw.config.ts --
export default defineFwConfig({})
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/p/fw.config.ts --
export default defineFwConfig({ extends: ['../../outside/layer', '../shared'] })
-- repo/shared/fw.config.ts --
export default defineFwConfig({})
-- repo/shared/.env.base --
A=1
-- repo/linked/.keep --
`)
	repo := filepath.Join(dir, "repo")
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(repo, name)); err != nil {
			t.Skip(err)
		}
	}
	link(filepath.Join(dir, "outside", ".env"), "p/.env")
	link(filepath.Join(repo, "shared", ".env.base"), "p/.env.base")
	link(filepath.Join(dir, "outside", "tsconfig.json"), "p/tsconfig.json")
	if err := os.MkdirAll(filepath.Join(repo, "p", "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	link(filepath.Join(dir, "outside", "page.vue"), "p/pages/index.vue")
	link(filepath.Join(dir, "outside", ".env"), "p/.fwignore")
	link(filepath.Join(dir, "outside", "fw.config.ts"), "linked/fw.config.ts")

	l := project.NewLoader()
	l.Tops = []string{repo}
	p := l.Load(filepath.Join(repo, "p", "fw.config.ts"), "p/fw.config.ts")
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	var oe *project.OutsideError
	for _, ef := range p.Env {
		switch ef.Name {
		case ".env":
			if !errors.As(ef.Err, &oe) || ef.Src != nil {
				t.Errorf(".env out of the checkout: err %v, %d bytes read", ef.Err, len(ef.Src))
			}
		case ".env.base":
			if ef.Err != nil || string(ef.Src) != "A=1\n" {
				t.Errorf(".env.base inside the checkout: %v %q", ef.Err, ef.Src)
			}
		}
	}
	if p.TSConfig != nil {
		t.Errorf("tsconfig.json out of the checkout was read: %q", p.TSConfig.Src)
	}
	var outside, shared bool
	for _, r := range p.Extends {
		switch r.Source {
		case "../../outside/layer":
			outside = errors.As(r.Err, &oe) && r.Layer == nil
		case "../shared":
			shared = r.Err == nil && r.Layer != nil
		}
	}
	if !outside || !shared {
		t.Errorf("layers: outside refused %v, inside loaded %v", outside, shared)
	}
	for _, s := range p.Sources() {
		if filepath.Base(s.Path) == "index.vue" {
			t.Errorf("a page linked out of the checkout is a source: %s", s.Path)
		}
	}
	if f, err := p.FwIgnore(); f != nil || !errors.As(err, &oe) {
		t.Errorf(".fwignore out of the checkout: %v, %v", f, err)
	}

	q := l.Load(filepath.Join(repo, "linked", "fw.config.ts"), "linked/fw.config.ts")
	if q.File != nil || !errors.As(q.Err, &oe) || q.ConfigOutside == "" {
		t.Errorf("a config linked out of the checkout: file %v, err %v", q.File != nil, q.Err)
	}

	// Outside git, the path given bounds the reads; a library caller
	// that gives none is bound by git work trees only.
	if err := os.RemoveAll(filepath.Join(repo, ".git")); err != nil {
		t.Fatal(err)
	}
	l = project.NewLoader()
	l.Tops = []string{filepath.Join(repo, "p")}
	p = l.Load(filepath.Join(repo, "p", "fw.config.ts"), "p/fw.config.ts")
	for _, r := range p.Extends {
		if r.Source == "../shared" && !errors.As(r.Err, &oe) {
			t.Errorf("outside git, a layer beyond the path given was loaded: %v", r.Err)
		}
	}
	l = project.NewLoader()
	l.Tops = []string{repo}
	p = l.Load(filepath.Join(repo, "p", "fw.config.ts"), "p/fw.config.ts")
	for _, r := range p.Extends {
		if r.Source == "../shared" && r.Err != nil {
			t.Errorf("outside git, a layer under the path given was refused: %v", r.Err)
		}
	}
}
