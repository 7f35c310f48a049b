package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// The source.fixAll.fwmigrate action: every safe fix of the document's
// project, as one WorkspaceEdit, made as `fwmigrate apply` makes its fixes
// (package fix): the config's in rounds (fix.Rounds: checked again after
// each, until nothing changes; for major 4 when FW701's bump of the fw
// dependency is among the fixes, as apply makes them), then each code
// file's together on the
// findings that still stand (fix.Code, validated by esbuild), files
// outside the project's root left alone as apply's transaction leaves
// them. What apply decides with the layout move is not made: a fix right
// only once the sources move into app/, or one that pins layout B instead,
// is a choice between the two ways out, taken by `fwmigrate apply` (the
// "Migrate this project" command) or by the fix's own quickfix.
//
// Editors ask for it by kind: VS Code's editor.codeActionsOnSave with
// "source.fixAll" or "source.fixAll.fwmigrate", Neovim's
// code_action({ context = { only = { 'source.fixAll' } } }). A request
// with no `only` gets it too when the user invoked it (triggerKind 1), not
// when the editor asks by itself as the cursor moves (the rounds check the
// project again: too much for every cursor move).

// CodeActionKind values of the fix-all action.
const (
	KindSource        = "source"
	KindSourceFixAll  = "source.fixAll"
	KindFixAll        = "source.fixAll.fwmigrate"
	triggerInvoked    = 1 // CodeActionTriggerKind.Invoked
	fixAllLayoutsNote = "a layout choice: `fwmigrate apply` (Migrate this project) makes it with the move"
)

// kindWanted reports whether an action of kind is among those only asks
// for: a kind is asked for by itself and by each of its prefixes ("source"
// asks for "source.fixAll.fwmigrate").
func kindWanted(only []string, kind string) bool {
	for _, o := range only {
		if o == kind || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

// codeActionsFor answers textDocument/codeAction: the quickfixes of the
// diagnostics in range (codeActions) and the fix-all action, each when the
// request's `only` asks for its kind.
func (s *Server) codeActionsFor(p CodeActionParams) []CodeAction {
	only := p.Context.Only
	out := []CodeAction{}
	if len(only) == 0 || kindWanted(only, KindQuickFix) {
		out = append(out, s.codeActions(p)...)
	}
	if len(only) == 0 && p.Context.TriggerKind != triggerInvoked || len(only) > 0 && !kindWanted(only, KindFixAll) {
		return out
	}
	if a := s.fixAllAction(p.TextDocument.URI); a != nil {
		out = append(out, *a)
	}
	return out
}

// fixAllAction is the fix-all action of the project uri belongs to; nil
// when it has nothing to fix, or (when the client shows no disabled
// actions) when its fixes cannot be made.
func (s *Server) fixAllAction(uri DocumentURI) *CodeAction {
	path, err := uriPath(uri)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	owner := ""
	if d := s.docs[path]; d != nil {
		owner = d.owner
	}
	disabled := s.caps.TextDocument.CodeAction.DisabledSupport
	s.mu.Unlock()
	if owner == "" {
		owner = project.OwnerConfig(path)
	}
	if owner == "" {
		return nil
	}
	s.mu.Lock()
	if s.projects[owner] == nil {
		// A file of a project no open document belongs to: check it now.
		s.projects[owner] = &projectState{config: owner, dirty: true}
	}
	s.mu.Unlock()
	res := s.current(owner)
	if res == nil {
		return nil
	}
	edit, n, why, err := s.fixAllEdit(owner, res)
	a := &CodeAction{Title: fmt.Sprintf("Fix all safe fwmigrate findings in this project (%s)", plural(n, "fix", "fixes")), Kind: KindFixAll}
	switch {
	case err != nil:
		s.logf("fwmigrate lsp: %s: fix all: %v", owner, err)
		why = "a fix failed its own checks (a bug in fwmigrate, see the output panel)"
	case n == 0 && why == "":
		return nil
	}
	if why != "" {
		if !disabled {
			return nil
		}
		a.Title = "Fix all safe fwmigrate findings in this project"
		a.Disabled = &Disabled{Reason: why}
		return a
	}
	a.Edit = edit
	return a
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// fixAllEdit makes the safe fixes of the project checked in res, as apply
// makes them, on the editor's buffers. n counts the fixes made; why says
// why none can be made (a project apply refuses).
func (s *Server) fixAllEdit(cfg string, res *checked) (edit *WorkspaceEdit, n int, why string, err error) {
	p := res.project
	switch {
	case p.File == nil || rules.Fatal(res.diags):
		return nil, 0, "the project cannot be checked: see its errors", nil
	case p.ConfigOutside != "":
		return nil, 0, "the config is a symlink to a file outside the project (FW910): apply rewrites nothing through it", nil
	case p.Journal != "" || p.JournalRefused != nil:
		return nil, 0, "an apply was interrupted in this project (FW909): run `fwmigrate apply` to finish it, or `fwmigrate apply --rollback`", nil
	}
	opts, _ := s.options(cfg)
	snap := s.snapshot()
	out, err := fix.Rounds(p, res.diags, nil, fix.RoundOptions{
		Skip: func(d *rules.Diagnostic) string {
			if d.Fix.Layout != rules.AnyLayout {
				return fixAllLayoutsNote
			}
			return ""
		},
		Rules: opts,
		Check: func(cur *project.Project, o rules.Options) []*rules.Diagnostic { return s.opts.Check(cur, o).Diags },
		Read:  snap.read,
	})
	if err != nil {
		return nil, 0, "", err
	}
	if out.Fatal {
		return nil, 0, "the fixed config cannot be checked: make the fixes one by one", nil
	}
	edit = &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{}}
	if out.Changed(p) {
		n += len(out.Fixed)
		s.addEdit(edit, p.ConfigPath, p.File.Src, out.Project.File.Src)
	}
	// The code fixes of the findings that still stand, each file's
	// together, as apply's makeCodeFixes makes them.
	byFile := map[string][][]rewrite.Op{}
	counts := map[string]int{}
	for _, d := range out.Diags {
		fx := d.Fix
		if fx == nil || fx.File == "" || len(fx.Ops) == 0 || fx.Applicability != rules.Safe || fx.Layout != rules.AnyLayout || len(fx.ConfigOps) > 0 {
			continue
		}
		if !pathx.Within(fx.File, p.Root) {
			continue // a layer's file: apply writes nothing outside the project
		}
		byFile[fx.File] = append(byFile[fx.File], fx.Ops)
		counts[fx.File]++
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		var ops []rewrite.Op
		for _, o := range byFile[f] {
			ops = append(ops, o...)
		}
		e, err := fix.Code(f, snap.read, ops)
		if err != nil {
			// apply lists these as not made; the editor's quickfix says why.
			s.logf("fwmigrate lsp: fix all: %s: %v", f, err)
			continue
		}
		n += counts[f]
		s.addEdit(edit, f, e.Old, e.New)
	}
	return edit, n, "", nil
}

// addEdit adds the edits that turn before into after, in path, to edit.
func (s *Server) addEdit(edit *WorkspaceEdit, path string, before, after []byte) {
	edits := textEdits(before, after)
	if len(edits) == 0 {
		return
	}
	s.mu.Lock()
	uri := s.uriOf(path)
	s.mu.Unlock()
	edit.Changes[uri] = append(edit.Changes[uri], edits...)
}
