package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
)

var ruleDuplicateEntry = &Rule{
	Code:     "FW313",
	Name:     "duplicate-entry",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "the same plugin src or module listed twice",
		Why: `The reference: plugins are "de-duplicated by src", so a second entry
with the same src is dropped, with its mode. Which one is kept decides the
plugin's place in the order, and the other entry's settings are lost without a
word. A module listed twice (as a name, or as the first element of a
[module, options] tuple) is a copy-paste slip at best, and two option objects
for one module at worst. Only entries written as static strings in the same
array are compared; values only known at run time are not.`,
		Example: `export default defineFwConfig({
  plugins: ['~/plugins/analytics.client.ts', { src: '~/plugins/analytics.client.ts', mode: 'client' }],
  modules: ['@fw/image', ['@fw/image', { quality: 80 }]],
})`,
		Fix: "",
	},
	Run: runDuplicateEntry,
}

func init() { Register(ruleDuplicateEntry) }

func runDuplicateEntry(pass *Pass) {
	pass.OptionProps("plugins", func(prefix, path ast.Path, prop *ast.Property) {
		duplicates(pass, path, prop, pluginSrc, func(d *Diagnostic, name string) {
			d.Message = fmt.Sprintf("plugin %s is listed twice in `%s`: plugins are de-duplicated by src, so one entry is dropped with its settings", quote(name), path)
		})
	})
	pass.OptionProps("modules", func(prefix, path ast.Path, prop *ast.Property) {
		duplicates(pass, path, prop, moduleName, func(d *Diagnostic, name string) {
			d.Message = fmt.Sprintf("module %s is listed twice in `%s`: keep one entry, with the options it needs", quote(name), path)
		})
	})
}

// duplicates reports each element of an array option whose key (as key
// computes it) an earlier element already has.
func duplicates(pass *Pass, path ast.Path, prop *ast.Property, key func(ast.Node) (string, bool), word func(*Diagnostic, string)) {
	arr, ok := ast.Unwrap(prop.Value).(*ast.Array)
	if !ok {
		return
	}
	first := map[string]ast.Node{}
	for i, e := range arr.Elements {
		if e == nil || arr.IsSpread(i) {
			continue
		}
		k, ok := key(e)
		if !ok {
			continue
		}
		if f, seen := first[k]; seen {
			d := pass.Report(e.Span(), path.String(), "")
			word(d, k)
			d.Notes = append(d.Notes, fmt.Sprintf("first listed at line %d", pass.File.Position(f.Span().Start).Line))
			continue
		}
		first[k] = e
	}
}

// pluginSrc is a plugins entry's src: the string, or the src of an object.
func pluginSrc(n ast.Node) (string, bool) {
	if s, ok := ast.StaticString(n); ok {
		return s, true
	}
	obj, ok := ast.Unwrap(n).(*ast.Object)
	if !ok || obj.HasSpread() {
		return "", false
	}
	if src := obj.Get("src"); src != nil {
		return ast.StaticString(src.Value)
	}
	return "", false
}

// moduleName is a modules entry's module: the string, or the first element
// of a [module, options] tuple.
func moduleName(n ast.Node) (string, bool) {
	if s, ok := ast.StaticString(n); ok {
		return s, true
	}
	arr, ok := ast.Unwrap(n).(*ast.Array)
	if !ok || len(arr.Elements) == 0 || arr.IsSpread(0) {
		return "", false
	}
	return ast.StaticString(arr.Elements[0])
}
