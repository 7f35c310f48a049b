package rules

import (
	"bytes"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Helpers shared by the type rules (FW85x): the code they read beyond the
// code rules' index (the server's files, the files that index read
// without parsing), read once per check and parsed only where a detector's
// words are.

// more returns the type rules' reading of the project's code, built on
// the code rules' index (which is read first, once).
func (x *Index) more() *code.More {
	x.moreOnce.Do(func() { x.moreCode = code.NewMore(x.code().Index) })
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
