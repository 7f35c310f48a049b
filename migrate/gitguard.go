package migrate

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/gitx"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
)

// gitGuard answers apply's git guard (GitDirty: which of a project's paths
// have uncommitted changes) for the projects of one run with one git
// status per repository instead of one per project: a run over a
// monorepo of 10,000 projects asked git 10,000 times, and each time git
// read the whole index.
//
// Each repository's status is read once (gitx.ReadStatus), when its first
// project reaches the guard, and the work tree's top is confirmed by git
// once (gitx.Repos). A project none of whose paths the status touches is
// clean. Otherwise, and whenever the status cannot speak for a path as git
// status with that pathspec would (a path through a symbolic link, one
// with pathspec magic, one outside the project), the project is asked
// about alone (GitDirty), as before: its answer, and its words, are git's
// own. Every project of a run is asked about before any is written (Run),
// so the status read once still speaks for the tree.
type gitGuard struct {
	repos  gitx.Repos
	status map[string]*gitx.Status // by top; nil: could not be read
	links  map[string]bool         // directories looked at: true for a symbolic link
}

// paths returns the paths of a project the guard asks about.
func guardPaths(r *Result) []string {
	paths := append([]string{r.Project.ConfigPath}, r.codeEditPaths()...)
	if r.Plan != nil {
		paths = append(paths, planPaths(r.Plan)...)
	}
	return paths
}

// dirty is GitDirty(p.Root, paths), from the repository's status when it
// can speak for them.
func (g *gitGuard) dirty(p *project.Project, paths []string) ([]string, error) {
	if knobs.PerProjectGuard {
		return GitDirty(p.Root, paths)
	}
	top, keys, ok := g.keys(p, paths)
	if !ok {
		return GitDirty(p.Root, paths)
	}
	if top == "" {
		return nil, nil // in no work tree (GitDirty's answer too)
	}
	st := g.statusOf(top)
	if st == nil {
		return GitDirty(p.Root, paths)
	}
	for _, k := range keys {
		if st.Touches(k) {
			return GitDirty(p.Root, paths)
		}
	}
	return nil, nil
}

// keys returns the top of p's work tree ("" for none) and paths as the
// status names them (relative to the top, slash-separated); ok is false
// when the status cannot answer for them as git status with them as
// pathspecs (run in p.Root) would, or the top cannot be found (GitDirty
// then says why).
func (g *gitGuard) keys(p *project.Project, paths []string) (top string, keys []string, ok bool) {
	top, _, err := g.repos.Find(p.Root)
	if err != nil {
		return "", nil, false
	}
	if top == "" {
		return "", nil, true
	}
	realRoot, err := filepath.EvalSymlinks(p.Root)
	if err != nil {
		return "", nil, false
	}
	base, err := filepath.Rel(top, realRoot)
	if err != nil || base == ".." || strings.HasPrefix(base, ".."+string(filepath.Separator)) {
		return "", nil, false
	}
	for _, pth := range paths {
		rel, err := filepath.Rel(p.Root, pth)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return "", nil, false
		}
		// Pathspec magic (globs, escapes, a leading colon) matches by
		// git's rules, not by name.
		if strings.ContainsAny(rel, "*?[\\") || strings.HasPrefix(rel, ":") {
			return "", nil, false
		}
		k := path.Clean(filepath.ToSlash(filepath.Join(base, rel)))
		if k == "." {
			k = ""
		}
		// git refuses a pathspec beyond a symbolic link: let it say so.
		if g.throughLink(top, k) {
			return "", nil, false
		}
		keys = append(keys, k)
	}
	return top, keys, true
}

// throughLink reports whether a directory above the path k (relative to
// top) and below top is a symbolic link.
func (g *gitGuard) throughLink(top, k string) bool {
	if g.links == nil {
		g.links = map[string]bool{}
	}
	for d := parentKey(k); d != ""; d = parentKey(d) {
		full := filepath.Join(top, filepath.FromSlash(d))
		link, seen := g.links[full]
		if !seen {
			st, err := os.Lstat(full)
			link = err == nil && st.Mode()&os.ModeSymlink != 0
			g.links[full] = link
		}
		if link {
			return true
		}
	}
	return false
}

// statusOf returns the status of the work tree at top, read once; nil
// when git could not give it (each project is then asked about alone).
func (g *gitGuard) statusOf(top string) *gitx.Status {
	if st, ok := g.status[top]; ok {
		return st
	}
	if g.status == nil {
		g.status = map[string]*gitx.Status{}
	}
	st, err := gitx.ReadStatus(top)
	if err != nil {
		st = nil
	}
	g.status[top] = st
	return st
}

// parentKey is the directory of a slash-separated path relative to the
// top, "" for the top.
func parentKey(k string) string {
	d := path.Dir(k)
	if d == "." || d == "/" {
		return ""
	}
	return d
}
