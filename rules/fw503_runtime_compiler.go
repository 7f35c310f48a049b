package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

var ruleRuntimeCompiler = &Rule{
	Code:     "FW503",
	Name:     "runtime-compiler",
	Category: Security,
	Severity: Warning,
	Doc: Doc{
		Summary: "`ui.runtimeCompiler: true` compiles templates in the browser",
		Why: `ui.runtimeCompiler includes the component library's template compiler in the
runtime bundle so that templates compile at run time. The reference warns that
this evaluates code and can cause cross-site scripting or remote code execution
when any template text comes from users or other untrusted sources; it also
makes the bundle larger. The framework reads ui.runtimeCompiler whatever else
the ui object holds, so it is reported even when a UI module's options share
the key. Settings inside $development or $test only
are not reported: they never reach production.`,
		Example: `export default defineFwConfig({
  ui: { runtimeCompiler: true },
})`,
		Fix: "",
	},
	Run: runRuntimeCompiler,
}

func init() { Register(ruleRuntimeCompiler) }

func runRuntimeCompiler(pass *Pass) {
	pass.OptionProps("ui.runtimeCompiler", func(prefix, path ast.Path, prop *ast.Property) {
		if len(prefix) == 1 && (prefix[0] == "$development" || prefix[0] == "$test") {
			return
		}
		if v, ok := ast.StaticValue(prop); !ok || v != true {
			return
		}
		d := pass.ReportValue(prop, path, "`ui.runtimeCompiler: true` ships the template compiler and compiles templates at run time: untrusted template text becomes cross-site scripting or code execution")
		d.Notes = append(d.Notes, "precompile templates instead (components in .vue files or render functions); keep it only if templates really come from trusted sources at run time")
	})
}
