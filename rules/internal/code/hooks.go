package code

import (
	"bytes"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// The listeners that module code registers for the framework's build hooks
// (FW605 builder:watch, FW606 pages:extend): fw.hook(name, fn) where fw is
// the framework instance of a module (setup's second parameter in
// defineFwModule, the second parameter of a module function, useFw()),
// hooks: { name: fn } in defineFwModule, and hooks: { name: fn } in the
// config itself.

// HookListener is one function registered for a hook.
type HookListener struct {
	File *File
	Fn   *ast.JSNode // the JSFunction or JSArrow
	// Name is the string literal that names the hook (fw.hook's first
	// argument, or the key of a hooks object), quotes included.
	Name ast.Span
	// Fw is the name of the framework instance in scope in the listener,
	// "" when none is (config hooks, hooks objects, a listener declared
	// apart from the fw.hook call).
	Fw string
	// Config reports a listener of the config's own hooks.
	Config bool
}

// HookVisitor returns the visitor that appends the listeners of hook in f
// to *out in this order: those fw.hook registers, in source order, then
// those of hooks objects; nil when f's text does not name the hook. It
// visits the scripts only.
//
// A module function (whose second parameter is fw) is found at the node
// that makes it one (defineFwModule's call, the export default), before
// any node inside it, so one walk finds the fw.hook calls that use it.
func HookVisitor(f *File, hook string, out *[]*HookListener) *Visitor {
	if f.Code == nil || !bytes.Contains(f.Text, []byte(hook)) {
		return nil
	}
	// The module functions of the file (their second parameter is fw) and
	// its hooks objects.
	modules := map[*ast.JSNode]bool{}
	type hooksObject struct {
		obj    *ast.JSNode
		config bool
	}
	var objects []hooksObject
	if f.Config {
		if cfg := configObject(f); cfg != nil {
			if p := ObjProp(cfg, "hooks"); p != nil && p.Y != nil && p.Y.Kind == ast.JSObject {
				objects = append(objects, hooksObject{p.Y, true})
			}
			if p := ObjProp(cfg, "modules"); p != nil && p.Y != nil && p.Y.Kind == ast.JSArray {
				for _, el := range p.Y.List {
					if el != nil && (el.Kind == ast.JSArrow || el.Kind == ast.JSFunction) {
						modules[el] = true
					}
				}
			}
		}
	}
	var calls []*HookListener
	visit := func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
		switch {
		case n.Kind == ast.JSCall && ImportedAs(n.X, "defineFwModule") && len(n.List) > 0 && n.List[0].Kind == ast.JSObject:
			def := n.List[0]
			if p := ObjProp(def, "setup"); p != nil && p.Y != nil && (p.Y.Kind == ast.JSArrow || p.Y.Kind == ast.JSFunction) {
				modules[p.Y] = true
			}
			if p := ObjProp(def, "hooks"); p != nil && p.Y != nil && p.Y.Kind == ast.JSObject {
				objects = append(objects, hooksObject{p.Y, false})
			}
		case n.Kind == ast.JSExport && n.Has(ast.FlagDefault) && f.Src != nil && f.Src.Role == project.RoleModule:
			if n.X != nil && (n.X.Kind == ast.JSArrow || n.X.Kind == ast.JSFunction) {
				modules[n.X] = true
			}
		}
		// fw.hook(hook, fn) and fw.hooks.hook(hook, fn).
		if n.Kind != ast.JSCall || len(n.List) < 2 || n.X.Kind != ast.JSMember || n.X.Has(ast.FlagComputed) || n.X.Name != "hook" {
			return true
		}
		if name, ok := StringValue(n.List[0]); !ok || name != hook {
			return true
		}
		recv := n.X.X
		if recv.Kind == ast.JSMember && !recv.Has(ast.FlagComputed) && recv.Name == "hooks" {
			recv = recv.X
		}
		if recv.Kind != ast.JSIdent {
			return true
		}
		if b := recv.Resolve(); !fwBinding(b, modules) && !(b == nil && f.Src != nil && f.Src.Role == project.RoleModule) {
			// A free receiver in a module file is a snippet's `fw`
			// (code pasted from the upgrade guide): the hook's name is
			// the framework's alone.
			return true
		}
		fn := LocalFunction(n.List[1])
		if fn == nil {
			return true
		}
		l := &HookListener{File: f, Fn: fn, Name: n.List[0].Loc}
		if fn == n.List[1] && !declares(fn, recv.Name) {
			l.Fw = recv.Name
		}
		calls = append(calls, l)
		return true
	}
	return &Visitor{Visit: visit, ScriptsOnly: true, Done: func() {
		*out = append(*out, calls...)
		// hooks: { [hook]: fn }.
		for _, o := range objects {
			p := ObjProp(o.obj, hook)
			if p == nil || p.Y == nil {
				continue
			}
			if fn := LocalFunction(p.Y); fn != nil {
				*out = append(*out, &HookListener{File: f, Fn: fn, Name: p.NameLoc, Config: o.config})
			}
		}
	}}
}

// fwBinding reports whether a binding holds the framework instance of a
// module: the second parameter of a module function, or useFw().
func fwBinding(b *ast.Binding, modules map[*ast.JSNode]bool) bool {
	switch {
	case b == nil:
		return false
	case b.Kind == ast.BindParam:
		return modules[b.Decl] && paramIndex(b) == 1
	case b.Kind == ast.BindConst || b.Kind == ast.BindLet || b.Kind == ast.BindVar:
		init := ast.Unawait(b.Init)
		return b.Path == nil && !Reassigned(b) && init != nil && init.Kind == ast.JSCall && len(init.List) == 0 && ImportedAs(init.X, "useFw")
	}
	return false
}

// declares reports whether a function declares name as a parameter (then
// an outer name is not seen inside it).
func declares(fn *ast.JSNode, name string) bool {
	found := false
	for _, p := range fn.List {
		ast.WalkJS(p, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if b := n.DeclBinding(); b != nil && b.Name == name {
				found = true
			}
			return !found
		})
	}
	return found
}

// StringValue returns the value of a string literal or of a template
// literal without substitutions.
func StringValue(n *ast.JSNode) (string, bool) {
	switch {
	case n == nil:
	case n.Kind == ast.JSString:
		return n.Name, true
	case n.Kind == ast.JSTemplate && n.X == nil && len(n.List) == 0:
		return n.Name, true
	}
	return "", false
}

// configObject returns the object literal the config file exports
// (export default defineFwConfig({...}), export default {...}, a const
// holding either, module.exports = ...), nil when it has none.
func configObject(f *File) *ast.JSNode {
	if f.Code == nil {
		return nil
	}
	unwrap := func(x *ast.JSNode) *ast.JSNode {
		if x != nil && x.Kind == ast.JSIdent {
			if b := x.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil {
				x = b.Init
			}
		}
		if x != nil && x.Kind == ast.JSCall && ImportedAs(x.X, "defineFwConfig") && len(x.List) > 0 {
			x = x.List[0]
		}
		if x != nil && x.Kind == ast.JSObject {
			return x
		}
		return nil
	}
	for _, s := range f.Code.Scripts {
		for _, st := range s.Program.List {
			switch {
			case st.Kind == ast.JSExport && st.Has(ast.FlagDefault):
				return unwrap(st.X)
			case st.Kind == ast.JSExprStmt && st.X.Kind == ast.JSAssign && ast.MemberPath(st.X.X) == "module.exports":
				return unwrap(st.X.Y)
			}
		}
	}
	return nil
}
