package project_test

import (
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestOverlay: an editor's unsaved buffers are what a project is made of.
// The disk says framework 3, no app code of note and an empty .env; the
// overlay's config, .env, package.json and source file are what the
// project reads, and a file the overlay lacks still comes from the disk.
func TestOverlay(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({ ssr: true })
-- package.json --
{ "dependencies": { "fw": "^3.12.0" } }
-- .env --
-- .fwignore --
pages/old.vue
-- pages/index.vue --
<script setup>
const x = 1
</script>
-- pages/about.vue --
<template><p>disk</p></template>
-- assets/main.css --
body {}
-- tsconfig.json --
{ "extends": "./.fw/tsconfig.json" }
`)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	over := map[string]string{
		"fw.config.ts":      "export default defineFwConfig({ ssr: false })\n",
		"package.json":      `{ "dependencies": { "fw": "^4.1.0" } }`,
		".env":              "FW_PUBLIC_X=1\n",
		".fwignore":         "pages/new.vue\n",
		"pages/index.vue":   "<script setup>\nconst y = useRoute()\n</script>\n",
		"assets/main.css":   "main {}\n",
		"tsconfig.json":     "{ \"files\": [] }\n",
		"pages/nothing.vue": "never read: not on disk, so not among the sources\n",
	}
	var asked []string
	l := project.NewLoader()
	l.Overlay = func(path string) ([]byte, bool) {
		asked = append(asked, path)
		for _, root := range []string{dir, real} {
			if rel, err := filepath.Rel(root, path); err == nil {
				if s, ok := over[filepath.ToSlash(rel)]; ok {
					return []byte(s), true
				}
			}
		}
		return nil, false
	}
	p := l.Load(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	if got := string(p.Src); got != over["fw.config.ts"] {
		t.Errorf("config: %q, want the overlay's", got)
	}
	if p.Framework != 4 || p.Detection.Major != 4 {
		t.Errorf("framework %d (detection %d), want the overlay package.json's 4", p.Framework, p.Detection.Major)
	}
	if len(p.Env) != 1 || len(p.Env[0].Vars) != 1 || p.Env[0].Vars[0].Name != "FW_PUBLIC_X" {
		t.Errorf(".env: %+v, want the overlay's FW_PUBLIC_X", p.Env)
	}
	srcs := map[string]string{}
	for _, s := range p.Sources() {
		b, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		srcs[s.Rel] = string(b)
	}
	want := map[string]string{
		"pages/index.vue": over["pages/index.vue"],
		"pages/about.vue": "<template><p>disk</p></template>\n",
	}
	for rel, w := range want {
		if srcs[rel] != w {
			t.Errorf("source %s: %q, want %q", rel, srcs[rel], w)
		}
	}
	if _, ok := srcs["pages/nothing.vue"]; ok {
		t.Error("a buffer of a file not on disk became a source")
	}
	tf, err := p.ReadText("assets/main.css")
	if err != nil || string(tf.Src) != over["assets/main.css"] {
		t.Errorf("ReadText: %v %q, want the overlay's", err, tf)
	}
	fi, err := p.FwIgnore()
	if err != nil || fi == nil || string(fi.Src) != over[".fwignore"] {
		t.Errorf("FwIgnore: %v %v, want the overlay's", err, fi)
	}
	if p.TSConfig == nil || string(p.TSConfig.Src) != over["tsconfig.json"] || p.TSConfig.Display != "tsconfig.json" {
		t.Errorf("TSConfig: %+v, want the overlay's", p.TSConfig)
	}
	if len(asked) == 0 {
		t.Fatal("the overlay was never asked")
	}
}
