package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleGranularCachedData = &Rule{
	Code:     "FW611",
	Name:     "granular-cached-data",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a getCachedData that ignores its third argument, which version 4 also calls when the data is refreshed",
		Why: `On version 3 a data composable calls getCachedData only when it first runs. On
version 4 (experimental.granularCachedData flips from false to true) it is also
called when the data is refreshed (refresh(), execute(), a watched input, the
refresh hook), and it gets a third argument whose cause says why. An
implementation that ignores it and returns what is cached makes every refresh
return the cache: the request never runs again. Found in the options of
useAsyncData, useFetch, useLazyAsyncData and useLazyFetch (also in the
project's composables): arrow functions, functions, methods and a function of
the same file named there. Not reported: implementations that read their third
argument (or all of them, through a rest parameter or arguments), and those
that never return a value.`,
		Example: `const { data, refresh } = await useFetch('/api/menu', {
  getCachedData: (key, app) => app.payload.data[key] ?? app.static.data[key],
})`,
		Fix: `None automatic: take the third argument and return nothing (so that the request
runs) when ctx.cause is 'refresh:manual' or 'refresh:hook'.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.granularCachedData"},
}

func init() {
	ruleGranularCachedData.scan = scanGranularCachedData
	Register(ruleGranularCachedData)
}

func scanGranularCachedData(ci *codeIndex) *fileScan {
	per := make([][]*site, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i] = nil
			return []*code.Visitor{{Done: func() { per[i] = granularCachedData(f.CallsOf()) }}}
		},
		sites: func() []*site { return inReadOrder(ci, per) },
	}
}

// granularCachedData judges the data calls of a file (walked now).
func granularCachedData(calls []*code.DataCall) []*site {
	var out []*site
	for _, c := range calls {
		prop, _ := c.Option("getCachedData")
		if prop == nil || prop.Y == nil {
			continue
		}
		fn := functionValue(prop.Y)
		if fn == nil || readsThirdArg(fn) || !returnsValue(fn) {
			continue
		}
		f := c.File
		span := prop.NameLoc
		if span.Len() == 0 {
			span = prop.Loc
		}
		out = append(out, &site{file: f, span: span,
			msg:   "the `getCachedData` of `" + c.Name + "` ignores its third argument: on version 4 it is called when the data is refreshed too, and returning the cache there means the request never runs again",
			notes: []string{"take a third parameter `ctx` and return nothing when `ctx.cause` is 'refresh:manual' or 'refresh:hook'"},
		})
	}
	return out
}

// functionValue returns the function an option's value is: an arrow, a
// function, or an identifier bound to one in the same file; nil otherwise.
func functionValue(n *ast.JSNode) *ast.JSNode {
	switch n.Kind {
	case ast.JSArrow, ast.JSFunction:
		return n
	case ast.JSIdent:
		b := n.Resolve()
		if b == nil || b.Path != nil {
			return nil
		}
		if b.Kind == ast.BindFunction && b.Decl != nil && b.Decl.Kind == ast.JSFunction {
			return b.Decl
		}
		if b.Kind == ast.BindConst && b.Init != nil && (b.Init.Kind == ast.JSArrow || b.Init.Kind == ast.JSFunction) {
			return b.Init
		}
	}
	return nil
}

// readsThirdArg reports whether a function can see its third argument: a
// third parameter that is read (or destructured), a rest parameter, or
// `arguments`.
func readsThirdArg(fn *ast.JSNode) bool {
	for i, p := range fn.List {
		if p.Kind == ast.JSSpread {
			return true
		}
		if i != 2 {
			continue
		}
		if p.Kind == ast.JSDefault {
			p = p.X
		}
		if p.Kind != ast.JSIdent {
			return true // a pattern takes something out of it
		}
		if b := p.DeclBinding(); b == nil || len(b.Refs) > 0 && !onlyDecl(b) {
			return true
		}
	}
	if fn.Kind == ast.JSArrow {
		return false
	}
	used := false
	ast.WalkJS(fn.Y, func(n *ast.JSNode, _ []*ast.JSNode) bool {
		if n.Kind == ast.JSFunction {
			return false // its own arguments
		}
		used = used || n.Kind == ast.JSIdent && n.Name == "arguments" && n.Resolve() == nil
		return !used
	})
	return used
}

// onlyDecl reports whether a binding's only reference is its declaration.
func onlyDecl(b *ast.Binding) bool {
	for _, r := range b.Refs {
		if r.Ident != b.Ident {
			return false
		}
	}
	return true
}

// returnsValue reports whether a function returns something other than
// undefined on some path.
func returnsValue(fn *ast.JSNode) bool {
	for _, r := range ast.Returns(fn) {
		if !(r.Kind == ast.JSIdent && r.Name == "undefined" && r.Resolve() == nil) && !(r.Kind == ast.JSUnary && r.Op == "void") {
			return true
		}
	}
	return false
}
