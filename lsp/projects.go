package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// Which projects a file reaches, when they are checked, and the check.
//
// A file belongs to the project of the nearest fw.config.* at or above it
// (its owner), and reaches every project checked so far that has a local
// layer at or above it: a change to a layer's config, package.json, .env
// or code checks the projects that extend it too. Nothing else is checked
// again.

// projectState is a project the server has checked.
type projectState struct {
	config string // its config, absolute
	// mu serializes the checks of the project: the scheduler's and a
	// request's that needs a result for the current text.
	mu sync.Mutex
	// dirty, guarded by Server.mu, says that a change reached the project
	// since its last check began.
	dirty  bool
	result *checked // the last check's, guarded by Server.mu
	// cancel, guarded by Server.mu, stops the scheduler's check under way:
	// a change reached the project, so its result would be stale.
	cancel context.CancelFunc
}

// checked is the result of one check of a project.
type checked struct {
	project *project.Project
	diags   []*rules.Diagnostic
	byFile  map[string][]*rules.Diagnostic // by absolute file
	// versions are the versions of the open documents the check read.
	versions map[string]int
	// texts are the texts of the files with diagnostics the check read,
	// the config's and the .env files' (for ranges and fixes).
	texts map[string][]byte
}

// CheckFunc checks a loaded project with options, as rules.Run does.
type CheckFunc func(p *project.Project, opts rules.Options) *rules.Result

// affected returns the configs of the projects a change of path reaches:
// its owner, and every checked project with a local layer at or above
// path. Call with s.mu held.
func (s *Server) affected(path, owner string) []string {
	set := map[string]bool{}
	if owner != "" {
		set[owner] = true
	}
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	for cfg, ps := range s.projects {
		if ps.result == nil || set[cfg] {
			continue
		}
		for _, ly := range ps.result.project.Layers {
			if pathx.Within(real, ly.Root) || pathx.Within(path, ly.Root) {
				set[cfg] = true
				break
			}
		}
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// touch marks the projects a change of path reaches as dirty and schedules
// their checks. Call with s.mu held.
func (s *Server) touch(path, owner string) {
	for _, cfg := range s.affected(path, owner) {
		ps := s.projects[cfg]
		if ps == nil {
			ps = &projectState{config: cfg}
			s.projects[cfg] = ps
		}
		ps.dirty = true
		if ps.cancel != nil {
			ps.cancel()
			ps.cancel = nil
		}
		s.sched.add(cfg)
	}
}

// touchAll marks every project dirty: the settings may have changed.
// Call with s.mu held.
func (s *Server) touchAll() {
	s.ws.Reload()
	s.forgetFolders()
	for cfg, ps := range s.projects {
		ps.dirty = true
		s.sched.add(cfg)
	}
}

func (s *Server) didOpen(p DidOpenTextDocumentParams) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		s.logf("fwmigrate lsp: didOpen: %v", err)
		return
	}
	d := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text), owner: project.OwnerConfig(path)}
	if r, err := filepath.EvalSymlinks(path); err == nil && r != path {
		d.real = r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[path] = d
	if d.real != "" {
		s.docs[d.real] = d
	}
	// A buffer opened may be a file the folders' listing does not know
	// yet (created outside the editor).
	s.forgetFolders()
	s.touch(path, d.owner)
}

func (s *Server) didChange(p DidChangeTextDocumentParams) {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		s.logf("fwmigrate lsp: didChange: %v", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.docs[path]
	if old == nil {
		s.logf("fwmigrate lsp: didChange of %s, which is not open", path)
		return
	}
	d := *old
	d.text = applyChanges(old.text, p.ContentChanges)
	d.version = p.TextDocument.Version
	s.docs[path] = &d
	if d.real != "" {
		s.docs[d.real] = &d
	}
	s.touch(path, d.owner)
}

// saved handles textDocument/didSave: as didSave, but the folders' listing
// is kept when the file is code it knows already (an editor that saves
// every few seconds does not make every check list the folders again; a
// code file's text is the buffer's while it is open). A .gitignore or
// any other file saved is read from the disk again.
func (s *Server) saved(uri DocumentURI) {
	if path, err := uriPath(uri); err == nil {
		if c := s.ws.Cache; c != nil && project.IsCodeName(path) && !c.Stale(path) {
			s.change(path)
			return
		}
	}
	s.didSave(uri)
}

// didSave handles a saved or changed file: the buffer already had the
// text, but a settings file (fwmigrate.json, package.json's "fwmigrate"
// key) or a baseline is read from the disk.
func (s *Server) didSave(uri DocumentURI) {
	path, err := uriPath(uri)
	if err != nil {
		return
	}
	s.mu.Lock()
	// Created, deleted, renamed, changed on disk: the folders are listed
	// again by the next check (an edit of a buffer's text alone, didChange,
	// keeps the listing).
	s.forgetFolders()
	s.mu.Unlock()
	s.change(path)
}

// change checks again what a file saved or changed on disk reaches.
func (s *Server) change(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch base := filepath.Base(path); {
	case base == settings.FileName, base == "package.json", strings.HasSuffix(base, ".json"):
		s.touchAll()
	case s.docs[path] == nil:
		s.touch(path, project.OwnerConfig(path)) // changed on disk
	}
}

func (s *Server) didClose(uri DocumentURI) {
	path, err := uriPath(uri)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return
	}
	delete(s.docs, path)
	if d.real != "" {
		delete(s.docs, d.real)
	}
	// A buffer never saved is gone; a file saved under it is the disk's.
	s.forgetFolders()
	// The disk's text, saved or not, is the file's again.
	s.touch(path, d.owner)
}

// forgetFolders drops the listing of the folders the checks keep between
// them (project.Cache.ForgetFolders): files may have come or gone. Call
// with s.mu held.
func (s *Server) forgetFolders() {
	if c := s.ws.Cache; c != nil {
		c.ForgetFolders()
	}
}

// snapshot is the open documents as one check sees them.
type snapshot map[string]*document

func (s *Server) snapshot() snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := make(snapshot, len(s.docs))
	for k, d := range s.docs {
		snap[k] = d
	}
	return snap
}

// overlay is the Loader's Overlay of a snapshot.
func (snap snapshot) overlay(path string) ([]byte, bool) {
	if d := snap[path]; d != nil {
		return d.text, true
	}
	return nil, false
}

// read returns a file's text: the buffer's, else the disk's.
func (snap snapshot) read(path string) ([]byte, error) {
	if d := snap[path]; d != nil {
		return d.text, nil
	}
	return project.ReadSource(path)
}

// checkPending is the scheduler's work: check each project and publish.
func (s *Server) checkPending(configs []string) {
	for _, cfg := range configs {
		s.mu.Lock()
		ps := s.projects[cfg]
		s.mu.Unlock()
		if ps == nil {
			continue
		}
		ps.mu.Lock()
		s.mu.Lock()
		dirty := ps.dirty
		s.mu.Unlock()
		if dirty {
			ctx, cancel := context.WithCancel(context.Background())
			s.mu.Lock()
			ps.cancel = cancel
			s.mu.Unlock()
			s.check(ps, ctx)
			cancel()
		}
		ps.mu.Unlock()
	}
}

// current returns the project's check of the current text, checking it now
// when a change reached it since (a code action must edit the text the
// editor has).
func (s *Server) current(cfg string) *checked {
	s.mu.Lock()
	ps := s.projects[cfg]
	s.mu.Unlock()
	if ps == nil {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	s.mu.Lock()
	dirty, res := ps.dirty, ps.result
	s.mu.Unlock()
	if dirty || res == nil {
		res = s.check(ps, context.Background())
	}
	return res
}

// check checks one project on the current buffers and publishes its
// diagnostics. A check that ctx cancels (a newer change reached the
// project: it is scheduled again) is dropped: neither kept nor published,
// and nil. Call with ps.mu held.
func (s *Server) check(ps *projectState, ctx context.Context) *checked {
	if s.opts.CheckStarts != nil {
		s.opts.CheckStarts(ctx)
	}
	s.mu.Lock()
	ps.dirty = false
	s.mu.Unlock()
	snap := s.snapshot()
	res := s.load(ps.config, snap, ctx)
	if res == nil {
		// Cancelled: a change reached the project, and scheduled it
		// again. It may have come before dirty was cleared above (after
		// the scheduler made ctx cancellable): the project stays dirty,
		// or the scheduled check would find it clean and the change
		// would never be published.
		if ctx.Err() != nil {
			s.mu.Lock()
			ps.dirty = true
			s.mu.Unlock()
		}
		return nil
	}
	s.mu.Lock()
	ps.result = res
	s.mu.Unlock()
	s.publish(ps.config, res)
	return res
}

// load loads and checks the project of cfg on snap, with the settings
// the workspace gives it, as `fwmigrate check` does. A panic in the check is an
// FW999 diagnostic on the config.
func (s *Server) load(cfg string, snap snapshot, ctx context.Context) (res *checked) {
	res = &checked{byFile: map[string][]*rules.Diagnostic{}, versions: map[string]int{}, texts: map[string][]byte{}}
	for k, d := range snap {
		res.versions[k] = d.version
	}
	defer func() {
		if e := recover(); e != nil {
			d := rules.Find(rules.CodeInternal).Diagnose(cfg, ast.Span{}, "", fmt.Sprintf("internal error: %v", e))
			d.Severity = rules.Error
			d.Notes = []string{"this is a bug in fwmigrate: please report it with the config", text.FirstLines(string(debug.Stack()), 12)}
			if res.project == nil {
				res.project = project.Failed(cfg, cfg, fmt.Errorf("internal error: %v", e))
			}
			res.diags = []*rules.Diagnostic{d}
			res.byFile = map[string][]*rules.Diagnostic{cfg: {d}}
		}
	}()
	if c := s.ws.Cache; c != nil {
		c.Next(cacheChecks)
	}
	l := s.ws.Loader()
	l.Overlay = snap.overlay
	l.Buffers = snap.paths
	p := l.Load(cfg, cfg)
	res.project = p
	opts, set := s.options(cfg)
	opts.Context = ctx
	workspace.Major(p, set)
	r := s.opts.Check(p, opts)
	if r.Cancelled {
		return nil
	}
	res.diags = r.Diags
	for _, d := range res.diags {
		f := d.File
		if !filepath.IsAbs(f) {
			f, _ = filepath.Abs(f)
		}
		res.byFile[f] = append(res.byFile[f], d)
	}
	for file, src := range r.Texts {
		if !filepath.IsAbs(file) {
			file, _ = filepath.Abs(file)
		}
		res.texts[file] = src
	}
	// Fixes and suppressions edit these even where no finding points.
	if p.Src != nil {
		res.texts[cfg] = p.Src
	}
	for _, ef := range p.Env {
		res.texts[ef.Path] = ef.Src
	}
	if p.TSConfig != nil {
		res.texts[p.TSConfig.Path] = p.TSConfig.Src
	}
	return res
}

// cacheChecks is how many checks a file's text stays cached without being
// asked for: enough for the projects an editor switches between.
const cacheChecks = 32

// options are the rules.Options of the project at cfg, and its settings:
// its settings file's, with the baseline, as check runs it. A settings
// file or baseline that cannot be read is shown to the user, and the
// project is checked without it.
func (s *Server) options(cfg string) (rules.Options, *settings.Resolved) {
	opts, res, err := s.ws.Options(cfg, workspace.ForCheck)
	switch {
	case err == nil:
		return opts, res
	case res != nil:
		s.showOnce(MessageWarning, fmt.Sprintf("fwmigrate: %v (checking without the baseline)", err))
		return res.Options(nil), res
	}
	s.showOnce(MessageError, fmt.Sprintf("fwmigrate: %v (checking with the default settings)", err))
	opts, res, _ = workspace.New(settings.Flags{Isolated: true}).Options(cfg, workspace.ForFix)
	return opts, res
}

// scheduler runs the checks of the projects changes reach, on one
// goroutine, each project once per burst of changes: it waits until no
// change came for the debounce delay.
type scheduler struct {
	delay time.Duration
	run   func(configs []string)

	mu      sync.Mutex
	pending map[string]bool
	order   []string
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
}

func newScheduler(delay time.Duration, run func([]string)) *scheduler {
	q := &scheduler{delay: delay, run: run, pending: map[string]bool{}, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go q.loop()
	return q
}

// add schedules a check of cfg.
func (q *scheduler) add(cfg string) {
	q.mu.Lock()
	if !q.pending[cfg] {
		q.pending[cfg] = true
		q.order = append(q.order, cfg)
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// stop ends the loop after the check under way, and waits for it.
func (q *scheduler) stop() {
	q.once.Do(func() { close(q.quit) })
	<-q.done
}

func (q *scheduler) loop() {
	defer close(q.done)
	var timer *time.Timer
	if q.delay > 0 {
		timer = time.NewTimer(time.Hour)
		timer.Stop()
		defer timer.Stop()
	}
	for {
		select {
		case <-q.wake:
		case <-q.quit:
			return
		}
		// Debounce: wait until the changes stop for the delay.
		for quiet := timer == nil; !quiet; {
			timer.Reset(q.delay)
			select {
			case <-q.wake:
				// Reset restarts the delay (since Go 1.23 a stopped or
				// reset timer delivers no stale tick).
			case <-timer.C:
				quiet = true
			case <-q.quit:
				return
			}
		}
		q.mu.Lock()
		configs := q.order
		q.order, q.pending = nil, map[string]bool{}
		q.mu.Unlock()
		q.run(configs)
	}
}
