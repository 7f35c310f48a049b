package rules

import (
	"bytes"
	"slices"

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
	ruleRefreshDedupe.scan = scanRefreshDedupe
	Register(ruleRefreshDedupe)
}

// scanRefreshDedupe judges the uses of refresh and execute one by one, and
// the calls of a free refresh or execute (a snippet, as the upgrade guide
// and the migration scripts' fixtures write it: no other API of the
// framework takes a boolean dedupe).
func scanRefreshDedupe(ci *codeIndex) *fileScan {
	per := make([][]*site, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i] = nil
			var free []*site
			v := &code.Visitor{Done: func() {
				var out []*site
				for _, u := range f.Uses() {
					refreshDedupe(u, &out)
				}
				if len(free) > 0 {
					out = append(out, free...)
					slices.SortStableFunc(out, func(a, b *site) int { return a.span.Start - b.span.Start })
				}
				per[i] = out
			}}
			if f.Code != nil && bytes.Contains(f.Text, []byte("dedupe")) {
				v.Visit = func(n *ast.JSNode, _ []*ast.JSNode, tx *ast.TemplateExpr) bool {
					if n.Kind == ast.JSCall && n.X != nil && n.X.Kind == ast.JSIdent && (n.X.Name == "refresh" || n.X.Name == "execute") && n.X.Resolve() == nil {
						if s := dedupeSite(f, n, n.X.Name, tx); s != nil {
							free = append(free, s)
						}
					}
					return true
				}
			}
			return []*code.Visitor{v}
		},
		sites: func() []*site { return inReadOrder(ci, per) },
	}
}

// refreshDedupe judges one use of refresh or execute: called with a
// boolean dedupe.
func refreshDedupe(u *code.DataUse, out *[]*site) {
	if u.Field != "refresh" && u.Field != "execute" {
		return
	}
	p := u.Parent()
	if p == nil || p.Kind != ast.JSCall || p.X != u.Ref {
		return
	}
	if s := dedupeSite(u.File, p, u.Field, u.Tx); s != nil {
		*out = append(*out, s)
	}
}

// dedupeSite returns the site of a call of refresh or execute (named
// field) with a boolean dedupe, nil for any other call.
func dedupeSite(f *code.File, call *ast.JSNode, field string, tx *ast.TemplateExpr) *site {
	if len(call.List) == 0 {
		return nil
	}
	prop := code.ObjProp(call.List[0], "dedupe")
	if prop == nil {
		return nil
	}
	v, ok := code.BoolValue(prop.Y)
	if !ok {
		return nil
	}
	word := map[bool]string{true: "cancel", false: "defer"}[v]
	q := f.QuoteAt(prop.Loc, tx)
	return &site{
		file: f, span: prop.Loc,
		msg: "`" + field + "` takes `dedupe: '" + word + "'` on version 4, not `dedupe: " + prop.Y.Name + "`",
		fix: codeFix(f, "write `dedupe: "+q+word+q+"`, which version 3 takes too", Safe, edit(prop.Y.Loc, q+word+q)),
	}
}
