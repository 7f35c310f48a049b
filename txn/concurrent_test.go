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

// TestHomeFolderRemovedByAnother: another process's run, which homesMu
// does not order, removes the homes' folder when it finds it empty: right
// after prepare made it (the folder is made again and the journal
// written), or right after the journal was removed (its removal is synced
// in the folder that held it). Either way the commit succeeds.
func TestHomeFolderRemovedByAnother(t *testing.T) {
	for _, at := range []string{"prepare", "run-committed"} {
		t.Run(at, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			root := t.TempDir()
			file := filepath.Join(root, "fw.config.ts")
			must(t, os.WriteFile(file, []byte("old\n"), 0o644))
			h, err := journalHome(root)
			must(t, err)
			removed := false
			remove := func() {
				if os.Remove(h.folder) == nil {
					removed = true
				}
			}
			if at == "prepare" {
				betweenHomes = func(string) { remove() }
				defer func() { betweenHomes = nil }()
			}
			tx := &Tx{Plan: &Plan{Root: root, Edits: []Edit{{Path: file, NewPath: file, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}}, Config: "fw.config.ts"}
			CommitAll([]*Tx{tx}, func(point string, _ int) {
				if point == at {
					remove()
				}
			})
			if !removed {
				t.Fatal("the folder was not removed at " + at)
			}
			if tx.Err != nil || tx.Kept {
				t.Fatalf("kept %v, %v", tx.Kept, tx.Err)
			}
			if b, _ := os.ReadFile(file); string(b) != "new\n" {
				t.Fatalf("%q", b)
			}
			if left, _ := filepath.Glob(filepath.Join(h.folder, "*")); len(left) > 0 {
				t.Errorf("left: %q", left)
			}
		})
	}
}
