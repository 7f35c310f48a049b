package migrate

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

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// The journal of apply's writes, as databases and `git rebase` keep one.
// Before the first write to a project, apply records everything it will do
// under the project (project.JournalDir): every directory created and
// removed, every move, every edited file with the hash, length and bytes
// of its old and its new text. The record is synced and renamed into place
// (it exists whole or not at all), then the steps run (move.Plan.Forward),
// each noted in a progress file as it is done, and the journal goes once
// every step is durable. A crash, a kill or a full disk in between leaves
// the journal: every later run in the project sees it first; apply
// completes the steps (or, with --rollback, undoes them: Backward), check
// reports it. The steps are found done or not by looking at the tree, so
// the progress file is a record for people, not a source of truth, and
// needs no sync of its own.
//
// The format is text, one step a line, paths quoted as Go quotes them and
// relative to the project root, then the line "data" and the old and new
// bytes of each edit, one after the other, in the order of the edit lines:
//
//	fwmigrate journal 1
//	id 3f9c0a6e1b2d4c58
//	config "fw.config.ts"
//	mkdir "app"
//	move "components" "app/components" dir
//	rmdir "src" 0755
//	edit "server/api/a.ts" "server/api/a.ts" 0644 <sha256 old> <len old> <sha256 new> <len new>
//	data
//	<bytes>

const journalMagic = "fwmigrate journal 1"

// testHook, when set (by tests), is called at every point of a journaled
// write: "journal" once the journal is durable, the points of
// move.Exec.Hook, and "cleanup" before the journal is removed. The crash
// tests end the process there.
var testHook func(point string, i int)

// journal is the journal of one project's writes.
type journal struct {
	root   string // the project root, absolute, symlinks resolved
	id     string
	config string // the config, relative to root
	plan   *move.Plan

	mu   sync.Mutex
	prog *os.File // the progress file, appended
}

func journalDir(root string) string { return filepath.Join(root, project.JournalDir) }
func journalPath(root string) string {
	return filepath.Join(root, project.JournalDir, project.JournalFile)
}

// beginJournal records plan (whose paths lie inside root) durably under
// root. An existing journal directory is refused: another apply is running,
// or an interrupted one must be completed first.
func beginJournal(root, config string, plan *move.Plan) (*journal, error) {
	j := &journal{root: root, id: move.NewTag(), config: config, plan: plan}
	dir := journalDir(root)
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrExist) {
		if _, jerr := os.Lstat(journalPath(root)); jerr == nil {
			return nil, fmt.Errorf("%s exists: another apply is running in this project, or one was interrupted (run fwmigrate apply again to finish it)", project.JournalDir+"/"+project.JournalFile)
		}
		// An apply stopped before its journal was complete, or after it
		// was removed: it wrote nothing else, so what is left goes.
		if err = os.RemoveAll(dir); err == nil {
			err = os.Mkdir(dir, 0o755)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot write the journal: %w", err)
	}
	fail := func(err error) (*journal, error) {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("cannot write the journal: %w", err)
	}
	data, err := j.encode()
	if err != nil {
		return fail(err)
	}
	tmp := filepath.Join(dir, project.JournalFile+".tmp")
	if err := rewrite.WriteNew(tmp, data, 0o644, true); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, journalPath(root)); err != nil {
		return fail(err)
	}
	if err := rewrite.SyncDir(dir); err != nil {
		return fail(err)
	}
	if err := rewrite.SyncDir(root); err != nil {
		return fail(err)
	}
	if j.prog, err = os.OpenFile(filepath.Join(dir, "progress"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
		return fail(err)
	}
	hook("journal", 0)
	return j, nil
}

func hook(point string, i int) {
	if testHook != nil {
		testHook(point, i)
	}
}

// exec is how the journal's steps run: durably, with its temporaries'
// tag, each step noted as done.
func (j *journal) exec() move.Exec {
	return move.Exec{Sync: true, Tag: j.id, Hook: hook, Done: j.note}
}

// note appends one line to the progress file.
func (j *journal) note(step string, i int) {
	if j.prog == nil {
		return
	}
	j.mu.Lock()
	fmt.Fprintf(j.prog, "%s %d\n", step, i)
	j.mu.Unlock()
}

// rollingBack reports whether a rollback of this journal was started: a
// later plain apply goes on with it rather than redo what was undone.
func (j *journal) rollingBack() bool {
	b, err := os.ReadFile(filepath.Join(journalDir(j.root), "progress"))
	return err == nil && (bytes.HasPrefix(b, []byte("rollback ")) || bytes.Contains(b, []byte("\nrollback ")))
}

// finish removes the journal: every step is done and durable. The journal
// file goes first: once it is gone, the apply is over, whatever is left of
// the directory.
func (j *journal) finish() error {
	hook("cleanup", 0)
	if j.prog != nil {
		j.prog.Close()
		j.prog = nil
	}
	if err := os.Remove(journalPath(j.root)); err != nil {
		return fmt.Errorf("removing the journal: %w", err)
	}
	if err := os.RemoveAll(journalDir(j.root)); err != nil {
		return fmt.Errorf("removing the journal: %w", err)
	}
	return rewrite.SyncDir(j.root)
}

// close closes the progress file and leaves the journal in place.
func (j *journal) close() {
	if j.prog != nil {
		j.prog.Close()
		j.prog = nil
	}
}

// encode writes the journal's text.
func (j *journal) encode() ([]byte, error) {
	p := j.plan
	var b bytes.Buffer
	rel := func(path string) (string, error) {
		r, err := filepath.Rel(j.root, path)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
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
	fmt.Fprintf(&b, "%s\nid %s\nconfig %s\n", journalMagic, j.id, strconv.Quote(filepath.ToSlash(j.config)))
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
		fmt.Fprintf(&b, "rmdir %s %04o\n", q(d), unixMode(p.RmdirMode(d)))
	}
	for _, e := range p.Edits {
		fmt.Fprintf(&b, "edit %s %s %04o %x %d %x %d\n", q(e.Path), q(e.NewPath), unixMode(e.Mode),
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

// readJournal reads the journal under root. Every path in it must lie
// inside root, through no symlink: a journal is trusted no more than any
// other file of the tree.
func readJournal(root string) (*journal, error) {
	path := journalPath(root)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	j, err := decodeJournal(root, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", project.JournalDir+"/"+project.JournalFile, err)
	}
	return j, nil
}

func decodeJournal(root string, data []byte) (*journal, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s: the journal is damaged (restore the project from version control and remove %s)", line, fmt.Sprintf(format, args...), project.JournalDir)
	}
	j := &journal{root: root}
	var (
		mkdirs, rmdirs []string
		modes          []fs.FileMode
		moves          []move.Move
		edits          []move.FileEdit
		sums           [][2][32]byte
		lens           [][2]int
	)
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
		if err := project.Confined(root, full); err != nil {
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
			mv := move.Move{From: ps[0], To: ps[1]}
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
			mode, ok := parseMode(fields[1])
			if !ok {
				return nil, bad("rmdir: invalid mode %q", fields[1])
			}
			rmdirs = append(rmdirs, ps[0])
			modes = append(modes, mode)
		case "edit":
			ps, err := paths(2)
			if err != nil || len(fields) != 7 {
				return nil, bad("edit: %v", err)
			}
			mode, ok := parseMode(fields[2])
			if !ok {
				return nil, bad("edit: invalid mode %q", fields[2])
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
			edits = append(edits, move.FileEdit{Path: ps[0], NewPath: ps[1], Mode: mode})
			sums = append(sums, sum)
			lens = append(lens, n)
		default:
			return nil, bad("unknown step %q", verb)
		}
	}
	if j.id == "" {
		return nil, bad("no id")
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
	j.plan = move.Restore(root, mkdirs, moves, rmdirs, modes, edits)
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

// unixMode is m's permissions as chmod(1) writes them: 0755, 04755.
func unixMode(m fs.FileMode) uint32 {
	u := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		u |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		u |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		u |= 0o1000
	}
	return u
}

// parseMode reads what unixMode writes.
func parseMode(s string) (fs.FileMode, bool) {
	u, err := strconv.ParseUint(s, 8, 32)
	if err != nil || u > 0o7777 {
		return 0, false
	}
	m := fs.FileMode(u & 0o777)
	if u&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if u&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if u&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m, true
}
