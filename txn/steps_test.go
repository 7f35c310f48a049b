package txn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// sizes are the tests' transactions: few edits, done one by one (as
// where the system has no syncfs; syncBatch is raised for them), and
// many, written in two passes around one syncfs (with Sync). The big run
// has some 310 operations, each edit's four alike (its temporary written,
// the file linked to its backup and replaced, the backup removed): its
// tests stop at every ninth (every 21st with -short), odd steps that
// still stop in each pass and at both kinds of the alternating links and
// renames.
var sizes = []testSize{{"one-by-one", 3, true}, {"batched", bigGen, false}}

type testSize struct {
	name     string
	gen      int
	oneByOne bool
}

// bigGen is the generated files of the big transaction.
const bigGen = 70

// appGen is the generated files of a transaction the size of a real app's
// apply (TestRollbackErrnos outside -short).
const appGen = 3000

// use sets the edits' way of syncing for the test t.
func (s testSize) use(t *testing.T) {
	if s.oneByOne {
		saved := syncBatch
		syncBatch = 1 << 30
		t.Cleanup(func() { syncBatch = saved })
	}
}

// every is the step between the operations a test stops at.
func every(gen int) int64 {
	switch {
	case gen >= appGen:
		return 1000 // points 2,001 operations apart, over every phase of the run
	case gen >= bigGen && testing.Short():
		return 21
	case gen >= bigGen:
		return 9
	case testing.Short():
		return 5
	}
	return 1
}

// TestRollback makes each mutating operation of a run fail in turn (a
// mkdir, a rename, a rmdir, a write): every time, Run undoes what it did
// and the tree is byte for byte as before, modes included (the removed
// directories' too). In the batched run that includes a
// failure among the renames of the second pass, with temporaries of the
// edits not reached still there.
func TestRollback(t *testing.T) {
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			size.use(t)
			step := every(size.gen)
			steps := 0
			for failAt := int64(1); ; failAt += step {
				dir, p := freshPlan(t, size.gen)
				before := snapshot(t, dir)
				err := p.Run(Exec{FS: &faultyFS{FS: OS, failAt: failAt}, Sync: true, Tag: "t"})
				if err == nil {
					steps = int(failAt - 1)
					break
				}
				if leftover(t, err, p, dir, size) {
					continue
				}
				if !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), "rolled back") {
					t.Fatalf("op %d: %v", failAt, err)
				}
				if d := diffTrees(before, snapshot(t, dir)); d != "" {
					t.Fatalf("failure at op %d left the tree changed:\n%s", failAt, d)
				}
			}
			if min := 2 + 6 + 2 + 2*(6+size.gen); steps < min-int(step) {
				t.Fatalf("only %d operations, want %d", steps, min)
			}
		})
	}
}

// leftover reports whether err is a run that made every step but could
// not remove a backup (a failure injected there): it is not rolled back,
// the tree is the planned one but for the backups (each holding its file's
// old text), and a Forward again (apply again) removes them.
func leftover(t *testing.T, err error, p *Plan, dir string, size testSize) bool {
	t.Helper()
	var le *LeftoverError
	if !errors.As(err, &le) {
		return false
	}
	if strings.Contains(err.Error(), "rolled back") {
		t.Fatalf("a leftover backup made the run roll back: %v", err)
	}
	left := 0
	for _, e := range p.Edits {
		if b, err := os.ReadFile(backupName(e.NewPath, "t")); err == nil {
			left++
			if string(b) != string(e.Old) {
				t.Fatalf("the backup of %s does not hold its old text", e.NewPath)
			}
		}
	}
	if left == 0 {
		t.Fatalf("%v, but no backup is left", err)
	}
	must(t, p.Forward(Exec{Tag: "t", Sync: true, FS: &faultyFS{FS: OS}}))
	if d := diffTrees(planned(t, size), snapshot(t, dir)); d != "" {
		t.Fatalf("after the leftover was removed:\n%s", d)
	}
	return true
}

// planned is the tree an uninterrupted run of the tests' plan of size
// makes (made once).
func planned(t *testing.T, size testSize) map[string]string {
	t.Helper()
	plannedMu.Lock()
	defer plannedMu.Unlock()
	if tree, ok := plannedTrees[size.gen]; ok {
		return tree
	}
	dir, p := freshPlan(t, size.gen)
	must(t, p.Run(Exec{}))
	plannedTrees[size.gen] = snapshot(t, dir)
	return plannedTrees[size.gen]
}

var (
	plannedMu    sync.Mutex
	plannedTrees = map[int]map[string]string{}
)

// TestRollbackErrnos: the errors a write phase meets on real systems (a
// full disk, a name too long, a file deleted or replaced by a folder, one
// created meanwhile) at each operation in turn, each rolled back to the
// tree as it was, and reported with the error itself.
//
// Outside -short it also runs on a transaction the size of a real app's
// apply (issue 20: 3,000 generated files, each edited, with the moves),
// failing at operations spread over the whole run, every phase included.
func TestRollbackErrnos(t *testing.T) {
	errnos := []syscall.Errno{syscall.ENOSPC, syscall.ENAMETOOLONG, syscall.ENOENT, syscall.EISDIR, syscall.EEXIST}
	all := sizes
	if !testing.Short() {
		all = append(all[:len(all):len(all)], testSize{"apply-3000", appGen, false})
	}
	for _, size := range all {
		t.Run(size.name, func(t *testing.T) {
			step := every(size.gen)*2 + 1
			points := 0
			for failAt, k := int64(1), 0; ; failAt, k = failAt+step, k+1 {
				errno := errnos[k%len(errnos)]
				dir, p := freshPlan(t, size.gen)
				before := snapshot(t, dir)
				err := p.Run(Exec{FS: &faultyFS{FS: OS, failAt: failAt, errno: errno}, Sync: true, Tag: "t"})
				if err == nil {
					break
				}
				if leftover(t, err, p, dir, size) {
					continue
				}
				if !errors.Is(err, errno) || !strings.Contains(err.Error(), "rolled back") {
					t.Fatalf("op %d (%v): %v", failAt, errno, err)
				}
				if d := diffTrees(before, snapshot(t, dir)); d != "" {
					t.Fatalf("%v at op %d left the tree changed:\n%s", errno, failAt, d)
				}
				points++
			}
			t.Logf("%d failures injected, rolled back byte for byte", points)
		})
	}
}

// TestDiskStaysFull: from some operation on, every write fails (the disk
// is full and stays so) while renames, links and removals work. The undo
// of an edit already made renames its backup (the old file, kept under a
// second name) back, which needs no room: every run is rolled back, byte
// for byte. Where the file system has no hard links (link fails with
// ENOTSUP) the edits go on without a backup and their undo must write: a
// rollback that cannot write then says the tree needs repair instead of
// claiming it is intact, and never leaves a file torn: each holds its old
// or its new text.
func TestDiskStaysFull(t *testing.T) {
	for _, size := range sizes {
		for _, links := range []bool{true, false} {
			name := size.name
			if !links {
				name += "/no-links"
			}
			t.Run(name, func(t *testing.T) {
				rolledBack, repair := 0, 0
				for failAt := int64(1); ; failAt += every(size.gen) {
					dir, p := freshPlan(t, size.gen)
					before := snapshot(t, dir)
					fsys := &faultyFS{FS: OS, failAt: failAt, failAll: true, writesOnly: true, errno: syscall.ENOSPC, noLinks: !links}
					err := p.Run(Exec{FS: fsys, Sync: true, Tag: "t"})
					if err == nil {
						break
					}
					if leftover(t, err, p, dir, size) {
						continue
					}
					switch {
					case strings.Contains(err.Error(), "rolled back"):
						rolledBack++
						if d := diffTrees(before, snapshot(t, dir)); d != "" {
							t.Fatalf("op %d: rolled back, but the tree changed:\n%s", failAt, d)
						}
					case strings.Contains(err.Error(), "needs repair"):
						repair++
						if links {
							t.Fatalf("op %d: the undo needed a write: %v", failAt, err)
						}
						for _, e := range p.Edits {
							for _, path := range []string{e.Path, e.NewPath} {
								if got, err := os.ReadFile(path); err == nil && string(got) != string(e.Old) && string(got) != string(e.New) {
									t.Fatalf("op %d: %s holds neither its old nor its new text", failAt, path)
								}
							}
						}
					default:
						t.Fatalf("op %d: %v", failAt, err)
					}
				}
				if rolledBack == 0 {
					t.Fatalf("no run was rolled back: a failure before any edit needs no write to undo")
				}
				if !links && repair == 0 {
					t.Fatalf("without links no undo needed a write: the test does not fill the disk after an edit")
				}
			})
		}
	}
}

// TestRollbackFails reports a rollback that cannot finish instead of
// claiming the tree is intact.
func TestRollbackFails(t *testing.T) {
	_, p := freshPlan(t, 3)
	err := p.Run(Exec{FS: &faultyFS{FS: OS, failAt: 4, failAll: true}})
	if err == nil || !strings.Contains(err.Error(), "needs repair") {
		t.Fatalf("got %v", err)
	}
}

// TestStalePlan: Run refuses a plan when the tree changed after it was
// made, and touches nothing.
func TestStalePlan(t *testing.T) {
	for _, change := range []struct {
		name string
		fn   func(dir string) error
	}{
		{"edited file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "server/api/a.ts"), []byte("changed"), 0o644)
		}},
		{"target appeared", func(dir string) error { return os.MkdirAll(filepath.Join(dir, "app/utils"), 0o755) }},
		{"source gone", func(dir string) error { return os.RemoveAll(filepath.Join(dir, "src/layouts")) }},
		{"source changed type", func(dir string) error {
			if err := os.Remove(filepath.Join(dir, "theme.css")); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "theme.css"), nil, 0o644)
		}},
	} {
		t.Run(change.name, func(t *testing.T) {
			dir, p := freshPlan(t, 3)
			must(t, change.fn(dir))
			before := snapshot(t, dir)
			if err := p.Run(Exec{}); err == nil || !strings.Contains(err.Error(), "the tree changed since the plan was made") {
				t.Fatalf("got %v", err)
			}
			if d := diffTrees(before, snapshot(t, dir)); d != "" {
				t.Fatalf("tree changed:\n%s", d)
			}
		})
	}
}

// TestResume interrupts a run after each mutating operation in turn (every
// operation after it fails, as when the disk goes away, and nothing is
// rolled back), then resumes it: Forward completes the plan to the tree an
// uninterrupted run makes, Backward restores the tree it found, both from
// every state, and neither leaves a temporary behind. The plan is made
// once, before the tree is touched, as a journal keeps it. -short takes
// every fourth operation of the small run (the first one included), which
// still stops inside each kind of step.
func TestResume(t *testing.T) {
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			size.use(t)
			ref, p := freshPlan(t, size.gen)
			before := snapshot(t, ref)
			must(t, p.Run(Exec{FS: &faultyFS{FS: OS}, Sync: true}))
			after := snapshot(t, ref)
			step := every(size.gen)
			ops := 0
			for stop := int64(1); ops == 0; stop += step {
				for _, back := range []bool{false, true} {
					dir, p := freshPlan(t, size.gen)
					x := Exec{FS: &faultyFS{FS: OS, failAt: stop, failAll: true}, Sync: true, Tag: "t", Resume: true}
					err := p.Forward(x)
					if err == nil {
						ops = int(stop - 1) // at least: -short may step past the last
						break
					}
					if !errors.Is(err, os.ErrPermission) {
						t.Fatalf("op %d: %v", stop, err)
					}
					x.FS = &faultyFS{FS: OS} // fails nothing
					want := after
					if back {
						_, err := p.Backward(x)
						must(t, err)
						want = before
					} else {
						must(t, p.Forward(x))
					}
					if d := diffTrees(want, snapshot(t, dir)); d != "" {
						t.Fatalf("interrupted at op %d, resumed (backward %v):\n%s", stop, back, d)
					}
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
// error names it. Undoing keeps it too, and lists it.
func TestChangedFileNotOverwritten(t *testing.T) {
	_, p := freshPlan(t, 3)
	e := p.Edits[0] // components/A.vue, which moves with its folder
	x := Exec{Tag: "t", Hook: func(point string, i int) {
		if point == "replace" && p.Edits[i].Path == e.Path {
			must(t, os.WriteFile(e.NewPath, []byte("saved while apply ran\n"), 0o644))
		}
	}}
	err := p.Forward(x)
	var ce *ChangedError
	if !errors.As(err, &ce) || ce.Path != "app/components/A.vue" {
		t.Fatalf("got %v, want a ChangedError for app/components/A.vue", err)
	}
	if got, _ := os.ReadFile(e.NewPath); string(got) != "saved while apply ran\n" {
		t.Errorf("the saved file was overwritten: %q", got)
	}
	if _, err := os.Lstat(tempName(e.NewPath, "t")); err == nil {
		t.Errorf("temporary left behind")
	}
	x.Hook = nil
	kept, err := p.Backward(x)
	must(t, err)
	if len(kept) != 1 || kept[0] != "components/A.vue" {
		t.Errorf("kept %q, want components/A.vue", kept)
	}
	if got, _ := os.ReadFile(e.Path); string(got) != "saved while apply ran\n" {
		t.Errorf("the saved file was lost by the rollback: %q", got)
	}
}

// TestChangedErrorQuotes: a name with a newline is named as git quotes it,
// relative to the plan's base.
func TestChangedErrorQuotes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a\nb.ts")
	must(t, os.WriteFile(path, []byte("old"), 0o644))
	p := &Plan{Root: dir, Edits: []Edit{{Path: path, NewPath: path, Old: []byte("old"), New: []byte("new"), Mode: 0o644}}}
	x := Exec{Tag: "t", Hook: func(point string, i int) {
		if point == "replace" {
			must(t, os.WriteFile(path, []byte("saved"), 0o644))
		}
	}}
	err := p.Forward(x)
	if want := `"a\nb.ts": changed since apply read it (edited while apply ran?): not overwritten`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestNoSpecialBits: a rewritten file takes the permission bits of the file
// it replaces, as it is when it is replaced: never the set-user-ID,
// set-group-ID or sticky bit, and never a bit the plan asks for that the
// file did not have; a removed directory comes back on rollback with its
// permission bits only.
func TestNoSpecialBits(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	testtree.Map(t, dir, map[string]string{"suid.sh": "a\n", "plain.ts": "a\n", "src/x.ts": "x\n"})
	must(t, os.Chmod(at("suid.sh"), 0o755|fs.ModeSetuid))
	must(t, os.Chmod(at("src"), 0o750|fs.ModeSetgid|fs.ModeSticky))
	p := &Plan{Root: dir,
		Moves:  []Move{{From: at("src/x.ts"), To: at("x.ts")}},
		Rmdirs: []Rmdir{{Path: at("src"), Mode: 0o750 | fs.ModeSetgid | fs.ModeSticky}},
		Edits: []Edit{
			{Path: at("suid.sh"), NewPath: at("suid.sh"), Old: []byte("a\n"), New: []byte("b\n"), Mode: 0o755 | fs.ModeSetuid},
			{Path: at("plain.ts"), NewPath: at("plain.ts"), Old: []byte("a\n"), New: []byte("b\n"), Mode: 0o777 | fs.ModeSetuid | fs.ModeSetgid},
		}}
	must(t, p.Run(Exec{}))
	mode := func(name string) fs.FileMode {
		st, err := os.Lstat(at(name))
		must(t, err)
		return st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	if m := mode("suid.sh"); m != 0o755 {
		t.Errorf("suid.sh: %v, want -rwxr-xr-x", m)
	}
	if m := mode("plain.ts"); m != 0o644 {
		t.Errorf("plain.ts: %v, want -rw-r--r-- (the plan's mode is not the file's)", m)
	}
	_, err := p.Backward(Exec{})
	must(t, err)
	if m := mode("src"); m != 0o750 {
		t.Errorf("src restored as %v, want -rwxr-x---", m)
	}
}

// TestBackupChecked: the undo renames a backup back only when it still is
// a plain file holding the old text the plan (the journal) has. One
// changed in place, or replaced by a symlink, is never put in the file's
// place: that file's old text is written from the plan instead, and the
// tree comes back byte for byte, the symlink's target untouched.
func TestBackupChecked(t *testing.T) {
	dir, p := freshPlan(t, 3)
	before := snapshot(t, dir)
	victim := filepath.Join(t.TempDir(), "victim")
	must(t, os.WriteFile(victim, p.Edits[1].Old, 0o644))
	fsys := &faultyFS{FS: OS}
	x := Exec{FS: fsys, Tag: "t", Hook: func(point string, i int) {
		if point != "backups" {
			return
		}
		must(t, os.WriteFile(backupName(p.Edits[0].NewPath, "t"), []byte("changed in place\n"), 0o644))
		b := backupName(p.Edits[1].NewPath, "t")
		must(t, os.Remove(b))
		must(t, os.Symlink(victim, b))
		// Every operation from here on fails: the backups stay.
		fsys.failAt, fsys.failAll = fsys.n.Load()+1, true
	}}
	var le *LeftoverError
	if err := p.Forward(x); !errors.As(err, &le) {
		t.Fatalf("got %v, want a LeftoverError", err)
	}
	x.Hook, x.FS = nil, &faultyFS{FS: OS}
	if _, err := p.Backward(x); err != nil {
		t.Fatal(err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("after the undo:\n%s", d)
	}
	if got, _ := os.ReadFile(victim); string(got) != string(p.Edits[1].Old) {
		t.Errorf("the symlink's target changed: %q", got)
	}
}

// TestModeSincePlan: a fresh run writes each temporary with the mode the
// plan read, and the swap reads the file's mode with its bytes: a file
// whose mode changed since the plan gets its new text with the mode it
// has now, never the plan's.
func TestModeSincePlan(t *testing.T) {
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			size.use(t)
			dir, p := freshPlan(t, size.gen)
			e := p.Edits[len(p.Edits)-1]
			must(t, os.Chmod(e.Path, 0o600))
			if _, err := Commit(p, "fw.config.ts", nil); err != nil {
				t.Fatal(err)
			}
			st, err := os.Lstat(e.NewPath)
			must(t, err)
			if st.Mode().Perm() != 0o600 {
				t.Errorf("%s: mode %v, want -rw------- (the file's since the plan)", e.NewPath, st.Mode())
			}
			b, err := os.ReadFile(e.NewPath)
			must(t, err)
			if string(b) != string(e.New) {
				t.Errorf("%s: not written", e.NewPath)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "app", "components", "gen", ".*.fwmigrate-*")); len(left) != 0 {
				t.Errorf("left %v", left)
			}
		})
	}
}
