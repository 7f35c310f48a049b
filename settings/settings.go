// Package settings reads fwmigrate's settings files and resolves what a
// check of one project runs with: the settings file nearest to it
// (fwmigrate.json, or the "fwmigrate" key of a package.json, from the
// project's directory upwards), with the command line's flags over it. It
// produces the rules.Options of the project, whose Finish applies the
// per-rule severities, the per-path overrides and the baseline.
//
// It sits between the command (cmd/fwmigrate) and the checks (rules): the
// command owns the flags and the output, the rules know nothing of files
// of settings.
package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Flags are the command line's settings. A flag that is set (its Set
// field true) overrides the same setting of the file.
type Flags struct {
	Select, Ignore       []string
	SelectSet, IgnoreSet bool
	FailOn               string
	FailOnSet            bool
	Framework            int
	FrameworkSet         bool
	Baseline             string // relative to the working directory
	BaselineSet          bool
	// Isolated ignores settings files (--isolated).
	Isolated bool
}

// Resolved is what the checks of one project run with.
type Resolved struct {
	File      *File // nil when no settings file applies
	Select    []string
	Ignore    []string
	Framework int
	FailOn    string // info, warning, error or never
	Baseline  string // absolute, "" when none
	// From says where each setting comes from: a flag, a file's Name, or
	// "default".
	From map[string]string

	severity  []RuleSeverity
	overrides []Override

	// matched caches, per finding's file, the overrides whose globs match
	// it: a file's findings (a million in a hostile .env) share the
	// answer, and the globs are matched once per file, not per finding.
	matchMu sync.Mutex
	matched map[string][]int
}

// Source names of settings that come from nowhere else.
const fromDefault = "default"

func resolve(f *File, fl Flags) *Resolved {
	r := &Resolved{File: f, FailOn: "warning", From: map[string]string{}}
	for _, k := range []string{"select", "ignore", "severity", "failOn", "framework", "overrides", "baseline"} {
		r.From[k] = fromDefault
	}
	if f != nil {
		set := func(key string, ok bool) {
			if ok {
				r.From[key] = f.Name
				if n := f.from[key]; n != "" {
					r.From[key] = n
				}
			}
		}
		r.Select, r.Ignore = f.Select, f.Ignore
		set("select", f.Select != nil)
		set("ignore", f.Ignore != nil)
		r.severity = f.Severity
		set("severity", f.Severity != nil)
		if f.FailOn != "" {
			r.FailOn = f.FailOn
		}
		set("failOn", f.FailOn != "")
		r.Framework = f.Framework
		set("framework", f.Framework != 0)
		r.overrides = f.Overrides
		set("overrides", f.Overrides != nil)
		r.Baseline = f.Baseline
		set("baseline", f.Baseline != "")
	}
	if fl.SelectSet {
		r.Select, r.From["select"] = fl.Select, "--select"
	}
	if fl.IgnoreSet {
		r.Ignore, r.From["ignore"] = fl.Ignore, "--ignore"
	}
	if fl.FailOnSet {
		r.FailOn, r.From["failOn"] = fl.FailOn, "--fail-on"
	}
	if fl.FrameworkSet {
		r.Framework, r.From["framework"] = fl.Framework, "--framework"
	}
	if fl.BaselineSet {
		r.Baseline, r.From["baseline"] = "", "--baseline"
		if fl.Baseline != "" {
			r.Baseline, _ = filepath.Abs(fl.Baseline)
		}
	}
	return r
}

// Severities returns the severity settings, in the order they apply.
func (r *Resolved) Severities() []RuleSeverity { return r.severity }

// Overrides returns the per-path settings, in the order they apply.
func (r *Resolved) Overrides() []Override { return r.overrides }

// Threshold returns the severity at which findings fail the run, and never:
// true when no finding fails the run.
func (r *Resolved) Threshold() (sev rules.Severity, never bool) {
	if r.FailOn == "never" {
		return 0, true
	}
	sev, _ = rules.ParseSeverity(r.FailOn)
	return sev, false
}

// Options returns the rules.Options of a project under these settings,
// with the severity and per-path overrides; and the baseline b, when not
// nil (check; apply makes every fix it can, known or not).
func (r *Resolved) Options(b *Baseline) rules.Options {
	o := rules.Options{Target: 4, Select: r.Select, Ignore: r.Ignore, Framework: r.Framework}
	if r.Framework != 0 {
		o.FrameworkSource = r.From["framework"]
	}
	if len(r.severity) == 0 && len(r.overrides) == 0 && b == nil {
		return o
	}
	o.Finish = func(d *rules.Diagnostic) bool {
		if !r.finish(d) {
			return false
		}
		return b == nil || !b.take(d)
	}
	return o
}

// finish applies the severities, then the overrides whose files match the
// diagnostic's, in the order written: later ones win. It returns false for
// a diagnostic turned off.
func (r *Resolved) finish(d *rules.Diagnostic) bool {
	if !rules.Suppressible(d.Code) {
		return true
	}
	rule := rules.Find(d.Code)
	if rule == nil {
		return true
	}
	sev, off := d.Severity, false
	apply := func(list []RuleSeverity) {
		for _, s := range list {
			if !rule.Matches(s.Selector) {
				continue
			}
			if s.Severity == "off" {
				off = true
				continue
			}
			sev, _ = rules.ParseSeverity(s.Severity)
			off = false
		}
	}
	apply(r.severity)
	if len(r.overrides) > 0 {
		for _, i := range r.overridesFor(d.File) {
			o := r.overrides[i]
			for _, sel := range o.Ignore {
				if rule.Matches(sel) {
					off = true
				}
			}
			apply(o.Severity)
		}
	}
	if off {
		return false
	}
	d.Severity = sev
	return true
}

// overridesFor returns the indexes of the overrides that apply to file, in
// order.
func (r *Resolved) overridesFor(file string) []int {
	r.matchMu.Lock()
	defer r.matchMu.Unlock()
	if m, ok := r.matched[file]; ok {
		return m
	}
	m := []int{}
	for i, o := range r.overrides {
		if matchFiles(o.Files, relTo(o.Dir, file)) {
			m = append(m, i)
		}
	}
	if r.matched == nil {
		r.matched = map[string][]int{}
	}
	r.matched[file] = m
	return m
}

// relTo is file (as shown: relative to the working directory, or absolute)
// relative to dir, slash-separated; "" when it is outside dir.
func relTo(dir, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	rel, ok := pathx.Rel(dir, abs)
	if !ok {
		return ""
	}
	return filepath.ToSlash(rel)
}

// matchFiles reports whether rel matches one of the globs: the path
// itself, anything under a matching directory, and for a pattern without
// a slash, the file's name in any directory.
func matchFiles(globs []string, rel string) bool {
	if rel == "" {
		return false
	}
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		if ok, _ := doublestar.Match(g+"/**", rel); ok {
			return true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, path.Base(rel)); ok {
				return true
			}
		}
	}
	return false
}

// Finder finds the settings of each project: the nearest settings file
// from the project's directory upwards, with the flags over it. It is safe
// for concurrent use and reads each directory's files once.
type Finder struct {
	flags Flags
	mu    sync.Mutex
	dirs  map[string]*found // absolute directory -> its nearest file
	res   map[*File]*Resolved
	none  *Resolved
}

type found struct {
	file *File
	err  error
}

// NewFinder returns a Finder applying flags over the files it finds.
func NewFinder(flags Flags) *Finder {
	return &Finder{flags: flags, dirs: map[string]*found{}, res: map[*File]*Resolved{}}
}

// For returns the settings of the project in dir (or of the file named
// dir). An error names the settings file and the position in it.
func (fd *Finder) For(dir string) (*Resolved, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		abs = filepath.Dir(abs)
	}
	fd.mu.Lock()
	defer fd.mu.Unlock()
	var f *File
	if !fd.flags.Isolated {
		fo := fd.lookup(abs)
		if fo.err != nil {
			return nil, fo.err
		}
		f = fo.file
	}
	if f == nil {
		if fd.none == nil {
			fd.none = resolve(nil, fd.flags)
		}
		return fd.none, nil
	}
	r := fd.res[f]
	if r == nil {
		r = resolve(f, fd.flags)
		fd.res[f] = r
	}
	return r, nil
}

// lookup returns the nearest settings file of dir, from the cache or by
// looking in dir and then in its parent.
func (fd *Finder) lookup(dir string) *found {
	if fo, ok := fd.dirs[dir]; ok {
		return fo
	}
	fo := fd.own(dir)
	if fo == nil {
		parent := filepath.Dir(dir)
		if parent == dir {
			fo = &found{}
		} else {
			fo = fd.lookup(parent)
		}
	}
	fd.dirs[dir] = fo
	return fo
}

// own returns the settings file of dir itself, nil when it has none.
func (fd *Finder) own(dir string) *found {
	var f *File
	for _, name := range []string{FileName, "package.json"} {
		p := filepath.Join(dir, name)
		// ReadSource: a FIFO or device named fwmigrate.json is an error,
		// not a hang.
		src, err := project.ReadSource(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || name == "package.json" && errors.Is(err, fs.ErrPermission) {
				continue
			}
			if st, serr := os.Stat(p); serr == nil && st.IsDir() {
				continue
			}
			return &found{err: fmt.Errorf("%s: %v", p, err)}
		}
		g, ok, err := Parse(pathx.Display(p), src)
		if err != nil {
			return &found{err: err}
		}
		if !ok {
			continue
		}
		g.Path = p
		if f != nil {
			return &found{err: fmt.Errorf("%s: settings in both %s and %s: keep one", pathx.Display(dir), FileName, g.Name)}
		}
		f = g
	}
	if f == nil {
		return nil
	}
	f, err := extend(f, nil)
	if err != nil {
		return &found{err: err}
	}
	return &found{file: f}
}

// maxExtends bounds a chain of settings files that extend each other.
const maxExtends = 16

// extend returns f combined with the files it extends (their own extends
// first), as one File: biome's and eslint's way for nested settings.
//   - select, failOn, framework and baseline: f's own when it sets them,
//     else the last extended file's that does;
//   - ignore: the union of all (a package keeps ignoring what the root
//     ignores);
//   - severity and overrides: the extended files' first, then f's, so that
//     f's win; each override's globs stay relative to its own file.
//
// chain holds the files being extended, for cycles. An extended file must
// lie in the git work tree of the file that names it (when it is in one).
func extend(f *File, chain []string) (*File, error) {
	if len(f.Extends) == 0 {
		return f, nil
	}
	chain = append(chain, f.Path)
	fail := func(i int, format string, args ...any) (*File, error) {
		return nil, located(f.Name, f.src, errAt(f.extendsAt[i], format, args...))
	}
	if len(chain) > maxExtends {
		return fail(0, "settings files extend each other more than %d deep", maxExtends)
	}
	out := &File{Path: f.Path, Dir: f.Dir, Name: f.Name, from: map[string]string{}}
	for i, path := range f.Extends {
		as := f.extendsAs[i]
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fail(i, "extends %s: no such file", as)
		}
		if top := ignore.RepoTop(f.Dir); top != f.Dir || hasGit(top) {
			if !pathx.Within(real, realDir(top)) {
				return fail(i, "extends %s: outside the git work tree (%s): not read", as, pathx.Display(top))
			}
		}
		for _, c := range chain {
			if c == path || c == real {
				return fail(i, "extends %s: a cycle (%s)", as, strings.Join(displayAll(append(chain, path)), " -> "))
			}
		}
		src, err := project.ReadSource(path)
		if err != nil {
			return fail(i, "extends %s: %v", as, err)
		}
		base, ok, err := Parse(pathx.Display(path), src)
		if err != nil {
			return nil, err
		}
		if !ok {
			return fail(i, "extends %s: it holds no settings (a package.json without a %q key)", as, PackageKey)
		}
		base.Path = path
		if base, err = extend(base, chain); err != nil {
			return nil, err
		}
		out.merge(base)
	}
	out.merge(f)
	out.Extends = f.Extends
	return out, nil
}

// merge lays g's settings over f's (see extend).
func (f *File) merge(g *File) {
	// from records where a key's value comes from; for the lists that add
	// up, every file that adds to them.
	from := func(key string, adds bool) {
		n := g.from[key]
		if n == "" {
			n = g.Name
		}
		if adds && f.from[key] != "" {
			n = f.from[key] + " + " + n
		}
		f.from[key] = n
	}
	if g.Select != nil {
		f.Select = g.Select
		from("select", false)
	}
	if g.Ignore != nil {
		f.Ignore = append(append([]string{}, f.Ignore...), g.Ignore...)
		from("ignore", true)
	}
	if g.Severity != nil {
		f.Severity = append(append([]RuleSeverity{}, f.Severity...), g.Severity...)
		from("severity", true)
	}
	if g.Overrides != nil {
		f.Overrides = append(append([]Override{}, f.Overrides...), g.Overrides...)
		from("overrides", true)
	}
	if g.FailOn != "" {
		f.FailOn = g.FailOn
		from("failOn", false)
	}
	if g.Framework != 0 {
		f.Framework = g.Framework
		from("framework", false)
	}
	if g.Baseline != "" {
		f.Baseline = g.Baseline
		from("baseline", false)
	}
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

func realDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

func displayAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = pathx.Display(p)
	}
	return out
}
