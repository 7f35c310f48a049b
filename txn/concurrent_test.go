package txn

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCommitsAtOnce: apply commits many projects' transactions at once,
// each with its journal in one shared folder, which a finished
// transaction removes when it is empty. Every commit succeeds, every file
// is written, and nothing of the journals is left.
func TestCommitsAtOnce(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	const projects, rounds = 48, 4
	for round := range rounds {
		base := t.TempDir()
		plans := make([]*Plan, projects)
		for i := range plans {
			root := filepath.Join(base, fmt.Sprintf("p%02d", i))
			file := filepath.Join(root, "fw.config.ts")
			must(t, os.MkdirAll(root, 0o755))
			must(t, os.WriteFile(file, []byte("old\n"), 0o644))
			plans[i] = &Plan{Root: root, Edits: []Edit{{Path: file, NewPath: file, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}}
		}
		var wg sync.WaitGroup
		errs := make([]error, projects)
		for i, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = Commit(p, "fw.config.ts", nil)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, project %d: %v", round, i, err)
			}
			b, _ := os.ReadFile(plans[i].Edits[0].Path)
			if string(b) != "new\n" {
				t.Fatalf("round %d, project %d: %q", round, i, b)
			}
		}
		if _, err := os.Lstat(filepath.Join(state, "fwmigrate", "journals")); !os.IsNotExist(err) {
			t.Errorf("round %d: the journals' folder is left (%v)", round, err)
		}
	}
}

// TestHomeFolderKept: another transaction's Finish, which removes the
// homes' folder once it is empty, cannot run between prepare's creation of
// that folder and of the journal's text in it (homesMu): a Finish that
// tries at that very point waits, and the journal is written.
func TestHomeFolderKept(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	tried := false
	betweenHomes = func(parent string) {
		tried = true
		// What Finish does with the folder, as another goroutine would at
		// this instant: it must find the folder taken.
		if homesMu.TryLock() {
			os.Remove(parent)
			homesMu.Unlock()
		}
	}
	defer func() { betweenHomes = nil }()
	root := t.TempDir()
	file := filepath.Join(root, "fw.config.ts")
	must(t, os.WriteFile(file, []byte("old\n"), 0o644))
	p := &Plan{Root: root, Edits: []Edit{{Path: file, NewPath: file, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}}
	if _, err := Commit(p, "fw.config.ts", nil); err != nil {
		t.Fatal(err)
	}
	if !tried {
		t.Fatal("the hook did not run")
	}
	if b, _ := os.ReadFile(file); string(b) != "new\n" {
		t.Fatalf("%q", b)
	}
}
