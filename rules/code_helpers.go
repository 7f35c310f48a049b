package rules

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Helpers shared by the code rules (FW6xx): the project's code, read once
// per check by package code, and the sites the rules' detectors find in
// it, turned into diagnostics and fixes.

// configCode returns the config read as code, for the code index and for
// the rules that follow paths through it (FW110): the code tree of the
// config's one parse (ast.File.Code).
func (x *Index) configCode() *code.File {
	x.configCodeOnce.Do(func() {
		p := x.project
		f := &code.File{Path: p.ConfigPath, Display: p.ConfigDisplay, Rel: filepath.Base(p.ConfigPath), Text: x.file.Src, Config: true}
		f.Code = x.file.Code()
		x.configCodeFile = f
	})
	return x.configCodeFile
}

// codeIndex is the project's code as the code rules' detectors see it:
// what was read, with the check's index and the sites found in it.
type codeIndex struct {
	*code.Index
	index *Index             // the check's index: the config, for detectors that depend on it (FW604)
	sites map[string][]*site // a detector's sites, by rule code (see Index.sitesOf)
}

// code returns the project's code as the code rules read it.
func (x *Index) code() *codeIndex {
	x.codeOnce.Do(func() {
		var config *code.File
		// The config itself: hooks and inline modules are module code.
		if x.project != nil && x.file != nil && code.Triggered(x.file.Src, code.Triggers) {
			config = x.configCode()
		}
		x.codeIdx = &codeIndex{Index: code.Read(x.project, x.config, config), index: x, sites: map[string][]*site{}}
	})
	return x.codeIdx
}

// site is one place of the code that a change of version 4 reaches.
type site struct {
	file *code.File
	span ast.Span
	msg  string
	// option is the default change the site depends on, when it is not the
	// rule's first flip (FW601: data's or error's).
	option string
	// notes and fix are added to the diagnostic as they are.
	notes []string
	fix   *Fix
}

// sitesOf returns the sites of the code rule code, computed once per check
// by its detector: the rule reports them, and FW204 asks which default
// changes reach code.
func (x *Index) sitesOf(code string, detect func(ci *codeIndex) []*site) []*site {
	ci := x.code()
	x.siteMu.Lock()
	defer x.siteMu.Unlock()
	s, ok := ci.sites[code]
	if !ok {
		s = detect(ci)
		ci.sites[code] = s
	}
	return s
}

// runCodeRule is the Run of the code rules: it reports the sites its
// detector finds, each about the default change it depends on, unless the
// project keeps the version-3 behaviour of that change.
func runCodeRule(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	for _, s := range pass.Index.sitesOf(pass.Rule.Code, pass.Rule.detect) {
		option := s.option
		if option == "" && len(pass.Rule.Flips) > 0 {
			option = pass.Rule.Flips[0]
		}
		if option != "" && !flipReaches(pass, option) {
			continue
		}
		d := pass.reportCode(s.file, s.span, option, "%s", s.msg)
		d.Notes = append(d.Notes, s.notes...)
		if note := pinNote(option); note != "" {
			d.Notes = append(d.Notes, note)
		}
		d.Fix = s.fix
	}
}

// runCompat5Rule is runCodeRule for the changes of compatibility version
// 5: only a project that runs under it (framework major 4 with
// future.compatibilityVersion: 5) is reported.
func runCompat5Rule(pass *Pass) {
	if targetCompat(pass) < 5 {
		return
	}
	runCodeRule(pass)
}

// reportCode reports at span of a code file, with its positions filled in
// here (Check knows only the config's and the .env files' lines).
func (p *Pass) reportCode(f *code.File, span ast.Span, option, format string, args ...any) *Diagnostic {
	d := p.Report(span, option, format, args...)
	if f.Config {
		return d // positions are the config's, filled by Check
	}
	d.File, d.Path = f.Display, f.Rel
	var lines ast.Lines
	if f.Code != nil {
		start, end := f.Code.Position(span.Start), f.Code.Position(span.End)
		d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
		return d
	}
	lines = ast.NewLines(f.Text)
	start, end := lines.Position(span.Start), lines.Position(span.End)
	d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
	d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	return d
}

// codeFix returns a fix that edits f (nil when f must not be edited: it
// could not be read fully). Each edit replaces a span's bytes; an empty
// span inserts.
func codeFix(f *code.File, desc string, app Applicability, edits ...rewrite.Op) *Fix {
	if f.Err != nil || len(edits) == 0 {
		return nil
	}
	for i := range edits {
		edits[i].Kind = rewrite.OpReplace
	}
	fix := &Fix{Description: desc, Applicability: app, Ops: edits}
	if !f.Config {
		fix.File = f.Path
	}
	return fix
}

// edit is an OpReplace of span with text.
func edit(span ast.Span, text string) rewrite.Op {
	return rewrite.Op{Kind: rewrite.OpReplace, Span: span, Text: text}
}

// flipOf returns the default change of version 4 at path, or of
// compatibility version 5 (to is 4 or 5).
func flipOf(path string) (f compat.Flip, to int, ok bool) {
	for _, f := range flippedDefaults() {
		if f.Path == path {
			return f, 4, true
		}
	}
	for _, f := range flippedDefaults5() {
		if f.Path == path {
			return f, 5, true
		}
	}
	return compat.Flip{}, 0, false
}

// flipReaches reports whether the default change at path reaches the
// project: it does unless the config sets the value that restores the
// version-3 behaviour where that value holds (on framework major 4, or on
// v3 with compatibility version 4; an unknown major counts as 3).
func flipReaches(pass *Pass, path string) bool {
	f, _, ok := flipOf(path)
	if !ok || !f.Restore.Set {
		return true
	}
	v, st := pass.Config.Value(path)
	if st != compat.Static || !sameValue(v, f.Restore.Value) {
		return true
	}
	if pass.Project.Framework >= 4 {
		return !f.OnV4
	}
	return !f.OnCompat4
}

// pinNote tells the other way out of a site: keeping the version-3
// behaviour with `apply --pin`, where the framework can keep it.
func pinNote(path string) string {
	f, to, ok := flipOf(path)
	switch {
	case !ok:
		return ""
	case !f.Restore.Set || !f.OnV4:
		return "framework major 4 cannot keep the version-3 behaviour of `" + path + "`: change the code"
	case to == 5:
		return "or keep compatibility version 4's behaviour for now: set `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
	}
	return "or keep the version-3 behaviour for now: `fwmigrate apply --pin=" + path + "` sets `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
}

// configKeyPath returns the option path of the config property whose key
// is at span (a hooks key the code rules found in the config), nil when no
// property of the config's literal has that key.
func configKeyPath(ci *codeIndex, span ast.Span) ast.Path {
	if ci.index == nil || ci.index.file == nil || ci.index.file.Config == nil {
		return nil
	}
	var out ast.Path
	ci.index.file.Walk(func(path ast.Path, prop *ast.Property) bool {
		if out != nil {
			return false
		}
		if prop.KeySpan.Start <= span.Start && span.End <= prop.KeySpan.End && prop.KeySpan.Len() > 0 {
			out = append(ast.Path(nil), path...)
			return false
		}
		return prop.Loc.Start <= span.Start && span.End <= prop.Loc.End
	})
	return out
}

// otherFiles are the files besides the config and the .env files that the
// check read and may report in: the code files the code rules read (none
// when no code rule ran), tsconfig.json, and the files the type rules
// read besides (typeFiles).
func (x *Index) otherFiles() []*project.TextFile {
	var out []*project.TextFile
	if x.codeIdx != nil {
		for _, f := range x.codeIdx.Files {
			if !f.Config {
				out = append(out, &project.TextFile{Path: f.Path, Display: f.Display, Src: f.Text})
			}
		}
	}
	if x.project.TSConfig != nil {
		out = append(out, x.project.TSConfig)
	}
	return append(out, x.typeFiles()...)
}
