package rules

import (
	"path"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleSharedPrerender = &Rule{
	Code:     "FW604",
	Name:     "shared-prerender-key",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "useAsyncData in a page with route parameters whose key is the same for every page, which version 4 shares between prerendered pages",
		Why: `When the project prerenders, version 4 shares the data of useAsyncData and
useLazyAsyncData between the pages it prerenders, by key
(experimental.sharedPrerenderData flips from false to true). A call without a
key is keyed by its file and line, and a call with a constant key is keyed by
that string: in a page with route parameters (pages/posts/[slug].vue,
[[optional]], [...all]) every page prerendered from it then gets the data of
the first one. Reported in such pages and in the project's composables they
call (one level): calls without a key, and calls with a constant key whose
handler reads the route (useRoute(), route.params, route.query). Only when the
config prerenders: engine.prerender.routes or crawlLinks, prerender.routes or
crawlLinks (recent 4.x), generate.routes, or a routeRules (engine.routeRules)
entry with prerender: true. Keys built from the route, calls with a constant
key whose handler does not read it, useFetch (keyed by its URL and options),
calls that never run while prerendering (server: false, immediate: false,
immediate: import.meta.client) and pages without parameters are not
affected.`,
		Example: `// fw.config.ts: engine: { prerender: { crawlLinks: true } }
// pages/posts/[slug].vue
const route = useRoute()
const { data } = await useAsyncData('post', () => $fetch('/api/posts/' + route.params.slug))`,
		Fix: `Unsafe: gives the call a key built from the route: the route parameters and
query values its handler reads, then the parameters of the pages that run it
(from their file names) that the handler does not read:
useAsyncData('post', ...) becomes useAsyncData(` + "`post-${route.params.slug}`" + `, ...), and a
call without a key gets one named after the page or composable. The route is a
name that holds useRoute() where one is in scope before the call, else
useRoute() itself; no fix when neither can be written there (a local function
named useRoute). Components that pages render are not followed.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.sharedPrerenderData"},
}

func init() {
	ruleSharedPrerender.scan = scanSharedPrerender
	Register(ruleSharedPrerender)
}

// prerenderOptions are the options whose value makes the project
// prerender routes.
var prerenderOptions = []string{"engine.prerender.routes", "prerender.routes", "generate.routes", "engine.prerender.crawlLinks", "prerender.crawlLinks"}

// prerendered returns the option by which the config prerenders routes
// (`engine.prerender.crawlLinks`, `routeRules["/blog/**"].prerender`), ""
// when it does not. A value that is not static counts: it may.
func prerendered(x *Index) string {
	if x == nil {
		return ""
	}
	found := ""
	for _, opt := range prerenderOptions {
		x.optionProps(opt, func(_, p ast.Path, prop *ast.Property) {
			if v, ok := ast.StaticValue(prop); found == "" && (!ok || !emptyValue(v) && v != false) {
				found = p.String()
			}
		})
	}
	for _, opt := range []string{"routeRules", "engine.routeRules"} {
		x.optionProps(opt, func(_, p ast.Path, prop *ast.Property) {
			rules, ok := ast.Unwrap(prop.Value).(*ast.Object)
			if !ok {
				return
			}
			for _, rule := range rules.Props {
				o, ok := ast.Unwrap(rule.Value).(*ast.Object)
				if !ok {
					continue
				}
				for _, pr := range o.Props {
					if pr.Key != "prerender" || pr.KeyKind == ast.KeyComputed {
						continue
					}
					if v, ok := ast.StaticValue(pr); found == "" && (!ok || v == true) {
						found = join(p, rule.Key, "prerender").String()
					}
				}
			}
		})
	}
	return found
}

// prerenderTarget is a data call that a page with route parameters runs:
// in the page, or in a composable the page calls.
type prerenderTarget struct {
	call   *code.DataCall
	params [][]string // the parameters of each page that runs it
	pages  []string   // those pages (project-relative)
	in     string     // the composable it is in, "" in the page itself
}

func scanSharedPrerender(ci *codeIndex) *fileScan {
	where := prerendered(ci.index)
	if where == "" {
		return nil
	}
	// The calls each page with route parameters makes of composables
	// that make asyncData calls (FW604 follows a page into them).
	type inner struct {
		name string
		call *code.DataCall
	}
	calls := make([][]inner, len(ci.Files))
	// Per file: what its asyncData calls are as targets (prerenderCall),
	// read while its tree is in memory.
	infos := make([][]*prerenderInfo, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			calls[i], infos[i] = nil, nil
			for _, c := range f.CallsOf() {
				if c.Name == "useAsyncData" || c.Name == "useLazyAsyncData" {
					infos[i] = append(infos[i], prerenderCall(c))
				}
			}
			if !f.Page() || len(code.PageParams(f.Rel)) == 0 || f.Code == nil || len(ci.Data.Inside) == 0 {
				return nil
			}
			var found []inner
			return []*code.Visitor{{
				Visit: func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
					if n.Kind != ast.JSCall || n.X.Kind != ast.JSIdent {
						return true
					}
					if b := n.X.Resolve(); b != nil && b.Kind != ast.BindImport {
						return true
					}
					for _, c := range ci.Data.Inside[n.X.Name] {
						if c.File != f && (c.Name == "useAsyncData" || c.Name == "useLazyAsyncData") {
							found = append(found, inner{n.X.Name, c})
						}
					}
					return true
				},
				Done: func() { calls[i] = found },
			}}
		},
		sites: func() []*site {
			info := map[code.CallKey]*prerenderInfo{}
			for _, list := range infos {
				for _, in := range list {
					info[in.call.Key()] = in
				}
			}
			byFile := map[*code.File][]*code.DataCall{}
			for _, c := range ci.Data.Calls {
				if c.Name == "useAsyncData" || c.Name == "useLazyAsyncData" {
					byFile[c.File] = append(byFile[c.File], c)
				}
			}
			var targets []*prerenderTarget
			seen := map[code.CallKey]*prerenderTarget{}
			add := func(c *code.DataCall, params []string, page, in string) {
				t := seen[c.Key()]
				if t == nil {
					t = &prerenderTarget{call: c, in: in}
					seen[c.Key()] = t
					targets = append(targets, t)
				}
				t.params = append(t.params, params)
				t.pages = append(t.pages, page)
			}
			for i, f := range ci.Files {
				params := code.PageParams(f.Rel)
				if !f.Page() || len(params) == 0 || f.Code == nil {
					continue
				}
				for _, c := range byFile[f] {
					add(c, params, f.Rel, "")
				}
				for _, in := range calls[i] {
					add(in.call, params, f.Rel, in.name)
				}
			}
			var out []*site
			keyless := map[string]int{} // keys given to calls without one, by base
			for _, t := range targets {
				if s := sharedPrerenderSite(info[t.call.Key()], t, where, keyless); s != nil {
					out = append(out, s)
				}
			}
			return out
		},
	}
}

// routeRead is a read of the route in a handler, as it can be written in
// a key at the call: route.params.slug, useRoute().query.page, params.id.
type routeRead struct {
	text  string
	param string // the route parameter it reads, "" for a query value
	ok    bool   // the text means the same at the call
}

// prerenderInfo is what a data call is as a target of FW604, read from
// its file's tree: its key and handler, the route reads of the handler,
// how the route is written at the call.
type prerenderInfo struct {
	call *code.DataCall
	ok   bool // a site when a page with parameters runs it
	// key is the key argument ("" and keyNil for none); keyIdent and
	// keyName when it is a name; constKey its static value.
	keyNil, keyIdent bool
	keySpan, callee  ast.Span
	keyText, keyName string
	constKey         string
	reads            []routeRead
	route            string // routeAt the call: "" when the route cannot be named there
	arg0At           int    // where the first argument starts
}

// prerenderCall reads what c (whose file's tree is in memory) is as a
// target (prerenderInfo).
func prerenderCall(c *code.DataCall) *prerenderInfo {
	in := &prerenderInfo{call: c}
	f := c.File
	args := c.Call.List
	if len(args) == 0 {
		return in
	}
	var key, handler *ast.JSNode
	constKey := ""
	switch {
	case code.LocalFunction(args[0]) != nil:
		if len(args) > 1 && code.LocalFunction(args[1]) != nil {
			return in // a key getter: () => `post-${id}`
		}
		handler = code.LocalFunction(args[0])
	case len(args) > 1:
		key, handler = args[0], code.LocalFunction(args[1])
		v, ok := code.StringValue(key)
		if !ok && key.Kind == ast.JSIdent {
			if b := key.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil {
				v, ok = code.StringValue(b.Init)
			}
		}
		if !ok {
			return in // built at run time
		}
		constKey = v
	default:
		return in
	}
	if handler == nil || clientOnly(c) {
		return in
	}
	r := code.NewRoutes(f)
	reads, readsRoute := handlerRouteReads(f, r, handler, c.Call)
	if key != nil && !readsRoute {
		return in // a constant key for data that does not depend on the route
	}
	in.ok = true
	in.keyNil, in.callee, in.constKey, in.reads, in.arg0At = key == nil, c.Call.X.Loc, constKey, reads, args[0].Loc.Start
	if key != nil {
		in.keySpan, in.keyText = key.Loc, f.Code.Text(key.Loc)
		in.keyIdent, in.keyName = key.Kind == ast.JSIdent, key.Name
	}
	// How the route is written at the call, needed when a page has a
	// parameter the handler does not read.
	in.route = routeAt(f, r, c.Call.Loc.Start)
	return in
}

// sharedPrerenderSite is the site of the target t (whose call is in, read
// by prerenderCall), nil when it is none.
func sharedPrerenderSite(in *prerenderInfo, t *prerenderTarget, where string, keyless map[string]int) *site {
	if in == nil || !in.ok {
		return nil
	}
	c, f := t.call, t.call.File
	reads := in.reads
	pages := strings.Join(t.pages, ", ")
	s := &site{file: f}
	switch {
	case in.keyNil:
		s.span = in.callee
		s.msg = "`" + c.Name + "` has no key: it is keyed by its file and line, the same for every page prerendered from " + pages
	default:
		s.span = in.keySpan
		s.msg = "`" + c.Name + "` reads the route in its handler but its key `" + in.keyText + "` is the same for every page prerendered from " + pages
	}
	if t.in != "" {
		s.msg += " (through `" + t.in + "`)"
	}
	s.msg += ": on version 4 prerendered pages share data by key, so they all get the data of the first one"
	s.notes = []string{"the config prerenders: `" + where + "`"}

	// The key's parts: what the handler reads of the route's parameters and
	// query, then the pages' parameters it does not read (the union over
	// the pages: a parameter a page lacks is undefined there, which keeps
	// the keys apart), on a route that can be named at the call.
	var parts []string
	have := map[string]bool{}
	for _, rd := range reads {
		if rd.ok {
			parts = append(parts, rd.text)
			have[rd.param] = rd.param != ""
		}
	}
	route := ""
	for _, params := range t.params {
		for _, p := range params {
			if have[p] {
				continue
			}
			if route == "" {
				if route = in.route; route == "" {
					parts = nil
					break
				}
			}
			have[p] = true
			parts = append(parts, route+".params."+p)
		}
	}
	if len(parts) == 0 {
		s.notes = append(s.notes, "give the call a key built from the route as its first argument: a template literal such as post-${route.params.slug}, with route the framework's `useRoute()`")
		return s
	}
	subs := ""
	for _, p := range parts {
		subs += "-${" + p + "}"
	}
	desc := "key the call by the route"
	switch {
	case in.keyNil:
		base := t.in
		if base == "" {
			base = keyBase(f.Rel)
		}
		keyless[base]++
		if n := keyless[base]; n > 1 {
			base += "-" + strconv.Itoa(n)
		}
		text := "`" + base + subs + "`, "
		s.fix = codeFix(f, desc+": "+strings.TrimSuffix(text, ", "), Unsafe, edit(ast.Span{Start: in.arg0At, End: in.arg0At}, text))
	case in.keyIdent:
		text := "`${" + in.keyName + "}" + subs + "`"
		s.fix = codeFix(f, desc+": "+text, Unsafe, edit(in.keySpan, text))
	case !strings.ContainsAny(in.constKey, "`\\$\r\n"):
		text := "`" + in.constKey + subs + "`"
		s.fix = codeFix(f, desc+": "+text, Unsafe, edit(in.keySpan, text))
	}
	return s
}

// handlerRouteReads returns the reads of route parameters and query values
// in a handler (route.params.slug, useRoute().query.page, params.id of
// const { params } = useRoute()), each once, and whether the handler reads
// the route at all.
func handlerRouteReads(f *code.File, r *code.Routes, handler, call *ast.JSNode) ([]routeRead, bool) {
	var reads []routeRead
	touches := false
	seen := map[string]bool{}
	addRead := func(text, param string, ok bool) {
		if !seen[text] {
			seen[text] = true
			reads = append(reads, routeRead{text, param, ok})
		}
	}
	paramOf := func(kind, name string) string {
		if kind == "params" {
			return name
		}
		return ""
	}
	// usableAt reports whether an expression means the same at the call:
	// useRoute() where the name is free, or a name whose binding is the one
	// seen at the call, declared before it.
	usableAt := func(e *ast.JSNode) bool {
		switch e.Kind {
		case ast.JSCall:
			return code.FreeAt(f, "useRoute", call.Loc.Start)
		case ast.JSIdent:
			b := e.Resolve()
			return b != nil && code.BindingAt(f, e.Name, call.Loc.Start) == b && b.Ident.Loc.End <= call.Loc.Start
		}
		return false
	}
	ast.WalkJS(handler, func(n *ast.JSNode, up []*ast.JSNode) bool {
		if n.Kind != ast.JSIdent && n.Kind != ast.JSCall && n.Kind != ast.JSMember || n.DeclBinding() != nil {
			return true
		}
		if n.Kind == ast.JSIdent {
			// params.id with const { params } = useRoute()
			if b := n.Resolve(); b != nil && b.Kind == ast.BindConst && len(b.Path) == 1 && r.Value(ast.Unawait(b.Init), nil) {
				touches = true
				if m := parentOf(up); (b.Path[0] == "params" || b.Path[0] == "query") && m != nil && m.Kind == ast.JSMember && m.X == n && !m.Has(ast.FlagComputed) {
					addRead(n.Name+"."+m.Name, paramOf(b.Path[0], m.Name), usableAt(n))
				} else {
					addRead("", "", false)
				}
				return true
			}
		}
		if !r.Value(n, nil) {
			return true
		}
		touches = true
		// route.params.slug
		if len(up) >= 2 {
			m, k := up[len(up)-1], up[len(up)-2]
			if m.Kind == ast.JSMember && m.X == n && !m.Has(ast.FlagComputed) && (m.Name == "params" || m.Name == "query") && k.Kind == ast.JSMember && k.X == m && !k.Has(ast.FlagComputed) {
				addRead(f.Code.Text(n.Loc)+"."+m.Name+"."+k.Name, paramOf(m.Name, k.Name), usableAt(n))
				return false
			}
		}
		addRead("", "", false) // the route read some other way
		return false
	})
	return reads, touches
}

// parentOf returns the nearest of a node's ancestors, nil for none.
func parentOf(up []*ast.JSNode) *ast.JSNode {
	if len(up) == 0 {
		return nil
	}
	return up[len(up)-1]
}

// routeAt returns how the route can be written at offset at of f: the name
// of a binding that holds useRoute(), in scope there and declared before,
// else useRoute() when that name is free there; "" when neither.
func routeAt(f *code.File, r *code.Routes, at int) string {
	var name string
	for _, s := range f.Code.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if name != "" {
				return false
			}
			b := n.DeclBinding()
			if b == nil || b.Path != nil || b.Ident.Loc.End > at || !r.Value(n, nil) {
				return true
			}
			if init := ast.Unawait(b.Init); init != nil && init.Kind == ast.JSCall && code.BindingAt(f, b.Name, at) == b {
				name = b.Name
			}
			return true
		})
	}
	if name == "" && code.FreeAt(f, "useRoute", at) {
		name = "useRoute()"
	}
	return name
}

// keyBase names a page's keys: pages/posts/[slug].vue -> posts-slug.
func keyBase(rel string) string {
	i := strings.LastIndex("/"+rel, "/pages/")
	p := strings.TrimSuffix(rel[i+len("pages/"):], path.Ext(rel))
	p = strings.NewReplacer("[", "", "]", "", "...", "", "/", "-").Replace(p)
	if p == "" {
		return "page"
	}
	return p
}

// clientOnly reports whether the data call never runs on the server, so
// never while prerendering: its options say server: false, immediate:
// false, or immediate: import.meta.client (true in the browser only).
func clientOnly(c *code.DataCall) bool {
	for _, key := range []string{"server", "immediate"} {
		prop, _ := c.Option(key)
		if prop == nil || prop.Y == nil {
			continue
		}
		if v, ok := code.BoolValue(prop.Y); ok && !v {
			return true
		}
		if key == "immediate" && code.ImportMetaProp(prop.Y) == "client" {
			return true
		}
	}
	return false
}
