package project_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

func TestList(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{"bundlerA.config.ts": "", "Engine.config.mts": ""})
	p := project.Failed(filepath.Join(dir, "fw.config.ts"), "fw.config.ts", nil)
	l := p.List(dir)
	for name, want := range map[string]bool{"bundlerA.config.ts": true, "engine.config.mts": true, "bundlerA.config.js": false, "": false} {
		if got := l.MayHold(name); got != want {
			t.Errorf("MayHold(%q) = %v, want %v", name, got, want)
		}
	}
	if l := p.List(filepath.Join(dir, "missing")); !l.MayHold("anything") {
		t.Errorf("a directory that cannot be listed must send every name to stat: %+v", l)
	}
}

// TestTreeCached: the project answers from what it saw first, so that the
// rules of one check agree on the tree.
func TestTreeCached(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := project.Failed(filepath.Join(dir, "fw.config.ts"), "fw.config.ts", nil)
	if !p.IsFile(f) || p.IsDir(f) || !p.Exists(f) || p.Exists(f+"x") {
		t.Fatal("wrong answers")
	}
	os.Remove(f)
	if !p.Exists(f) {
		t.Error("the answer changed within the project's life")
	}
	if project.Failed(p.ConfigPath, p.ConfigDisplay, nil).Exists(f) {
		t.Error("another project sees a stale answer")
	}
}

// TestReadText: the project reads the files its code names inside its root
// and its local layers' roots, never elsewhere (a ../ path, a symlink that
// leads out).
func TestReadTextLayers(t *testing.T) {
	dir := writeArchive(t, `
-- app/fw.config.ts --
export default defineFwConfig({ extends: ['../base'] })
-- app/templates/a.ejs --
<%= a %>
-- base/fw.config.ts --
export default defineFwConfig({})
-- base/b.ejs --
<%= b %>
-- secret.txt --
token
-- app/bin.dat --
`)
	if err := os.WriteFile(filepath.Join(dir, "app/bin.dat"), []byte{'a', 0, 'b'}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "app/link.txt")); err != nil {
		t.Fatal(err)
	}
	p := project.LoadProject(filepath.Join(dir, "app/fw.config.ts"), "app/fw.config.ts")
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"app/templates/a.ejs", true},
		{"base/b.ejs", true},
		{"app/../secret.txt", false},
		{"secret.txt", false},
		{"app/link.txt", false},
		{"app/bin.dat", false},
		{"app/missing.ejs", false},
	} {
		tf, err := p.ReadText(filepath.Join(dir, tc.path))
		if (err == nil) != tc.ok {
			t.Errorf("ReadText(%s) = %v, %v; want ok %v", tc.path, tf, err, tc.ok)
		}
	}
}
