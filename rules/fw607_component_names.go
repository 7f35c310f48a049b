package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleComponentNames = &Rule{
	Code:     "FW607",
	Name:     "normalized-component-names",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a component matched by its file's base name, which version 4 replaces by its path-prefixed name",
		Why: `A .vue component that declares no name is named after its file on version 3:
components/base/Button.vue is Button, although it is used as <BaseButton>. On
version 4 (experimental.normalizeComponentNames flips from false to true) its
name is the one it is used by: BaseButton (a file name that repeats its folders
is not prefixed twice: components/base/BaseButton.vue stays BaseButton; a
components.dirs entry with pathPrefix: false keeps the base name; its prefix is
added). Code that matches components by name then misses them: the include and
exclude of <KeepAlive> (include="A,B", :include="'A,B'" or an array, or a const
of the same file holding one), a test's findComponent, findAllComponents or
getComponent({ name }) (also in test/, tests/ and __tests__/, where tests of the
app's components live although the framework does not build them), and
comparisons with $options.name or $options.__name. Only names of components
whose two names differ are sites; components that declare their name
(defineOptions, export default { name }) keep it. The components directories
are the config's components (dirs, path, prefix, pathPrefix) and the local
layers' components/. Not read: regular expressions in include (they match the
name as a pattern), names computed at run time, KeepAlive in render functions.
<FwPage :keepalive> matches page components, which this change does not rename
(see FW619).`,
		Example: `<template>
  <!-- components/base/Button.vue -->
  <KeepAlive include="Button"><component :is="current" /></KeepAlive>
</template>`,
		Fix: `Unsafe: writes the new name (it matches on version 4 only). When a name names
several components that do not all get the same new name, it is reported
without a fix.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.normalizeComponentNames"},
}

func init() {
	ruleComponentNames.scan = scanComponentNames
	Register(ruleComponentNames)
}

func scanComponentNames(ci *codeIndex) *fileScan {
	byOld := componentsByOldName(ci)
	renamed := false
	for _, files := range byOld {
		for _, n := range files {
			renamed = renamed || n.New != n.Old
		}
	}
	if !renamed {
		return nil // no name changes: nothing to look for (nor tests to read)
	}
	// The names each file writes: KeepAlive's, then those of its code.
	type names struct{ keep, code []code.NameLit }
	per := make([]names, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i] = names{}
			if f.Config || f.Code == nil {
				return nil
			}
			per[i].keep = code.KeepAliveNames(f, false)
			return []*code.Visitor{componentNameLits(f, &per[i].code)}
		},
		sites: func() []*site {
			// Which files a name names, and whether they declare a name of
			// their own, is worked out here, one file after the other.
			var out []*site
			check := func(f *code.File, lits []code.NameLit) {
				for _, lit := range lits {
					changed, same := code.RenamedBy(ci.Index, byOld[lit.Name])
					if len(changed) > 0 {
						out = append(out, nameSite(f, lit, changed, same, "component", "on version 4 (experimental.normalizeComponentNames)"))
					}
				}
			}
			for i, f := range ci.Files {
				check(f, per[i].keep)
				check(f, per[i].code)
			}
			for _, f := range testFiles(ci) {
				if f.Config || f.Code == nil {
					continue
				}
				check(f, code.KeepAliveNames(f, false))
				var lits []code.NameLit
				code.WalkFile(f, []*code.Visitor{componentNameLits(f, &lits)}, nil)
				check(f, lits)
			}
			return out
		},
	}
}

// componentNameLits returns the visitor that appends to *lits the names
// f's code matches components by: findComponent({ name }) and its kin,
// comparisons with $options.name.
func componentNameLits(f *code.File, lits *[]code.NameLit) *code.Visitor {
	return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
		switch n.Kind {
		case ast.JSCall:
			if n.X.Kind != ast.JSMember || n.X.Has(ast.FlagComputed) || len(n.List) == 0 {
				return true
			}
			switch n.X.Name {
			case "findComponent", "findAllComponents", "getComponent":
				if p := code.ObjProp(n.List[0], "name"); p != nil && p.Y != nil && p.Y.Kind == ast.JSString {
					*lits = append(*lits, code.SplitNames(p.Y.Name, string(f.Text[p.Y.Loc.Start+1:p.Y.Loc.End-1]), p.Y.Loc.Start+1, "the name of "+n.X.Name, tx)...)
				}
			}
		case ast.JSBinary:
			if n.Op != "===" && n.Op != "!==" && n.Op != "==" && n.Op != "!=" {
				return true
			}
			for _, side := range [][2]*ast.JSNode{{n.X, n.Y}, {n.Y, n.X}} {
				mp := ast.MemberPath(side[0])
				if (strings.HasSuffix(mp, "$options.name") || strings.HasSuffix(mp, "$options.__name")) && side[1].Kind == ast.JSString {
					s := side[1]
					if raw := string(f.Text[s.Loc.Start+1 : s.Loc.End-1]); raw == s.Name {
						*lits = append(*lits, code.NameLit{Name: s.Name, Span: ast.Span{Start: s.Loc.Start + 1, End: s.Loc.End - 1}, Tx: tx, Where: "the comparison with `" + mp + "`"})
					}
				}
			}
		}
		return true
	}}
}

// testFiles are the project's tests (test/, tests/, __tests__/) that look
// components up by name, read for FW607: the framework does not build them,
// but they mount its components and see their names.
func testFiles(ci *codeIndex) []*code.File {
	var out []*code.File
	for _, s := range ci.Project.TestSources() {
		text, err := s.Read()
		if err != nil || !code.Triggered(text, [][]byte{[]byte("findComponent"), []byte("findAllComponents"), []byte("getComponent")}) {
			continue
		}
		f := &code.File{Src: s, Path: s.Path, Display: s.Display, Rel: s.Rel, Text: text}
		f.Code, f.Err = ast.ReadCode(s.Path, text)
		if f.Code != nil {
			out = append(out, f)
		}
	}
	return out
}
