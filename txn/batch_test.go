package txn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/crashtest"
)

// batchProjects is how many projects the batch tests commit together, in
// the folders p0, p1, ... of their directory.
const batchProjects = 3

// batchGen is the generated files of each project of the batch tests.
const batchGen = 10

// writeBatch writes the batch tests' projects under dir.
func writeBatch(t testing.TB, dir string) {
	for k := range batchProjects {
		writeTree(t, filepath.Join(dir, fmt.Sprintf("p%d", k)), batchGen)
	}
}

// batchTxs plans the projects under dir, each transaction with hook.
func batchTxs(dir string, hook func(string, int)) ([]*Tx, error) {
	var txs []*Tx
	for k := range batchProjects {
		p, err := planTree(filepath.Join(dir, fmt.Sprintf("p%d", k)))
		if err != nil {
			return nil, err
		}
		txs = append(txs, &Tx{Plan: p, Config: "fw.config.ts", Hook: hook})
	}
	return txs, nil
}

// isBatch reports whether the crash child's dir holds the batch tests'
// projects.
func isBatch(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "p0"))
	return err == nil
}

// batchChild is the crash child of the batch tests: it commits the
// projects under dir together, dying at the hook's point (a
// transaction's or the run's).
func batchChild(dir string, hook func(string, int)) error {
	txs, err := batchTxs(dir, hook)
	if err != nil {
		return err
	}
	CommitAll(txs, hook)
	for _, t := range txs {
		if t.Err != nil {
			return t.Err
		}
	}
	return nil
}

// TestCommitAll: transactions committed together are each done as Commit
// does one, with nothing of the journals left; a transaction whose root
// holds an earlier one's, lies in it or is it fails without running, and
// one that fails its checks fails alone, while the others are written.
func TestCommitAll(t *testing.T) {
	ref, p := freshPlan(t, batchGen)
	must(t, p.Run(Exec{}))
	after := snapshot(t, ref)
	_, p = freshPlan(t, batchGen)
	before := snapshot(t, p.Root)

	dir := t.TempDir()
	writeBatch(t, dir)
	txs, err := batchTxs(dir, nil)
	must(t, err)
	// A plan of the root above the projects overlaps them all.
	nested := &Tx{Plan: &Plan{Root: dir, Mkdirs: []string{filepath.Join(dir, "x")}}}
	txs = append(txs, nested)
	CommitAll(txs, nil)
	for k := range batchProjects {
		if txs[k].Err != nil || txs[k].Kept {
			t.Fatalf("p%d: kept %v, %v", k, txs[k].Kept, txs[k].Err)
		}
		if d := diffTrees(after, snapshot(t, filepath.Join(dir, fmt.Sprintf("p%d", k)))); d != "" {
			t.Fatalf("p%d:\n%s", k, d)
		}
	}
	if nested.Err == nil || !strings.Contains(nested.Err.Error(), "overlap: their trees would be one") {
		t.Fatalf("the nested transaction: %v", nested.Err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "x")); err == nil {
		t.Fatal("the nested transaction ran")
	}
	state := os.Getenv("XDG_STATE_HOME")
	if _, err := os.Lstat(filepath.Join(state, "fwmigrate", "journals")); !os.IsNotExist(err) {
		t.Errorf("the journals' folder is left (%v)", err)
	}

	// Two transactions of one root: the second is refused, the first
	// runs; one whose tree changed fails, the others are written.
	dir = t.TempDir()
	writeBatch(t, dir)
	txs, err = batchTxs(dir, nil)
	must(t, err)
	twin, err := planTree(filepath.Join(dir, "p1"))
	must(t, err)
	txs = append(txs, &Tx{Plan: twin, Config: "fw.config.ts"})
	must(t, os.Remove(filepath.Join(dir, "p0", "app.vue")))
	CommitAll(txs, nil)
	if txs[0].Err == nil || txs[0].Kept {
		t.Fatalf("p0, changed: kept %v, %v", txs[0].Kept, txs[0].Err)
	}
	if txs[1].Err != nil || txs[3].Err == nil {
		t.Fatalf("p1's first transaction must run, its second be refused: %v / %v", txs[1].Err, txs[3].Err)
	}
	if txs[2].Err != nil {
		t.Fatalf("p2: %v", txs[2].Err)
	}
	for k, want := range []map[string]string{nil, after, after} {
		if want == nil {
			continue
		}
		if d := diffTrees(want, snapshot(t, filepath.Join(dir, fmt.Sprintf("p%d", k)))); d != "" {
			t.Fatalf("p%d:\n%s", k, d)
		}
	}
	want := map[string]string{}
	for k, v := range before {
		if k != "app.vue" {
			want[k] = v
		}
	}
	if d := diffTrees(want, snapshot(t, filepath.Join(dir, "p0"))); d != "" {
		t.Fatalf("p0 was touched:\n%s", d)
	}
}

// TestCrashBatch: transactions committed together (CommitAll) killed at
// each point of the run, where the batch leaves them apart (some journals
// in place and others not, some trees moved, some journals removed and
// others not) as well as at a transaction's own points. Each project is
// then whole: untouched, or done, or with its journal, which Complete
// brings to the tree an uninterrupted run makes and Undo to the tree it
// found, byte for byte. A project left untouched commits again.
func TestCrashBatch(t *testing.T) {
	ref, p := freshPlan(t, batchGen)
	before := snapshot(t, ref)
	must(t, p.Run(Exec{}))
	after := snapshot(t, ref)
	edits := len(p.Edits)
	type point struct {
		name string
		i    int
		// pending: how many projects keep a journal; -1: any number
		pending int
	}
	points := []point{
		{"run-journal", 1, 1},         // p0's journal in place, p1's and p2's not
		{"journal", 0, batchProjects}, // every journal durable, no tree touched
		{"move", 3, batchProjects},    // a tree among its moves
		{"run-staged", 0, batchProjects},
		{"replace", edits / 2, batchProjects},
		{"run-replaced", 0, batchProjects},
		{"backups", 0, batchProjects},
		{"run-commit", 1, batchProjects - 1}, // p0's journal removed
		{"run-committed", 0, 0},              // every journal removed, the homes left
	}
	if testing.Short() {
		points = []point{points[0], points[3], points[7]}
	}
	crashtest.Points(t, points, func(pt point) (string, int) { return pt.name, pt.i }, "undo", func(t *testing.T, name string, pt point, back bool) {
		dir := t.TempDir()
		writeBatch(t, dir)
		crashAtBatch(t, dir, pt.name, pt.i)
		pending := 0
		for k := range batchProjects {
			proj := filepath.Join(dir, fmt.Sprintf("p%d", k))
			j, err := Pending(proj)
			must(t, err)
			got := snapshot(t, proj)
			if j == "" {
				// Untouched or done, and nothing of the run is
				// in the way of the next.
				if diffTrees(before, got) == "" {
					again, err := planTree(proj)
					must(t, err)
					if _, err := Commit(again, "fw.config.ts", nil); err != nil {
						t.Fatalf("p%d, untouched, commits again: %v", k, err)
					}
				} else if d := diffTrees(after, got); d != "" {
					t.Fatalf("p%d has no journal and is half written:\n%s", k, d)
				}
				continue
			}
			pending++
			jj, err := Open(proj, nil)
			must(t, err)
			want := after
			if back {
				_, err := jj.Undo()
				must(t, err)
				want = before
			} else {
				must(t, jj.Complete())
			}
			must(t, jj.Finish())
			if d := diffTrees(want, snapshot(t, proj)); d != "" {
				t.Fatalf("p%d after the crash at %s:\n%s", k, name, d)
			}
		}
		if pt.pending >= 0 && pending != pt.pending {
			t.Errorf("%d projects kept a journal, want %d", pending, pt.pending)
		}
	})
}

// crashAtBatch runs the batch child in dir, dying at point:i.
func crashAtBatch(t *testing.T, dir, point string, i int) {
	t.Helper()
	crashtest.Crash(t, dir, point, i, false)
}
