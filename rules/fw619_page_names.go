package rules

import (
	"path"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var rulePageNames = &Rule{
	Code:     "FW619",
	Name:     "normalized-page-names",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a page matched by its file's base name in <FwPage :keepalive>, which compatibility version 5 names after its route",
		Why: `<FwPage :keepalive="{ include: [...] }"> caches the pages whose component name
the list holds. A page that declares no name is named after its file on
compatibility version 4: pages/users/[id].vue is [id], pages/blog/index.vue is
index. With future.compatibilityVersion: 5, experimental.normalizePageNames flips
from false to true and a page is named after its route: users-id, blog (or the
name its definePageMeta gives the route). A name written for the file no longer
matches, and the page is no longer cached (or no longer excluded). Reported only
for projects on framework major 4 whose config sets compatibilityVersion: 5;
the include and exclude of <FwPage :keepalive> are read as FW607 reads
KeepAlive's (strings, arrays, a const of the same file); pages that declare
their name (defineOptions) keep it.`,
		Example: `<!-- pages/blog/index.vue -->
<FwPage :keepalive="{ include: ['index'] }" />`,
		Fix: `None automatic: the message gives each page's new name; write it (it matches on
compatibility version 5 only), or set experimental.normalizePageNames: false.`,
	},
	Run:   runCompat5Rule,
	Flips: []string{"experimental.normalizePageNames"},
}

func init() {
	rulePageNames.scan = scanPageNames
	Register(rulePageNames)
}

func scanPageNames(ci *codeIndex) *fileScan {
	// The names of <FwPage :keepalive> in each file's template (no walk of
	// the code), then, one file after the other, the pages they name.
	lits := make([][]code.NameLit, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			lits[i] = nil
			if !f.Config && f.Code != nil {
				lits[i] = code.KeepAliveNames(f, true)
			}
			return nil
		},
		sites: func() []*site { return pageNameSites(ci, lits) },
	}
}

// pageNameSites are the sites of the names lits[i] of each file
// ci.Files[i] that match pages whose names change.
func pageNameSites(ci *codeIndex, lits [][]code.NameLit) []*site {
	var out []*site
	var byOld map[string][]*code.NamedFile
	metaRead := map[*code.NamedFile]bool{}
	for i, f := range ci.Files {
		if f.Config || f.Code == nil {
			continue
		}
		for _, lit := range lits[i] {
			if byOld == nil {
				byOld = pagesByOldName(ci)
			}
			files := byOld[lit.Name]
			for _, n := range files {
				if !metaRead[n] {
					metaRead[n] = true
					if name, ok := pageMetaName(ci, n.Src); ok {
						n.New = name
					}
				}
			}
			changed, same := code.RenamedBy(ci.Index, files)
			if len(changed) == 0 {
				continue
			}
			s := nameSite(f, lit, changed, same, "page", "on compatibility version 5 (experimental.normalizePageNames), which names pages after their routes,")
			s.fix = nil // report only: the new name matches on compatibility 5 alone
			out = append(out, s)
		}
	}
	return out
}

// pagesByOldName returns the .vue pages of the project and its local
// layers by the name the component compiler gives them, each with the name
// of its route.
func pagesByOldName(ci *codeIndex) map[string][]*code.NamedFile {
	type pagesDir struct {
		rels  []string
		files []*project.Source
	}
	dirs := map[string]*pagesDir{}
	var order []string
	for _, s := range ci.Project.Sources() {
		if s.Role != project.RoleApp || filepath.Ext(s.Path) != ".vue" {
			continue
		}
		d := code.LayerDetection(ci.Project, s)
		if d == nil {
			continue
		}
		dir := d.Current.Dir["pages"]
		rel, ok := code.RelUnder(dir, s.Path)
		if !ok {
			continue
		}
		pd := dirs[dir]
		if pd == nil {
			pd = &pagesDir{}
			dirs[dir] = pd
			order = append(order, dir)
		}
		pd.rels = append(pd.rels, rel)
		pd.files = append(pd.files, s)
	}
	out := map[string][]*code.NamedFile{}
	for _, dir := range order {
		pd := dirs[dir]
		names := compat.RouteNames(pd.rels)
		for i, rel := range pd.rels {
			old := compat.VueFileName(path.Base(rel))
			out[old] = append(out[old], &code.NamedFile{Src: pd.files[i], Old: old, New: names[rel]})
		}
	}
	return out
}

// pageMetaName returns the route name a page's definePageMeta gives as a
// string literal.
func pageMetaName(ci *codeIndex, src *project.Source) (string, bool) {
	c := ci.CodeOf(src)
	if c == nil {
		return "", false
	}
	name, found := "", false
	for _, s := range c.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if found || n.Kind != ast.JSCall || !code.ImportedAs(n.X, "definePageMeta") || len(n.List) == 0 {
				return !found
			}
			if p := code.ObjProp(n.List[0], "name"); p != nil {
				name, found = code.StringValue(p.Y)
			}
			return false
		})
	}
	return name, found
}
