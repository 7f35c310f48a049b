package txn

import (
	"os"
	"strings"
	"testing"
)

// toOldHome moves the journal of dir's project, and its progress file when
// there is one, to where versions before the shared homes' folder kept
// them (<folder>/<key>/journal and progress), as such a version's crash
// left them, and returns that home.
func toOldHome(t *testing.T, dir string) *home {
	t.Helper()
	h, err := journalHome(dir)
	must(t, err)
	old := h.oldHome()
	must(t, os.Mkdir(old.own, 0o700))
	must(t, os.Rename(h.journal, old.journal))
	if err := os.Rename(h.progress, old.progress); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(h.folder); len(entries) != 1 {
		t.Fatalf("the homes' folder holds %d entries, want the old home alone", len(entries))
	}
	return old
}

// nothingLeft fails the test when anything of dir's journal is left: its
// files, its old folder, the homes' folder (its only journal was dir's),
// its run record.
func nothingLeft(t *testing.T, dir string) {
	t.Helper()
	h, err := journalHome(dir)
	must(t, err)
	rec, err := runRecord(dir)
	must(t, err)
	for _, p := range []string{h.folder, rec} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is left (%v)", p, err)
		}
	}
}

// TestCrashOldHome: a journal that an earlier version left in a folder of
// its own (<folder>/<key>/journal, with its progress) is found by Pending,
// keeps a new run from starting (the same error as today's journal), and
// is completed, or undone, as a journal of today's layout is; a rollback
// that was interrupted is gone on with (its progress file says so). Once
// done, nothing of it is left: its folder, the homes' folder, its record.
func TestCrashOldHome(t *testing.T) {
	gen := 3
	ref, p := freshPlan(t, gen)
	before := snapshot(t, ref)
	if _, err := Commit(p, "fw.config.ts", nil); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, ref)
	for _, c := range []struct {
		name        string
		undo        bool // the run crashes in its turn in the rollback
		back        bool // the next run rolls back
		point       string
		i           int
		rollingBack bool
	}{
		{"completed", false, false, "move", 3, false},
		{"rolled back", false, true, "move", 3, false},
		{"after every step, completed", false, false, "sync", 0, false},
		{"an interrupted rollback gone on with", true, true, "undo-move", 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, gen)
			if c.undo {
				crashAt(t, dir, "sync", 0, false)
				crashAt(t, dir, c.point, c.i, true)
			} else {
				crashAt(t, dir, c.point, c.i, false)
			}
			old := toOldHome(t, dir)
			if j, err := Pending(dir); j != old.journal || err != nil {
				t.Fatalf("Pending: %q, %v; want %s", j, err, old.journal)
			}
			// A new run does not start: the interrupted one comes first.
			snap := snapshot(t, dir)
			if _, err := Commit(&Plan{Root: dir}, "fw.config.ts", nil); err == nil || !strings.Contains(err.Error(), old.journal+" exists: another apply is running in this project, or one was interrupted") {
				t.Fatalf("Commit with an old journal pending: %v", err)
			}
			if d := diffTrees(snap, snapshot(t, dir)); d != "" {
				t.Fatalf("tree changed:\n%s", d)
			}
			if _, err := os.Lstat(old.journal); err != nil {
				t.Fatalf("the old journal is gone: %v", err)
			}
			j, err := Open(dir, nil)
			must(t, err)
			if j.Path() != old.journal {
				t.Errorf("Open read %s, want %s", j.Path(), old.journal)
			}
			if j.RollingBack() != c.rollingBack {
				t.Errorf("RollingBack: %v, want %v", j.RollingBack(), c.rollingBack)
			}
			recoverJournal(t, j, c.back)
			want := after
			if c.back {
				want = before
			}
			if d := diffTrees(want, snapshot(t, dir)); d != "" {
				t.Fatalf("after the old journal:\n%s", d)
			}
			nothingLeft(t, dir)
			if j, err := Pending(dir); j != "" || err != nil {
				t.Fatalf("Pending after: %q, %v", j, err)
			}
		})
	}
}

// TestOldHomeLeft: what an earlier version left in a journal's own folder
// without a journal (a crash before its journal was in place: its text,
// a progress file) is removed by the next run, which writes its journal
// in the homes' folder and leaves nothing behind; and a progress file left
// beside a journal's place (a crash after its journal was removed), which
// could say that a rollback began, goes before the next journal is there.
func TestOldHomeLeft(t *testing.T) {
	dir, p := freshPlan(t, 3)
	h, err := journalHome(dir)
	must(t, err)
	old := h.oldHome()
	must(t, os.MkdirAll(old.own, 0o700))
	must(t, os.WriteFile(old.tmp, []byte("torn"), 0o600))
	must(t, os.WriteFile(old.progress, []byte("rollback 0\n"), 0o600))
	must(t, os.WriteFile(h.progress, []byte("rollback 0\n"), 0o600))
	sawJournal := false
	if _, err := Commit(p, "fw.config.ts", func(point string, i int) {
		if point != "journal" {
			return
		}
		sawJournal = true
		if _, err := os.Lstat(old.own); !os.IsNotExist(err) {
			t.Errorf("the old folder is left with the journal in place (%v)", err)
		}
		b, _ := os.ReadFile(h.progress)
		if strings.Contains(string(b), "rollback") {
			t.Errorf("the journal in place has the earlier run's progress: %q", b)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if !sawJournal {
		t.Fatal("the hook did not run")
	}
	nothingLeft(t, dir)
}
