package rules

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
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

// componentDir is an entry of components.dirs, resolved.
type componentDir struct {
	path       string // absolute
	prefix     string
	pathPrefix bool
}

// componentsByOldName returns the .vue components of the project and its
// local layers by the name the component compiler gives them, each with
// the name version 4 gives it.
func componentsByOldName(ci *codeIndex) map[string][]*code.NamedFile {
	p := ci.Project
	if p == nil || p.Detection == nil {
		return nil
	}
	own, ok := componentDirs(ci.Config, p.Detection)
	if !ok {
		return nil
	}
	out := map[string][]*code.NamedFile{}
	for _, s := range p.Sources() {
		if s.Role != project.RoleApp || filepath.Ext(s.Path) != ".vue" {
			continue
		}
		dirs := own
		if s.Layer != nil {
			if s.Layer.Detection == nil {
				continue
			}
			dirs = defaultComponentDirs(s.Layer.Detection.Current.SrcDir)
		}
		// The deepest directory that holds the file registers it.
		var dir *componentDir
		var rel string
		for i := range dirs {
			if r, ok := code.RelUnder(dirs[i].path, s.Path); ok && (dir == nil || len(dirs[i].path) > len(dir.path)) {
				dir, rel = &dirs[i], r
			}
		}
		if dir == nil || strings.HasPrefix(path.Base(rel), "-") {
			continue // not a component, or ignored by the ignore prefix
		}
		relDir := path.Dir(rel)
		if relDir == "." {
			relDir = ""
		}
		old := compat.VueFileName(rel)
		n := &code.NamedFile{Src: s, Old: old, New: compat.ComponentName(dir.prefix, dir.pathPrefix, relDir, path.Base(rel))}
		out[old] = append(out[old], n)
	}
	return out
}

// componentDirs reads the config's components option: absent or true, the
// default directories; false, none; an array or { dirs }, its entries
// (strings, or objects with path, prefix and pathPrefix). ok is false when
// the config sets it at run time.
func componentDirs(cfg compat.Config, d *compat.Detection) ([]componentDir, bool) {
	src := d.Current.SrcDir
	if src == "" {
		return nil, false
	}
	v, st := cfg.Value("components")
	switch st {
	case compat.Absent:
		return defaultComponentDirs(src), true
	case compat.Dynamic:
		return nil, false
	}
	var entries []any
	switch v := v.(type) {
	case bool:
		if !v {
			return nil, true
		}
		return defaultComponentDirs(src), true
	case []any:
		entries = v
	case map[string]any:
		dirs, ok := v["dirs"].([]any)
		if !ok {
			return defaultComponentDirs(src), true
		}
		entries = dirs
	default:
		return nil, false
	}
	var out []componentDir
	for _, e := range entries {
		dir := componentDir{pathPrefix: true}
		switch e := e.(type) {
		case string:
			dir.path = e
		case map[string]any:
			dir.path, _ = e["path"].(string)
			dir.prefix, _ = e["prefix"].(string)
			if pp, ok := e["pathPrefix"].(bool); ok {
				dir.pathPrefix = pp
			}
			if en, ok := e["enabled"].(bool); ok && !en {
				continue
			}
		}
		if dir.path == "" {
			continue
		}
		dir.path = code.ResolveSrcPath(d, dir.path)
		out = append(out, dir)
	}
	return out, true
}

// defaultComponentDirs are components/global and components under srcDir.
func defaultComponentDirs(src string) []componentDir {
	return []componentDir{
		{path: filepath.Join(src, "components", "global"), pathPrefix: true},
		{path: filepath.Join(src, "components"), pathPrefix: true},
	}
}
