package lsp

import (
	"reflect"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// Diagnostics as the editor shows them: a rules.Diagnostic's UTF-16
// positions as a Range, its severity, its code with the rule's page, its
// notes as related information (or as lines of the message for a client
// that shows none). A file may hear from several projects (a layer's code
// is checked with each app that extends it): each file's list is the union
// of its projects' lists.

// uriOf is the URI of a file: the client's spelling when it is open.
func (s *Server) uriOf(path string) DocumentURI {
	if d := s.docs[path]; d != nil {
		return d.uri
	}
	return pathURI(path)
}

// severity maps a rule severity to the protocol's.
func severity(sev rules.Severity) int {
	switch sev {
	case rules.Error:
		return SeverityError
	case rules.Warning:
		return SeverityWarning
	}
	return SeverityInformation
}

// diagRange is the editor range of d. Positions without UTF-16 columns
// (a syntax error's, which esbuild gives in bytes) are converted with the
// file's text when the check read it; a diagnostic about a whole file
// (line 0) is at its start.
func diagRange(d *rules.Diagnostic, text []byte) Range {
	if d.Line <= 0 {
		return Range{}
	}
	start := Position{Line: d.Line - 1, Character: max(d.ColumnUTF16-1, 0)}
	end := Position{Line: max(d.EndLine, d.Line) - 1, Character: max(d.EndColumnUTF16-1, 0)}
	if d.ColumnUTF16 == 0 && d.Column > 0 && text != nil {
		lines := ast.NewLines(text)
		at := func(line, col int) Position {
			return position(lines, lines.Offset(line, 1)+col-1)
		}
		start = at(d.Line, d.Column)
		end = start
		if d.EndLine > 0 && d.EndColumn > 0 {
			end = at(d.EndLine, d.EndColumn)
		}
	}
	if end.Line < start.Line || end.Line == start.Line && end.Character < start.Character {
		end = start
	}
	return Range{Start: start, End: end}
}

// toLSP converts one diagnostic of the file at uri.
func (s *Server) toLSP(d *rules.Diagnostic, uri DocumentURI, text []byte) Diagnostic {
	r := diagRange(d, text)
	out := Diagnostic{
		Range:           r,
		Severity:        severity(d.Severity),
		Code:            d.Code,
		CodeDescription: &CodeDescription{Href: ruledocs.URL(d.Code)},
		Source:          "fwmigrate",
		Message:         d.Message,
	}
	if len(d.Notes) == 0 {
		return out
	}
	if s.caps.TextDocument.PublishDiagnostics.RelatedInformation {
		for _, n := range d.Notes {
			out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{Location: Location{URI: uri, Range: r}, Message: n})
		}
		return out
	}
	out.Message += "\nnote: " + strings.Join(d.Notes, "\nnote: ")
	return out
}

// publish sends the diagnostics of the files res has findings in and of
// the project's open documents, and clears those of the files the
// project's previous check had findings in and this one has none.
func (s *Server) publish(cfg string, res *checked) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	var files []string
	for f, by := range s.published {
		if _, ok := by[cfg]; ok && res.byFile[f] == nil {
			delete(by, cfg)
			files = append(files, f)
		}
	}
	// The project's open documents hear after every check, findings or
	// not: the version tells the client which text the list is for.
	for f, d := range s.docs {
		if d.owner == cfg && f == d.path && res.byFile[f] == nil {
			files = append(files, f)
		}
	}
	for f, ds := range res.byFile {
		uri := s.uriOf(f)
		list := make([]Diagnostic, 0, len(ds))
		for _, d := range ds {
			list = append(list, s.toLSP(d, uri, res.texts[f]))
		}
		if s.published[f] == nil {
			s.published[f] = map[string][]Diagnostic{}
		}
		s.published[f][cfg] = list
		files = append(files, f)
	}
	sort.Strings(files)
	var out []PublishDiagnosticsParams
	for i, f := range files {
		if i > 0 && files[i-1] == f {
			continue
		}
		p := PublishDiagnosticsParams{URI: s.uriOf(f), Diagnostics: s.union(f)}
		v, open := res.versions[f]
		if open {
			p.Version = &v
		}
		if len(s.published[f]) == 0 {
			delete(s.published, f)
		}
		// A file whose list is the one the client has already is not
		// sent again: after an edit of one page of a large app, only
		// what changed goes out, not every file's list. An open
		// document hears after every check: the version tells the
		// client which text the list is for.
		if last, ok := s.sent[f]; ok && !open && reflect.DeepEqual(last, p.Diagnostics) {
			continue
		}
		if len(p.Diagnostics) == 0 {
			delete(s.sent, f)
		} else {
			s.sent[f] = p.Diagnostics
		}
		out = append(out, p)
	}
	s.mu.Unlock()
	for _, p := range out {
		s.notify("textDocument/publishDiagnostics", p)
	}
}

// union is the diagnostics of file from every project, each once, in
// position order. Call with s.mu held.
func (s *Server) union(file string) []Diagnostic {
	by := s.published[file]
	cfgs := make([]string, 0, len(by))
	for c := range by {
		cfgs = append(cfgs, c)
	}
	sort.Strings(cfgs)
	type key struct {
		r             Range
		code, message string
	}
	seen := map[key]bool{}
	out := []Diagnostic{}
	for _, c := range cfgs {
		for _, d := range by[c] {
			k := key{d.Range, d.Code, d.Message}
			if !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Character < b.Character
	})
	return out
}
