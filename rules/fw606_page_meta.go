package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var rulePageMeta = &Rule{
	Code:     "FW606",
	Name:     "page-meta-after-resolve",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "route.meta.name (path, alias, redirect, props) read on a route, or page meta changed in a pages:extend listener, which version 4 scans after the routes resolve",
		Why: `Version 4 scans the page metadata of definePageMeta after the page routes are
resolved (experimental.scanPageMeta flips from true to 'after-resolve'). Two
things change for code:
- name, path, alias, redirect and props of definePageMeta live on the route
  itself and are no longer copied into route.meta: route.meta.name is undefined
  on version 4. Found on useRoute() and the names that hold it, $route in
  templates and this.$route, useRouter().currentRoute.value, and the to and from
  routes of route middleware (defineFwRouteMiddleware, addRouteMiddleware).
- a pages:extend listener runs before the scan: page.meta holds nothing of
  definePageMeta yet (it may be undefined), so code that reads or changes
  page.meta there (page.meta.layout = 'x', Object.assign(page.meta, ...)) no
  longer sees or adjusts what the page declares. Found in modules
  (fw.hook('pages:extend', fn), defineFwModule({ hooks })) and the config's
  hooks, through the pages parameter, its elements (for...of, forEach, find,
  pages[i]) and their children.
Other reads of route.meta (route.meta.layout, route.meta.title) and writes to
it are not affected.`,
		Example: `<script setup>
const route = useRoute()
</script>
<template>
  <h1>{{ route.meta.name }}</h1>
</template>`,
		Fix: `route.meta.name: safe, becomes route.name (the same for path, alias, redirect
and props): definePageMeta sets them on the route on both majors. No fix for a
destructured meta (const { meta } = useRoute()). pages:extend: unsafe, listens on
pages:resolved instead (the hook's name is rewritten), which runs after the
scan on both majors; check that nothing else in the listener needs to run
before it.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.scanPageMeta"},
}

func init() {
	rulePageMeta.scan = scanPageMeta
	Register(rulePageMeta)
}

// routeOwnKeys are the keys of definePageMeta that version 4 keeps on the
// route only.
var routeOwnKeys = map[string]bool{"name": true, "path": true, "alias": true, "redirect": true, "props": true}

// scanPageMeta finds the reads of route.meta.<key> in every file, then
// the pages:extend listeners' reads and changes of a page's meta.
func scanPageMeta(ci *codeIndex) *fileScan {
	reads := make([][]*site, len(ci.Files))
	extends := make([][]*site, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			reads[i], extends[i] = nil, nil
			if f.Code == nil {
				return nil
			}
			var listeners []*code.HookListener
			routes, rv := code.RoutesVisitor(f)
			var vs []*code.Visitor
			if rv != nil {
				vs = append(vs, rv)
			}
			vs = append(vs, routeMetaReads(f, routes, &reads[i]))
			if hooks := code.HookVisitor(f, "pages:extend", &listeners); hooks != nil {
				done := hooks.Done
				hooks.Done = func() {
					done()
					for _, l := range listeners {
						extends[i] = append(extends[i], extendMetaSites(ci, l)...)
					}
				}
				vs = append(vs, hooks)
			}
			return vs
		},
		sites: func() []*site {
			var out []*site
			for _, s := range reads {
				out = append(out, s...)
			}
			for _, s := range extends {
				out = append(out, s...)
			}
			return out
		},
	}
}

// routeMetaReads returns the visitor that appends to *out the reads of
// route.meta.<key> in f, for the keys that version 4 keeps on the route
// only; r are f's routes (complete by the time a node inside a middleware
// is visited: see code.RoutesVisitor).
func routeMetaReads(f *code.File, r *code.Routes, out *[]*site) *code.Visitor {
	return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
		// n is route.meta; its parent reads a key of it.
		if n.Kind != ast.JSMember || n.Has(ast.FlagComputed) || n.Name != "meta" || len(up) == 0 || !r.Value(n.X, tx) {
			return true
		}
		p := up[len(up)-1]
		switch {
		case p.Kind == ast.JSMember && p.X == n:
			key, ok := p.Name, !p.Has(ast.FlagComputed)
			if !ok {
				key, ok = code.StringValue(p.Y)
			}
			if !ok || !routeOwnKeys[key] || len(up) > 1 && written(p, up[len(up)-2]) {
				return true
			}
			s := &site{file: f, span: p.Loc}
			route := f.Code.Text(n.X.Loc)
			s.msg = "`" + f.Code.Text(p.Loc) + "` reads the page's " + key + " from the route's meta: on version 4 it is only on the route (`" + route + "." + key + "`), and this is undefined"
			if dot, ok := accessorStart(f.Text, n); ok {
				s.fix = codeFix(f, "read `"+key+"` on the route itself, where definePageMeta puts it on both majors", Safe, edit(ast.Span{Start: dot, End: n.NameLoc.End}, ""))
			}
			*out = append(*out, s)
		case p.Kind == ast.JSDeclarator && p.Y == n && p.X.Kind == ast.JSObject:
			// const { name } = route.meta
			for _, prop := range p.X.List {
				if prop.Kind == ast.JSProperty && !prop.Has(ast.FlagComputed) && routeOwnKeys[prop.Name] {
					*out = append(*out, &site{file: f, span: prop.Loc,
						msg:   "`" + f.Code.Text(prop.Loc) + "` takes the page's " + prop.Name + " from the route's meta: on version 4 it is only on the route, and this is undefined",
						notes: []string{"take `" + prop.Name + "` from the route: `const { " + prop.Name + " } = " + f.Code.Text(n.X.Loc) + "`"}})
				}
			}
		}
		return true
	}}
}

// written reports whether the member m is the target of its parent p (an
// assignment, an update, a delete).
func written(m, p *ast.JSNode) bool {
	switch p.Kind {
	case ast.JSAssign:
		return p.X == m
	case ast.JSUpdate:
		return true
	case ast.JSUnary:
		return p.Op == "delete"
	}
	return false
}

// accessorStart returns the offset of the `.` (or `?.`) that begins a
// non-computed member's accessor: the bytes from there to the name's end
// are `.meta`, which removed leave the object with the next accessor.
// ok is false when the text between the object and the name is not the
// accessor alone (comments, a line break inside).
func accessorStart(src []byte, m *ast.JSNode) (int, bool) {
	i := m.NameLoc.Start
	for i > m.X.Loc.End && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i <= m.X.Loc.End || src[i-1] != '.' {
		return 0, false
	}
	i--
	if m.Has(ast.FlagOptional) && i > m.X.Loc.End && src[i-1] == '?' {
		i--
	}
	// Between the object and the accessor: only parentheses and spaces
	// (`(route as any).meta`: TypeScript and parentheses are not nodes).
	for j := m.X.Loc.End; j < i; j++ {
		if c := src[j]; c != ')' && c != ' ' && c != '\t' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '<' || c == '>' || c == '[' || c == ']' || c == ',' || c == '.' || c == '!') {
			return 0, false
		}
	}
	return i, true
}

// extendMetaSites finds, in a pages:extend listener, the reads and
// changes of a page's meta: the listener's first parameter is the array of
// pages; its elements and their children are pages too.
func extendMetaSites(ci *codeIndex, l *code.HookListener) []*site {
	f := l.File
	p := code.Param(l.Fn, 0)
	if p == nil || l.Fn.Y == nil {
		return nil
	}
	b := p.DeclBinding()
	if b == nil {
		return nil
	}
	lists := map[*ast.Binding]bool{b: true} // bindings that hold arrays of pages
	pages := map[*ast.Binding]bool{}        // bindings that hold a page
	// Local functions called with a list of pages take one (a recursive
	// walk of the children).
	var out []*site
	fix := codeFix(f, "listen on `pages:resolved`, which runs after the page meta is scanned on both majors", Unsafe,
		edit(ast.Span{Start: l.Name.Start + 1, End: l.Name.End - 1}, "pages:resolved"))
	if q := f.Text[l.Name.Start]; q != '\'' && q != '"' && q != '`' {
		fix = nil
	}
	if path := configKeyPath(ci, l.Name); fix != nil && path != nil {
		// A key of the config's own hooks: an option path, which the
		// config's rewriter renames (a byte edit of a key would be a new
		// option to its verification).
		to := append(append(ast.Path(nil), path[:len(path)-1]...), "pages:resolved")
		fix.Ops = []rewrite.Op{{Kind: rewrite.OpRename, Path: path, To: to}}
	}
	list := func(n *ast.JSNode) bool {
		if n == nil {
			return false
		}
		switch n.Kind {
		case ast.JSIdent:
			return lists[n.Resolve()]
		case ast.JSMember:
			// page.children
			return !n.Has(ast.FlagComputed) && n.Name == "children" && n.X.Kind == ast.JSIdent && pages[n.X.Resolve()]
		}
		return false
	}
	mark := func(id *ast.JSNode, set map[*ast.Binding]bool) {
		if id == nil {
			return
		}
		if id.Kind == ast.JSDefault {
			id = id.X
		}
		if bd := id.DeclBinding(); bd != nil && !code.Reassigned(bd) {
			set[bd] = true
		}
	}
	// Two passes: a walk function declared after its use learns in the
	// first that its parameter is a list.
	for pass := 0; pass < 2; pass++ {
		ast.WalkJS(l.Fn, func(n *ast.JSNode, up []*ast.JSNode) bool {
			switch n.Kind {
			case ast.JSForIn:
				if n.Op == "of" && list(n.Y) && n.X.Kind == ast.JSVar && len(n.X.List) == 1 {
					mark(n.X.List[0].X, pages)
				}
			case ast.JSCall:
				if n.X.Kind == ast.JSMember && !n.X.Has(ast.FlagComputed) && list(n.X.X) && len(n.List) > 0 {
					switch n.X.Name {
					case "forEach", "map", "filter", "find", "findLast", "some", "every", "flatMap":
						if fn := code.LocalFunction(n.List[0]); fn != nil && len(fn.List) > 0 {
							mark(fn.List[0], pages)
						}
					}
				}
				if fn := code.LocalFunction(n.X); fn != nil && fn != l.Fn {
					for i, a := range n.List {
						if i < len(fn.List) {
							if list(a) {
								mark(fn.List[i], lists)
							} else if a.Kind == ast.JSIdent && pages[a.Resolve()] {
								mark(fn.List[i], pages)
							}
						}
					}
				}
			case ast.JSDeclarator:
				// const home = pages.find(...), pages[0], pages.at(0)
				y := n.Y
				switch {
				case y == nil:
				case y.Kind == ast.JSMember && y.Has(ast.FlagComputed) && list(y.X):
					mark(n.X, pages)
				case y.Kind == ast.JSCall && y.X.Kind == ast.JSMember && !y.X.Has(ast.FlagComputed) && list(y.X.X) && (y.X.Name == "find" || y.X.Name == "findLast" || y.X.Name == "at"):
					mark(n.X, pages)
				case y.Kind == ast.JSCall && y.X.Kind == ast.JSMember && !y.X.Has(ast.FlagComputed) && list(y.X.X) && y.X.Name == "filter":
					mark(n.X, lists)
				}
			}
			return true
		})
	}
	ast.WalkJS(l.Fn, func(n *ast.JSNode, up []*ast.JSNode) bool {
		// page.meta, pages[i].meta, pages.find(...).meta
		if n.Kind != ast.JSMember || n.Has(ast.FlagComputed) || n.Name != "meta" || len(up) == 0 || !pageValue(n.X, pages, list) {
			return true
		}
		parent := up[len(up)-1]
		var at *ast.JSNode
		what := ""
		switch {
		case parent.Kind == ast.JSMember && parent.X == n:
			at, what = parent, "reads"
			if len(up) > 1 && written(parent, up[len(up)-2]) {
				at, what = up[len(up)-2], "changes"
			} else if len(up) > 1 && up[len(up)-2].Kind == ast.JSMember && up[len(up)-2].X == parent && len(up) > 2 && written(up[len(up)-2], up[len(up)-3]) {
				at, what = up[len(up)-3], "changes"
			}
		case parent.Kind == ast.JSAssign && parent.X == n:
			at, what = parent, "sets"
		case parent.Kind == ast.JSCall && ast.MemberPath(parent.X) == "Object.assign" && len(parent.List) > 0 && parent.List[0] == n:
			at, what = parent, "changes"
		}
		if at == nil {
			return true
		}
		s := &site{file: f, span: at.Loc, fix: fix}
		s.msg = "`" + f.Code.Text(at.Loc) + "` " + what + " a page's meta in a `pages:extend` listener: on version 4 the meta of definePageMeta is scanned after `pages:extend`, so it is not there yet"
		if fix == nil {
			s.notes = []string{"listen on `pages:resolved` instead"}
		}
		out = append(out, s)
		return true
	})
	return out
}

// pageValue reports whether n is a page of a pages:extend listener: a
// binding that holds one, an element of a list of pages (pages[0],
// pages.find(...)).
func pageValue(n *ast.JSNode, pages map[*ast.Binding]bool, list func(*ast.JSNode) bool) bool {
	switch n.Kind {
	case ast.JSIdent:
		return pages[n.Resolve()]
	case ast.JSMember:
		return n.Has(ast.FlagComputed) && list(n.X)
	case ast.JSCall:
		return n.X.Kind == ast.JSMember && !n.X.Has(ast.FlagComputed) && list(n.X.X) && (n.X.Name == "find" || n.X.Name == "findLast" || n.X.Name == "at")
	}
	return false
}
