package rules

import (
	"path"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleMiddlewareIndex = &Rule{
	Code:     "FW616",
	Name:     "middleware-directory-index",
	Category: Code,
	Severity: Info,
	Doc: Doc{
		Summary: "a middleware/<name>/index file, which version 4 registers as the named route middleware <name>",
		Why: `Version 3 registers the files directly in middleware/ as route middleware.
Version 4 also registers the index file of each directory in it
(middleware/auth/index.ts becomes the named middleware auth). A directory that
held helpers for other middleware, or an older copy, now runs as a middleware of
its own wherever a page names it, and a middleware/auth.ts next to it now has a
namesake. Reported for middleware/*/index.{ts,js,mjs} of the project and its
local layers, unless package.json says the project already runs framework
major 4.`,
		Example: `middleware/
  auth/index.ts    <- registered as 'auth' on version 4
  auth.ts`,
	},
	Run: runMiddlewareIndex,
}

func init() { Register(ruleMiddlewareIndex) }

var middlewareIndexNames = map[string]bool{"index.ts": true, "index.js": true, "index.mjs": true}

func runMiddlewareIndex(pass *Pass) {
	pr := pass.Project
	if pass.Target < 4 || pr.Framework >= 4 || pr.Layer == nil {
		return
	}
	for _, s := range pr.Sources() {
		if s.Role != project.RoleApp || !middlewareIndexNames[filepath.Base(s.Path)] {
			continue
		}
		d := pr.Detection
		if s.Layer != nil {
			if s.Layer.ConfigPath != "" {
				continue // checked with its own config
			}
			d = s.Layer.Detection
		}
		mw := middlewareDir(d)
		dir := filepath.Dir(s.Path)
		if mw == "" || filepath.Dir(dir) != mw {
			continue
		}
		name := filepath.Base(dir)
		rel := s.Rel
		if r, err := filepath.Rel(pr.Root, s.Path); err == nil {
			rel = filepath.ToSlash(r)
		}
		diag := pass.Report(ast.Span{}, "", "`%s` is registered as the named route middleware `%s` on version 4 (version 3 did not register it): pages that name `%s` in their middleware now run it", rel, name, name)
		diag.File, diag.Path = s.Display, rel
		for _, ext := range []string{".ts", ".js", ".mjs", ".mts"} {
			if pr.IsFile(filepath.Join(mw, name+ext)) {
				diag.Notes = append(diag.Notes, "`"+path.Join(path.Dir(path.Dir(rel)), name+ext)+"` is registered under the same name")
				break
			}
		}
		diag.Notes = append(diag.Notes, "if it is not a middleware of its own, move it out of middleware/; or keep version 3's list by removing it in an `app:resolve` hook")
	}
}

// middlewareDir returns the middleware directory as a root resolves it
// today, "" when unknown.
func middlewareDir(d *compat.Detection) string {
	if d == nil {
		return ""
	}
	return d.Current.Dir["middleware"]
}
