package project_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestBufferOnlySources: files that exist only in the editor (created,
// not saved) are sources of their project where the walk would take them
// once saved (a source folder, one that does not exist on disk yet
// included), with the buffer's text; not under a hidden folder,
// node_modules, a .gitignore'd folder or outside the source folders.
func TestBufferOnlySources(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({ future: { compatibilityVersion: 4 } })
-- package.json --
{ "dependencies": { "fw": "^4.1.0" } }
-- .gitignore --
app/generated/
-- app/pages/index.vue --
<template><p>disk</p></template>
`)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string) string { return filepath.Join(real, filepath.FromSlash(name)) }
	buffers := map[string]string{
		"app/pages/new.vue":           "<template><p>new</p></template>\n",
		"app/composables/useNew.ts":   "export const useNew = () => 1\n",
		"app/app.vue":                 "<template><NuxtPage /></template>\n",
		"app/.hidden/x.ts":            "x\n",
		"app/node_modules/m/index.js": "x\n",
		"app/generated/g.ts":          "x\n",
		"scripts/tool.ts":             "x\n",
		"app/pages/notes.md":          "x\n",
		"app/pages/index.vue":         "<template><p>buffer</p></template>\n", // on disk too
	}
	l := project.NewLoader()
	l.Overlay = func(path string) ([]byte, bool) {
		for name, text := range buffers {
			if at(name) == path {
				return []byte(text), true
			}
		}
		return nil, false
	}
	l.Buffers = func() []string {
		var out []string
		for name := range buffers {
			out = append(out, at(name))
		}
		return out
	}
	p := l.Load(at("fw.config.ts"), "fw.config.ts")
	var got []string
	for _, s := range p.Sources() {
		got = append(got, s.Rel)
		if s.Rel == "app/pages/new.vue" {
			if text, err := s.Read(); err != nil || string(text) != buffers["app/pages/new.vue"] {
				t.Errorf("new.vue reads %q, %v", text, err)
			}
		}
	}
	want := []string{"app/app.vue", "app/composables/useNew.ts", "app/pages/index.vue", "app/pages/new.vue"}
	if !slices.Equal(got, want) {
		t.Errorf("sources %q, want %q", got, want)
	}
}
