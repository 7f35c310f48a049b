package code

import (
	"bytes"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

// Helpers of the code rules that follow the router's current route
// (FW604, FW606) and name things at a place of a file (FW604, FW605).

// Routes tells which expressions of one file are the current route: it
// knows the file's route middleware functions, whose to and from
// parameters are routes.
type Routes struct {
	middleware map[*ast.JSNode]bool // functions given to defineFwRouteMiddleware / addRouteMiddleware
}

// NewRoutes finds the route middleware functions of f.
func NewRoutes(f *File) *Routes {
	r, v := RoutesVisitor(f)
	if v != nil {
		WalkFile(f, []*Visitor{v}, nil)
	}
	return r
}

// RoutesVisitor returns f's Routes and the visitor that fills them, nil
// when f holds no route middleware (the Routes are then complete). A
// middleware function is found at the call that registers it, before any
// node inside it, so that a visitor walking with it in the same walk
// (after it in the list) already knows the functions around each node:
// the to and from of a middleware are used inside it only.
func RoutesVisitor(f *File) (*Routes, *Visitor) {
	r := &Routes{middleware: map[*ast.JSNode]bool{}}
	if f.Code == nil || !bytes.Contains(f.Text, []byte("RouteMiddleware")) {
		return r, nil
	}
	return r, &Visitor{Visit: func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
		if n.Kind != ast.JSCall || len(n.List) == 0 {
			return true
		}
		var fn *ast.JSNode
		switch {
		case ImportedAs(n.X, "defineFwRouteMiddleware"):
			fn = n.List[0]
		case ImportedAs(n.X, "addRouteMiddleware"):
			fn = n.List[0]
			if len(n.List) > 1 && (fn.Kind == ast.JSString || fn.Kind == ast.JSTemplate) {
				fn = n.List[1]
			}
		}
		if fn != nil && (fn.Kind == ast.JSArrow || fn.Kind == ast.JSFunction) {
			r.middleware[fn] = true
		}
		return true
	}}
}

// Value reports whether n evaluates to the current route: useRoute() (the
// framework's, not a local function of that name), a binding that holds
// it and is never assigned again, $route in a template, this.$route,
// <router>.currentRoute.value, and the to and from parameters of a route
// middleware.
func (r *Routes) Value(n *ast.JSNode, tx *ast.TemplateExpr) bool { return r.valueDepth(n, tx, 0) }

func (r *Routes) valueDepth(n *ast.JSNode, tx *ast.TemplateExpr, depth int) bool {
	if n == nil || depth > 4 {
		return false
	}
	switch n.Kind {
	case ast.JSCall:
		return len(n.List) == 0 && ImportedAs(n.X, "useRoute")
	case ast.JSIdent:
		b := n.Resolve()
		if b == nil {
			return tx != nil && n.Name == "$route"
		}
		switch b.Kind {
		case ast.BindConst, ast.BindLet, ast.BindVar:
			return b.Path == nil && !Reassigned(b) && r.valueDepth(ast.Unawait(b.Init), nil, depth+1)
		case ast.BindParam:
			return r.middleware[b.Decl] && paramIndex(b) <= 1
		}
	case ast.JSMember:
		if n.Has(ast.FlagComputed) {
			return false
		}
		if n.Name == "$route" && n.X.Kind == ast.JSThis {
			return true
		}
		return n.Name == "value" && n.X.Kind == ast.JSMember && !n.X.Has(ast.FlagComputed) && n.X.Name == "currentRoute" && r.router(n.X.X, tx, depth)
	}
	return false
}

// router reports whether n is the router: useRouter(), a binding that
// holds it, $router in a template, this.$router.
func (r *Routes) router(n *ast.JSNode, tx *ast.TemplateExpr, depth int) bool {
	switch {
	case n == nil || depth > 4:
		return false
	case n.Kind == ast.JSCall:
		return len(n.List) == 0 && ImportedAs(n.X, "useRouter")
	case n.Kind == ast.JSIdent:
		b := n.Resolve()
		if b == nil {
			return tx != nil && n.Name == "$router"
		}
		return (b.Kind == ast.BindConst || b.Kind == ast.BindLet || b.Kind == ast.BindVar) && b.Path == nil && !Reassigned(b) && r.router(ast.Unawait(b.Init), nil, depth+1)
	case n.Kind == ast.JSMember:
		return !n.Has(ast.FlagComputed) && n.Name == "$router" && n.X.Kind == ast.JSThis
	}
	return false
}

// Reassigned reports whether a binding is assigned after its declaration.
func Reassigned(b *ast.Binding) bool {
	for _, ref := range b.Refs {
		if ref.Write {
			return true
		}
	}
	return false
}

// paramIndex returns the position of a parameter binding in its
// function's parameter list, -1 when it is inside a pattern.
func paramIndex(b *ast.Binding) int {
	if b.Decl == nil {
		return -1
	}
	for i, p := range b.Decl.List {
		if p == b.Ident || p.Kind == ast.JSDefault && p.X == b.Ident {
			return i
		}
	}
	return -1
}

// Param returns a function's parameter at index i when it is a plain name
// (with or without a default value), nil otherwise.
func Param(fn *ast.JSNode, i int) *ast.JSNode {
	if fn == nil || i >= len(fn.List) {
		return nil
	}
	p := fn.List[i]
	if p.Kind == ast.JSDefault {
		p = p.X
	}
	if p.Kind != ast.JSIdent {
		return nil
	}
	return p
}

// LocalFunction returns the function an expression is: a function or arrow
// written in place, or a name bound to one in the file (a function
// declaration, a const never assigned again); nil otherwise.
func LocalFunction(n *ast.JSNode) *ast.JSNode {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case ast.JSFunction, ast.JSArrow:
		return n
	case ast.JSIdent:
		b := n.Resolve()
		switch {
		case b == nil:
		case b.Kind == ast.BindFunction && b.Decl != nil && b.Decl.Kind == ast.JSFunction:
			return b.Decl
		case b.Kind == ast.BindConst && b.Path == nil && b.Init != nil && (b.Init.Kind == ast.JSArrow || b.Init.Kind == ast.JSFunction):
			return b.Init
		}
	}
	return nil
}

// BindingAt returns the binding that name refers to at offset at of f
// (nil: none, a global or an auto-import): the declaration of that name
// whose scope is the innermost one holding at, in the script holding at.
func BindingAt(f *File, name string, at int) *ast.Binding {
	if f.Code == nil {
		return nil
	}
	var best *ast.Binding
	size := func(b *ast.Binding) int {
		if b.Scope == nil || b.Scope.Node == nil {
			return len(f.Text) + 1
		}
		return b.Scope.Node.Loc.Len()
	}
	for _, s := range f.Code.Scripts {
		if at < s.Program.Loc.Start || at > s.Program.Loc.End {
			continue
		}
		ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if n.Kind != ast.JSIdent || n.Name != name {
				return true
			}
			b := n.DeclBinding()
			if b == nil || b.Scope == nil {
				return true
			}
			if sn := b.Scope.Node; sn != nil && (at < sn.Loc.Start || at > sn.Loc.End) {
				return true
			}
			if best == nil || size(b) < size(best) {
				best = b
			}
			return true
		})
	}
	return best
}

// FreeAt reports whether name can be used at offset at of f for the
// global or auto-import of that name, or for an import of it: no local
// binding of the name is in scope there.
func FreeAt(f *File, name string, at int) bool {
	b := BindingAt(f, name, at)
	return b == nil || b.Kind == ast.BindImport && b.Decl != nil && b.Decl.Name == name
}

// importSource returns the module an import binding comes from ("" for
// other bindings).
func importSource(f *File, b *ast.Binding) string {
	if b == nil || b.Kind != ast.BindImport || f.Code == nil {
		return ""
	}
	for _, s := range f.Code.Scripts {
		for _, st := range s.Program.List {
			if st.Kind != ast.JSImport {
				continue
			}
			for _, sp := range st.List {
				if sp == b.Decl {
					return st.Name
				}
			}
		}
	}
	return ""
}

// pathModules are the modules whose join, resolve, relative, normalize
// and isAbsolute are the path module's.
var pathModules = map[string]bool{"path": true, "node:path": true, "pathe": true, "upath": true, "path/posix": true, "node:path/posix": true}

// PathFunc returns the name of the path module's function that a callee
// is (`join` imported from node:path, `path.join` with path the module),
// "" otherwise.
func PathFunc(f *File, callee *ast.JSNode) string {
	switch {
	case callee == nil:
	case callee.Kind == ast.JSIdent:
		if b := callee.Resolve(); b != nil && pathModules[importSource(f, b)] && b.Decl.Name != "default" && b.Decl.Name != "*" {
			return b.Decl.Name
		}
	case callee.Kind == ast.JSMember && !callee.Has(ast.FlagComputed) && callee.X.Kind == ast.JSIdent:
		if b := callee.X.Resolve(); b != nil && pathModules[importSource(f, b)] && (b.Decl.Name == "default" || b.Decl.Name == "*") {
			return callee.Name
		}
	}
	return ""
}

// paramPattern finds the dynamic segments of a page's file path:
// [slug], [[optional]], [...catchAll], also inside a segment (user-[id]).
var paramPattern = lazyregexp.New(`\[\[?(?:\.\.\.)?([A-Za-z_$][\w$]*)\]?\]`)

// PageParams returns the names of the route parameters of a page (rel is
// its project-relative path), in path order; nil for a static page.
func PageParams(rel string) []string {
	i := strings.LastIndex("/"+rel, "/pages/")
	if i < 0 {
		return nil
	}
	var out []string
	for _, m := range paramPattern().FindAllStringSubmatch(rel[i+len("pages/"):], -1) {
		dup := false
		for _, o := range out {
			dup = dup || o == m[1]
		}
		if !dup {
			out = append(out, m[1])
		}
	}
	return out
}

// LineEnd is the line end the file uses.
func (f *File) LineEnd() string {
	if bytes.Contains(f.Text, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// LineStart returns the offset of the start of the line holding at.
func (f *File) LineStart(at int) int {
	for at > 0 && f.Text[at-1] != '\n' && f.Text[at-1] != '\r' {
		at--
	}
	return at
}

// IndentAt returns the spaces and tabs that begin the line holding at.
func (f *File) IndentAt(at int) string {
	s := f.LineStart(at)
	e := s
	for e < len(f.Text) && (f.Text[e] == ' ' || f.Text[e] == '\t') {
		e++
	}
	return string(f.Text[s:e])
}
