package code

import (
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
)

// The names code writes where a component is matched by name (KeepAlive's
// include and exclude, <FwPage :keepalive>, a test's findComponent({ name
// })), and the two names a component file has (FW607, FW619).

// NameLit is one component name written in the code: a string literal, or
// one comma-separated part of one (Vue splits include="A,B" at commas and
// does not trim the parts).
type NameLit struct {
	Name string
	Span ast.Span // the name's text, quotes excluded
	Tx   *ast.TemplateExpr
	// Where says where the name stands, for messages: "the include of
	// <KeepAlive>", "findComponent's name".
	Where string
}

// SplitNames returns the comma-separated names of a string whose text
// starts at start and is written as raw (escapes make the raw text differ
// from the value: such a string is skipped).
func SplitNames(value, raw string, start int, where string, tx *ast.TemplateExpr) []NameLit {
	if value != raw {
		return nil
	}
	var out []NameLit
	off := 0
	for _, part := range strings.Split(value, ",") {
		if part != "" {
			out = append(out, NameLit{Name: part, Span: ast.Span{Start: start + off, End: start + off + len(part)}, Tx: tx, Where: where})
		}
		off += len(part) + 1
	}
	return out
}

// KeepAliveNames returns the names of f's template that a KeepAlive
// matches components by: include and exclude of <KeepAlive> (static or
// bound), and, when page is true, of <FwPage :keepalive="{ include }">
// (whose KeepAlive holds the route's page) instead.
func KeepAliveNames(f *File, page bool) []NameLit {
	if f.Code == nil || f.Code.Template == nil {
		return nil
	}
	var out []NameLit
	var visit func(e *ast.Element)
	visit = func(e *ast.Element) {
		for _, c := range e.Children {
			visit(c)
		}
		switch {
		case page && (e.Tag == "FwPage" || e.Tag == "fw-page"):
			for _, a := range e.Attrs {
				if a.Directive != "bind" || a.Arg != "keepalive" || a.Expr == nil {
					continue
				}
				opts := a.Expr.Node
				if opts != nil && opts.Kind == ast.JSIdent {
					if b := opts.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil {
						opts = b.Init
					}
				}
				for _, key := range []string{"include", "exclude"} {
					if p := ObjProp(opts, key); p != nil {
						where := "the " + key + " of <" + e.Tag + " :keepalive>"
						tx := a.Expr
						if opts != a.Expr.Node {
							tx = nil
						}
						out = append(out, namesIn(f, p.Y, where, tx, 0)...)
					}
				}
			}
		case !page && (e.Tag == "KeepAlive" || e.Tag == "keep-alive"):
			for _, a := range e.Attrs {
				key := a.Name
				if a.Directive == "bind" {
					key = a.Arg
				} else if a.Directive != "" {
					continue
				}
				if key != "include" && key != "exclude" {
					continue
				}
				where := "the " + key + " of <" + e.Tag + ">"
				if a.Directive == "" {
					out = append(out, SplitNames(a.Value, a.Value, a.ValueLoc.Start, where, nil)...)
				} else if a.Expr != nil {
					out = append(out, namesIn(f, a.Expr.Node, where, a.Expr, 0)...)
				}
			}
		}
	}
	visit(f.Code.Template.Root)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// NamedFile is a component or page file with its two names: the one the
// component compiler gives it (its base name, which code matched on
// version 3 or compatibility 4) and the one the framework gives it once
// names are normalized ("" when it cannot be computed).
type NamedFile struct {
	Src      *project.Source
	Old, New string
	// declared is checked on demand: a component that declares its own
	// name (defineOptions, export default { name }) keeps it.
	declaredOnce bool
	declared     bool
}

// declaresName reports whether the file declares its component's name,
// which the framework then leaves alone. A file that cannot be read counts
// as not declaring one.
func (n *NamedFile) declaresName(ci *Index) bool {
	if n.declaredOnce {
		return n.declared
	}
	n.declaredOnce = true
	code := ci.CodeOf(n.Src)
	if code == nil {
		return false
	}
	for _, s := range code.Scripts {
		ast.WalkJS(s.Program, func(x *ast.JSNode, _ []*ast.JSNode) bool {
			switch {
			case n.declared:
			case x.Kind == ast.JSCall && ImportedAs(x.X, "defineOptions") && len(x.List) > 0 && ObjProp(x.List[0], "name") != nil:
				n.declared = true
			case x.Kind == ast.JSExport && x.Has(ast.FlagDefault) && x.X != nil:
				obj := x.X
				if obj.Kind == ast.JSCall && len(obj.List) > 0 {
					obj = obj.List[0]
				}
				n.declared = ObjProp(obj, "name") != nil
			}
			return !n.declared
		})
	}
	return n.declared
}

// CodeOf returns the code of a source: as the index read it, or read now
// (nil when it cannot be read fully). A file whose trees were released is
// read again.
func (ci *Index) CodeOf(src *project.Source) *ast.Code {
	if ci.bySrc == nil {
		// By source, once: the rules ask for many files.
		ci.bySrc = make(map[*project.Source]*File, len(ci.Files))
		for _, f := range ci.Files {
			if f.Src != nil {
				ci.bySrc[f.Src] = f
			}
		}
	}
	if f := ci.bySrc[src]; f != nil {
		if f.Err != nil {
			return nil
		}
		if f.Released {
			code, err := ast.ReadCode(f.Path, f.Text)
			if err != nil {
				return nil
			}
			return code
		}
		return f.Code
	}
	text, err := src.Read()
	if err != nil {
		return nil
	}
	code, err := ast.ReadCode(src.Path, text)
	if err != nil {
		return nil
	}
	return code
}

// RenamedBy returns, of the files an old name names, those whose name
// changes (and declare none of their own), and those whose name stays.
func RenamedBy(ci *Index, files []*NamedFile) (changed, same []*NamedFile) {
	for _, n := range files {
		switch {
		case n.declaresName(ci):
		case n.New != n.Old:
			changed = append(changed, n)
		default:
			same = append(same, n)
		}
	}
	return changed, same
}

// RelUnder returns p relative to dir (slash-separated) when p is inside
// it.
func RelUnder(dir, p string) (string, bool) {
	if dir == "" {
		return "", false
	}
	return pathx.Under(dir, p)
}

// LayerDetection returns the layout a source's project or layer resolves.
func LayerDetection(p *project.Project, src *project.Source) *compat.Detection {
	if src.Layer != nil {
		return src.Layer.Detection
	}
	return p.Detection
}

// namesIn returns the names an include or exclude value holds: a string
// ('A,B'), an array of strings, or a const bound in the same file to one of
// those or to ref/shallowRef/reactive of one. A regular expression, and
// anything computed, is not read.
func namesIn(f *File, n *ast.JSNode, where string, tx *ast.TemplateExpr, depth int) []NameLit {
	if n == nil || depth > 2 {
		return nil
	}
	switch n.Kind {
	case ast.JSString:
		return SplitNames(n.Name, string(f.Text[n.Loc.Start+1:n.Loc.End-1]), n.Loc.Start+1, where, tx)
	case ast.JSTemplate:
		if n.X == nil && len(n.List) == 0 {
			return SplitNames(n.Name, string(f.Text[n.Loc.Start+1:n.Loc.End-1]), n.Loc.Start+1, where, tx)
		}
	case ast.JSArray:
		var out []NameLit
		for _, e := range n.List {
			out = append(out, namesIn(f, e, where, tx, depth)...)
		}
		return out
	case ast.JSIdent:
		b := n.Resolve()
		if b == nil || b.Kind != ast.BindConst || b.Path != nil || b.Init == nil {
			return nil
		}
		init := b.Init
		if init.Kind == ast.JSCall && ImportedAs(init.X, "ref", "shallowRef", "reactive") && len(init.List) == 1 {
			init = init.List[0]
		}
		return namesIn(f, init, where, nil, depth+1)
	}
	return nil
}
