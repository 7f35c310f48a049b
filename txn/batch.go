package txn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Many transactions committed together, as apply commits the projects of
// a monorepo: each keeps its own journal, its own steps and its own
// rollback, and so its own guarantee (after a crash, each project is
// completed or undone on its own), but their barriers are shared. A
// transaction alone pays for four or five barriers (a syncfs, or the fsyncs
// of a few files and directories, each waiting for the disk): its journal
// and run record written, the journal in place,
// the temporaries of its edits written, its directories after the renames,
// its journal removed. A thousand small transactions run at once do not
// reach their barriers together, so even group commit (syncgroup.go) pays
// for hundreds of syncs. CommitAll runs each phase for every transaction,
// then one barrier for all of them (one syncfs per file system):
//
//	prepare   every transaction checked (confine, checkPlan, Pending, the
//	          tree as planned, preflight), the homes' folder made, its run
//	          record written in its place (no journal is there: a record
//	          alone binds nothing) and its journal's text beside its place
//	          (<key>.journal.tmp), a stale progress file of its key removed
//	barrier   the texts, the records' directory (and the folders made
//	          above it), the homes' folder where a stale progress went
//	          every journal renamed into place (<key>.journal in the
//	          homes' folder; "run-journal", i before transaction i's),
//	          then the "journal" of each transaction's hook
//	barrier   the homes' folders and the folders that hold them (and
//	          the folders made above)
//	forward   every transaction's mkdirs, moves and rmdirs, its edits'
//	          temporaries written ("run-staged" once all are)
//	barrier   the temporaries
//	          every edit checked and renamed over its file ("sync" of each
//	          transaction, "run-replaced" once all are)
//	barrier   every directory the transactions changed
//	          every backup of an old text removed ("backups" of each);
//	          every journal removed ("run-commit", i before transaction i's,
//	          then "cleanup" of its hook; "run-committed" once all are)
//	barrier   the homes' folders (for one that another process's run
//	          removed since, as it was empty, the folder that held it)
//	          the progress files and run records removed, then each homes'
//	          folder once it is empty
//
// The journals share their folder, with no folder of their own: a
// thousand projects make and remove no directory (on ext4, 1,000 mkdir and
// rmdir took 270-500 ms against 80-125 ms for 1,000 files created and
// removed), and their
// barriers sync one folder where they synced a thousand homes and their
// folder. A journal of earlier versions, in its own folder
// (<folder>/<key>/journal), is never begun here, only completed or undone
// (Open), its folder synced where the homes' folder is.
//
// What a crash leaves is what it leaves for one transaction, for each of
// them: before its journal is in place its tree is untouched (a record, a
// text beside its place may be left, which the next run replaces);
// from then on until its journal is removed, its journal is there for the
// next run to complete or undo; after that it is done (a progress file
// may be left, which the next run removes before its journal is in place).
// Transactions differ
// only in where each stands: some journals in place and others not yet,
// some trees moved and others not, some journals removed and others not,
// and each is recovered alone. No step of a transaction is made before
// the barrier its own guarantee needs: a journal is in place only once its
// record is durable (the record and its directory, in the first barrier),
// a tree is touched only once every journal is durable (the homes' folder
// that names it, and the folder that names the homes' folder, which this
// run or another may have made, in the second), a temporary is renamed
// over a file only once it is durable, a journal is removed only once its
// tree is durable, and a record is removed only once its journal's
// removal is durable (a journal left without its record would be
// refused).
//
// A transaction that fails in a phase is undone there and then (its own
// Backward and Finish, with their own syncs), as Commit undoes one, and
// leaves the batch; a barrier that fails fails every transaction waiting
// on it, each undone. The roots must not overlap: a transaction whose root
// is another's, or lies in it, fails without running (apply commits
// nested projects one after the other, in rounds).

// Tx is one transaction of CommitAll: the plan, what it is for (Commit's
// config) and the hook of its points (Commit's). Kept and Err are its
// outcome, as Commit returns them.
type Tx struct {
	Plan   *Plan
	Config string
	Hook   func(point string, i int)

	Kept bool
	Err  error
}

// batchWorkers is how many transactions a phase runs at once: the phases
// make no syncs (the barriers do), but a file system's metadata
// operations wait on its own journal, so more than the CPUs.
var batchWorkers = 8 * runtime.GOMAXPROCS(0)

// txState is a transaction as CommitAll carries it.
type txState struct {
	*Tx
	o    *opening
	j    *Journal
	x    Exec
	r    *replacer
	done atomic.Bool // out of the batch: failed, undone, or kept
}

// CommitAll commits every transaction of txs, as Commit commits one, with
// the barriers of all of them shared (see above). batch, when set (by
// tests), is called at the run's points ("run-journal", "run-staged",
// "run-replaced", "run-commit", "run-committed"); each transaction's Hook
// at its own, as Commit calls them.
func CommitAll(txs []*Tx, batch func(point string, i int)) {
	hook := func(point string, i int) {
		if batch != nil {
			batch(point, i)
		}
	}
	all := make([]*txState, len(txs))
	for i, t := range txs {
		t.Kept, t.Err = false, nil
		all[i] = &txState{Tx: t}
	}
	refuseOverlaps(all)
	live := func() []*txState {
		var out []*txState
		for _, t := range all {
			if !t.done.Load() {
				out = append(out, t)
			}
		}
		return out
	}
	each := func(ts []*txState, fn func(t *txState)) {
		par.ForN(len(ts), batchWorkers, func(k int) { fn(ts[k]) })
	}
	// inOrder is each for the loops that name their transactions at the
	// run's points ("run-journal", "run-commit": i before transaction i's
	// step): one after the other when the points are watched (the crash
	// tests kill the run there, and want the transactions before i done
	// and those after not).
	inOrder := func(point string, ts []*txState, fn func(t *txState)) {
		if batch == nil {
			each(ts, fn)
			return
		}
		for i, t := range ts {
			batch(point, i)
			fn(t)
		}
	}
	// Before the journals are in place, a failure only drops the
	// transaction: its tree is untouched.
	drop := func(t *txState, err error) {
		t.Err = err
		t.done.Store(true)
	}

	each(live(), func(t *txState) {
		o, err := t.prepare()
		if err != nil {
			drop(t, err)
			return
		}
		t.o = o
	})
	ts := live()
	var texts []string
	for _, t := range ts {
		texts = append(texts, t.o.texts()...)
	}
	if err := barrier(texts); err != nil {
		for _, t := range ts {
			drop(t, t.o.fail(err))
		}
	}
	inOrder("run-journal", live(), func(t *txState) {
		if err := t.o.placeJournal(); err != nil {
			drop(t, err)
		}
	})
	var homes []string
	for _, t := range live() {
		homes = append(homes, t.o.places()...)
	}
	if err := barrier(homes); err != nil {
		for _, t := range live() {
			drop(t, t.o.fail(err))
		}
	}
	for _, t := range live() {
		// No progress file is kept open per transaction (a thousand
		// would run out of descriptors): the notes are buffered, and
		// written when the journal stays or a rollback begins.
		t.j = t.o.j
		t.j.buffered = true
		t.x = t.j.exec()
		t.x.FS = OS
		t.j.callHook("journal", 0)
	}

	// Every journal is durable: the trees are touched from here on, and a
	// failure undoes the transaction (abort).
	each(live(), func(t *txState) {
		p := t.Plan
		if err := p.forwardEntries(t.x); err != nil {
			t.abort(err)
			return
		}
		t.r = p.newReplacer(t.x, p.newPaths(), false)
		if err := t.r.stageAll(); err != nil {
			t.abort(err)
		}
	})
	hook("run-staged", 0)
	ts = live()
	var temps []string
	for _, t := range ts {
		temps = append(temps, t.r.temps()...)
	}
	devs := devices{}
	if err := barrierFiles(temps, devs); err != nil {
		for _, t := range ts {
			t.Plan.removeTemps(t.x, t.r.at)
			t.abort(fmt.Errorf("syncing the new files: %w", err))
		}
	}
	each(live(), func(t *txState) {
		if err := t.r.swapAll(); err != nil {
			t.abort(err)
			return
		}
		t.x.hook("sync", 0)
		// The notes stay buffered: a transaction that ends here has its
		// progress file removed with its journal, so it is written only
		// when it stays (close) or rolls back.
	})
	hook("run-replaced", 0)
	ts = live()
	var dirs []string
	for _, t := range ts {
		dirs = append(dirs, t.Plan.forwardDirs()...)
	}
	if err := barrierDirs(dirs, devs); err != nil {
		for _, t := range ts {
			t.abort(fmt.Errorf("syncing the directories: %w", err))
		}
	}
	each(live(), func(t *txState) {
		if err := t.r.removeLinked(); err != nil {
			t.abort(err)
		}
	})

	// Every tree is durable: the journals go. Under homesMu (read) until
	// their folders are synced: a homes' folder emptied by these removals
	// must not be removed by another run's Finish before (as prepare
	// holds it while it writes there).
	homesMu.RLock()
	inOrder("run-commit", live(), func(t *txState) {
		if err := t.j.remove(); err != nil {
			drop(t, err)
		}
	})
	homes = homes[:0]
	for _, t := range live() {
		homes = append(homes, t.j.h.dir())
	}
	hook("run-committed", 0)
	err := syncRemovals(homes)
	homesMu.RUnlock()
	if err != nil {
		for _, t := range live() {
			drop(t, fmt.Errorf("removing the journal: %w", err))
		}
	}
	each(live(), func(t *txState) {
		if err := t.j.clean(); err != nil {
			t.Err = err
		}
	})
	parents := map[string]bool{}
	for _, t := range all {
		if t.j != nil && !t.Kept {
			parents[t.j.h.folder] = true
		}
	}
	folders := make([]string, 0, len(parents))
	for d := range parents {
		folders = append(folders, d)
	}
	removeFolders(folders...)
}

// removeFolders removes the homes' folders dirs that are empty (a folder
// that holds another project's journal stays), unless a transaction is
// writing or removing a journal in one (homesMu held for reading, as
// migrate's lanes of CommitAll do at once): that transaction removes them
// when it is done, and the run that skips them does not wait for it (a
// waiting Lock would hold up every other lane's prepare).
func removeFolders(dirs ...string) {
	if !homesMu.TryLock() {
		return
	}
	for _, d := range dirs {
		os.Remove(d) // fails while another project's journal is in it
	}
	homesMu.Unlock()
}

// prepare checks the transaction as Commit does before anything is
// written, then writes its journal's texts (prepare).
func (t *txState) prepare() (*opening, error) {
	plan := t.Plan
	root := plan.Root
	if err := confine(root, plan); err != nil {
		return nil, err
	}
	if err := checkPlan(plan); err != nil {
		return nil, err
	}
	h, herr := journalHome(root)
	if _, err := pendingIn(root, h, herr); err != nil {
		return nil, err
	}
	if err := plan.verify(OS, false); err != nil {
		return nil, err
	}
	// The journal's id tags the temporaries: any tag of its length checks
	// their names.
	if err := plan.preflight(newTag()); err != nil {
		return nil, err
	}
	return prepare(root, h, herr, t.Config, plan, t.Hook)
}

// abort takes the transaction out of the batch after err, once its
// journal is in place: done and durable but for some litter (a
// LeftoverError), it keeps its journal for the next run; else its steps
// are undone and its journal removed, or kept when the undo fails.
func (t *txState) abort(err error) {
	t.done.Store(true)
	j := t.j
	var le *LeftoverError
	if errors.As(err, &le) {
		// Done and durable: not undone for some litter. The journal
		// stays so that the next apply (Complete) removes what is left.
		j.close()
		t.Kept, t.Err = true, fmt.Errorf("%w; run fwmigrate apply again to remove them", err)
		return
	}
	j.note("rollback", 0)
	undone, uerr := t.Plan.Backward(t.x)
	if uerr != nil {
		j.close()
		t.Kept, t.Err = true, fmt.Errorf("%v; undoing what was written failed too (%v)", err, uerr)
		return
	}
	if ferr := j.Finish(); ferr != nil {
		t.Err = fmt.Errorf("%v; rolled back, but %v", err, ferr)
		return
	}
	msg := err.Error() + "; everything written was undone"
	if len(undone) > 0 {
		msg += " (kept as they are now: " + strings.Join(undone, ", ") + ")"
	}
	t.Err = errors.New(msg)
}

// refuseOverlaps fails (without running) every transaction whose root is
// an earlier one's of the batch, holds it or lies in it: their trees, and
// for one root their journal, would be one.
func refuseOverlaps(all []*txState) {
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) string { return all[i].Plan.Root }
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) < key(idx[b]) })
	refuse := func(i, other int) {
		all[i].Err = fmt.Errorf("%s and %s, committed at the same time, overlap: their trees would be one", key(i), key(other))
		all[i].done.Store(true)
	}
	// Sorted, a root is followed by those inside it, perhaps with others
	// between (/a, /a-b, /a/c): each is checked against the roots before
	// it that may hold it.
	var open []int
	for _, i := range idx {
		root := key(i)
		for len(open) > 0 && !strings.HasPrefix(root, key(open[len(open)-1])) {
			open = open[:len(open)-1]
		}
		for _, o := range open {
			if pathx.WithinClean(root, key(o)) {
				if o < i {
					refuse(i, o)
				} else {
					refuse(o, i)
				}
			}
		}
		open = append(open, i)
	}
}

// barrier makes the files and directories at paths durable (a file's
// data, a directory's entries): with one syncfs per file system when the
// system has it and there are syncBatch of them or more, else with an
// fsync of each, editWorkers at once (a file system commits the syncs
// that wait together in one go). A path given twice is synced once.
func barrier(paths []string) error { return syncPaths(paths, false, nil, false) }

// barrierFiles is barrier for files just created: each is on its
// folder's file system, which is looked up once a folder (and noted in
// devs, when set).
func barrierFiles(files []string, devs devices) error { return syncPaths(files, true, devs, false) }

// barrierDirs is barrier for the directories a run changed, of which
// those gone since (a folder its moves emptied) are left out; their file
// systems are looked up in devs first (barrierFiles noted the folders of
// the new files).
func barrierDirs(dirs []string, devs devices) error { return syncPaths(dirs, false, devs, true) }

// devices are the file systems of directories, as a run's barriers found
// them.
type devices map[string]device

type device struct {
	dev uint64
	ok  bool
}

func syncPaths(paths []string, byParent bool, devOf devices, missingOK bool) error {
	if len(paths) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(paths))
	var each []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			each = append(each, p)
		}
	}
	if hasSyncFS && len(each) >= syncBatch {
		if devOf == nil {
			devOf = devices{}
		}
		synced := map[uint64]bool{}
		rest := each[:0:0]
		for _, p := range each {
			at := p
			if byParent {
				at = filepath.Dir(p)
			}
			d, known := devOf[at]
			if !known {
				st, err := os.Lstat(at)
				if err != nil {
					if missingOK && errors.Is(err, fs.ErrNotExist) {
						continue
					}
					return err
				}
				d.dev, d.ok = deviceOf(st)
				devOf[at] = d
			}
			switch {
			case !d.ok:
				rest = append(rest, p)
			case !synced[d.dev]:
				synced[d.dev] = true
				if err := syncFS(at); err != nil {
					return err
				}
			}
		}
		each = rest
	}
	var (
		mu    sync.Mutex
		first error
	)
	par.ForN(len(each), editWorkers, func(k int) {
		err := syncDir(each[k]) // fsync, a file's or a directory's
		if missingOK && errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
		}
	})
	return first
}
