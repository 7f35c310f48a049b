package gitx

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Status is what one `git status --porcelain -z --untracked-files=all`
// (run by Command) says of a work tree: the paths that have changes not
// committed (modified, staged, deleted, untracked; both names of a rename),
// relative to its top, slash-separated. A run that asks about many
// projects of one repository asks git once and answers each from it.
type Status struct {
	Top string
	// paths are the changed paths; dirs every directory above one ("" for
	// the top).
	paths, dirs map[string]bool
}

// ReadStatus runs git status once in the work tree whose top is top (as
// Find confirmed it) and returns what it says.
func ReadStatus(top string) (*Status, error) {
	cmd := Command(top, top, "status", "--porcelain", "-z", "--untracked-files=all")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, err
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return parseStatus(top, out)
}

// parseStatus reads porcelain v1 -z output: "XY path\0", and for a rename
// or copy "XY new\0old\0".
func parseStatus(top string, out []byte) (*Status, error) {
	s := &Status{Top: top, paths: map[string]bool{}, dirs: map[string]bool{}}
	for len(out) > 0 {
		i := bytes.IndexByte(out, 0)
		if i < 0 || i < 4 || out[2] != ' ' {
			return nil, fmt.Errorf("git status: unexpected answer %q", out[:min(len(out), 80)])
		}
		x, entry := out[0], string(out[3:i])
		out = out[i+1:]
		s.add(entry)
		if x == 'R' || x == 'C' {
			j := bytes.IndexByte(out, 0)
			if j < 0 {
				return nil, fmt.Errorf("git status: a rename without its source in %q", entry)
			}
			s.add(string(out[:j]))
			out = out[j+1:]
		}
	}
	return s, nil
}

func (s *Status) add(p string) {
	p = strings.TrimSuffix(p, "/") // a submodule or a directory entry
	s.paths[p] = true
	for d := p; d != ""; {
		d = path.Dir(d)
		if d == "." {
			d = ""
		}
		if s.dirs[d] {
			break
		}
		s.dirs[d] = true
	}
}

// Touches reports whether a change is at rel (slash-separated, relative to
// the top, "" for the top itself), below it, or at a path above it: what
// `git status -- rel` would show something for.
func (s *Status) Touches(rel string) bool {
	if s.paths[rel] || s.dirs[rel] {
		return true
	}
	for d := rel; d != ""; {
		d = path.Dir(d)
		if d == "." {
			d = ""
		}
		if s.paths[d] {
			return true
		}
	}
	return false
}

// Repos finds the work trees of many directories (Find) with one git
// process per work tree: once git has confirmed the top of a work tree
// from one directory, another directory whose nearest .git is the same top
// gets the same answer after the checks that make git's search from it end
// there too: no folder on the way looks like a git directory (Embedded),
// and none is on another file system than the directory (git stops its
// search at a file system's boundary unless GIT_DISCOVERY_ACROSS_FILESYSTEM
// says otherwise). Safe for concurrent use.
type Repos struct {
	mu    sync.Mutex
	found map[string][2]string // the top's answer: top, git directory
	devs  map[string]uint64    // the file system of each directory looked at
}

// Find is Find(dir), from the answer git gave for another directory of the
// same work tree when there is one.
func (r *Repos) Find(dir string) (top, gitDir string, err error) {
	real, expect, err := locate(dir)
	if err != nil || expect == "" {
		return "", "", err
	}
	r.mu.Lock()
	ans, ok := r.found[expect]
	r.mu.Unlock()
	if ok && r.oneFileSystem(real, expect) {
		return ans[0], ans[1], nil
	}
	top, gitDir, err = findAt(real, expect)
	if err == nil && top == expect {
		r.mu.Lock()
		if r.found == nil {
			r.found = map[string][2]string{}
		}
		r.found[expect] = [2]string{top, gitDir}
		r.mu.Unlock()
	}
	return top, gitDir, err
}

// oneFileSystem reports whether dir and every directory above it up to top
// are on one file system (or git is told to cross file systems): git,
// started in dir, then searches up to top.
func (r *Repos) oneFileSystem(dir, top string) bool {
	if v := os.Getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"); v != "" {
		return false // let git decide (its boolean spellings are many)
	}
	first, ok := r.dev(dir)
	if !ok {
		return false
	}
	for d := dir; d != top; {
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
		if dv, ok := r.dev(d); !ok || dv != first {
			return false
		}
	}
	return true
}

func (r *Repos) dev(dir string) (uint64, bool) {
	r.mu.Lock()
	v, ok := r.devs[dir]
	r.mu.Unlock()
	if ok {
		return v, true
	}
	st, err := os.Stat(dir)
	if err != nil {
		return 0, false
	}
	v, ok = deviceOf(st)
	if !ok {
		return 0, false
	}
	r.mu.Lock()
	if r.devs == nil {
		r.devs = map[string]uint64{}
	}
	r.devs[dir] = v
	r.mu.Unlock()
	return v, true
}
