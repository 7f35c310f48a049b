package rules

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleAppConfigImports = &Rule{
	Code:     "FW805",
	Name:     "app-config-imports-app",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "app.config.* imports app code, which framework major 4 then type-checks in the node and shared contexts too",
		Why: `On framework major 4 the app config's types are also written for the node
and shared contexts (.fw/types/shared-app.config.d.ts, which fw.node.d.ts and
fw.shared.d.ts reference: typescript-contexts.md §4.1), so app.config.* and
what it imports are checked there as well: without the app context's
auto-imports (composables, utils, the framework's and the component
library's helpers) and options. App code imported from app.config.* then
gets errors in those contexts that it never had in the app's (TS2304 for an
auto-imported name), one program per context.
Which errors depends on what the imported files use; the finding names the
import, not the errors.`,
		Example: `// app/app.config.ts
import { palette } from './utils/theme'
export default defineAppConfig({ palette })`,
		Fix: `None: move the values app.config.* needs into shared/ (shared/utils/theme.ts
is checked in the shared context, and app code can import it too), or write
them into app.config.* itself.`,
	},
	Run: runAppConfigImports,
}

func init() { Register(ruleAppConfigImports) }

func runAppConfigImports(pass *Pass) {
	v, ok := pass.tsTarget()
	if !ok || v.gen.Major < 4 {
		return
	}
	pr := pass.Project
	d := pr.Detection
	app := map[string]bool{} // the app code files (RoleApp), by path
	var configs []*project.Source
	for _, s := range pr.Sources() {
		if s.Layer != nil || s.Role != project.RoleApp {
			continue
		}
		app[s.Path] = true
		if b := filepath.Base(s.Path); strings.HasPrefix(b, "app.config.") && filepath.Dir(s.Path) == d.Current.SrcDir {
			configs = append(configs, s)
		}
	}
	for _, s := range configs {
		text, err := s.Read()
		if err != nil {
			continue
		}
		code, err := pr.ReadCode(s.Path, text)
		if err != nil || code == nil {
			continue
		}
		for _, script := range code.Scripts {
			for _, st := range script.Program.List {
				if st.Kind != ast.JSImport || st.Has(ast.FlagType) || st.X == nil {
					continue
				}
				target := resolveAppImport(st.Name, filepath.Dir(s.Path), d.Current.SrcDir, d.Root, app)
				if target == "" {
					continue
				}
				rel := rootRel(pr, target)
				diag := pass.reportIn(s.Display, text, st.X.Loc, "`%s` imports `%s`, app code (`%s`): on framework major %d it is type-checked in the node and shared contexts too, without the app's auto-imports", s.Rel, st.Name, v.after(rel), v.gen.Major)
				diag.Path = v.after(s.Rel)
				diag.Notes = append(diag.Notes, "move what app.config needs into shared/ (checked in the shared context, and importable from app code), or write it into app.config itself")
			}
		}
	}
}

// appExts are the extensions an import without one resolves to.
var appExts = []string{"", ".ts", ".js", ".mts", ".mjs", ".tsx", ".jsx", ".vue", "/index.ts", "/index.js"}

// resolveAppImport resolves an import of app.config (a relative path, or
// ~/ @/ ~~/ @@/) to an app code file, "" when it names none.
func resolveAppImport(spec, dir, src, root string, app map[string]bool) string {
	var base string
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		base = filepath.Join(dir, filepath.FromSlash(spec))
	case strings.HasPrefix(spec, "~~/") || strings.HasPrefix(spec, "@@/"):
		base = filepath.Join(root, filepath.FromSlash(spec[3:]))
	case strings.HasPrefix(spec, "~/") || strings.HasPrefix(spec, "@/"):
		base = filepath.Join(src, filepath.FromSlash(spec[2:]))
	default:
		return ""
	}
	if path.Ext(spec) == ".js" {
		base = strings.TrimSuffix(base, ".js") // TypeScript maps .js to .ts
		for _, e := range []string{".ts", ".js"} {
			if app[base+e] {
				return base + e
			}
		}
		return ""
	}
	for _, e := range appExts {
		if app[base+filepath.FromSlash(e)] {
			return base + filepath.FromSlash(e)
		}
	}
	return ""
}
