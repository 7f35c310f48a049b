package txn

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
)

// The steps of a plan's execution, each of which can be found done or not
// done by looking at the tree: a directory exists or not, an entry is at
// its old or its new path, a file holds its old or its new bytes. So the
// execution can be resumed (Forward) or undone (Backward) from whatever
// state an interruption left, any number of times: this is what a journal
// (journal.go) replays after a crash. The order forward:
//
//	mkdir   the directories the moves need, parents first
//	move    the renames
//	rmdir   the directories the moves emptied
//	edit    each edited file: its new bytes written to a temporary file
//	        beside it (synced), the file checked to hold its old bytes,
//	        a second name given to it (a hard link, its backup), then
//	        the temporary renamed over it
//	sync    the directories whose entries changed
//	backups the backups removed, once every step is durable
//
// and backward the reverse, edits first. A file that holds neither its old
// nor its new bytes was changed by someone else since the plan was made: it
// is never overwritten (ChangedError).
//
// The backup is what makes the undo of an edit already made need no new
// space: it is the file's old bytes under another name (the same inode,
// no data written), so the undo is one rename back, which works on a disk
// full for good. It is used only when it still holds the old bytes the
// plan (the journal) has and is a plain file; else, or where the file
// system has no hard links, the undo writes the old bytes to a temporary
// as the forward pass wrote the new ones. Every state a crash leaves is
// one of the plan's: the file always exists, holding its old or its new
// bytes, and a backup is only ever an extra name.

// Exec says how a plan is carried out.
type Exec struct {
	FS FS // nil: OS
	// Sync makes every step durable: a new file's data is synced before
	// it is renamed into place, directories after their entries changed.
	Sync bool
	// Tag names the temporary files: .<name>.fwmigrate-<Tag> beside the
	// file they replace. A journal keeps its tag (its id), so that
	// recovery finds what a crash left; Run picks a fresh one.
	Tag string
	// Hook, when set, is called at each point of the execution: before
	// each step ("mkdir", "move", "rmdir", "edit"; "undo-" and the same
	// going backward) with its index, between writing an edit's temporary
	// and renaming it ("replace", "undo-replace"), between giving the
	// file its backup and renaming the temporary over it ("kept"), before
	// the final
	// syncs ("sync", "undo-sync"), and before the backups of the old
	// texts are removed ("backups"). It may run concurrently for edits.
	Hook func(point string, i int)
	// Done, when set, records a step done ("edit", 3) or undone
	// ("undo-edit", 3). It may run concurrently for edits.
	Done func(step string, i int)
	// Resume says an execution with the same Tag may have been
	// interrupted: its temporaries are looked for and removed first.
	Resume bool

	changed func(i int) // Backward: edit i was changed since, and is kept
}

// newTag returns a fresh tag for the temporary files of one execution.
func newTag() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// tempName is the temporary file that replaces path in the execution
// tagged tag.
func tempName(path, tag string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".fwmigrate-"+tag)
}

// backupName is the second name path's old file keeps while the execution
// tagged tag may still be undone: the undo renames it back.
func backupName(path, tag string) string { return tempName(path, tag) + ".old" }

// noLinks reports an error of link(2) that says the file system (or its
// rules: protected_hardlinks, a file with too many links already) gives
// no second name, so that the edit goes on without a backup and its undo
// writes a temporary. Any other failure (a full disk, a folder not
// writable) fails the step like a write would.
func noLinks(err error) bool {
	for _, e := range []error{syscall.EPERM, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.ENOSYS, syscall.EXDEV, syscall.EMLINK, errors.ErrUnsupported} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

func (x *Exec) hook(point string, i int) {
	if x.Hook != nil {
		x.Hook(point, i)
	}
}

func (x *Exec) done(step string, i int) {
	if x.Done != nil {
		x.Done(step, i)
	}
}

// Run performs the plan without a journal: it checks that the tree is
// still as planned (the edited files included), then runs Forward, and on
// any failure undoes every step done (Backward) and returns the error; the
// tree is then as it was. A crash in between is not recovered: Commit is
// for trees that must survive one.
func (p *Plan) Run(x Exec) error {
	if x.FS == nil {
		x.FS = OS
	}
	if err := p.verify(x.FS, true); err != nil {
		return err
	}
	if x.Tag == "" {
		x.Tag = newTag()
	}
	if x.FS == OS {
		if err := p.preflight(x.Tag); err != nil {
			return err
		}
	}
	err := p.Forward(x)
	var le *LeftoverError
	if err == nil || errors.As(err, &le) {
		return err // done: a leftover is not undone for
	}
	if _, uerr := p.Backward(x); uerr != nil {
		return fmt.Errorf("%w; rolling back failed too, the tree needs repair by hand: %v", err, uerr)
	}
	return fmt.Errorf("%w (rolled back: nothing changed)", err)
}

// Forward performs every step of the plan not done yet, from any state an
// earlier Forward or Backward of the same plan and tag left: the leftover
// temporaries are removed first. It stops at the first step that fails.
func (p *Plan) Forward(x Exec) error {
	if x.FS == nil {
		x.FS = OS
	}
	if err := p.forwardEntries(x); err != nil {
		return err
	}
	if err := p.replaceAll(x, p.newPaths(), false); err != nil {
		return err
	}
	x.hook("sync", 0)
	if err := p.syncDirs(x); err != nil {
		return err
	}
	return p.forwardEnd(x)
}

// forwardEntries removes the temporaries an interrupted execution left
// (x.Resume), then makes the directories, the moves and the removals of
// the emptied directories: every step but the edits.
func (p *Plan) forwardEntries(x Exec) error {
	fsys := x.FS
	if err := p.cleanTemps(x); err != nil {
		return err
	}
	for i, d := range p.Mkdirs {
		x.hook("mkdir", i)
		if st, err := fsys.Lstat(d); err == nil && st.IsDir() {
			x.done("mkdir", i)
			continue
		}
		if err := fsys.Mkdir(d, 0o777); err != nil {
			return fmt.Errorf("creating %s: %w", p.shown(d), err)
		}
		x.done("mkdir", i)
	}
	for i, mv := range p.Moves {
		x.hook("move", i)
		switch state, err := p.moveState(fsys, mv); {
		case err != nil:
			return err
		case state == stateNew:
		default:
			if err := fsys.Rename(mv.From, mv.To); err != nil {
				return fmt.Errorf("moving %s to %s: %w", p.shown(mv.From), p.shown(mv.To), err)
			}
		}
		x.done("move", i)
	}
	for i, rd := range p.Rmdirs {
		d := rd.Path
		x.hook("rmdir", i)
		if _, err := fsys.Lstat(d); err == nil {
			if err := fsys.Remove(d); err != nil {
				return fmt.Errorf("removing the emptied %s: %w", p.shown(d), err)
			}
		}
		x.done("rmdir", i)
	}
	return nil
}

// newPaths are where the edited files are once the moves are done.
func (p *Plan) newPaths() []string {
	at := make([]string, len(p.Edits))
	for i, e := range p.Edits {
		at[i] = e.NewPath
	}
	return at
}

// forwardEnd removes the backups of the old texts once every step is
// durable (the directories synced): a failure is a LeftoverError.
func (p *Plan) forwardEnd(x Exec) error {
	x.hook("backups", 0)
	if err := p.removeBackups(x); err != nil {
		return &LeftoverError{Err: err}
	}
	return nil
}

// Backward undoes every step of the plan that is done, from any state a
// Forward or Backward of the same plan and tag left, and removes the
// leftover temporaries. The tree is then as the plan found it, but for the
// edited files someone changed since (a ChangedError going forward): they
// are kept as they are, and listed in kept. It stops at the first step
// that fails.
func (p *Plan) Backward(x Exec) (kept []string, err error) {
	if x.FS == nil {
		x.FS = OS
	}
	fsys := x.FS
	if err := p.cleanTemps(x); err != nil {
		return nil, err
	}
	// Before the moves are undone, a file is at its new path if it moved
	// at all.
	at := make([]string, len(p.Edits))
	for i, e := range p.Edits {
		at[i] = e.NewPath
		if _, err := fsys.Lstat(at[i]); err != nil {
			at[i] = e.Path
		}
	}
	var mu sync.Mutex
	x.changed = func(i int) {
		mu.Lock()
		kept = append(kept, p.shown(p.Edits[i].Path))
		mu.Unlock()
	}
	err = p.replaceAll(x, at, true)
	sort.Strings(kept)
	if err != nil {
		return kept, err
	}
	// Before the moves are undone: a backup left beside a file (one the
	// forward pass linked but did not replace, or a kept file's) goes,
	// and no folder the undo removes or moves holds one.
	if err := p.removeBackups(x); err != nil {
		return kept, err
	}
	return kept, p.backwardEntries(x)
}

// LeftoverError is a Forward that made every step of its plan durable but
// could not remove every backup of the old texts: the tree is as the plan
// makes it, and is not rolled back for that; a later Forward (apply again)
// removes them.
type LeftoverError struct{ Err error }

func (e *LeftoverError) Error() string {
	return "every change is written, but the old copies of the edited files were not all removed: " + e.Err.Error()
}

func (e *LeftoverError) Unwrap() error { return e.Err }

// removeBackups removes the backups of x.Tag beside every edited file, at
// its old and its new path: all it can, then the first failure.
func (p *Plan) removeBackups(x Exec) error {
	var first error
	for _, e := range p.Edits {
		for k, path := range []string{e.NewPath, e.Path} {
			if k == 1 && path == e.NewPath {
				break
			}
			b := backupName(path, x.Tag)
			if _, err := x.FS.Lstat(b); err != nil {
				continue
			}
			if err := x.FS.Remove(b); err != nil && first == nil {
				first = fmt.Errorf("removing the old copy of %s (%s): %w", p.shown(path), filepath.Base(b), err)
			}
		}
	}
	return first
}

// backup reports whether path's backup holds old: a plain file, read
// whole and compared with what the plan (the journal) holds, so that a
// backup that is anything else (changed in place, replaced) is never
// renamed over a file.
func (p *Plan) backup(x Exec, path string, old []byte) bool {
	b := backupName(path, x.Tag)
	st, err := x.FS.Lstat(b)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	data, err := x.FS.ReadFile(b)
	return err == nil && bytes.Equal(data, old)
}

// keepOld gives path, which holds its old text, its backup: a hard link,
// so no data is written, and reports whether it made one. A stale backup
// (an interrupted pass's: x.Resume) is replaced; a fresh tag has none.
// Where the file system gives no second name the edit goes on without
// one.
func (p *Plan) keepOld(x Exec, path string) (bool, error) {
	b := backupName(path, x.Tag)
	if x.Resume {
		if _, err := x.FS.Lstat(b); err == nil {
			if err := x.FS.Remove(b); err != nil {
				return false, fmt.Errorf("writing %s: %w", p.shown(path), err)
			}
		}
	}
	if err := x.FS.Link(path, b); err != nil {
		if noLinks(err) {
			return false, nil
		}
		return false, fmt.Errorf("writing %s: %w", p.shown(path), err)
	}
	return true, nil
}

// backwardEntries undoes the rmdirs, moves and mkdirs.
func (p *Plan) backwardEntries(x Exec) error {
	fsys := x.FS
	for i := len(p.Rmdirs) - 1; i >= 0; i-- {
		d := p.Rmdirs[i].Path
		x.hook("undo-rmdir", i)
		if _, err := fsys.Lstat(d); err != nil {
			mode := p.Rmdirs[i].Mode.Perm()
			if err := fsys.Mkdir(d, mode); err != nil {
				return fmt.Errorf("restoring %s: %w", p.shown(d), err)
			}
			if err := fsys.Chmod(d, mode); err != nil {
				return fmt.Errorf("restoring %s: %w", p.shown(d), err)
			}
		}
		x.done("undo-rmdir", i)
	}
	for i := len(p.Moves) - 1; i >= 0; i-- {
		mv := p.Moves[i]
		x.hook("undo-move", i)
		switch state, err := p.moveState(fsys, mv); {
		case err != nil:
			return err
		case state == stateNew:
			if err := fsys.Rename(mv.To, mv.From); err != nil {
				return fmt.Errorf("moving %s back to %s: %w", p.shown(mv.To), p.shown(mv.From), err)
			}
		}
		x.done("undo-move", i)
	}
	for i := len(p.Mkdirs) - 1; i >= 0; i-- {
		d := p.Mkdirs[i]
		x.hook("undo-mkdir", i)
		if _, err := fsys.Lstat(d); err == nil {
			if err := fsys.Remove(d); err != nil {
				return fmt.Errorf("removing the created %s: %w", p.shown(d), err)
			}
		}
		x.done("undo-mkdir", i)
	}
	x.hook("undo-sync", 0)
	return p.syncDirs(x)
}

type entryState uint8

const (
	stateOld entryState = iota // at its old path
	stateNew                   // at its new path
)

// moveState tells where a moved entry is now.
func (p *Plan) moveState(fsys FS, mv Move) (entryState, error) {
	_, errFrom := fsys.Lstat(mv.From)
	_, errTo := fsys.Lstat(mv.To)
	switch {
	case errFrom == nil && errors.Is(errTo, fs.ErrNotExist):
		return stateOld, nil
	case errTo == nil && errors.Is(errFrom, fs.ErrNotExist):
		return stateNew, nil
	case errFrom == nil:
		return 0, fmt.Errorf("%s and %s both exist: cannot tell whether it moved", p.shown(mv.From), p.shown(mv.To))
	case errors.Is(errFrom, fs.ErrNotExist) && errors.Is(errTo, fs.ErrNotExist):
		return 0, fmt.Errorf("%s is gone: neither %s nor %s exists", p.shown(mv.From), p.shown(mv.From), p.shown(mv.To))
	case errTo != nil && !errors.Is(errTo, fs.ErrNotExist):
		return 0, errTo
	}
	return 0, errFrom
}

// syncBatch is the number of edits from which their temporaries are synced
// all at once (SyncFS, one barrier for the transaction's data) rather than
// each before its rename. On this machine's ext4 one syncfs took 4.3 ms
// for what 9 concurrent fsyncs of small files and 17 of directories took
// 10.4 ms (and five in a row 12.9 ms): a file system commits a sync of
// everything about as fast as one of a file. The tests set it higher to
// keep the one-by-one way tested.
var syncBatch = 2

// replaceAll makes each edited file, at at[i], hold its new bytes (back:
// its old ones) when it holds its old (back: new) ones. The new bytes are
// written to a temporary file beside it (synced with x.Sync), then the file
// is read right before the rename and must still hold what the plan read:
// a save since is never lost. A file already holding what is wanted is
// left alone; one holding anything else is a ChangedError (going back, it
// is reported to x.changed and kept).
//
// Few edits are done one by one, each temporary synced before its rename.
// Many are done in two passes when the system can sync a whole file system:
// every temporary written, one SyncFS, then every check and rename.
func (p *Plan) replaceAll(x Exec, at []string, back bool) error {
	r := p.newReplacer(x, at, back)
	if x.Sync && len(p.Edits) >= syncBatch && hasSyncFS && p.oneFileSystem(x.FS, parents(at)) {
		if err := r.stageAll(); err != nil {
			return err
		}
		if err := x.FS.SyncFS(p.Root); err != nil {
			p.removeTemps(x, at)
			return fmt.Errorf("syncing the new files: %w", err)
		}
		return r.swapAll()
	}
	return p.eachEdit(x, x.Sync, func(i int, e *Edit) error {
		if err := r.stage(i, x.Sync); err != nil {
			return err
		}
		return r.swap(i)
	})
}

// A replacer carries the edits of one pass (forward, or back) through
// their two steps: stage, which writes the temporary that replaces a file
// (or finds the file done, or changed), and swap, which checks the file
// again and renames the temporary over it.
type replacer struct {
	p             *Plan
	x             Exec
	at            []string
	back          bool
	edit, replace string // the hook's points
	staged        []bool // a temporary (or, back, a backup) waits for the swap
	restore       []bool // back: the swap renames the backup back
	linked        []bool // forward: the swap gave the old file its backup
	// perm: a fresh pass's temporaries take the plan's modes (no look at
	// the file before the swap, which reads its mode with its bytes).
	perm []fs.FileMode
	// fresh: a forward pass of a fresh tag (not x.Resume), which stages
	// every edit without reading it first: the swap reads it anyway.
	fresh bool
}

func (p *Plan) newReplacer(x Exec, at []string, back bool) *replacer {
	r := &replacer{p: p, x: x, at: at, back: back, edit: "edit", replace: "replace",
		staged: make([]bool, len(p.Edits)), restore: make([]bool, len(p.Edits)), linked: make([]bool, len(p.Edits)),
		perm: make([]fs.FileMode, len(p.Edits)), fresh: !back && !x.Resume}
	if back {
		r.edit, r.replace = "undo-edit", "undo-replace"
	}
	return r
}

func (r *replacer) texts(e *Edit) (have, want []byte) {
	if r.back {
		return e.New, e.Old
	}
	return e.Old, e.New
}

// needs reads the file first: one that holds its target already is done,
// one that holds neither text was changed by someone else (kept going
// backward); only a file that holds the text to replace gets a temporary.
// So an undo writes nothing beside a file the forward pass never reached
// (where that pass failed, a full disk or a folder it cannot write, it
// would fail again).
func (r *replacer) needs(i int, e *Edit) (bool, error) {
	p, x, at := r.p, r.x, r.at
	have, want := r.texts(e)
	cur, err := x.FS.ReadFile(at[i])
	switch {
	case err != nil:
		return false, fmt.Errorf("writing %s: %w", p.shown(at[i]), err)
	case bytes.Equal(cur, have):
		return true, nil
	case bytes.Equal(cur, want):
		x.done(r.edit, i)
		return false, nil
	case r.back && x.changed != nil:
		x.changed(i)
		return false, nil
	}
	return false, &ChangedError{Path: p.rel(at[i])}
}

// stage writes edit i's temporary (synced with sync), when the file needs
// one.
func (r *replacer) stage(i int, sync bool) error {
	p, x, at := r.p, r.x, r.at
	e := &p.Edits[i]
	x.hook(r.edit, i)
	if !r.fresh {
		need, err := r.needs(i, e)
		if err != nil || !need {
			return err
		}
	}
	r.staged[i] = true
	if r.back && p.backup(x, at[i], e.Old) {
		r.restore[i] = true // a rename back: nothing to write
		return nil
	}
	_, want := r.texts(e)
	// The new file takes the permission bits of the one it replaces, as
	// it is now: never a mode the file did not have, whatever the plan (a
	// journal) says, and never set-user-ID, set-group-ID or sticky. A
	// fresh pass takes the plan's, which the swap checks against the
	// file's (read with its bytes) before the rename.
	perm := e.Mode.Perm()
	if !r.fresh {
		st, err := x.FS.Lstat(at[i])
		if err != nil {
			return fmt.Errorf("writing %s: %w", p.shown(at[i]), err)
		}
		perm = st.Mode().Perm()
	}
	r.perm[i] = perm
	if err := x.FS.WriteNew(tempName(at[i], x.Tag), want, perm, sync); err != nil {
		return fmt.Errorf("writing %s: %w", p.shown(at[i]), err)
	}
	return nil
}

// swap puts edit i's staged temporary (or backup) in place.
func (r *replacer) swap(i int) error {
	if !r.staged[i] {
		return nil
	}
	p, x := r.p, r.x
	e := &p.Edits[i]
	x.hook(r.replace, i)
	have, want := r.texts(e)
	var err error
	if r.restore[i] {
		err = p.swapBack(x, r.at[i], have, want)
	} else {
		err = p.swap(x, i, r.at[i], have, want, !r.back, &r.linked[i], r.perm[i])
	}
	var ce *ChangedError
	if r.back && x.changed != nil && errors.As(err, &ce) {
		x.changed(i)
		return nil
	}
	if err == nil {
		x.done(r.edit, i)
	}
	return err
}

// stageAll stages every edit, unsynced: the caller makes the temporaries
// durable at once (a SyncFS, or temps synced one by one) before swapAll.
// On failure no temporary is left.
func (r *replacer) stageAll() error {
	if err := r.p.eachEdit(r.x, false, func(i int, e *Edit) error { return r.stage(i, false) }); err != nil {
		r.p.removeTemps(r.x, r.at)
		return err
	}
	return nil
}

// temps are the temporaries stageAll wrote.
func (r *replacer) temps() []string {
	var out []string
	for i, ok := range r.staged {
		if ok && !r.restore[i] {
			out = append(out, tempName(r.at[i], r.x.Tag))
		}
	}
	return out
}

// removeLinked removes the backups the swaps made (CommitAll's
// forwardEnd: the pass was fresh, so no other backup is there): all it
// can, then the first failure, a LeftoverError.
func (r *replacer) removeLinked() error {
	r.x.hook("backups", 0)
	var first error
	for i, ok := range r.linked {
		if !ok {
			continue
		}
		if err := r.x.FS.Remove(backupName(r.at[i], r.x.Tag)); err != nil && first == nil {
			first = fmt.Errorf("removing the old copy of %s (%s): %w", r.p.shown(r.at[i]), filepath.Base(backupName(r.at[i], r.x.Tag)), err)
		}
	}
	if first != nil {
		return &LeftoverError{Err: first}
	}
	return nil
}

// swapAll swaps every staged edit. On failure the edits not reached keep
// no temporary, which the rollback's own (same name, created exclusively)
// would collide with.
func (r *replacer) swapAll() error {
	if err := r.p.eachEdit(r.x, false, func(i int, e *Edit) error { return r.swap(i) }); err != nil {
		r.p.removeTemps(r.x, r.at)
		return err
	}
	return nil
}

// swap renames the temporary beside path over it when path holds have, and
// removes the temporary otherwise: path holds want already (done), or
// something else (a ChangedError). With keep (going forward), path's file
// gets its backup first (linked says it did). The temporary was written
// with the permission bits perm: when the file's are others now (changed
// since the plan read them), it is written again with the file's, synced.
func (p *Plan) swap(x Exec, i int, path string, have, want []byte, keep bool, linked *bool, perm fs.FileMode) error {
	fsys := x.FS
	tmp := tempName(path, x.Tag)
	cur, mode, err := fsys.ReadFileMode(path)
	switch {
	case err != nil:
		err = fmt.Errorf("writing %s: %w", p.shown(path), err)
	case bytes.Equal(cur, have):
		if mode != perm {
			if err = fsys.Remove(tmp); err == nil {
				err = fsys.WriteNew(tmp, want, mode, true)
			}
			if err != nil {
				err = fmt.Errorf("writing %s: %w", p.shown(path), err)
				break
			}
		}
		if keep {
			if *linked, err = p.keepOld(x, path); err == nil {
				x.hook("kept", i)
			}
		}
		if err == nil {
			if err = fsys.Rename(tmp, path); err == nil {
				return nil
			}
			err = fmt.Errorf("writing %s: %w", p.shown(path), err)
		}
	case !bytes.Equal(cur, want):
		err = &ChangedError{Path: p.rel(path)}
	}
	if rerr := fsys.Remove(tmp); err == nil {
		err = rerr // already done: only the temporary to remove
	}
	return err
}

// swapBack renames path's backup (checked to hold want) over it when path
// holds have: the undo of an edit made, which writes nothing. A path that
// holds want already is done, one that holds anything else a ChangedError;
// the backup stays for removeBackups.
func (p *Plan) swapBack(x Exec, path string, have, want []byte) error {
	cur, err := x.FS.ReadFile(path)
	switch {
	case err != nil:
		return fmt.Errorf("writing %s: %w", p.shown(path), err)
	case bytes.Equal(cur, have):
		if err := x.FS.Rename(backupName(path, x.Tag), path); err != nil {
			return fmt.Errorf("writing %s: %w", p.shown(path), err)
		}
		return nil
	case bytes.Equal(cur, want):
		return nil
	}
	return &ChangedError{Path: p.rel(path)}
}

// removeTemps removes the temporaries a failed pass of the batched edits
// left.
func (p *Plan) removeTemps(x Exec, at []string) {
	for _, path := range at {
		x.FS.Remove(tempName(path, x.Tag))
	}
}

// editWorkers is how many edits are written at once. Most of a durable
// write is waiting for the disk, and a file system commits the syncs that
// wait together in one go, so it is far more than the CPUs.
const editWorkers = 32

// eachEdit runs fn on every edit, on editWorkers workers when each write
// waits for its sync (synced), else on GOMAXPROCS, until one fails; it
// returns the first error.
func (p *Plan) eachEdit(x Exec, synced bool, fn func(i int, e *Edit) error) error {
	workers := runtime.GOMAXPROCS(0)
	if synced {
		workers = editWorkers
	}
	if workers > len(p.Edits) {
		workers = len(p.Edits)
	}
	var (
		next   atomic.Int64
		failed atomic.Bool
		mu     sync.Mutex
		first  error
		wg     sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(p.Edits) {
					return
				}
				if err := fn(i, &p.Edits[i]); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// cleanTemps removes the temporaries of x.Tag that an interrupted
// execution left (x.Resume): beside each edited file at its old and its
// new path (a moved directory takes them along).
func (p *Plan) cleanTemps(x Exec) error {
	if !x.Resume {
		return nil
	}
	for _, e := range p.Edits {
		for _, path := range []string{e.Path, e.NewPath} {
			tmp := tempName(path, x.Tag)
			if _, err := x.FS.Lstat(tmp); err != nil {
				continue
			}
			if err := x.FS.Remove(tmp); err != nil {
				return fmt.Errorf("removing the temporary %s: %w", p.shown(tmp), err)
			}
		}
	}
	return nil
}

// oneFileSystem reports whether the directories dirs are all on the file
// system of the plan's root, which one SyncFS(root) makes durable.
func (p *Plan) oneFileSystem(fsys FS, dirs []string) bool {
	st, err := fsys.Lstat(p.Root)
	if err != nil {
		return false
	}
	root, ok := deviceOf(st)
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		st, err := fsys.Lstat(d)
		if err != nil {
			return false
		}
		if dev, ok := deviceOf(st); !ok || dev != root {
			return false
		}
	}
	return true
}

// parents are the directories of paths.
func parents(paths []string) []string {
	out := make([]string, len(paths))
	for i, path := range paths {
		out[i] = filepath.Dir(path)
	}
	return out
}

// syncDirs syncs every directory whose entries the plan changes, when
// x.Sync: with one SyncFS when they are all on the root's file system and
// the system has it, else each directory (concurrently).
func (p *Plan) syncDirs(x Exec) error {
	if !x.Sync {
		return nil
	}
	dirs := p.changedDirs(x.FS)
	if hasSyncFS && len(dirs) > 1 && p.oneFileSystem(x.FS, dirs) {
		if err := x.FS.SyncFS(p.Root); err != nil {
			return fmt.Errorf("syncing the directories: %w", err)
		}
		return nil
	}
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  atomic.Int64
	)
	for w := 0; w < min(editWorkers, len(dirs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(dirs) {
					return
				}
				if err := x.FS.SyncDir(dirs[i]); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("syncing %s: %w", p.shown(dirs[i]), err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// changedDirs are the directories whose entries the plan changes that
// exist now, sorted.
func (p *Plan) changedDirs(fsys FS) []string {
	var dirs []string
	for _, d := range p.touchedDirs() {
		if _, err := fsys.Lstat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// touchedDirs are the directories whose entries the plan changes, going
// forward or back, sorted, whether they exist now or not.
func (p *Plan) touchedDirs() []string { return p.dirsChanged(true) }

// forwardDirs are the directories whose entries a forward pass changes,
// sorted: touchedDirs but the folders of the edited files' old paths. An
// edit is written where the moves put its file (NewPath's folder); its old
// path's folder changes only by a move of the file itself (whose From's
// folder is here), else it moved whole with its entries as they were, and
// is gone from where it was: CommitAll's barrier need not look for it.
func (p *Plan) forwardDirs() []string { return p.dirsChanged(false) }

func (p *Plan) dirsChanged(back bool) []string {
	seen := map[string]bool{}
	add := func(path string) { seen[filepath.Dir(path)] = true }
	for _, d := range p.Mkdirs {
		add(d)
	}
	for _, mv := range p.Moves {
		add(mv.From)
		add(mv.To)
	}
	for _, d := range p.Rmdirs {
		add(d.Path)
	}
	for _, e := range p.Edits {
		if back {
			add(e.Path)
		}
		add(e.NewPath)
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}
