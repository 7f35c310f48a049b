// Package workspace is the one front door to the engine: `fwmigrate check`,
// `fwmigrate apply` and the language server all load, configure and check
// projects through a Workspace, as biome's CLI and language server share
// its Workspace. It owns, once for every front end:
//
//   - the files: the editor's unsaved buffers (Overlay) are what every read
//     of a project sees;
//   - the settings: the fwmigrate.json nearest to each project, resolved
//     once, with its baseline loaded once, turned into rules.Options;
//   - the framework major of each project: package.json's or that of the
//     apps that extend a layer (both read by project.Loader), else the
//     settings' or --framework's, decided here (Major) and nowhere else;
//   - the operation check: a project's findings, with the texts of the
//     files they point into (code frames, editor ranges).
//
// The front ends keep their own jobs: flags, discovery and output
// (cmd/fwmigrate), scheduling and the protocol (lsp), the layout decision,
// the journal and the report (migrate).
package workspace

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
)

// Workspace is the state the front ends share. It is safe for concurrent
// use.
type Workspace struct {
	// Overlay, when set, serves a file's text before the disk (an editor's
	// unsaved buffer); see project.Loader.Overlay.
	Overlay func(path string) (src []byte, ok bool)
	// KeepBaselined keeps the findings a baseline knows (check
	// --update-baseline rewrites the baseline from them).
	KeepBaselined bool
	// NewLoader makes the project loaders (tests inject read errors).
	NewLoader func() *project.Loader
	// Cache, when set, keeps what a check read and found for the next (a
	// long-lived front end: the language server): the files' texts and
	// the code rules' per-file results, no syntax tree. A one-shot run
	// has no use for it.
	Cache *project.Cache
	// Tops are the paths the run was given (the command line's, the
	// editor's workspace folder): outside a git work tree, what a project
	// reads is confined to the one that holds it (project.Loader.Tops).
	Tops []string
	// Budget bounds each project's check (project.Budget; zero:
	// project.DefaultBudget), the same for every front end.
	Budget project.Budget

	flags  settings.Flags
	finder *settings.Finder

	mu        sync.Mutex
	baselines map[string]*baselineEntry
}

type baselineEntry struct {
	b   *settings.Baseline
	err error
}

// New returns a workspace whose settings come from the files nearest to
// each project, overridden by flags.
func New(flags settings.Flags) *Workspace {
	return &Workspace{flags: flags, finder: settings.NewFinder(flags), baselines: map[string]*baselineEntry{}}
}

// Finder is the settings finder of the workspace (check --show-settings
// prints what it resolves).
func (w *Workspace) Finder() *settings.Finder { return w.finder }

// Reload forgets the settings files and baselines read so far: one of them
// changed (the language server's didSave).
func (w *Workspace) Reload() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.finder = settings.NewFinder(w.flags)
	w.baselines = map[string]*baselineEntry{}
}

// Loader returns a new project loader reading through the workspace's
// overlay.
func (w *Workspace) Loader() *project.Loader {
	var l *project.Loader
	if w.NewLoader != nil {
		l = w.NewLoader()
	} else {
		l = project.NewLoader()
	}
	if w.Overlay != nil {
		l.Overlay = w.Overlay
	}
	l.Cache = w.Cache
	l.Tops = w.Tops
	l.Budget = w.Budget
	return l
}

// Settings returns the settings of the project whose config is at
// configPath: those of the file nearest to it, with the flags.
func (w *Workspace) Settings(configPath string) (*settings.Resolved, error) {
	w.mu.Lock()
	finder := w.finder
	w.mu.Unlock()
	return finder.For(filepath.Dir(configPath))
}

// baseline loads the baseline at path once.
func (w *Workspace) baseline(path string) (*settings.Baseline, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.baselines[path]
	if e == nil {
		b, err := settings.LoadBaseline(path, w.KeepBaselined)
		e = &baselineEntry{b, err}
		w.baselines[path] = e
	}
	return e.b, e.err
}

// Baselines returns the baselines loaded so far, by path.
func (w *Workspace) Baselines() map[string]*settings.Baseline {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]*settings.Baseline{}
	for p, e := range w.baselines {
		if e.b != nil {
			out[p] = e.b
		}
	}
	return out
}

// Use says what the options of a project are for.
type Use uint8

const (
	// ForCheck: the findings a user is shown; a baseline hides the known
	// ones.
	ForCheck Use = iota
	// ForFix: the findings apply fixes; a baseline hides nothing (apply
	// fixes what it can, known or not).
	ForFix
)

// Options returns the rules.Options of the project at configPath under its
// settings (and, for ForCheck, its baseline), and the settings.
func (w *Workspace) Options(configPath string, use Use) (rules.Options, *settings.Resolved, error) {
	res, err := w.Settings(configPath)
	if err != nil {
		return rules.Options{}, nil, err
	}
	var b *settings.Baseline
	if use == ForCheck && res.Baseline != "" && !w.KeepBaselined {
		if b, err = w.baseline(res.Baseline); err != nil {
			return rules.Options{}, res, err
		}
	}
	return res.Options(b), res, nil
}

// Major decides the framework major p runs with, once: package.json's or
// that of the apps extending a layer (set by the loader), else the one the
// settings or --framework give. It returns a note when the project's own
// major overrides a setting. It is the one writer of p.Framework besides
// the loader.
func Major(p *project.Project, res *settings.Resolved) (note string) {
	if res == nil || res.Framework == 0 {
		return ""
	}
	from := res.From["framework"]
	if from == "" {
		from = "--framework"
	}
	if p.Framework == 0 {
		p.Framework, p.FrameworkSource = res.Framework, from
		return ""
	}
	if p.Framework == res.Framework || p.FrameworkSource == from {
		return "" // agreed, or decided by this very setting before
	}
	source := p.FrameworkSource
	if source == "" {
		source = "package.json"
	}
	setting := fmt.Sprintf("framework %d (%s)", res.Framework, from)
	if from == "--framework" {
		setting = fmt.Sprintf("--framework=%d", res.Framework)
	}
	says := "says"
	if strings.HasPrefix(source, "the projects") {
		says = "say"
	}
	return fmt.Sprintf("%s ignored: %s %s %d", setting, source, says, p.Framework)
}

// Checked is one check of a project.
type Checked struct {
	Project  *project.Project
	Settings *settings.Resolved // nil when they could not be read (Err)
	Diags    []*rules.Diagnostic
	// Texts are the texts of the files Diags point into, by
	// Diagnostic.File (rules.Result.Texts).
	Texts map[string][]byte
	// Err is a settings file or baseline that cannot be read: the project
	// is not checked.
	Err error
}

// Check checks a loaded project with its settings and baseline.
func (w *Workspace) Check(p *project.Project) *Checked {
	opts, res, err := w.Options(p.ConfigPath, ForCheck)
	c := &Checked{Project: p, Settings: res, Err: err}
	if err != nil {
		return c
	}
	Major(p, res)
	r := rules.Run(p, opts)
	c.Diags, c.Texts = r.Diags, r.Texts
	return c
}

// Failing reports whether a finding is at or above the project's failOn.
func (c *Checked) Failing() bool {
	if c.Settings == nil {
		return false
	}
	threshold, never := c.Settings.Threshold()
	for _, d := range c.Diags {
		if !never && d.Severity >= threshold {
			return true
		}
	}
	return false
}
