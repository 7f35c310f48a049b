package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Helpers of the rules about components' names (FW607, FW619): the names
// code writes where a component is matched by name (KeepAlive's include
// and exclude, <FwPage :keepalive>, a test's findComponent({ name })), and
// the two names a component file has.

// nameSite is the site of a name that names changed files (noun:
// "component", "page"; after: how the new names are given, "on version 4
// (experimental.normalizeComponentNames)"), with a fix writing the new name
// when every file the name names gets the same one.
func nameSite(f *code.File, lit code.NameLit, changed, same []*code.NamedFile, noun, after string) *site {
	s := &site{file: f, span: lit.Span}
	var files, names []string
	for _, n := range changed {
		files = append(files, n.Src.Rel)
		if n.New == "" {
			names = append(names, "not named (no name can match it)")
		} else {
			names = append(names, "`"+n.New+"`")
		}
	}
	if len(changed) == 1 {
		s.msg = "`" + lit.Name + "` in " + lit.Where + " matches the " + noun + " " + files[0] + " by its file's name: " + after + " that " + noun + " is named " + names[0] + ", and `" + lit.Name + "` no longer matches it"
	} else {
		s.msg = "`" + lit.Name + "` in " + lit.Where + " matches the " + noun + "s " + strings.Join(files, ", ") + " by their file's name: " + after + " they are named " + strings.Join(names, ", ") + " in that order, and `" + lit.Name + "` no longer matches them"
	}
	if len(same) > 0 {
		var keep []string
		for _, n := range same {
			keep = append(keep, n.Src.Rel)
		}
		s.notes = append(s.notes, "`"+lit.Name+"` still matches "+strings.Join(keep, ", "))
	}
	newName := changed[0].New
	for _, n := range changed[1:] {
		if n.New != newName {
			newName = ""
		}
	}
	if newName != "" && len(same) == 0 {
		s.fix = codeFix(f, "write `"+newName+"`", Unsafe, edit(lit.Span, newName))
	}
	return s
}
