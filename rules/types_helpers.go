package rules

import (
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
// parsed. Nothing when no type rule ran.
func (x *Index) typeFiles() []*project.TextFile {
	if x.moreCode == nil {
		return nil
	}
	var out []*project.TextFile
	for _, f := range x.moreCode.Parsed() {
		out = append(out, &project.TextFile{Path: f.Path, Display: f.Display, Src: f.Text})
	}
	return out
}
