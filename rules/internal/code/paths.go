package code

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

// Paths written in code or for app files, followed statically (FW110,
// FW607, FW612, FW613).

// ResolveSrcPath resolves a path the config writes for app files: ~/ and @/
// from srcDir, ~~/ and @@/ from rootDir, an absolute path as it is, and a
// relative one from srcDir.
func ResolveSrcPath(d *compat.Detection, p string) string {
	for _, a := range []struct{ prefix, base string }{{"~~/", d.Root}, {"@@/", d.Root}, {"~/", d.Current.SrcDir}, {"@/", d.Current.SrcDir}} {
		if rest, ok := strings.CutPrefix(p, a.prefix); ok {
			return filepath.Join(a.base, filepath.FromSlash(rest))
		}
	}
	switch p {
	case "~", "@":
		return d.Current.SrcDir
	case "~~", "@@":
		return d.Root
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(d.Current.SrcDir, filepath.FromSlash(p))
}

// StaticPath returns the absolute path an expression of f evaluates to
// when it can be followed statically: a string (relative to f's
// directory), __dirname, import.meta.dirname, resolve/join/dirname of the
// path module, fileURLToPath(import.meta.url or new URL(s,
// import.meta.url)), createResolver(base).resolve(...), and consts that
// hold one, and calls of a local function that returns one of those built
// from its parameters (`const fromHere = (p) => resolve(here, p)`).
// import.meta.url is "file://" + f's path.
func StaticPath(f *File, n *ast.JSNode, depth int) (string, bool) {
	return staticPath(f, n, depth, nil)
}

// args maps the parameters of the local functions being followed to the
// arguments of their call.
type args map[*ast.Binding]*ast.JSNode

func staticPath(f *File, n *ast.JSNode, depth int, env args) (string, bool) {
	dir := filepath.Dir(f.Path)
	if n == nil || depth > 6 {
		return "", false
	}
	if s, ok := StringValue(n); ok {
		if filepath.IsAbs(s) || strings.HasPrefix(s, "file://") {
			return s, true
		}
		return filepath.Join(dir, filepath.FromSlash(s)), true
	}
	switch n.Kind {
	case ast.JSIdent:
		b := n.Resolve()
		switch {
		case b == nil && n.Name == "__dirname":
			return dir, true
		case b == nil && n.Name == "__filename":
			return f.Path, true
		case b != nil && b.Kind == ast.BindConst && b.Path == nil:
			return staticPath(f, b.Init, depth+1, env)
		case b != nil && b.Kind == ast.BindParam && env[b] != nil:
			// The argument is read where the call is: the parameters
			// of the functions around it are those of the call's env.
			return staticPath(f, env[b], depth+1, env)
		}
	case ast.JSMember:
		if prop := ImportMetaProp(n); prop != "" {
			switch prop {
			case "url":
				return "file://" + f.Path, true
			case "dirname":
				return dir, true
			case "filename":
				return f.Path, true
			}
		}
	case ast.JSNew:
		// new URL('./x', import.meta.url)
		if ast.MemberPath(n.X) == "URL" && len(n.List) == 2 {
			rel, ok1 := StringValue(n.List[0])
			base, ok2 := staticPath(f, n.List[1], depth+1, env)
			if ok1 && ok2 && strings.HasPrefix(base, "file://") {
				return "file://" + filepath.Join(filepath.Dir(strings.TrimPrefix(base, "file://")), filepath.FromSlash(rel)), true
			}
		}
	case ast.JSCall:
		if resolverBase, ok := resolverCall(f, n, depth, env); ok {
			return joinArgs(f, resolverBase, n.List, depth, env)
		}
		if body, inner, ok := wrapperCall(n, env); ok {
			return staticPath(f, body, depth+1, inner)
		}
		switch fn := PathFunc(f, n.X); {
		case fn == "resolve":
			return joinArgs(f, f.rootDir(), n.List, depth, env)
		case fn == "join" && len(n.List) > 0:
			first, ok := staticPath(f, n.List[0], depth+1, env)
			if !ok || strings.HasPrefix(first, "file://") {
				return "", false
			}
			return joinArgs(f, first, n.List[1:], depth, env)
		case fn == "dirname" && len(n.List) == 1:
			p, ok := staticPath(f, n.List[0], depth+1, env)
			if ok && !strings.HasPrefix(p, "file://") {
				return filepath.Dir(p), true
			}
		case fn == "" && n.X.Kind == ast.JSIdent && len(n.List) == 1 && urlFunc(f, n.X) == "fileURLToPath":
			p, ok := staticPath(f, n.List[0], depth+1, env)
			if ok && strings.HasPrefix(p, "file://") {
				return strings.TrimPrefix(p, "file://"), true
			}
		}
	}
	return "", false
}

// ImportMetaProp returns x of `import.meta.x`, "" for any other node.
func ImportMetaProp(n *ast.JSNode) string {
	if n != nil && n.Kind == ast.JSMember && n.X != nil && n.X.Kind == ast.JSMeta && n.X.Name == "import.meta" && !n.Has(ast.FlagComputed) {
		return n.Name
	}
	return ""
}

// rootDir is the directory a relative path resolves against at build
// time: the project's root (the config's directory).
func (f *File) rootDir() string {
	if f.Src != nil && f.Rel != "" {
		root := f.Path
		for range strings.Split(f.Rel, "/") {
			root = filepath.Dir(root)
		}
		return root
	}
	return filepath.Dir(f.Path)
}

// joinArgs resolves path segments (string literals or paths it can follow)
// against base, as path.resolve does.
func joinArgs(f *File, base string, list []*ast.JSNode, depth int, env args) (string, bool) {
	out := base
	for _, a := range list {
		for a != nil && a.Kind == ast.JSIdent {
			// A parameter of a function followed: its argument, which may
			// be a plain string segment.
			b := a.Resolve()
			if b == nil || b.Kind != ast.BindParam || env[b] == nil || env[b] == a {
				break
			}
			a = env[b]
		}
		var seg string
		if s, ok := StringValue(a); ok {
			seg = filepath.FromSlash(s)
		} else {
			p, ok := staticPath(f, a, depth+1, env)
			if !ok || strings.HasPrefix(p, "file://") {
				return "", false
			}
			seg = p
		}
		if filepath.IsAbs(seg) {
			out = seg
		} else {
			out = filepath.Join(out, seg)
		}
	}
	return out, true
}

// resolverCall reports whether a call is the resolve of
// createResolver(base) (const { resolve } = createResolver(...), or
// resolver.resolve(...) with const resolver = createResolver(...)), and
// the directory it resolves against.
func resolverCall(f *File, call *ast.JSNode, depth int, env args) (string, bool) {
	var init *ast.JSNode
	switch x := call.X; {
	case x.Kind == ast.JSIdent:
		if b := x.Resolve(); b != nil && b.Kind == ast.BindConst && len(b.Path) == 1 && b.Path[0] == "resolve" {
			init = b.Init
		}
	case x.Kind == ast.JSMember && !x.Has(ast.FlagComputed) && x.Name == "resolve" && x.X.Kind == ast.JSIdent:
		b := x.X.Resolve()
		if b != nil && b.Kind == ast.BindConst && b.Path == nil {
			init = b.Init
		}
		if b == nil && x.X.Name == "resolver" && f.Src != nil && f.Src.Role == project.RoleModule {
			// A free `resolver` in a module file: a snippet of the
			// kit's idiom, createResolver(import.meta.url), which
			// resolves from the file's folder.
			return filepath.Dir(f.Path), true
		}
	}
	if init == nil || init.Kind != ast.JSCall || !ImportedAs(init.X, "createResolver") || len(init.List) != 1 {
		return "", false
	}
	base, ok := staticPath(f, init.List[0], depth+1, env)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(base, "file://") {
		// A file URL: resolve against its directory.
		return filepath.Dir(strings.TrimPrefix(base, "file://")), true
	}
	return base, true
}

// urlFunc returns the name of the url module's function a callee is.
func urlFunc(f *File, callee *ast.JSNode) string {
	b := callee.Resolve()
	if b == nil || b.Kind != ast.BindImport {
		return ""
	}
	if src := importSource(f, b); src == "url" || src == "node:url" {
		return b.Decl.Name
	}
	return ""
}

// wrapperCall returns, for a call of a local function that returns one
// expression (`const fromHere = (p) => resolve(here, p)`, `function
// fromHere(p) { return resolve(here, p) }`), that expression and the
// parameters bound to the call's arguments; ok is false for any other
// call.
func wrapperCall(call *ast.JSNode, env args) (body *ast.JSNode, inner args, ok bool) {
	if call.X == nil || call.X.Kind != ast.JSIdent {
		return nil, nil, false
	}
	b := call.X.Resolve()
	if b == nil || b.Path != nil {
		return nil, nil, false
	}
	var fn *ast.JSNode
	switch {
	case b.Kind == ast.BindFunction && b.Decl != nil && b.Decl.Kind == ast.JSFunction:
		fn = b.Decl
	case b.Kind == ast.BindConst && b.Init != nil && (b.Init.Kind == ast.JSArrow || b.Init.Kind == ast.JSFunction):
		fn = b.Init
	default:
		return nil, nil, false
	}
	switch {
	case fn.Kind == ast.JSArrow && fn.Has(ast.FlagExprBody):
		body = fn.Y
	case fn.Y != nil && fn.Y.Kind == ast.JSBlock && len(fn.Y.List) == 1 && fn.Y.List[0].Kind == ast.JSReturn:
		body = fn.Y.List[0].X
	}
	if body == nil || body.Kind != ast.JSCall && body.Kind != ast.JSNew || fn.Has(ast.FlagAsync) || fn.Has(ast.FlagGenerator) {
		// Only a function that builds a path (resolve, join, ...): one
		// that hands back its argument (`(s) => s`) makes no path of it.
		return nil, nil, false
	}
	inner = args{}
	for k, v := range env {
		inner[k] = v
	}
	for i, p := range fn.List {
		if p == nil || p.Kind != ast.JSIdent {
			return nil, nil, false // a pattern, a default or a rest: not followed
		}
		pb := p.DeclBinding()
		if pb == nil {
			return nil, nil, false
		}
		if i < len(call.List) {
			if call.List[i].Kind == ast.JSSpread {
				return nil, nil, false
			}
			inner[pb] = call.List[i]
		}
	}
	return body, inner, true
}
