package move_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/txn"
)

// TestShedLoad: Shed drops an edit's texts and Load reads them back as
// they were; a file changed in between is refused, and MergeContent and
// EditFor see the texts read back.
func TestShedLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ts")
	old := []byte("import x from './pages/x'\n")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	plan := func() *move.Plan {
		at := strings.Index(string(old), "pages")
		e := []udiff.Edit{{Start: at, End: at, New: "app/"}}
		out, _ := udiff.ApplyBytes(old, e)
		return &move.Plan{Paths: &move.Paths{}, Edits: []move.FileEdit{{Edit: txn.Edit{Path: path, NewPath: path, Old: old, New: out}, Edits: e}}}
	}
	want := plan()
	p := plan()
	p.Shed()
	if p.Edits[0].Old != nil || p.Edits[0].New != nil {
		t.Fatal("Shed kept the texts")
	}
	if err := p.Load(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Edits, want.Edits) {
		t.Errorf("loaded %+v, want %+v", p.Edits[0].Edit, want.Edits[0].Edit)
	}

	// Merged into after a Shed: the edit is read back first.
	p = plan()
	p.Shed()
	theirs := []byte("import x from './pages/x'\nexport { x }\n")
	if err := p.MergeContent(path, old, theirs, 0o644, "code fixes"); err != nil {
		t.Fatal(err)
	}
	if got := string(p.EditFor(path).New); got != "import x from './app/pages/x'\nexport { x }\n" {
		t.Errorf("merged: %q", got)
	}

	// Changed between: refused, whatever the size.
	for _, changed := range []string{"import y from './pages/x'\n", "import x from './pages/xy'\n"} {
		p = plan()
		p.Shed()
		if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := p.Load(); err == nil || !strings.Contains(err.Error(), "changed since the move was planned") {
			t.Errorf("%q: Load gave %v, want a refusal", changed, err)
		}
		os.WriteFile(path, old, 0o644)
	}
}
