// Package ignore reads ignore files: the framework's .fwignore and git's
// .gitignore share a syntax (one pattern a line, # comments, ! negations,
// trailing white space dropped unless escaped), and this is its one reader.
// Lines finds the pattern lines; Git matches paths against the .gitignore
// files of a directory tree.
package ignore

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Lines calls fn with the byte range [start, end) and 1-based number of
// every pattern line of an ignore file. Blank lines and # comments are
// skipped; trailing spaces, tabs and a CR are not part of the pattern,
// except a space escaped with a backslash (`foo\ `), which is.
func Lines(data []byte, fn func(start, end, line int)) {
	line, pos := 0, 0
	for pos < len(data) {
		line++
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		s, e := pos, end
		for e > s && (data[e-1] == '\r' || data[e-1] == ' ' || data[e-1] == '\t') {
			if e-2 >= s && data[e-2] == '\\' && data[e-1] == ' ' {
				break // an escaped trailing space is part of the pattern
			}
			e--
		}
		if e > s && data[s] != '#' {
			fn(s, e, line)
		}
		pos = end + 1
	}
}

// rule is one pattern of a .gitignore file.
type rule struct {
	base     string // directory of the .gitignore, slash-separated, relative to the walk root ("" for the root)
	pattern  string // without the leading '!' and '/' and the trailing '/'
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains a '/' before its end: matched against the path from base, else against the name
}

// Git holds the .gitignore rules in force for one directory of a walk: its
// parent's rules followed by its own (later rules win, as in git). The nil
// Git ignores nothing.
type Git struct {
	rules []rule
}

// Child returns the rules in force in directory rel (relative to the walk
// root, slash-separated, "" for the root) whose .gitignore holds data. An
// empty data (no file, or an unreadable one) leaves g's rules in force.
func (g *Git) Child(rel string, data []byte) *Git {
	if len(data) == 0 {
		return g
	}
	out := &Git{}
	if g != nil {
		out.rules = append(out.rules, g.rules...)
	}
	Lines(data, func(s, e, _ int) {
		line := string(data[s:e])
		r := rule{base: rel}
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		if line == "" || !doublestar.ValidatePattern(line) {
			return
		}
		r.pattern = line
		out.rules = append(out.rules, r)
	})
	return out
}

// Ignored reports whether the entry rel (relative to the walk root,
// slash-separated) is excluded. The last matching rule decides.
func (g *Git) Ignored(rel string, isDir bool) bool {
	if g == nil {
		return false
	}
	ignored := false
	name := path.Base(rel)
	for _, r := range g.rules {
		if r.dirOnly && !isDir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok, _ = doublestar.Match(r.pattern, sub)
		} else {
			ok, _ = doublestar.Match(r.pattern, name)
		}
		if ok {
			ignored = !r.negate
		}
	}
	return ignored
}

// RepoTop is the nearest directory at or above dir (absolute) that holds a
// .git entry, or dir itself when there is none.
func RepoTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// ReadGit returns the rules in force in directory rel (relative to the walk
// root, slash-separated) whose .gitignore file is at file: g's, followed by
// the file's. A missing or unreadable .gitignore leaves g's rules in force.
func (g *Git) ReadGit(rel, file string) *Git {
	data, _ := os.ReadFile(file)
	return g.Child(rel, data)
}

// InDir returns the rules in force in directory dir (rel from the walk
// root), whose entries a walk has read: g's, followed by its .gitignore's
// when it has one.
func (g *Git) InDir(rel, dir string, entries []os.DirEntry) *Git {
	for _, e := range entries {
		if e.Name() == ".gitignore" {
			return g.ReadGit(rel, filepath.Join(dir, ".gitignore"))
		}
	}
	return g
}

// GitDown returns the .gitignore rules in force in dir (absolute) for a walk
// rooted at top (RepoTop of dir): those of every directory from top down to
// dir. The walk's relative paths are relative to top; rel is dir's.
func GitDown(top, dir string) (g *Git, rel string) {
	g = g.ReadGit("", filepath.Join(top, ".gitignore"))
	r, err := filepath.Rel(top, dir)
	if err != nil || r == "." {
		return g, ""
	}
	rel = filepath.ToSlash(r)
	cur := ""
	for _, part := range strings.Split(rel, "/") {
		cur = path.Join(cur, part)
		g = g.ReadGit(cur, filepath.Join(top, filepath.FromSlash(cur), ".gitignore"))
	}
	return g, rel
}
