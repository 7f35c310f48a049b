package code

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// RuntimeRead is a read of a runtime config key in app code.
type RuntimeRead struct {
	File         *File
	Span         ast.Span
	Line, Column int
	Text         string // the expression (or the declared name) that reads it
}

// RuntimeReads returns the reads of the runtime config key at path
// (["public", "stripeSecretKey"]) in the app code that runs in the browser
// (the app's files but *.server.* ones, and shared/): a member chain from
// useRuntimeConfig() (`useRuntimeConfig().public.x`, `config.public.x`
// with const config = useRuntimeConfig(), `$config.public.x` in a
// template), and a destructuring that binds it (`const { x } =
// useRuntimeConfig().public`, `const { public: { x } } = ...`). Only files
// whose text names the key's last part are read, again when their trees
// were let go: this runs after the walk, for a few keys.
func RuntimeReads(ci *Index, key []string) []RuntimeRead {
	if len(key) == 0 {
		return nil
	}
	last := []byte(key[len(key)-1])
	var out []RuntimeRead
	files := append(append([]*File(nil), ci.Files...), ci.Rest...)
	slices.SortStableFunc(files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range files {
		if f.Config || f.Src == nil || f.Err != nil || !bytes.Contains(f.Text, last) {
			continue
		}
		if r := f.Src.Role; r != project.RoleApp && r != project.RoleShared {
			continue
		}
		if strings.Contains(path.Base(f.Rel), ".server.") {
			continue // runs on the server only
		}
		c := ci.CodeOf(f.Src)
		if c == nil {
			continue
		}
		g := &File{Src: f.Src, Path: f.Path, Display: f.Display, Rel: f.Rel, Text: f.Text, Code: c}
		Walk(g, func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			switch n.Kind {
			case ast.JSMember:
				if p, ok := rcPath(n, tx, 0); ok && slices.Equal(p, key) {
					out = append(out, runtimeRead(f, c, n))
					return false
				}
			case ast.JSIdent:
				b := n.DeclBinding()
				if b == nil || b.Init == nil || len(b.Path) == 0 {
					return true
				}
				if p, ok := rcPath(b.Init, tx, 0); ok && slices.Equal(append(p, b.Path...), key) {
					out = append(out, runtimeRead(f, c, n))
				}
			}
			return true
		})
	}
	return out
}

// rcPath returns the path inside the runtime config that an expression
// reads ([] for the config itself), ok false when it is not a read of it.
func rcPath(n *ast.JSNode, tx *ast.TemplateExpr, depth int) ([]string, bool) {
	n = ast.Unawait(n)
	if n == nil || depth > 8 {
		return nil, false
	}
	switch n.Kind {
	case ast.JSCall:
		if ImportedAs(n.X, "useRuntimeConfig") {
			return []string{}, true
		}
	case ast.JSIdent:
		b := n.Resolve()
		if b == nil {
			if n.Name == "$config" && tx != nil {
				return []string{}, true
			}
			return nil, false
		}
		if b.Kind != ast.BindConst && b.Kind != ast.BindLet && b.Kind != ast.BindVar || b.Init == nil {
			return nil, false
		}
		for _, s := range b.Path {
			if s == "[]" || strings.HasPrefix(s, "...") || s == "..." {
				return nil, false
			}
		}
		p, ok := rcPath(b.Init, nil, depth+1)
		if !ok {
			return nil, false
		}
		return append(p, b.Path...), true
	case ast.JSMember:
		name := n.Name
		if n.Has(ast.FlagComputed) {
			s, ok := StringValue(n.Y)
			if !ok {
				return nil, false
			}
			name = s
		}
		if name == "$config" {
			return []string{}, true // useFwApp().$config, this.$config
		}
		p, ok := rcPath(n.X, tx, depth+1)
		if !ok {
			return nil, false
		}
		return append(p, name), true
	}
	return nil, false
}

func runtimeRead(f *File, c *ast.Code, n *ast.JSNode) RuntimeRead {
	pos := c.Position(n.Loc.Start)
	return RuntimeRead{File: f, Span: n.Loc, Line: pos.Line, Column: pos.Column, Text: c.Text(n.Loc)}
}
