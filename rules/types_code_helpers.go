package rules

import (
	"bytes"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Helpers shared by the type rules (FW85x): the code they read beyond the
// code rules' index (the server's files, the files that index read
// without parsing), read once per check and parsed only where a detector's
// words are.

// more returns the type rules' reading of the project's code, built on
// the code rules' index ci (the one being walked: its detectors ask).
func (x *Index) more(ci *code.Index) *code.More {
	x.moreOnce.Do(func() { x.moreCode = code.NewMore(ci) })
	return x.moreCode
}

// typeFiles are the files the type rules read beyond the code rules' and
// may report in (for the suppression comments in them): the code More
// parsed and the test runner's configs. Nothing when no type rule ran.
func (x *Index) typeFiles() []*project.TextFile {
	var out []*project.TextFile
	if x.moreCode != nil {
		for _, f := range x.moreCode.Parsed() {
			out = append(out, &project.TextFile{Path: f.Path, Display: f.Display, Src: f.Text})
		}
	}
	for _, f := range x.vitest {
		out = append(out, &project.TextFile{Path: f.Path, Display: f.Display, Src: f.Text})
	}
	return out
}

// excerptOf is the source of a span on one line, shortened.
func excerptOf(src []byte, s ast.Span) string {
	t := src[s.Start:s.End]
	if i := bytes.IndexAny(t, "\r\n"); i >= 0 {
		t = append(append([]byte(nil), t[:i]...), []byte("...")...)
	}
	if len(t) > 60 {
		t = append(append([]byte(nil), t[:57]...), []byte("...")...)
	}
	return string(t)
}

// errorsPerSite returns how many times the target's type check reports an
// error of the file rel (root-relative; .vue files count, as vue-tsc reads
// them): on major 4, once per generated context that holds the file and in
// which counts says it is an error (the references are checked one by one,
// and a file in two contexts is reported by each); on major 3, once (the
// root extends the one generated file). 1 when the contexts are not known;
// 0 when the file is in no context that counts (then only an import from a
// checked file brings it in).
//
// v is pass.tsTarget()'s view, ok its answer: it is computed once per
// check by the caller (the contexts' globs are resolved in it).
func errorsPerSite(v tsView, ok bool, rel string, counts func(compat.TSContext) bool) int {
	if !ok || v.ctx == nil || v.ctx.Unknown != "" {
		return 1
	}
	if v.gen.Major < 4 {
		if l := v.ctx.Legacy(); l != nil && l.Holds(rel, true) {
			return 1
		}
		return 0
	}
	n := 0
	for _, f := range v.ctx.Holding(rel, true) {
		if counts == nil || counts(f.Context) {
			n++
		}
	}
	return n
}
