package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleServerHandler = &Rule{
	Code:     "FW314",
	Name:     "server-handler",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a serverHandlers item without handler, or with a method that is not an HTTP method",
		Why: `The reference: a serverHandlers item is {handler, route, method,
middleware, lazy}, where handler is the file that handles the requests. An
item without handler registers nothing. An item whose method is not an HTTP
method (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH; letter
case aside) answers no request: error, since the route silently never
matches. 'all', which router libraries take for any method, is let through.
Items with a spread, and values only known at run time, are not judged.`,
		Example: `export default defineFwConfig({
  serverHandlers: [
    { route: '/api/health' },
    { route: '/api/users', method: 'GTE', handler: '~~/server/users.ts' },
  ],
})`,
		Fix: "",
	},
	Run: runServerHandler,
}

func init() { Register(ruleServerHandler) }

// httpMethods are the request methods of HTTP (RFC 9110, and PATCH from RFC
// 5789): protocol facts, not the framework's.
var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"}

func runServerHandler(pass *Pass) {
	pass.OptionProps("serverHandlers", func(prefix, path ast.Path, prop *ast.Property) {
		arr, ok := ast.Unwrap(prop.Value).(*ast.Array)
		if !ok {
			return
		}
		k := -1
		for i, e := range arr.Elements {
			if arr.IsSpread(i) {
				continue
			}
			k++
			item, ok := ast.Unwrap(e).(*ast.Object)
			if !ok || item.HasSpread() || item.HasComputedKey() {
				continue
			}
			name := fmt.Sprintf("%s[%d]", path, k)
			if item.Get("handler") == nil {
				d := pass.Report(item.Loc, path.String(), "`%s` has no `handler`: the item registers nothing", name)
				if r := item.Get("route"); r != nil {
					if s, ok := ast.StaticString(r.Value); ok {
						d.Notes = append(d.Notes, "route "+quote(s)+" gets no handler")
					}
				}
			}
			m := item.Get("method")
			if m == nil {
				continue
			}
			s, ok := ast.StaticString(m.Value)
			if !ok {
				continue
			}
			// 'all' is not an HTTP method, but the router libraries use it
			// for "any method": not worth the risk of a false error.
			known := strings.EqualFold(s, "all")
			for _, h := range httpMethods {
				if strings.EqualFold(h, s) {
					known = true
				}
			}
			if known {
				continue
			}
			d := pass.ReportValue(m, path, "`%s.method` is %s, which is not an HTTP method: the handler never answers a request", name, quote(s))
			d.Severity = Error
			g := compat.SuggestWord(strings.ToUpper(s), httpMethods)
			if g == "" {
				g = compat.Transposed(s, httpMethods)
			}
			if g != "" {
				d.Message += "; did you mean '" + g + "'?"
			}
		}
	})
}
