package migrate_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/txn"
)

// TestEditDuringApply: a file saved while apply writes (between the plan and
// its replacement) is never overwritten: the run stops, undoes what it
// wrote, says which file changed, exits 2, and the save is kept.
func TestEditDuringApply(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteMap(t, dir, testtree.LayoutB(60))
	before := snapshotTree(t, dir)
	saved := filepath.Join(dir, "server/api/a7.ts") // edited in place, among the last
	const text = "export default 'saved while apply ran'\n"
	res := applyDirHook(dir, false, func(point string, i int) {
		if point == "edit" && i == 3 {
			if err := os.WriteFile(saved, []byte(text), 0o644); err != nil {
				t.Error(err)
			}
		}
	})
	if len(res) != 1 || !res[0].Fatal || res[0].Written || !strings.Contains(res[0].Err, "server/api/a7.ts: changed since apply read it (edited while apply ran?): not overwritten") ||
		!strings.Contains(res[0].Err, "everything written was undone") {
		t.Fatalf("%+v", res[0])
	}
	if b, _ := os.ReadFile(saved); string(b) != text {
		t.Errorf("the saved file was overwritten: %q", b)
	}
	want := before
	want["server/api/a7.ts"] = fmt.Sprintf("file -rw-r--r-- %q", text)
	if d := diffTrees(want, snapshotTree(t, dir)); d != "" {
		t.Errorf("not undone:\n%s", d)
	}
	if j, err := txn.JournalPath(dir); err != nil {
		t.Error(err)
	} else if left, _ := filepath.Glob(strings.TrimSuffix(j, ".journal") + ".*"); len(left) > 0 {
		// Its files (<key>.journal, .journal.tmp, .progress); the
		// folder they share with other projects' goes with the last.
		t.Errorf("the journal of an undone apply is left: %s", left)
	}
}

// TestLeftoverJournalDir: what an apply stopped while it wrote its journal
// leaves (an incomplete <key>.journal.tmp beside its place, no journal) is
// removed by the next apply, which wrote nothing else and goes on.
func TestLeftoverJournalDir(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteMap(t, dir, testtree.LayoutB(20))
	j, err := txn.JournalPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(j), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j+".tmp", []byte("fwmigrate journal 2\nid 12"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := applyDir(dir, false)
	if len(res) != 1 || res[0].Fatal || !res[0].Written {
		t.Fatalf("%+v", res[0])
	}
	if left, _ := filepath.Glob(strings.TrimSuffix(j, ".journal") + ".*"); len(left) > 0 {
		t.Errorf("the leftover journal files are still there: %s", left)
	}
}

// TestWriteKeepsMode: a config rewritten alone (no move) keeps its
// permission bits, as a file the move edits does; its set-user-ID and
// sticky bits are not written again (txn never writes them:
// TestNoSpecialBits).
func TestWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fw.config.ts")
	testtree.WriteMap(t, dir, map[string]string{"fw.config.ts": "export default defineFwConfig({\n  generate: { routes: ['/'] },\n})\n"})
	mode := fs.FileMode(0o640) | fs.ModeSetuid | fs.ModeSticky
	if err := os.Chmod(cfg, mode); err != nil {
		t.Fatal(err)
	}
	res := applyDir(dir, false)
	if len(res) != 1 || res[0].Fatal || !res[0].Written {
		t.Fatalf("%+v", res[0])
	}
	st, _ := os.Stat(cfg)
	if got := st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky); got != mode.Perm() {
		t.Errorf("mode %v, want %v", got, mode.Perm())
	}
}

// TestWriteBatches: the projects of a run are written as one batch
// (txn.CommitAll: one "run-committed"), cut where their journals would
// hold more than knobs.MaxBatchBytes of texts, and into lanes committed at once
// from knobs.LaneMin projects a lane; each is written every way.
func TestWriteBatches(t *testing.T) {
	for _, c := range []struct {
		max, lane, batches int
	}{{256 << 20, 64, 1}, {1, 64, 3}, {256 << 20, 1, 3}} {
		saved, savedLane := knobs.MaxBatchBytes, knobs.LaneMin
		knobs.MaxBatchBytes, knobs.LaneMin = c.max, c.lane
		dir := t.TempDir()
		tree := map[string]string{}
		for k := range 3 {
			for name, src := range testtree.LayoutB(4) {
				tree[fmt.Sprintf("p%d/%s", k, name)] = src
			}
		}
		testtree.WriteMap(t, dir, tree)
		var mu sync.Mutex
		batches := 0
		res := applyProjectsHook(dir, false, func(point string, i int) {
			if point == "run-committed" {
				mu.Lock()
				batches++
				mu.Unlock()
			}
		})
		knobs.MaxBatchBytes, knobs.LaneMin = saved, savedLane
		for k, r := range res {
			if r.Fatal || !r.Written {
				t.Fatalf("max %d lane %d, p%d: %s", c.max, c.lane, k, r.Err)
			}
		}
		if batches != c.batches {
			t.Errorf("max %d lane %d: %d batches, want %d", c.max, c.lane, batches, c.batches)
		}
	}
}
