package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleFetchOnKeyChange = &Rule{
	Code:     "FW610",
	Name:     "fetch-on-key-change",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "useFetch with immediate: false and reactive inputs whose execute and refresh are never called, which version 4 no longer runs when the inputs change",
		Why: `useFetch's key follows its URL and its query and params. On version 3
(experimental.alwaysRunFetchOnKeyChange: true) a change of the key runs the
request even when the call was made with immediate: false and nothing has
triggered it yet; on version 4 (false) the request waits for execute() or
refresh(). Code that relied on the inputs changing to start the request (a
search box bound to a ref in the query) never fetches. Reported when the URL is a
ref, a computed or a getter, or query or params hold one, and nothing calls the
call's execute or refresh (through destructuring, whole results, the project's
composables and the template). A result that is passed elsewhere, or
destructured with a rest element, may be executed there: not reported.`,
		Example: `const q = ref('')
const { data } = useFetch('/api/search', { query: { q }, immediate: false })`,
		Fix: `None automatic: call execute() where the request should start (for example in a
watcher of the inputs), or drop immediate: false.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.alwaysRunFetchOnKeyChange"},
}

func init() {
	ruleFetchOnKeyChange.scan = scanFetchOnKeyChange
	Register(ruleFetchOnKeyChange)
}

func scanFetchOnKeyChange(ci *codeIndex) *fileScan {
	type candidate struct {
		call code.CallKey
		site *site
	}
	// Per file: the calls whose execute or refresh its code uses, and its
	// calls that are sites unless that happens anywhere.
	runs := make([][]code.CallKey, len(ci.Files))
	cands := make([][]candidate, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			runs[i], cands[i] = nil, nil
			return []*code.Visitor{{Done: func() {
				var run []code.CallKey
				for _, u := range f.Uses() {
					if u.Field == "execute" || u.Field == "refresh" {
						run = append(run, u.Call.Key())
					}
				}
				var out []candidate
				for _, c := range f.CallsOf() {
					if c.Name != "useFetch" && c.Name != "useLazyFetch" || !code.NotImmediate(c) {
						continue
					}
					if w, _ := c.Option("watch"); w != nil {
						if v, ok := code.BoolValue(w.Y); ok && !v {
							continue // watch: false: the user turned reactivity off
						}
					}
					in, what := fetchReactiveInput(c)
					if in == nil || !resultStays(ci, f, c) {
						continue
					}
					out = append(out, candidate{c.Key(), &site{file: f, span: in.Loc,
						msg:   "`" + c.Name + "` is called with `immediate: false` and " + what + ", and nothing calls its execute or refresh: on version 3 a change of it runs the request anyway, on version 4 the request waits for execute()",
						notes: []string{"call `execute()` where the request should start (for example in a watcher of the inputs), or drop `immediate: false`"},
					}})
				}
				runs[i], cands[i] = run, out
			}}}
		},
		sites: func() []*site {
			// The calls whose execute or refresh is used anywhere.
			run := map[code.CallKey]bool{}
			for _, keys := range runs {
				for _, k := range keys {
					run[k] = true
				}
			}
			per := make([][]*site, len(ci.Files))
			for i, cs := range cands {
				for _, c := range cs {
					if !run[c.call] {
						per[i] = append(per[i], c.site)
					}
				}
			}
			return inReadOrder(ci, per)
		},
	}
}

// fetchReactiveInput returns the first reactive input of a useFetch call
// (its URL, or a query or params value) and says what it is; nil when
// there is none.
func fetchReactiveInput(c *code.DataCall) (*ast.JSNode, string) {
	if len(c.Call.List) == 0 {
		return nil, ""
	}
	if what := reactiveValue(c.Call.List[0]); what != "" {
		return c.Call.List[0], "a URL that is " + what
	}
	for _, key := range []string{"query", "params"} {
		prop, _ := c.Option(key)
		if prop == nil || prop.Y == nil {
			continue
		}
		if what := reactiveValue(prop.Y); what != "" {
			return prop, "a `" + key + "` that is " + what
		}
		if prop.Y.Kind != ast.JSObject {
			continue
		}
		for _, p := range prop.Y.List {
			if p.Kind == ast.JSProperty && p.Y != nil {
				if what := reactiveValue(p.Y); what != "" {
					return p, "a `" + key + "." + p.Name + "` that is " + what
				}
			}
		}
	}
	return nil, ""
}

// reactiveMakers are the calls whose result is a ref (or reactive object)
// that the data composables watch.
var reactiveMakers = []string{"ref", "shallowRef", "computed", "toRef", "customRef", "reactive", "useState", "useCookie", "useRouteQuery", "useRouteParams"}

// reactiveValue says what makes n reactive (a getter, a ref, a computed),
// "" when it is not known to be.
func reactiveValue(n *ast.JSNode) string {
	switch n.Kind {
	case ast.JSArrow, ast.JSFunction:
		return "a getter"
	case ast.JSCall:
		if code.ImportedAs(n.X, reactiveMakers...) {
			return "a `" + code.ImportName(n.X) + "(...)`"
		}
	case ast.JSIdent:
		b := n.Resolve()
		if b == nil || b.Kind != ast.BindConst && b.Kind != ast.BindLet && b.Kind != ast.BindVar {
			return ""
		}
		init := ast.Unawait(b.Init)
		if init == nil || init.Kind != ast.JSCall || init.X == nil {
			return ""
		}
		switch {
		case b.Path == nil && code.ImportedAs(init.X, reactiveMakers...):
			return "`" + n.Name + "`, a `" + code.ImportName(init.X) + "(...)`"
		case len(b.Path) == 1 && code.ImportedAs(init.X, "toRefs", "storeToRefs"):
			return "`" + n.Name + "`, a ref of `" + code.ImportName(init.X) + "(...)`"
		}
	}
	return ""
}

// resultStays reports whether every use of the result of a data call of
// f (walked now) is one the data index follows, so that none of them can
// call execute or refresh unseen: the result is destructured without a rest element, kept
// whole and read only by its fields, returned from a composable of the
// project (whose callers the index follows), or dropped.
func resultStays(ci *codeIndex, f *code.File, c *code.DataCall) bool {
	up := ancestorsOf(c.File, c.Call)
	i := len(up) - 1
	for i >= 0 && up[i].Kind == ast.JSAwait {
		i--
	}
	if i < 0 {
		return false
	}
	switch p := up[i]; p.Kind {
	case ast.JSExprStmt:
		return true
	case ast.JSReturn, ast.JSArrow:
		for _, comp := range ci.Data.Composables {
			if comp.Call.Key() == c.Key() {
				return true
			}
		}
		return false
	case ast.JSDeclarator:
		switch p.X.Kind {
		case ast.JSObject:
			for _, q := range p.X.List {
				if q.Kind == ast.JSSpread {
					return false
				}
			}
			return true
		case ast.JSIdent:
			b := p.X.DeclBinding()
			if b == nil {
				return false
			}
			followed := 0
			for _, u := range f.Uses() { // b is f's: so are its uses
				if u.Ref.Kind == ast.JSMember && u.Ref.X.Kind == ast.JSIdent && u.Ref.X.Resolve() == b {
					followed++
				}
			}
			refs := 0
			for _, r := range b.Refs {
				if r.Ident != b.Ident {
					refs++
				}
			}
			return refs == followed
		}
	}
	return false
}

// ancestorsOf returns the ancestors of n in f's code (nearest last), nil
// when n is not found.
func ancestorsOf(f *code.File, n *ast.JSNode) []*ast.JSNode {
	var out []*ast.JSNode
	code.Walk(f, func(m *ast.JSNode, up []*ast.JSNode, _ *ast.TemplateExpr) bool {
		if out != nil || m.Loc.End <= n.Loc.Start || m.Loc.Start > n.Loc.Start {
			return false
		}
		if m == n {
			out = append([]*ast.JSNode{}, up...)
			return false
		}
		return true
	})
	return out
}
