package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleRefreshDedupe = &Rule{
	Code:     "FW602",
	Name:     "refresh-dedupe-boolean",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "refresh or execute of a data composable called with a boolean dedupe, which version 4 no longer takes",
		Why: `The refresh and execute functions that useAsyncData and useFetch return take
{ dedupe: 'cancel' | 'defer' } on version 4; the booleans of version 3 are gone
from the types, and true and false no longer select the behaviour they did.
Found through destructuring with aliases, awaited or not, whole results
(r.refresh(...)), the project's composables that return them, and template
handlers (@click="refresh({ dedupe: true })").`,
		Example: `const { refresh } = await useFetch('/api/cart')
await refresh({ dedupe: true })`,
		Fix: `Safe: dedupe: true becomes dedupe: 'cancel' and dedupe: false becomes dedupe:
'defer', the values that name the same behaviour; version 3 takes them too.`,
	},
	Run: runCodeRule,
}

func init() {
	ruleRefreshDedupe.scan = func(ci *codeIndex) *fileScan { return perFileUses(ci, refreshDedupe) }
	Register(ruleRefreshDedupe)
}

// refreshDedupe judges one use of refresh or execute: called with a
// boolean dedupe.
func refreshDedupe(u *code.DataUse, out *[]*site) {
	if u.Field != "refresh" && u.Field != "execute" {
		return
	}
	p := u.Parent()
	if p == nil || p.Kind != ast.JSCall || p.X != u.Ref || len(p.List) == 0 {
		return
	}
	prop := code.ObjProp(p.List[0], "dedupe")
	if prop == nil {
		return
	}
	v, ok := code.BoolValue(prop.Y)
	if !ok {
		return
	}
	word := map[bool]string{true: "cancel", false: "defer"}[v]
	f := u.File
	q := f.QuoteAt(prop.Loc, u.Tx)
	*out = append(*out, &site{
		file: f, span: prop.Loc,
		msg: "`" + u.Field + "` takes `dedupe: '" + word + "'` on version 4, not `dedupe: " + prop.Y.Name + "`",
		fix: codeFix(f, "write `dedupe: "+q+word+q+"`, which version 3 takes too", Safe, edit(prop.Y.Loc, q+word+q)),
	})
}
