package txn

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// The journal of a transaction, as databases and `git rebase` keep one.
// Before the first write to a tree, Commit records everything the plan
// will do under its root in the journal's home, outside the tree
// (home.go): every directory created and removed, every move, every edited
// file with the hash, length and bytes of its old and its new text. The
// record is synced and renamed into place (it exists whole or not at all),
// then the steps run (Forward), each noted in a progress file beside it as
// it is done, and the journal goes once every step is durable. A crash, a
// kill or a full disk in between leaves the journal: apply sees it first
// on every later run (Pending), and completes the steps (Open, then
// Complete) or, with --rollback, undoes them (Undo); check reports it. The
// steps are found done or not by looking at the tree, so the progress
// file is a record for people, not a source of truth, and needs no sync of
// its own (CommitAll writes it only for a journal that stays, or whose
// rollback begins: one removed at the end of its run takes it along).
//
// The format is text, one step a line, paths quoted as Go quotes them and
// relative to the root, then the line "data" and the old and new bytes of
// each edit, one after the other, in the order of the edit lines:
//
//	fwmigrate journal 2
//	id 3f9c0a6e1b2d4c58a1e0b7c6d5f4e3a2
//	root "/home/me/shop"
//	config "fw.config.ts"
//	mkdir "app"
//	move "components" "app/components" dir
//	rmdir "src" 0755
//	edit "server/api/a.ts" "server/api/a.ts" 0644 <sha256 old> <len old> <sha256 new> <len new>
//	data
//	<bytes>
//
// The id is the run's, random, and the tag of its temporary files
// (Exec.Tag); root is the tree's, symlinks resolved; config names the
// file the run was for (apply: the project's config), for people. Modes
// are permission bits only.
//
// Whatever its home, a journal is checked whole before a step runs
// (decodeJournal, checkPlan): every path lies inside the root, through no
// symlink, and below no .git; no mode has the set-user-ID, set-group-ID
// or sticky bit; and the steps hang together as apply plans them (an
// edited file is where the moves put it, a directory is created only for
// a move into it and removed only when a move emptied it).

const journalMagic = "fwmigrate journal 2"

// Journal is the journal of one transaction, in its home.
type Journal struct {
	root   string // the plan's root: absolute, symlinks resolved
	h      *home  // where its files are (journalHome)
	id     string
	config string // relative to root
	plan   *Plan
	hook   func(point string, i int)

	mu   sync.Mutex
	prog *os.File // the progress file, appended
	// buffered: the notes wait in buf for flush (CommitAll, which keeps
	// no file open per transaction), but for a rollback's, written at
	// once (RollingBack reads it).
	buffered bool
	buf      []byte
	wrote    bool // a progress file was made (clean removes it)
}

// Commit performs plan through a journal in the journal's home (outside
// the tree, home.go), config naming what the run is for (apply: the
// project's config, relative to the root). It first checks that every
// path of the plan stays inside the root and out of .git, that the plan
// hangs together (checkPlan), that no journal is pending or refused, and
// that the tree is still as planned. A failure undoes what was done; when
// even that fails, the journal stays (kept) for a later run to complete
// (Open, Complete) or undo (Open, Undo).
//
// hook, when set (by tests), is called at every point of the run:
// "journal" once the journal is durable, the points of Exec.Hook, and
// "cleanup" before the journal is removed. The crash tests end the process
// there.
//
// Commit is CommitAll of one transaction.
func Commit(plan *Plan, config string, hook func(point string, i int)) (kept bool, err error) {
	t := &Tx{Plan: plan, Config: config, Hook: hook}
	CommitAll([]*Tx{t}, nil)
	return t.Kept, t.Err
}

// homesMu orders the writing and removing of journals in the homes' folder
// (read-locked: many at once) and the removal of that folder once it is
// empty (locked, removeFolders), between the transactions of one process.
var homesMu sync.RWMutex

// betweenHomes, when set (by a test), runs in prepare between the creation
// of the homes' folder and of the journal's first file in it: where another
// transaction's Finish would remove the folder if nothing ordered them.
var betweenHomes func(parent string)

// begin records plan (whose paths lie inside root) durably in the
// journal's home, and binds it to this run: the run record (home.go) is
// written first, then the journal. A journal already there (today's, or one
// in the layout of earlier versions) is refused: another apply is running,
// or an interrupted one must be completed first. Both are private to the
// user (0700, 0600).
//
// It is the steps of CommitAll's beginning for one journal: prepare, then
// the two barriers and the rename between them.
func begin(root, config string, plan *Plan, hook func(string, int)) (*Journal, error) {
	h, herr := journalHome(root)
	o, err := prepare(root, h, herr, config, plan, hook)
	if err != nil {
		return nil, err
	}
	if err := syncAll(o.texts()...); err != nil {
		return nil, o.fail(err)
	}
	if err := o.placeJournal(); err != nil {
		return nil, err
	}
	if err := syncAll(o.places()...); err != nil {
		return nil, o.fail(err)
	}
	if err := o.open(); err != nil {
		return nil, err
	}
	return o.j, nil
}

// An opening is a journal being begun: its run record is written in its
// place and its text beside its place (tmp), neither synced yet. Two
// barriers make it durable (CommitAll puts those of many journals
// together): both texts synced with the record's directory (texts), then
// the journal renamed into place (so that a journal on disk always has its
// record) and the homes' folder synced with the folder holding it
// (places). The record is written in place, not renamed there: no journal
// is in place while it is written (Pending, and prepare, say so), and a
// record without its journal binds nothing; a torn one left by a crash is
// replaced by the next run.
type opening struct {
	j   *Journal
	rec string // the run record
	// recFile: the record is a file (writeRecord), synced as the
	// journal's text is; a link is synced with its directory.
	recFile bool
	// made are the directories whose entries prepare changed by making a
	// folder in them (mkdirAll): those above the record's in texts, those
	// above the homes' folder in places. stale: prepare removed a progress
	// file of an earlier run, whose removal must be durable before a
	// journal is in place beside it (it could say that a rollback began).
	recMade, homeMade []string
	stale             bool
	placed            bool // the journal is renamed into place
}

// texts are what the first barrier makes durable: the record and the
// journal's text, and the folders whose entries name the record (and the
// homes' folder when a stale progress file left it).
func (o *opening) texts() []string {
	out := append([]string{o.j.h.tmp, filepath.Dir(o.rec)}, o.recMade...)
	if o.recFile {
		out = append(out, o.rec)
	}
	if o.stale {
		out = append(out, o.j.h.folder)
	}
	return out
}

// places are what the second barrier makes durable once the journal is
// renamed into place: the homes' folder, which names it, and the folder
// that holds the homes' folder (made by this run or another one whose
// barrier may be still to come), and any folder made above.
func (o *opening) places() []string {
	return append([]string{o.j.h.folder, filepath.Dir(o.j.h.folder)}, o.homeMade...)
}

// prepare writes plan's run record in its place and its journal's text
// beside its place in the homes' folder (h, journalHome's answer for root
// with herr), making the folders, unsynced.
func prepare(root string, h *home, herr error, config string, plan *Plan, hook func(string, int)) (*opening, error) {
	j := &Journal{root: root, id: newTag(), config: config, plan: plan, hook: hook}
	wrap := func(err error) (*opening, error) { return nil, fmt.Errorf("cannot write the journal: %w", err) }
	if herr != nil {
		return wrap(herr)
	}
	rec, err := runRecord(root)
	if err != nil {
		return wrap(err)
	}
	j.h = h
	o := &opening{j: j, rec: rec}
	data, err := j.encode()
	if err != nil {
		return wrap(err)
	}
	// Under homesMu (read): another project's Finish removes the homes'
	// folder when it is empty (apply writes many projects at once), which
	// must not happen between its creation and the journal's text in it.
	homesMu.RLock()
	err = o.write(data)
	homesMu.RUnlock()
	if err != nil {
		return nil, o.fail(err)
	}
	return o, nil
}

// write makes the folders of the opening's files, checks that no journal
// is there, and writes the run record and the journal's text (data).
func (o *opening) write(data []byte) error {
	h := o.j.h
	var err error
	if o.homeMade, err = mkdirAll(h.folder); err != nil {
		return err
	}
	if o.recMade, err = mkdirAll(filepath.Dir(o.rec)); err != nil {
		return err
	}
	if betweenHomes != nil {
		betweenHomes(h.folder)
	}
	old := h.oldHome()
	for _, p := range []string{h.journal, old.journal} {
		if exists(p) {
			return &existsError{p}
		}
	}
	// An apply stopped before its journal was complete, or after it was
	// removed, wrote nothing else: what it left goes (an earlier
	// version's left its folder).
	if exists(h.progress) { // looked up first: an unlink locks the folder
		o.stale = os.Remove(h.progress) == nil
	}
	if exists(old.own) {
		if err := os.RemoveAll(old.own); err != nil {
			return err
		}
	}
	os.Remove(o.rec) // an earlier run's, whose journal is gone
	if o.recFile, err = writeRecord(o.rec, data); err != nil {
		return err
	}
	// The text is the first file of the run in the homes' folder: until
	// it is there, another process's run that ends removes the folder
	// when it finds it empty (homesMu orders this process's runs only),
	// and the folder is made again.
	for try := 0; ; try++ {
		err = writeNew(h.tmp, data, 0o600, false)
		if errors.Is(err, fs.ErrExist) {
			if err = os.Remove(h.tmp); err == nil {
				err = writeNew(h.tmp, data, 0o600, false)
			}
		}
		if !errors.Is(err, fs.ErrNotExist) || try == 2 {
			return err
		}
		made, merr := mkdirAll(h.folder)
		if merr != nil {
			return merr
		}
		o.homeMade = append(o.homeMade, made...)
	}
}

// syncRemovals makes the removal of journals from the folders dirs
// durable: each folder synced, or, where another process's run removed it
// since (it was empty: the removals were made), the folder that held it.
func syncRemovals(dirs []string) error {
	seen := map[string]bool{}
	var each []string // a thousand journals share a folder
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			each = append(each, d)
		}
	}
	for try := 0; ; try++ {
		at := make([]string, len(each))
		for i, d := range each {
			at[i] = d
			if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
				at[i] = filepath.Dir(d)
			}
		}
		err := barrier(at)
		if !errors.Is(err, fs.ErrNotExist) || try == 2 {
			return err
		}
	}
}

// existsError is a journal found where a run writes its own.
type existsError struct{ path string }

func (e *existsError) Error() string {
	return e.path + " exists: another apply is running in this project, or one was interrupted (run fwmigrate apply again to finish it)"
}

// mkdirAll makes the folder d, and those above it that are missing
// (0700), and returns the directories whose entries it changed: the
// parent of each folder it made.
func mkdirAll(d string) ([]string, error) {
	// A stat first, as os.MkdirAll: the folder is there but for the first
	// transaction, and a mkdir that fails still locks its parent.
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return nil, nil
	}
	err := os.Mkdir(d, 0o700)
	switch {
	case err == nil:
		return []string{filepath.Dir(d)}, nil
	case errors.Is(err, fs.ErrExist):
		if st, serr := os.Stat(d); serr != nil || !st.IsDir() {
			return nil, err
		}
		return nil, nil
	case !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d:
		return nil, err
	}
	made, err := mkdirAll(filepath.Dir(d))
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return append(made, filepath.Dir(d)), nil
}

// fail removes what the opening wrote but the run record (the next run's
// replaces it), and returns err as the journal's; a journal found there
// (existsError) stays, and is said as it is.
func (o *opening) fail(err error) error {
	h := o.j.h
	var ee *existsError
	if errors.As(err, &ee) {
		return err
	}
	os.Remove(h.tmp)
	if o.placed {
		os.Remove(h.journal)
	}
	removeFolders(h.folder)
	return fmt.Errorf("cannot write the journal: %w", err)
}

// placeJournal renames the synced journal into place, once its run record
// is durable.
func (o *opening) placeJournal() error {
	if err := os.Rename(o.j.h.tmp, o.j.h.journal); err != nil {
		return o.fail(err)
	}
	o.placed = true
	return nil
}

// open opens the progress file of the journal, durable in its place, and
// calls the hook's "journal".
func (o *opening) open() error {
	var err error
	if o.j.prog, err = os.OpenFile(o.j.h.progress, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err != nil {
		return o.fail(err)
	}
	o.j.callHook("journal", 0)
	return nil
}

// syncAll makes the files and directories at paths durable (their data,
// their entries): barrier's way.
func syncAll(paths ...string) error { return barrier(paths) }

// Open reads the journal an interrupted run left for root, to complete or
// undo it; hook is Commit's. The journal must be bound to this user's run
// and pass every check (readJournal): one that does not, or one in the
// tree, is a *RefusedError and nothing runs.
func Open(root string, hook func(point string, i int)) (*Journal, error) {
	if _, err := Pending(root); err != nil {
		return nil, err
	}
	h, err := journalHome(root)
	if err != nil {
		return nil, err
	}
	if at := pendingHome(h); at != nil {
		h = at
	}
	j, err := readJournal(root, h)
	if err != nil {
		return nil, err
	}
	j.hook = hook
	// Without the progress file the steps still run: it is a record for
	// people, and the tree says what is done.
	if prog, err := os.OpenFile(h.progress, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
		j.prog = prog
	}
	return j, nil
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.h.journal }

// Complete performs the steps of the journal's plan that the interrupted
// run did not, from whatever state it left. On failure the journal stays;
// on success Finish removes it.
func (j *Journal) Complete() error {
	x := j.exec()
	x.Resume = true
	if err := j.plan.Forward(x); err != nil {
		j.close()
		return err
	}
	return nil
}

// Undo undoes the steps of the journal's plan that are done, and notes in
// the journal that a rollback began (RollingBack). The edited files that
// changed since are kept as they are, and listed. On failure the journal
// stays; on success Finish removes it.
func (j *Journal) Undo() (kept []string, err error) {
	j.note("rollback", 0)
	x := j.exec()
	x.Resume = true
	kept, err = j.plan.Backward(x)
	if err != nil {
		j.close()
	}
	return kept, err
}

func (j *Journal) callHook(point string, i int) {
	if j.hook != nil {
		j.hook(point, i)
	}
}

// exec is how the journal's steps run: durably, with its temporaries'
// tag, each step noted as done.
func (j *Journal) exec() Exec {
	return Exec{Sync: true, Tag: j.id, Hook: j.hook, Done: j.note}
}

// note appends one line to the progress file.
func (j *Journal) note(step string, i int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.buffered {
		j.buf = fmt.Appendf(j.buf, "%s %d\n", step, i)
		if step == "rollback" {
			j.flushLocked()
		}
		return
	}
	if j.prog != nil {
		fmt.Fprintf(j.prog, "%s %d\n", step, i)
	}
}

// flush appends the buffered notes to the progress file.
func (j *Journal) flush() {
	j.mu.Lock()
	j.flushLocked()
	j.mu.Unlock()
}

func (j *Journal) flushLocked() {
	if len(j.buf) == 0 {
		return
	}
	if f, err := os.OpenFile(j.h.progress, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
		j.wrote = true
		f.Write(j.buf)
		f.Close()
	}
	j.buf = j.buf[:0]
}

// RollingBack reports whether a rollback of this journal was started: a
// later plain apply goes on with it rather than redo what was undone.
func (j *Journal) RollingBack() bool {
	b, err := os.ReadFile(j.h.progress)
	return err == nil && (bytes.HasPrefix(b, []byte("rollback ")) || bytes.Contains(b, []byte("\nrollback ")))
}

// Finish removes the journal: every step is done (or undone) and durable.
// The journal file goes first: once it is gone (its directory synced), the
// run is over, whatever is left of its files and its run record (the next
// run replaces both). The homes' folder goes too when no other project's
// journal is in it: a run that finished leaves nothing behind.
func (j *Journal) Finish() error {
	// Under homesMu (read): once the journal is gone the homes' folder may
	// be empty, and another project's Finish must not remove it before it
	// is synced.
	homesMu.RLock()
	err := j.remove()
	if err == nil {
		if err = syncRemovals([]string{j.h.dir()}); err != nil {
			err = fmt.Errorf("removing the journal: %w", err)
		}
	}
	homesMu.RUnlock()
	if err != nil {
		return err
	}
	if err := j.clean(); err != nil {
		return err
	}
	removeFolders(j.h.folder)
	return nil
}

// remove removes the journal file (the directory that names it must be
// synced next for the run to be over), after the hook's "cleanup".
func (j *Journal) remove() error {
	j.callHook("cleanup", 0)
	j.mu.Lock()
	j.buf = nil // the journal goes, its progress with it
	j.mu.Unlock()
	j.close()
	if err := os.Remove(j.Path()); err != nil {
		return fmt.Errorf("removing the journal: %w", err)
	}
	return nil
}

// clean removes what is left of a removed journal: its progress file (and
// the folder of a journal of earlier versions) and its run record. The
// caller removes the homes' folder (<gitdir>/fwmigrate, or the state
// folder's journals) under homesMu, when no other project's journal is in
// it.
func (j *Journal) clean() error {
	if j.wrote || !j.buffered {
		os.Remove(j.h.progress)
	}
	if j.h.own != "" {
		// The folder, else whatever else is in it.
		if err := os.Remove(j.h.own); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if err := os.RemoveAll(j.h.own); err != nil {
				return fmt.Errorf("removing the journal: %w", err)
			}
		}
	}
	if rec, err := runRecord(j.root); err == nil {
		os.Remove(rec)
	}
	return nil
}

// close closes the progress file (written with the buffered notes) and
// leaves the journal in place.
func (j *Journal) close() {
	j.flush()
	if j.prog != nil {
		j.prog.Close()
		j.prog = nil
	}
}

// encode writes the journal's text.
func (j *Journal) encode() ([]byte, error) {
	p := j.plan
	var b bytes.Buffer
	rel := func(path string) (string, error) {
		r, ok := pathx.Rel(j.root, path)
		if !ok {
			return "", fmt.Errorf("%s lies outside the project %s", path, j.root)
		}
		return strconv.Quote(filepath.ToSlash(r)), nil
	}
	var err error
	q := func(path string) string {
		s, e := rel(path)
		if e != nil && err == nil {
			err = e
		}
		return s
	}
	fmt.Fprintf(&b, "%s\nid %s\nroot %s\nconfig %s\n", journalMagic, j.id, strconv.Quote(j.root), strconv.Quote(filepath.ToSlash(j.config)))
	for _, d := range p.Mkdirs {
		fmt.Fprintf(&b, "mkdir %s\n", q(d))
	}
	for _, mv := range p.Moves {
		kind := "file"
		switch {
		case mv.Link:
			kind = "link"
		case mv.Dir:
			kind = "dir"
		}
		fmt.Fprintf(&b, "move %s %s %s\n", q(mv.From), q(mv.To), kind)
	}
	for _, d := range p.Rmdirs {
		fmt.Fprintf(&b, "rmdir %s %04o\n", q(d.Path), d.Mode.Perm())
	}
	for _, e := range p.Edits {
		fmt.Fprintf(&b, "edit %s %s %04o %x %d %x %d\n", q(e.Path), q(e.NewPath), e.Mode.Perm(),
			sha256.Sum256(e.Old), len(e.Old), sha256.Sum256(e.New), len(e.New))
	}
	if err != nil {
		return nil, err
	}
	b.WriteString("data\n")
	for _, e := range p.Edits {
		b.Write(e.Old)
		b.Write(e.New)
	}
	return b.Bytes(), nil
}

// decodeJournal reads the journal text data of a transaction under root.
func decodeJournal(root string, data []byte) (*Journal, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
	}
	j := &Journal{root: root}
	var (
		mkdirs  []string
		rmdirs  []Rmdir
		moves   []Move
		edits   []Edit
		sums    [][2][32]byte
		lens    [][2]int
		hasRoot bool
	)
	c := newConfiner(root)
	abs := func(s string) (string, error) {
		rel, err := strconv.Unquote(s)
		if err != nil {
			return "", err
		}
		p := filepath.FromSlash(rel)
		if rel == "" || filepath.IsAbs(p) || filepath.Clean(p) != p || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s is not a path inside the project", s)
		}
		full := filepath.Join(root, p)
		if err := c.check(full); err != nil {
			return "", err
		}
		return full, nil
	}
	for {
		text, err := r.ReadString('\n')
		line++
		if err != nil {
			return nil, bad("no data section")
		}
		text = strings.TrimSuffix(text, "\n")
		if line == 1 {
			if text != journalMagic {
				return nil, bad("not a journal of this version of fwmigrate")
			}
			continue
		}
		if text == "data" {
			break
		}
		verb, rest, _ := strings.Cut(text, " ")
		fields, err := splitQuoted(rest)
		if err != nil {
			return nil, bad("%v", err)
		}
		paths := func(n int) ([]string, error) {
			if len(fields) < n {
				return nil, fmt.Errorf("%s takes %d paths", verb, n)
			}
			out := make([]string, n)
			for i := range out {
				if out[i], err = abs(fields[i]); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		switch verb {
		case "id":
			if len(fields) != 1 || fields[0] == "" || strings.ContainsAny(fields[0], "/\\. ") {
				return nil, bad("invalid id")
			}
			j.id = fields[0]
		case "root":
			if len(fields) != 1 {
				return nil, bad("invalid root")
			}
			if r, err := strconv.Unquote(fields[0]); err != nil || r != root {
				return nil, bad("the journal is for the project %s, not %s", fields[0], root)
			}
			hasRoot = true
		case "config":
			if len(fields) != 1 {
				return nil, bad("invalid config")
			}
			if j.config, err = strconv.Unquote(fields[0]); err != nil {
				return nil, bad("%v", err)
			}
		case "mkdir":
			ps, err := paths(1)
			if err != nil || len(fields) != 1 {
				return nil, bad("mkdir: %v", err)
			}
			mkdirs = append(mkdirs, ps[0])
		case "move":
			ps, err := paths(2)
			if err != nil || len(fields) != 3 {
				return nil, bad("move: %v", err)
			}
			mv := Move{From: ps[0], To: ps[1]}
			switch fields[2] {
			case "dir":
				mv.Dir = true
			case "link":
				mv.Link = true
			case "file":
			default:
				return nil, bad("move: unknown kind %q", fields[2])
			}
			moves = append(moves, mv)
		case "rmdir":
			ps, err := paths(1)
			if err != nil || len(fields) != 2 {
				return nil, bad("rmdir: %v", err)
			}
			mode, err := parseMode(fields[1])
			if err != nil {
				return nil, bad("rmdir: %v", err)
			}
			rmdirs = append(rmdirs, Rmdir{Path: ps[0], Mode: mode})
		case "edit":
			ps, err := paths(2)
			if err != nil || len(fields) != 7 {
				return nil, bad("edit: %v", err)
			}
			mode, err := parseMode(fields[2])
			if err != nil {
				return nil, bad("edit: %v", err)
			}
			var sum [2][32]byte
			var n [2]int
			for k, f := range []string{fields[3], fields[5]} {
				h, err := hex.DecodeString(f)
				if err != nil || len(h) != 32 {
					return nil, bad("edit: invalid hash %q", f)
				}
				copy(sum[k][:], h)
			}
			for k, f := range []string{fields[4], fields[6]} {
				if n[k], err = strconv.Atoi(f); err != nil || n[k] < 0 || n[k] > len(data) {
					return nil, bad("edit: invalid length %q", f)
				}
			}
			edits = append(edits, Edit{Path: ps[0], NewPath: ps[1], Mode: mode})
			sums = append(sums, sum)
			lens = append(lens, n)
		default:
			return nil, bad("unknown step %q", verb)
		}
	}
	if j.id == "" {
		return nil, bad("no id")
	}
	if !hasRoot {
		return nil, bad("no root")
	}
	blob, _ := io.ReadAll(r)
	for i := range edits {
		for k := 0; k < 2; k++ {
			n := lens[i][k]
			if n > len(blob) {
				return nil, bad("the data of %s is cut short", edits[i].Path)
			}
			b := blob[:n:n]
			blob = blob[n:]
			if sha256.Sum256(b) != sums[i][k] {
				return nil, bad("the data of %s does not match its hash", edits[i].Path)
			}
			if k == 0 {
				edits[i].Old = b
			} else {
				edits[i].New = b
			}
		}
	}
	if len(blob) != 0 {
		return nil, bad("%d bytes of data left over", len(blob))
	}
	j.plan = &Plan{Root: root, Mkdirs: mkdirs, Moves: moves, Rmdirs: rmdirs, Edits: edits}
	if err := checkPlan(j.plan); err != nil {
		return nil, err
	}
	return j, nil
}

// splitQuoted splits s on spaces, a field in double quotes being one field
// (returned with its quotes).
func splitQuoted(s string) ([]string, error) {
	var out []string
	for s != "" {
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoting: %s", s)
			}
			out = append(out, q)
			s = s[len(q):]
		} else {
			f, rest, _ := strings.Cut(s, " ")
			out = append(out, f)
			s = " " + rest
			if rest == "" {
				s = ""
			}
		}
		if s != "" {
			if s[0] != ' ' {
				return nil, fmt.Errorf("bad field separator in %q", s)
			}
			s = s[1:]
		}
	}
	return out, nil
}

// parseMode reads a mode as the journal writes it (chmod's octal): the
// permission bits only. A journal never sets the set-user-ID, set-group-ID
// or sticky bit, and the steps never write them.
func parseMode(s string) (fs.FileMode, error) {
	u, err := strconv.ParseUint(s, 8, 32)
	if err != nil || u > 0o7777 {
		return 0, fmt.Errorf("invalid mode %q", s)
	}
	if u > 0o777 {
		return 0, fmt.Errorf("mode %s sets the set-user-ID, set-group-ID or sticky bit, which fwmigrate never writes", s)
	}
	return fs.FileMode(u), nil
}
