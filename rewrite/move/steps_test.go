package move

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResume interrupts the execution after each mutating operation in
// turn (every operation after it fails, as when the disk goes away, and
// nothing is rolled back), then resumes it: Forward completes the plan to
// the tree an uninterrupted run makes, Backward restores the tree it found,
// both from every state, and neither leaves a temporary behind. The plan
// is made once, before the tree is touched, as a journal keeps it.
func TestResume(t *testing.T) {
	for _, fixture := range []struct{ name, src string }{{"plain", ""}, {"srcdir-src", "src"}} {
		t.Run(fixture.name, func(t *testing.T) {
			plan := func(dir string) *Plan {
				p, err := PlanMove(Input{Root: dir, SrcDir: filepath.Join(dir, fixture.src), Target: filepath.Join(dir, "app")})
				if err != nil || len(p.Conflicts) > 0 {
					t.Fatal(err, p.Conflicts)
				}
				return p
			}
			ref := fixtureTree(t, fixture.name)
			before := snapshot(t, ref)
			must(t, plan(ref).Execute())
			after := snapshot(t, ref)
			ops := 0
			// Every operation is a crash point; -short takes every fourth
			// (the first one included), which still stops inside each kind
			// of step, for the edit-test loop.
			step := int64(1)
			if testing.Short() {
				step = 4
			}
			for stop := int64(1); ; stop += step {
				for _, back := range []bool{false, true} {
					dir := fixtureTree(t, fixture.name)
					p := plan(dir)
					x := Exec{FS: &faultyFS{FS: OS, failAt: stop, failAll: true}, Sync: true, Tag: "t", Resume: true}
					err := p.Forward(x)
					if err == nil {
						ops = int(stop - 1) // at least: -short may step past the last
						break
					}
					if !errors.Is(err, os.ErrPermission) {
						t.Fatalf("op %d: %v", stop, err)
					}
					x.FS = OS
					want := after
					if back {
						_, err := p.Backward(x)
						must(t, err)
						want = before
					} else {
						must(t, p.Forward(x))
					}
					if d := diffSnapshots(want, snapshot(t, dir)); d != "" {
						t.Fatalf("interrupted at op %d, resumed (backward %v):\n%s", stop, back, d)
					}
				}
				if ops > 0 {
					break
				}
			}
			if ops < 10 {
				t.Fatalf("only %d operations", ops)
			}
		})
	}
}

// TestChangedFileNotOverwritten: a file saved after the plan was made
// holds neither its old nor its new bytes: it is not overwritten, and the
// error names it.
func TestChangedFileNotOverwritten(t *testing.T) {
	dir := fixtureTree(t, "plain")
	p, err := PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 || len(p.Edits) == 0 {
		t.Fatal(err, p.Conflicts)
	}
	e := p.Edits[len(p.Edits)-1]
	x := Exec{Tag: "t", Hook: func(point string, i int) {
		if point == "replace" && p.Edits[i].Path == e.Path {
			must(t, os.WriteFile(e.NewPath, []byte("saved while apply ran\n"), 0o644))
		}
	}}
	err = p.Forward(x)
	var ce *ChangedError
	if !errors.As(err, &ce) || !strings.HasSuffix(e.NewPath, filepath.FromSlash(ce.Path)) {
		t.Fatalf("got %v, want a ChangedError for %s", err, e.NewPath)
	}
	if got, _ := os.ReadFile(e.NewPath); string(got) != "saved while apply ran\n" {
		t.Errorf("the saved file was overwritten: %q", got)
	}
	if _, err := os.Lstat(TempName(e.NewPath, "t")); err == nil {
		t.Errorf("temporary left behind")
	}
	// Undoing keeps the saved file too: it moves back with its folder.
	x.Hook = nil
	kept, err := p.Backward(x)
	must(t, err)
	if len(kept) != 1 || !strings.HasSuffix(e.Path, filepath.FromSlash(kept[0])) {
		t.Errorf("kept %q, want %s", kept, e.Path)
	}
	if got, _ := os.ReadFile(e.Path); string(got) != "saved while apply ran\n" {
		t.Errorf("the saved file was lost by the rollback: %q", got)
	}
}
