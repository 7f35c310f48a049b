package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleErrorDataParsed = &Rule{
	Code:     "FW608",
	Name:     "error-data-parsed",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "JSON.parse or a string check of error.data on the error page or a useError() result, which version 4 may hand over already parsed",
		Why: `On version 4 (experimental.parseErrorData flips from false to true) the data of an
error that reaches the page through the server's error handler (thrown in a
server route, or rendered by the error endpoint) arrives parsed: an object, no
longer the JSON string. JSON.parse(error.data) then throws, and typeof
error.data === 'string' is false. An error thrown while rendering a page still
carries the string it was given, on both majors, so the parse cannot simply be
dropped. Found on the error prop of the srcDir's error.vue (defineProps, as
props.error, a destructured error, or error in its template) and on the results
of useError() (error.value.data; error.data in a template). Not followed: the
options API's this.error, and an error passed on to other functions.`,
		Example: `<script setup lang="ts">
const props = defineProps<{ error: FwError }>()
const details = JSON.parse(props.error.data)
</script>`,
		Fix: `Safe: JSON.parse(e.data) becomes typeof e.data === 'string' ? JSON.parse(e.data) :
e.data, right on both majors and for both kinds of error (a JSON.parse with a
fallback, JSON.parse(e.data || '{}'), keeps it). A typeof check is reported
only: say what it means.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.parseErrorData"},
}

func init() {
	ruleErrorDataParsed.scan = scanErrorDataParsed
	Register(ruleErrorDataParsed)
}

func scanErrorDataParsed(ci *codeIndex) *fileScan {
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || f.Config {
			return nil
		}
		errorFile := ci.isErrorPage(f)
		errorPage := errorFile && declaresErrorProp(f)
		return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			if n.Kind != ast.JSMember || n.Has(ast.FlagComputed) || n.Name != "data" || len(up) == 0 {
				return true
			}
			what := errorOf(f, n.X, tx, errorPage, errorFile)
			if what == "" {
				return true
			}
			p := up[len(up)-1]
			switch {
			case p.Kind == ast.JSUnary && p.Op == "typeof" && len(up) >= 2:
				b := up[len(up)-2]
				if b.Kind != ast.JSBinary || b.Op != "===" && b.Op != "!==" && b.Op != "==" && b.Op != "!=" {
					return true
				}
				if o := code.OtherOperand(b, p); o == nil || o.Kind != ast.JSString || o.Name != "string" {
					return true
				}
				if len(up) >= 3 && guardsParse(f, b, up[len(up)-3], n) {
					return true // typeof x === 'string' ? JSON.parse(x) : x: right on both majors
				}
				*out = append(*out, &site{file: f, span: b.Loc,
					msg:   "`" + f.Code.Text(b.Loc) + "` checks whether the data of " + what + " is a string: on version 4 the data of errors from the server's error handler arrives parsed, so this is " + map[bool]string{true: "false", false: "true"}[b.Op == "===" || b.Op == "=="] + " for them",
					notes: []string{"errors thrown while rendering a page still carry a string on both majors: say which kind this code expects"},
				})
			default:
				call, arg := jsonParseOf(n, up)
				if call == nil || guarded(f, call, up, arg) {
					return true
				}
				s := &site{file: f, span: call.Loc}
				s.msg = "`" + f.Code.Text(call.Loc) + "` parses the data of " + what + ": on version 4 the data of errors from the server's error handler arrives parsed, and JSON.parse of an object throws"
				s.notes = []string{"errors thrown while rendering a page still carry a string on both majors: keep the parse for those"}
				q := f.QuoteAt(call.Loc, tx)
				a := f.Code.Text(arg.Loc)
				if arg.Kind != ast.JSMember && arg.Kind != ast.JSIdent {
					a = "(" + a + ")"
				}
				text := "typeof " + a + " === " + q + "string" + q + " ? " + f.Code.Text(call.Loc) + " : " + a
				if needsParens(call, up[:len(up)-callDepth(n, up, call)], tx) {
					text = "(" + text + ")"
				}
				s.fix = codeFix(f, "parse only a string: `"+text+"`, right on both majors", Safe, edit(call.Loc, text))
				*out = append(*out, s)
			}
			return true
		}}
	}, nil)
}

// isErrorPage reports whether f is the error page of the project or of a
// local layer: error.vue at its srcDir.
func (ci *codeIndex) isErrorPage(f *code.File) bool {
	if f.Src == nil || filepath.Base(f.Path) != "error.vue" {
		return false
	}
	d := ci.Project.Detection
	if f.Src.Layer != nil {
		d = f.Src.Layer.Detection
	}
	return d != nil && d.Current.SrcDir != "" && filepath.Dir(f.Path) == d.Current.SrcDir
}

// declaresErrorProp reports whether f calls defineProps with an error prop.
func declaresErrorProp(f *code.File) bool {
	found := false
	code.Walk(f, func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
		found = found || isDefineProps(f, n)
		return !found
	})
	return found
}

// errorOf says whose error x is, "" when it is not an error the page
// receives: a useError() result (`e.value` in a script, `e` in a template,
// `useError().value`), or, on the error page (errorPage: error.vue with an
// error prop), the error prop (`props.error`, a destructured `error`,
// `error` or `$props.error` in the template).
func errorOf(f *code.File, x *ast.JSNode, tx *ast.TemplateExpr, errorPage, errorFile bool) string {
	if x == nil {
		return ""
	}
	useErr := func(n *ast.JSNode) bool {
		return n != nil && n.Kind == ast.JSCall && code.ImportedAs(n.X, "useError")
	}
	switch x.Kind {
	case ast.JSMember:
		if x.Has(ast.FlagComputed) {
			return ""
		}
		if x.Name == "value" {
			if useErr(x.X) {
				return "`useError()`"
			}
			if b := x.X.Resolve(); x.X.Kind == ast.JSIdent && b != nil && b.Path == nil && useErr(ast.Unawait(b.Init)) {
				return "`useError()`"
			}
		}
		if x.Name == "error" && errorPage && x.X.Kind == ast.JSIdent {
			if b := x.X.Resolve(); b != nil && b.Path == nil && isDefineProps(f, b.Init) {
				return "the error page's error"
			}
			if tx != nil && x.X.Name == "$props" && x.X.Resolve() == nil {
				return "the error page's error"
			}
		}
	case ast.JSIdent:
		b := x.Resolve()
		switch {
		case b == nil:
			if x.Name == "error" && (tx != nil && errorPage || errorFile) {
				// A free `error` in error.vue's script is a snippet's
				// (the upgrade guide's) error prop.
				return "the error page's error"
			}
		case tx != nil && b.Path == nil && useErr(ast.Unawait(b.Init)):
			return "`useError()`"
		case errorPage && len(b.Path) == 1 && b.Path[0] == "error" && isDefineProps(f, b.Init):
			return "the error page's error"
		}
	}
	return ""
}

// isDefineProps reports a defineProps call that declares an error prop:
// in its runtime argument, or in its type argument, which is not in the
// tree (defineProps<{ error: FwError }>(): its text names error).
func isDefineProps(f *code.File, n *ast.JSNode) bool {
	n = ast.Unawait(n)
	if n == nil || n.Kind != ast.JSCall || !code.ImportedAs(n.X, "defineProps") {
		return false
	}
	if len(n.List) == 0 {
		return strings.Contains(f.Code.Text(n.Loc), "error")
	}
	for _, a := range n.List {
		if code.ObjProp(a, "error") != nil {
			return true
		}
		if a.Kind == ast.JSArray {
			for _, e := range a.List {
				if e != nil && e.Kind == ast.JSString && e.Name == "error" {
					return true
				}
			}
		}
	}
	return false
}

// jsonParseOf returns the JSON.parse call whose first argument is m (or m
// with a literal fallback: `m || '{}'`, `m ?? 'null'`), and that argument.
func jsonParseOf(m *ast.JSNode, up []*ast.JSNode) (call, arg *ast.JSNode) {
	i := len(up) - 1
	arg = m
	if p := up[i]; p.Kind == ast.JSBinary && (p.Op == "||" || p.Op == "??") && p.X == m && isLiteral(p.Y) {
		arg, i = p, i-1
	}
	if i < 0 {
		return nil, nil
	}
	c := up[i]
	if c.Kind != ast.JSCall || len(c.List) == 0 || c.List[0] != arg || ast.MemberPath(c.X) != "JSON.parse" || !code.Global(c.X.X) {
		return nil, nil
	}
	return c, arg
}

// callDepth is how many of up's last entries are call and what is below
// it on the way to n (so that up[:len(up)-depth] are call's ancestors).
func callDepth(n *ast.JSNode, up []*ast.JSNode, call *ast.JSNode) int {
	for i := len(up) - 1; i >= 0; i-- {
		if up[i] == call {
			return len(up) - i
		}
	}
	return 0
}

func isLiteral(n *ast.JSNode) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case ast.JSString, ast.JSNumber, ast.JSBool, ast.JSNull:
		return true
	case ast.JSTemplate:
		return n.X == nil && len(n.List) == 0
	}
	return false
}

// needsParens reports whether a conditional expression written in place of
// n (whose ancestors are up) needs parentheses: anywhere but where an
// assignment expression stands whole.
func needsParens(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
	if len(up) == 0 {
		return tx == nil || tx.Node != n
	}
	p := up[len(up)-1]
	switch p.Kind {
	case ast.JSDeclarator, ast.JSAssign, ast.JSProperty, ast.JSDefault:
		return p.Y != n
	case ast.JSReturn, ast.JSExprStmt, ast.JSThrow, ast.JSSpread, ast.JSYield:
		return false
	case ast.JSArrow:
		return p.Y != n
	case ast.JSArray, ast.JSSeq:
		return false
	case ast.JSCall, ast.JSNew:
		return p.X == n
	case ast.JSCond:
		return p.X == n
	case ast.JSProgram:
		return false
	}
	return true
}

// stringCheck reports whether b is `typeof x === 'string'` (positive) or
// `typeof x !== 'string'` for an x written as data is.
func stringCheck(f *code.File, b, data *ast.JSNode) (ok, positive bool) {
	if b == nil || b.Kind != ast.JSBinary || b.Op != "===" && b.Op != "!==" && b.Op != "==" && b.Op != "!=" {
		return false, false
	}
	t, o := b.X, b.Y
	if t.Kind != ast.JSUnary {
		t, o = o, t
	}
	if t.Kind != ast.JSUnary || t.Op != "typeof" || o.Kind != ast.JSString || o.Name != "string" {
		return false, false
	}
	if f.Code.Text(t.X.Loc) != f.Code.Text(data.Loc) {
		return false, false
	}
	return true, b.Op == "===" || b.Op == "=="
}

// guardedBranch returns the branch of a conditional, an if or an && whose
// test is check that runs when the check is true (false: the other one).
func guardedBranch(g *ast.JSNode, check *ast.JSNode, positive bool) *ast.JSNode {
	switch {
	case (g.Kind == ast.JSCond || g.Kind == ast.JSIf) && g.X == check:
		if positive {
			return g.Y
		}
		return g.Z
	case g.Kind == ast.JSBinary && g.Op == "&&" && g.X == check && positive:
		return g.Y
	}
	return nil
}

// guarded reports whether a JSON.parse of data runs only when data is a
// string: in the branch of a typeof check of the same expression.
func guarded(f *code.File, call *ast.JSNode, up []*ast.JSNode, data *ast.JSNode) bool {
	inside := call
	for i := len(up) - 1; i >= 0; i-- {
		g := up[i]
		if g == call || g.Loc.Start > call.Loc.Start {
			continue // the call itself and what is below it
		}
		if g.X != nil {
			if ok, positive := stringCheck(f, g.X, data); ok {
				if b := guardedBranch(g, g.X, positive); b != nil && b.Loc.Start <= inside.Loc.Start && inside.Loc.End <= b.Loc.End {
					return true
				}
			}
		}
	}
	return false
}

// guardsParse reports whether the typeof check b (of data) is the test of
// a conditional, if or && whose guarded branch parses data.
func guardsParse(f *code.File, b, g, data *ast.JSNode) bool {
	ok, positive := stringCheck(f, b, data)
	if !ok {
		return false
	}
	branch := guardedBranch(g, b, positive)
	found := false
	ast.WalkJS(branch, func(n *ast.JSNode, _ []*ast.JSNode) bool {
		if n.Kind == ast.JSCall && ast.MemberPath(n.X) == "JSON.parse" && len(n.List) > 0 && f.Code.Text(n.List[0].Loc) == f.Code.Text(data.Loc) {
			found = true
		}
		return !found
	})
	return found
}
