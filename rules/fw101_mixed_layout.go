package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleMixedLayout = &Rule{
	Code:     "FW101",
	Name:     "mixed-layout",
	Category: Layout,
	Severity: Error,
	Doc: Doc{
		Summary: "layout-B sources at the root next to an app/ directory that makes app/ the srcDir: version 4 ignores them",
		Why: `Version 4 chooses srcDir by looking at the tree: as soon as app/ holds a file
or folder (other than router.options.* and spa-loading-template.html), srcDir
is app/ and the root is no longer searched for pages/, layouts/, middleware/,
plugins/, components/, composables/, utils/, assets/, app.vue, error.vue or
app.config.*. Those root entries are then silently ignored: no routes, no
components, no error. One diagnostic is reported per ignored entry.`,
		Example: `app/app.vue
pages/index.vue        <- ignored: version 4 reads app/pages/
fw.config.ts`,
		Fix: "",
	},
	Run: runMixedLayout,
}

func init() { Register(ruleMixedLayout) }

func runMixedLayout(pass *Pass) {
	d := pass.Project.Detection
	if d == nil || d.Layout != compat.LayoutMixed || pass.Target < 4 {
		return
	}
	app := filepath.Join(d.Root, "app")
	for _, entry := range d.Stray {
		name := strings.TrimSuffix(entry, "/")
		if strayUsed(pass, name) {
			continue
		}
		diag := pass.ReportPath(entry, "root `%s` is ignored under version 4: srcDir is `app/`, so only `app/%s` is read", entry, entry)
		diag.Notes = append(diag.Notes, "version 4 picks srcDir from the tree, and here it picks `app/` ("+d.SrcDirReason+")")
		if pass.Project.Exists(filepath.Join(app, name)) {
			diag.Notes = append(diag.Notes, "`app/"+entry+"` exists too: merge the two by hand, or delete the root one if it is a leftover")
		} else {
			diag.Notes = append(diag.Notes, "move it into `app/` (`fwmigrate apply` does), or delete it if it is a leftover")
		}
		if d.Major == 3 && d.Compat == 3 {
			diag.Notes = append(diag.Notes, "today, with compatibility version 3, srcDir is the root: this entry is what the framework uses now, and `app/` is what it ignores")
		}
	}
}

// strayUsed reports a root entry the config still points at explicitly, or
// whose use cannot be judged: a dir.* option set for it (FW108 checks those
// values), components or auto-import dirs written from the root (`~~/`).
func strayUsed(pass *Pass, name string) bool {
	for _, k := range srcRelativeDirs {
		if k == name {
			_, st := pass.Config.Value("dir." + k)
			return st != compat.Absent
		}
	}
	var option string
	switch name {
	case "components":
		option = "components"
	case "composables", "utils":
		option = "imports.dirs"
	default:
		return false
	}
	if _, st := pass.Config.Value(option); st == compat.Dynamic {
		return true
	}
	used := false
	pass.pathStrings(func(ps pathString) {
		_, rest := SplitEnvPrefix(ps.Option)
		if rest.String() != option {
			return
		}
		a, r, ok := splitPathAlias(ps.Value)
		if ok && (a == "~~" || a == "@@") && firstSegment(r) == name {
			used = true
		}
	})
	return used
}
