package lsp

import (
	"fmt"
	"sort"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Code actions: every fix of the diagnostics under the cursor, made the
// way `fwmigrate apply` makes it, and a fwmigrate-ignore comment. Each is
// a WorkspaceEdit for the editor to apply: the server writes nothing.

func (s *Server) codeActions(p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return out
	}
	s.mu.Lock()
	set := map[string]bool{}
	for c := range s.published[path] {
		set[c] = true
	}
	if d := s.docs[path]; d != nil && d.owner != "" {
		set[d.owner] = true
	}
	disabled := s.caps.TextDocument.CodeAction.DisabledSupport
	s.mu.Unlock()
	cfgs := make([]string, 0, len(set))
	for c := range set {
		cfgs = append(cfgs, c)
	}
	sort.Strings(cfgs)
	seen := map[string]bool{}
	add := func(a CodeAction) {
		if !seen[a.Title] {
			seen[a.Title] = true
			out = append(out, a)
		}
	}
	for _, cfg := range cfgs {
		res := s.current(cfg)
		if res == nil {
			continue
		}
		// No change can come while a request is handled (the connection
		// hands over one message at a time): the buffers are those the
		// check read.
		snap := s.snapshot()
		s.mu.Lock()
		uri := s.uriOf(path)
		s.mu.Unlock()
		for _, d := range res.byFile[path] {
			ld := s.toLSP(d, uri, res.texts[path])
			if !overlaps(ld.Range, p.Range) {
				continue
			}
			if d.Fix != nil && len(d.Fix.Ops) > 0 {
				a := CodeAction{Title: fixTitle(d), Kind: KindQuickFix, Diagnostics: []Diagnostic{ld}}
				a.IsPreferred = d.Fix.Applicability == rules.Safe && d.Fix.Layout == rules.AnyLayout
				edit, why, err := s.fixEdit(res, d, snap)
				switch {
				case err != nil:
					s.logf("fwmigrate lsp: %s: fix of %s: %v", path, d.Code, err)
				case why != "":
					if disabled {
						a.IsPreferred = false
						a.Disabled = &Disabled{Reason: why}
						add(a)
					}
				default:
					a.Edit = edit
					add(a)
				}
			}
			if a := s.suppressAction(res, d, path); a != nil {
				a.Diagnostics = []Diagnostic{ld}
				add(*a)
			}
		}
	}
	return out
}

// overlaps reports whether two ranges share a position (their ends count:
// a cursor just after a key is on its diagnostic).
func overlaps(a, b Range) bool {
	before := func(x, y Position) bool { return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character }
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// fixTitle names a fix as the editor lists it: its description, its rule,
// "(unsafe)" for a fix that changes behaviour, and the layout choice it
// assumes.
func fixTitle(d *rules.Diagnostic) string {
	t := fmt.Sprintf("%s (%s)", upperFirst(d.Fix.Description), d.Code)
	if d.Fix.Applicability == rules.Unsafe {
		t += " (unsafe)"
	}
	switch d.Fix.Layout {
	case rules.MoveOnly:
		t += " (once the sources are in app/)"
	case rules.KeepOnly:
		t += " (keeps layout B)"
	}
	return t
}

func upperFirst(s string) string {
	if s != "" && 'a' <= s[0] && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// fixEdit makes d's fix as apply makes it (fix.One, on the texts the
// check read and the editor's buffers), as one workspace edit. why says why
// a fix cannot be made (an op apply would skip); err is a fix that fails
// its own checks (a bug).
func (s *Server) fixEdit(res *checked, d *rules.Diagnostic, snap snapshot) (edit *WorkspaceEdit, why string, err error) {
	edits, why, err := fix.One(res.project, d, snap.read)
	if err != nil || why != "" {
		return nil, why, err
	}
	edit = &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{}}
	for _, e := range edits {
		s.mu.Lock()
		uri := s.uriOf(e.Path)
		s.mu.Unlock()
		edit.Changes[uri] = textEdits(e.Old, e.New)
	}
	return edit, "", nil
}

// textEdits are the edits that turn before into after, as the editor's
// ranges in before.
func textEdits(before, after []byte) []TextEdit {
	lines := ast.NewLines(before)
	edits := rewrite.Edits(before, after)
	out := make([]TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, TextEdit{Range: Range{Start: position(lines, e.Start), End: position(lines, e.End)}, NewText: e.New})
	}
	return out
}

// suppressAction is the action that hides d with a fwmigrate-ignore
// comment: the edit rules.SuppressEdit makes (where the comment goes, in
// which form, and the proof that it is one the check reads), as the
// editor's range.
func (s *Server) suppressAction(res *checked, d *rules.Diagnostic, path string) *CodeAction {
	e, ok := rules.SuppressEdit(res.project, d, path)
	if !ok {
		return nil
	}
	pos := Position{Line: e.At.Line - 1, Character: e.At.ColumnUTF16 - 1}
	s.mu.Lock()
	uri := s.uriOf(path)
	s.mu.Unlock()
	return &CodeAction{
		Title: fmt.Sprintf("Suppress %s on this line (fwmigrate-ignore comment)", d.Code),
		Kind:  KindQuickFix,
		Edit:  &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{uri: {{Range: Range{Start: pos, End: pos}, NewText: e.Text}}}},
	}
}
