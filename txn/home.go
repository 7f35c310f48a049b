package txn

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/gitx"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Where a journal lives, and how it is bound to the run that wrote it.
//
// A journal is a program: completing it moves and rewrites files. So it is
// kept where no repository can put one: in the git directory of the work
// tree that holds the project (<gitdir>/fwmigrate/<key>.journal, which git
// never tracks), and outside git in the user's state folder
// ($XDG_STATE_HOME/fwmigrate/journals/<key>.journal). The key is a hash of
// the project's root, symlinks resolved. Beside the journal, under the same
// key, are its text while it is written (<key>.journal.tmp) and its
// progress file (<key>.progress): the projects' journals share one folder,
// the homes' folder, with no folder of their own (making and removing a
// folder per project cost more than the journal's files). The run is bound
// to its journal by a record in the user's state folder, runs/<key>,
// written before the journal: the hash of the journal, whose text holds
// the run's random id and the root (recordText: a symbolic link whose
// target is the record). A journal is run only when that record names it; one
// without it (copied, planted, left by another user) is refused
// (RefusedError), and so is the journal that earlier versions of fwmigrate
// kept in the tree (LegacyJournal), which a repository can commit.
//
// Versions before the journals shared their folder kept each in a folder
// of its own, <folder>/<key>/journal with <key>/progress beside it: such a
// journal is found, checked and run as one of today's (Pending, Open), and
// its folder goes once it is done.

// LegacyJournal is where fwmigrate versions before the journal's move kept
// it, under the project's root. A journal there is a file of the tree,
// which a repository can commit: it is never run.
const LegacyJournal = ".fw-migrate/journal"

// The names of a journal's files in the homes' folder, after its key.
const (
	journalExt  = ".journal"     // the journal
	tmpExt      = ".journal.tmp" // its text while it is written
	progressExt = ".progress"    // its progress file
)

// The names of a journal's files in its own folder (<folder>/<key>/), as
// versions before the shared folder kept them.
const (
	oldJournal  = "journal"
	oldProgress = "progress"
)

// A home is where one project's journal lives: its files, and the folder
// that holds them.
type home struct {
	folder   string // the homes' folder: <gitdir>/fwmigrate, or the state folder's journals
	journal  string // the journal: <folder>/<key>.journal
	tmp      string // its text while it is written
	progress string // its progress file
	// own is the journal's own folder, <folder>/<key>, for a journal of
	// the layout of earlier versions (oldHome), removed once it is done;
	// "" for today's.
	own string
}

// dir is the directory whose entries name the journal: synced once it is
// placed or removed.
func (h *home) dir() string {
	if h.own != "" {
		return h.own
	}
	return h.folder
}

// oldHome is the home of root's journal as versions before the shared
// folder kept it: <folder>/<key>/journal.
func (h *home) oldHome() *home {
	own := strings.TrimSuffix(h.journal, journalExt)
	return &home{folder: h.folder, own: own, journal: filepath.Join(own, oldJournal),
		tmp: filepath.Join(own, oldJournal+".tmp"), progress: filepath.Join(own, oldProgress)}
}

// stateDir is the user's folder for fwmigrate's state: $XDG_STATE_HOME,
// else ~/.local/state, and the user's config folder on macOS and Windows,
// which have no state folder.
func stateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "fwmigrate"), nil
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "plan9" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("no folder for fwmigrate's state: %w", err)
		}
		return filepath.Join(d, "fwmigrate"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return "", errors.New("no folder for fwmigrate's state: set XDG_STATE_HOME or HOME")
	}
	return filepath.Join(home, ".local", "state", "fwmigrate"), nil
}

// JournalPath is where the journal of a run on root is kept while the run
// is on (its root, symlinks resolved).
func JournalPath(root string) (string, error) {
	h, err := journalHome(root)
	if err != nil {
		return "", err
	}
	return h.journal, nil
}

// rootKey names root's journal and run record: a hash of its path.
func rootKey(root string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	return hex.EncodeToString(sum[:16])
}

// gitDir is the git directory of the work tree that holds root, "" when
// root is in none or its .git does not lead to a git directory. A .git file
// (a linked work tree, a submodule) is followed; the directory it names
// must look like a git directory and, unless it is the .git folder itself,
// lie outside the work tree (a .git file cannot be committed, but an
// archive can hold one).
func gitDir(root string) string {
	top := gitx.Top(root)
	if top == "" {
		return ""
	}
	dotgit := filepath.Join(top, ".git")
	st, err := os.Lstat(dotgit)
	if err != nil {
		return ""
	}
	dir := dotgit
	if st.Mode().IsRegular() {
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return ""
		}
		line, _, _ := strings.Cut(string(b), "\n")
		target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir: ")
		if !ok || target == "" {
			return ""
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(top, target)
		}
		dir = target
	} else if !st.IsDir() {
		return ""
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || !gitx.LooksLikeGitDir(real) {
		return ""
	}
	if real != dotgit && pathx.WithinClean(real, top) {
		return ""
	}
	return real
}

// journalHome is where root's journal lives while a run is on: in the
// homes' folder <gitdir>/fwmigrate, or the state folder's journals, under
// root's key.
func journalHome(root string) (*home, error) {
	key := rootKey(root)
	var folder string
	if gd := gitDir(root); gd != "" {
		folder = filepath.Join(gd, "fwmigrate")
	} else {
		st, err := stateDir()
		if err != nil {
			return nil, err
		}
		folder = filepath.Join(st, "journals")
	}
	base := filepath.Join(folder, key)
	return &home{folder: folder, journal: base + journalExt, tmp: base + tmpExt, progress: base + progressExt}, nil
}

// runRecord is the record that binds root's journal to the run that wrote
// it, in the state folder.
func runRecord(root string) (string, error) {
	st, err := stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(st, "runs", rootKey(root)), nil
}

// A run record is a symbolic link whose target is its text: "fw-run-2:"
// and the journal's SHA-256 (base64url, 52 bytes in all). The journal's
// text holds the run's id and the root, so its hash binds them too. A
// link is made whole in one call, and one this short is kept in its own
// inode (ext4, XFS and btrfs keep targets under 60 bytes there): removing
// it frees no data block, where a record in a file of its own did (on a
// disk that discards what is freed, a file's removal waits for the disk:
// on 1,000 projects the records' removals were a tenth of apply's writes).
// Where no link can be made (Windows without the privilege, a file system
// without links), the record is a file holding the same text.
//
// Versions before the link wrote a file (encodeRun): a journal one of them
// left is still bound by it.
const recordMagic = "fw-run-2:"

// recordText is the text of the run record of journal.
func recordText(journal []byte) string {
	sum := sha256.Sum256(journal)
	return recordMagic + base64.RawURLEncoding.EncodeToString(sum[:])
}

// writeRecord writes the run record of journal at rec, where nothing is:
// a link, else a file. file says which: a file's text is synced on its
// own, a link's with its directory.
func writeRecord(rec string, journal []byte) (file bool, err error) {
	text := recordText(journal)
	if err := os.Symlink(text, rec); err == nil {
		return false, nil
	}
	return true, writeNew(rec, []byte(text), 0o600, false)
}

// readRecord reads the run record at rec: a link's target, or a file's
// text (a record is short: a longer file is read only as far as shows it
// is none).
func readRecord(rec string) ([]byte, error) {
	st, err := os.Lstat(rec)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(rec)
		return []byte(target), err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New(rec + " is not a run record")
	}
	f, err := os.Open(rec)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<10))
}

const runMagic = "fwmigrate run 1"

// encodeRun is the run record of a journal as versions before the link
// wrote it: its id, its root, the hash of its text.
func encodeRun(id, root string, journal []byte) []byte {
	return fmt.Appendf(nil, "%s\nid %s\nroot %s\njournal %x\n", runMagic, id, strconv.Quote(root), sha256.Sum256(journal))
}

// RefusedError is a journal that is never run: one in the project's tree
// (Legacy), or one in its home that fails the checks.
type RefusedError struct {
	Journal string // its path
	Reason  string
	Legacy  bool
	// files is the journal's files' common start (<folder>/<key>) for a
	// journal in the homes' folder, which other projects' journals share:
	// its files go, not the folder. "" when the journal's folder is its
	// own (in the tree, or in the layout of earlier versions).
	files string
}

func (e *RefusedError) Error() string { return e.Explain(func(p string) string { return p }) }

// Explain says what was refused, why, and how to remove it, with paths as
// show shows them.
func (e *RefusedError) Explain(show func(path string) string) string {
	dir := show(filepath.Dir(e.Journal))
	remove := "remove the folder " + dir + ", and restore the project from version control if an apply was interrupted"
	switch {
	case e.Legacy:
		remove = "remove the folder " + dir + " (`git rm -r " + filepath.Base(dir) + "` where it is committed), and restore the project from version control if an earlier fwmigrate's apply was interrupted here"
	case e.files != "":
		remove = "remove the files " + show(e.files) + ".* (the journal and its progress), and restore the project from version control if an apply was interrupted"
	}
	return fmt.Sprintf("the journal %s is not run: %s; %s", show(e.Journal), e.Reason, remove)
}

// Pending returns the journal that an interrupted run left for root (its
// root, symlinks resolved), "" when there is none: in the homes' folder,
// or in its own folder as earlier versions kept it. A journal that may not
// be run is a *RefusedError (always that type): the one of earlier versions in the tree
// (LegacyJournal), or one in its home that is not bound to a run of this
// user (runs/<key>) or fails the checks of Open.
func Pending(root string) (string, error) {
	h, err := journalHome(root)
	return pendingIn(root, h, err)
}

// pendingIn is Pending with root's journal home (journalHome's answer)
// known.
func pendingIn(root string, h *home, homeErr error) (string, error) {
	legacy := filepath.Join(root, filepath.FromSlash(LegacyJournal))
	if _, err := os.Lstat(legacy); err == nil {
		return "", &RefusedError{Journal: legacy, Legacy: true,
			Reason: "it lies in the project's tree, where fwmigrate never keeps its journal (a repository can commit one, and running it would move and rewrite files as its author chose)"}
	}
	if homeErr != nil {
		return "", nil // no home, so no journal: apply says why when it writes
	}
	at := pendingHome(h)
	if at == nil {
		return "", nil
	}
	if _, err := readJournal(root, at); err != nil {
		return "", err
	}
	return at.journal, nil
}

// pendingHome is the home in which a journal of root is (h, or the layout
// of earlier versions), nil when there is none.
func pendingHome(h *home) *home {
	if _, err := os.Lstat(h.journal); err == nil {
		return h
	}
	if old := h.oldHome(); exists(old.journal) {
		return old
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readJournal reads and checks the journal in h for root: bound to its
// run (the run record's id, root and hash), and valid (decodeJournal).
func readJournal(root string, h *home) (*Journal, error) {
	path := h.journal
	re := &RefusedError{Journal: path}
	if h.own == "" {
		re.files = strings.TrimSuffix(path, journalExt)
	}
	refuse := func(reason string) error { re.Reason = reason; return re }
	st, err := os.Lstat(path)
	if err != nil {
		return nil, refuse("it cannot be read: " + err.Error())
	}
	if !st.Mode().IsRegular() {
		return nil, refuse("it is not a regular file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, refuse("it cannot be read: " + err.Error())
	}
	j, err := decodeJournal(root, data)
	if err != nil {
		return nil, refuse(err.Error())
	}
	rec, err := runRecord(root)
	if err != nil {
		return nil, refuse("its run cannot be checked: " + err.Error())
	}
	have, err := readRecord(rec)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, refuse("no run of fwmigrate by this user wrote it (" + rec + " is missing)")
	} else if err != nil {
		return nil, refuse("its run cannot be checked: " + err.Error())
	}
	if string(have) != recordText(data) && !bytes.Equal(have, encodeRun(j.id, root, data)) {
		return nil, refuse("it is not the journal that this user's last run in the project wrote (" + rec + " names another)")
	}
	j.h = h
	return j, nil
}
