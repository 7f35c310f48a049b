package move_test

import (
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/txn"
)

// TestMergeContentConflicts: the move's edits and another rewriter's are
// merged when on other lines, and refused when they fall on one line, also
// when both insert the same text at one place (kept twice, the text would
// name ./app/app/pages).
func TestMergeContentConflicts(t *testing.T) {
	old := []byte("a('./pages')\nb('./x')\n")
	ours := func() *move.Plan {
		at := strings.Index(string(old), "pages")
		p := &move.Plan{Paths: &move.Paths{}}
		e := []udiff.Edit{{Start: at, End: at, New: "app/"}}
		out, _ := udiff.ApplyBytes(old, e)
		p.Edits = []move.FileEdit{{Edit: txn.Edit{Path: "/p/fw.config.ts", NewPath: "/p/fw.config.ts", Old: old, New: out}, Edits: e}}
		return p
	}
	for _, c := range []struct {
		name, theirs, want string
	}{
		{"apart", "a('./pages')\nb('./y')\n", "a('./app/pages')\nb('./y')\n"},
		{"same insertion", "a('./app/pages')\nb('./x')\n", ""},
		{"overlap", "a('./Pages')\nb('./x')\n", ""},
		{"same line", "a('./pages', 1)\nb('./x')\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := ours()
			err := p.MergeContent("/p/fw.config.ts", old, []byte(c.theirs), 0o644, "config fixes")
			if c.want == "" {
				if err == nil {
					t.Fatalf("merged into %q, want a conflict", p.Edits[0].New)
				}
				if string(p.Edits[0].New) != "a('./app/pages')\nb('./x')\n" {
					t.Fatalf("a refused merge changed the plan: %q", p.Edits[0].New)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(p.Edits[0].New); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
