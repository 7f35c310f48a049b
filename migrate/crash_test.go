package migrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/crashtest"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/txn"
)

// The crash tests kill apply at chosen points of its write phase and check
// what the next run makes of the tree. A crash must be a kill -9: no
// deferred function runs, no buffer is flushed, the other workers stop in
// the middle of whatever they do. So the apply that crashes runs in a child
// process (this test binary again, see TestMain), whose testHook calls
// os.Exit at the chosen point.

func TestMain(m *testing.M) { crashtest.Main(m, crashChild) }

// crashChild applies the project in dir (or, with rollback, rolls it
// back), with the hook that exits at the chosen point.
func crashChild(dir string, rollback bool, hook func(string, int)) int {
	apply := applyDirHook
	if _, err := os.Lstat(filepath.Join(dir, "p0", "fw.config.ts")); err == nil {
		apply = applyProjectsHook // the projects p0, p1, ... at once
	}
	for _, r := range apply(dir, rollback, hook) {
		if r.Fatal {
			fmt.Fprintln(os.Stderr, r.Err)
			return 2
		}
	}
	return 0
}

// applyDir runs apply (or apply --rollback) on the project in dir, as the
// command does.
func applyDir(dir string, rollback bool) []*migrate.Result { return applyDirHook(dir, rollback, nil) }

// applyDirHook is applyDir with a hook at every point of the write phase
// (Options.Hook).
func applyDirHook(dir string, rollback bool, hook func(string, int)) []*migrate.Result {
	p := project.NewLoader().Load(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	return migrate.Run([]*project.Project{p}, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, AllowDirty: true, Rollback: rollback, Hook: hook})
}

// applyProjectsHook is applyDirHook on the projects p0, p1, ... in dir,
// applied in one run, as a monorepo's.
func applyProjectsHook(dir string, rollback bool, hook func(string, int)) []*migrate.Result {
	l := project.NewLoader()
	var ps []*project.Project
	for k := 0; ; k++ {
		rel := fmt.Sprintf("p%d/fw.config.ts", k)
		if _, err := os.Lstat(filepath.Join(dir, rel)); err != nil {
			break
		}
		ps = append(ps, l.Load(filepath.Join(dir, rel), rel))
	}
	return migrate.Run(ps, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, AllowDirty: true, Rollback: rollback, Hook: hook})
}

// crashAt runs apply in a child process that dies at point:i, and fails
// the test unless it did and left its journal.
func crashAt(t *testing.T, dir, point string, i int, rollback bool) {
	t.Helper()
	crashtest.Crash(t, dir, point, i, rollback)
	if j, err := txn.Pending(dir); j == "" || err != nil {
		t.Fatalf("crash at %s:%d left no journal: %v", point, i, err)
	}
}

func snapshotTree(t *testing.T, dir string) map[string]string { return testtree.Snapshot(t, dir) }

// diffTrees is testtree.DiffSnapshots, cut to its first lines.
func diffTrees(want, got map[string]string) string {
	lines := strings.Split(testtree.DiffSnapshots(want, got), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("and %d more lines", len(lines)-20))
	}
	return strings.Join(lines, "\n")
}

// TestCrashRecovery: apply killed at each kind of point of its write phase
// (right after the journal, in the middle of the moves, in the middle of
// the edits before a temporary is written and between writing it and
// renaming it, before the final syncs, before the journal is removed).
// Then a plain apply gives the tree an uninterrupted apply gives, byte for
// byte; apply --rollback gives the tree as it was. A rollback killed in its
// turn is finished by the next run, whether it is asked for again or not.
// The big project (3,000 files) is left out of -short, which runs most of
// these points on a small one (24 files).
func TestCrashRecovery(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 24 // edits enough for every pass of the edits, in a child that starts fast
	}
	files := testtree.LayoutB(n)
	fresh := func() string {
		dir := t.TempDir()
		testtree.WriteMap(t, dir, files)
		return dir
	}
	ref := fresh()
	before := snapshotTree(t, ref)
	for _, r := range applyDir(ref, false) {
		if r.Fatal || !r.Written || r.Plan == nil {
			t.Fatalf("the uninterrupted apply: fatal %v written %v: %s", r.Fatal, r.Written, r.Err)
		}
	}
	after := snapshotTree(t, ref)
	// The layout move's plan, from a dry run: its moves and its own edits
	// (the config's edit, which the fixes join to the plan, left out).
	p := project.NewLoader().Load(filepath.Join(fresh(), "fw.config.ts"), "fw.config.ts")
	plan := migrate.Run([]*project.Project{p}, nil, migrate.Options{Layout: migrate.LayoutMove, DryRun: true})[0].Plan
	if plan == nil {
		t.Fatal("the project does not move")
	}
	moves, edits := len(plan.Moves), 0
	for _, e := range plan.Edits {
		if e.Path != p.ConfigPath && e.Path != p.ConfigReal {
			edits++
		}
	}
	if moves < 4 || edits < 10 {
		t.Fatalf("the project moves too little to test: %v", plan)
	}
	t.Logf("%d files, %d mkdirs, %d moves, %d edits", len(files), len(plan.Mkdirs), moves, edits)

	type kill struct {
		point string
		i     int
	}
	points := []kill{
		{"journal", 0},
		{"move", moves / 2},
		{"edit", edits / 2},
		{"replace", edits / 2},
		{"sync", 0},
		{"cleanup", 0},
	}
	undos := []struct {
		point string
		i     int
		again bool
	}{{"undo-replace", edits / 2, false}, {"undo-move", moves / 2, true}}
	if testing.Short() {
		points = append(points[:2], points[3]) // after the journal, mid-moves, mid-edits
		points = append(points, kill{"cleanup", 0})
		undos = undos[1:]
	}
	crashtest.Points(t, points, func(pt kill) (string, int) { return pt.point, pt.i }, "rollback", func(t *testing.T, name string, pt kill, rollback bool) {
		dir := fresh()
		crashAt(t, dir, pt.point, pt.i, false)
		want := after
		if rollback {
			want = before
		}
		res := applyDir(dir, rollback)
		if len(res) != 1 || res[0].Fatal || res[0].JournalKept {
			t.Fatalf("recovery failed: %+v", res[0])
		}
		if want := map[bool]string{false: "completed", true: "rolled back"}[rollback]; res[0].Recovered != want {
			t.Errorf("recovered %q, want %q", res[0].Recovered, want)
		}
		if d := diffTrees(want, snapshotTree(t, dir)); d != "" {
			t.Fatalf("after the crash at %s:\n%s", name, d)
		}
	})

	// Rollbacks killed in turn: the next run goes on rolling back, asked or
	// not (a plain apply must not redo what the user chose to undo).
	for _, undo := range undos {
		t.Run(fmt.Sprintf("%s:%d/again=%v", undo.point, undo.i, undo.again), func(t *testing.T) {
			t.Parallel() // most of a run is waiting for its syncs
			dir := fresh()
			crashAt(t, dir, "sync", 0, false) // every step done
			crashAt(t, dir, undo.point, undo.i, true)
			res := applyDir(dir, undo.again)
			if len(res) != 1 || res[0].Fatal || res[0].Recovered != "rolled back" {
				t.Fatalf("recovery: %+v", res[0])
			}
			if d := diffTrees(before, snapshotTree(t, dir)); d != "" {
				t.Fatalf("after the crashed rollback:\n%s", d)
			}
		})
	}
}

// TestRecoveryRefusesChangedFile: a file saved after the crash, which
// holds neither its old nor its new text, stops the completion (the
// journal stays, the error names the file); a rollback keeps it as it is
// and undoes the rest.
func TestRecoveryRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteMap(t, dir, testtree.LayoutB(60))
	crashAt(t, dir, "edit", 0, false)
	saved := filepath.Join(dir, "server/api/a7.ts")
	if err := os.WriteFile(saved, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := applyDir(dir, false)
	if !res[0].Fatal || !res[0].JournalKept || !strings.Contains(res[0].Err, "server/api/a7.ts: changed since apply read it") {
		t.Fatalf("completion over a changed file: %+v", res[0])
	}
	if b, _ := os.ReadFile(saved); string(b) != "{}\n" {
		t.Errorf("the saved file was overwritten: %q", b)
	}
	res = applyDir(dir, true)
	if res[0].Fatal || res[0].Recovered != "rolled back" || len(res[0].Notes) != 1 || !strings.Contains(res[0].Notes[0], "server/api/a7.ts") {
		t.Fatalf("rollback: %+v", res[0])
	}
	if b, _ := os.ReadFile(saved); string(b) != "{}\n" {
		t.Errorf("the rollback lost the saved file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "components")); err != nil {
		t.Errorf("the moves were not undone: %v", err)
	}
}

// TestCrashRecoveryProjects: apply of several projects at once (one
// txn.CommitAll) killed at the points where the run leaves them apart:
// one journal in place and the others not ("run-journal":1), every tree
// staged or replaced but none durable, one journal removed and the others
// not ("run-commit":1), every journal removed but their homes left. The
// next apply completes each project with a journal and leaves the others
// (untouched ones are migrated, done ones stay): every project ends as an
// uninterrupted apply leaves it, byte for byte. apply --rollback undoes
// each project with a journal: each ends as it was, or as migrated when
// its journal was gone (done) before the crash.
func TestCrashRecoveryProjects(t *testing.T) {
	const projects = 3
	files := testtree.LayoutB(12)
	fresh := func() string {
		dir := t.TempDir()
		tree := map[string]string{}
		for k := range projects {
			for name, src := range files {
				tree[fmt.Sprintf("p%d/%s", k, name)] = src
			}
		}
		testtree.WriteMap(t, dir, tree)
		return dir
	}
	ref := fresh()
	before := snapshotTree(t, filepath.Join(ref, "p0"))
	for _, r := range applyProjectsHook(ref, false, nil) {
		if r.Fatal || !r.Written {
			t.Fatalf("the uninterrupted apply: %s", r.Err)
		}
	}
	after := snapshotTree(t, filepath.Join(ref, "p0"))
	type point struct {
		point   string
		i       int
		pending int // the projects left with a journal
	}
	points := []point{{"run-journal", 1, 1}, {"run-staged", 0, projects}, {"run-replaced", 0, projects}, {"run-commit", 1, projects - 1}, {"run-committed", 0, 0}}
	if testing.Short() {
		points = []point{points[3]} // one project done, the others with their journal
	}
	crashtest.Points(t, points, func(pt point) (string, int) { return pt.point, pt.i }, "rollback", func(t *testing.T, name string, pt point, rollback bool) {
		dir := fresh()
		crashtest.Crash(t, dir, pt.point, pt.i, false)
		journals := map[int]bool{}
		for k := range projects {
			j, err := txn.Pending(filepath.Join(dir, fmt.Sprintf("p%d", k)))
			if err != nil {
				t.Fatal(err)
			}
			journals[k] = j != ""
		}
		n := 0
		for _, j := range journals {
			if j {
				n++
			}
		}
		if n != pt.pending {
			t.Fatalf("%d projects left a journal, want %d", n, pt.pending)
		}
		res := applyProjectsHook(dir, rollback, nil)
		for k, r := range res {
			if r.Fatal || r.JournalKept {
				t.Fatalf("p%d: recovery failed: %+v", k, r)
			}
			got := snapshotTree(t, filepath.Join(dir, fmt.Sprintf("p%d", k)))
			want := after
			if rollback && journals[k] {
				want = before
			}
			if rollback && !journals[k] && diffTrees(before, got) == "" {
				want = before // never reached: rollback leaves it
			}
			if d := diffTrees(want, got); d != "" {
				t.Fatalf("p%d (journal %v) after the crash at %s:\n%s", k, journals[k], name, d)
			}
		}
	})
}
