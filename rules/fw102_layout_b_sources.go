package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleLayoutBSources = &Rule{
	Code:     "FW102",
	Name:     "layout-b-sources",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "layout-B sources at the root: version 4 expects them in app/",
		Why: `Version 4 defaults to layout A: srcDir is app/. A layout-B project (pages/,
components/, app.vue... beside the config) keeps working only because srcDir
detection falls back to the root while app/ holds nothing but router.options.*
or spa-loading-template.html. The first other file in app/ flips srcDir to
app/, and every root source is then silently ignored. The project should
either move its sources into app/ or pin layout B explicitly.
Severity: a warning while the project is on version 3; an info on a project
that already runs version 4 (framework major 4, or compatibilityVersion: 4)
and has no app/ directory: its flat layout resolves and works, and layout A is
a recommendation, not a failure for CI.`,
		Example: `pages/index.vue
app.vue
fw.config.ts            <- export default defineFwConfig({})`,
		Fix: `Safe: pins layout B by setting srcDir: '.' and dir.app: 'app' (dir.app only when
it is not set), the configuration reference's way to keep the earlier layout;
this is what 'fwmigrate apply --layout=keep' does. By default 'fwmigrate apply'
does not use this fix: it moves the sources into app/ and fixes the paths that
depend on them instead.`,
	},
	Run: runLayoutBSources,
}

func init() { Register(ruleLayoutBSources) }

func runLayoutBSources(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok || !v.Moving {
		return
	}
	moved := v.moved(pass)
	if len(moved) == 0 {
		return // nothing at the root to look up: a bare layer or an empty project
	}
	var d *Diagnostic
	after := "after the upgrade they are looked up in `app/`: "
	if projectCompat(pass) >= 4 && !pass.Project.IsDir(filepath.Join(v.Root, "app")) {
		after = "in layout A they live in `app/`: "
		// Already on version 4, and it works: without app/, detection
		// keeps srcDir at the root. Moving is advice, not a failure.
		d = pass.ReportPath("", "layout-B sources at the root: they work under version 4, which finds no `app/` and keeps srcDir at the root; layout A (sources in `app/`) is recommended, since the root sources are ignored as soon as `app/` holds a file")
		d.Severity = Info
	} else {
		d = pass.ReportPath("", "layout-B sources at the root: version 4 expects them in `app/`, and ignores the root ones as soon as `app/` holds a file")
	}
	d.Notes = append(d.Notes, "version 4 picks srcDir from the tree, and today it picks the root ("+v.d.SrcDirReason+")")
	var where []string
	for _, m := range moved {
		where = append(where, "`"+m+"` → `app/"+m+"`")
	}
	d.Notes = append(d.Notes, after+strings.Join(where, ", "))
	d.Notes = append(d.Notes, "two ways out: `fwmigrate apply` moves them into `app/` (the default) and fixes the paths that depend on them; `fwmigrate apply --layout=keep` pins layout B instead (the fix below)")
	if pass.File == nil || pass.File.Config == nil {
		return
	}
	ops := []rewrite.Op{{Kind: rewrite.OpSet, Path: ast.Path{"srcDir"}, Value: "."}}
	desc := "pin layout B with `srcDir: '.'` and `dir.app: 'app'`"
	switch _, st := pass.Config.Value("dir.app"); st {
	case compat.Absent:
		ops = append(ops, rewrite.Op{Kind: rewrite.OpSet, Path: ast.Path{"dir", "app"}, Value: "app"})
	case compat.Static:
		desc = "pin layout B with `srcDir: '.'`; `dir.app` is set already"
	case compat.Dynamic:
		desc = "pin layout B with `srcDir: '.'`"
		d.Notes = append(d.Notes, "`dir.app` may be set at run time: check that it names `app/`")
	}
	d.Fix = &Fix{
		Description:   desc + ". This is what `fwmigrate apply --layout=keep` does; by default `apply` moves the sources instead",
		Applicability: Safe,
		Ops:           ops,
		Layout:        KeepOnly,
	}
}
