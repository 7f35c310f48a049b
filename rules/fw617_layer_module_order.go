package rules

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleLayerModuleOrder = &Rule{
	Code:     "FW617",
	Name:     "layer-module-order",
	Category: Code,
	Severity: Info,
	Doc: Doc{
		Summary: "a project and its local layers both declare modules, which version 4 loads layers first",
		Why: `Version 4 loads the modules of the layers first and the project's modules last
(the modules option and the modules/ directory alike). When the project and its
layers both declare modules, a module of the project that has to run before a
layer's (to set its options, to register a hook before it) now runs after it.
Whether the order matters cannot be seen from the config: this is a pointer to
check it. Reported when the project (modules, or a modules/ directory) and at
least one local layer declare modules, unless package.json says the project
already runs framework major 4, or the lists are written out and give the same
order on both majors: the framework installs each module once, so a project
that lists again the modules of its layer (and no other) keeps its order.`,
		Example: `// layers/base/fw.config.ts: modules: ['@fw/content']
export default defineFwConfig({
  extends: ['./layers/base'],
  modules: ['./modules/content-hooks'],
})`,
	},
	Run: runLayerModuleOrder,
}

func init() { Register(ruleLayerModuleOrder) }

func runLayerModuleOrder(pass *Pass) {
	pr := pass.Project
	if pass.Target < 4 || pr.Framework >= 4 || pass.File == nil || !declaresModules(pr, pass.File, pr.Root) {
		return
	}
	var layers []string
	for _, ly := range pr.Layers {
		if ly == nil || !declaresModules(pr, ly.File, ly.Root) {
			continue
		}
		name := ly.Root
		if rel, err := filepath.Rel(pr.Root, ly.Root); err == nil {
			name = filepath.ToSlash(rel)
		}
		layers = append(layers, "`"+name+"`")
	}
	if len(layers) == 0 || moduleOrderKept(pr, pass.File) {
		return
	}
	msg := "the project declares modules, and so do its layers %s: version 4 loads the layers' modules first and the project's last"
	if len(layers) == 1 {
		msg = "the project declares modules, and so does its layer %s: version 4 loads the layer's modules first and the project's last"
	}
	var d *Diagnostic
	if prop := pass.Lookup("modules"); prop != nil {
		d = pass.ReportProperty(prop, ast.Path{"modules"}, msg, strings.Join(layers, ", "))
		d.Option = ""
	} else if pr.IsDir(filepath.Join(pr.Root, "modules")) {
		d = pass.ReportPath("modules/", msg, strings.Join(layers, ", "))
	} else {
		d = pass.Report(pass.Anchor(), "", msg, strings.Join(layers, ", ")) // in an environment override
	}
	d.Notes = append(d.Notes, "check the modules whose order matters: a project module that must run before a layer's module (to set its options or hook in first) now runs after it")
}

// moduleOrderKept reports whether versions 3 and 4 install the distinct
// modules of the project (its config f) and of its layers in the same
// order: version 3 takes the project's list first, version 4 the layers'.
// The framework installs a module once, where it first comes, so a module
// the project lists again changes nothing. Known only when every list is a
// static array of names (no environment override, no modules/ directory,
// whose files are registered too): otherwise false, and the rule reports.
func moduleOrderKept(pr *project.Project, f *ast.File) bool {
	own, ok := staticModules(pr, f, pr.Root)
	if !ok {
		return false
	}
	var layers []string
	for _, ly := range pr.Layers {
		if ly == nil {
			continue
		}
		mods, ok := staticModules(pr, ly.File, ly.Root)
		if !ok {
			return false
		}
		layers = append(layers, mods...)
	}
	v3 := distinct(append(append([]string(nil), own...), layers...))
	v4 := distinct(append(append([]string(nil), layers...), own...))
	return slices.Equal(v3, v4)
}

// staticModules are the modules a config at root lists, a local path made
// absolute (two layers name one module by different relative paths).
func staticModules(pr *project.Project, f *ast.File, root string) ([]string, bool) {
	if root != "" && pr.IsDir(filepath.Join(root, "modules")) {
		return nil, false
	}
	if f == nil {
		return nil, true
	}
	if f.Config == nil {
		return nil, false
	}
	var list any
	known := true
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		prefix, rest := SplitEnvPrefix(path)
		if len(rest) == 1 && rest[0] == "modules" {
			v, ok := ast.StaticValue(prop)
			if !ok || len(prefix) > 0 {
				known = false
			} else {
				list = v
			}
		}
		return len(rest) == 0 || len(path) <= 2 && path[0] == "$env"
	})
	if !known {
		return nil, false
	}
	items, ok := list.([]any)
	if list != nil && !ok {
		return nil, false
	}
	var out []string
	for _, it := range items {
		if pair, ok := it.([]any); ok && len(pair) > 0 {
			it = pair[0]
		}
		name, ok := it.(string)
		if !ok {
			return nil, false
		}
		if strings.HasPrefix(name, ".") || filepath.IsAbs(name) {
			name = filepath.Join(root, filepath.FromSlash(name))
		}
		out = append(out, name)
	}
	return out, true
}

// distinct keeps the first of each name, in order.
func distinct(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
