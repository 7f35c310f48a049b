package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
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
already runs framework major 4.`,
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
	if len(layers) == 0 {
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
