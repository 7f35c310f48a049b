package ast_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// treeText renders a tree as its nodes' kinds, spans, names and flags, in
// walk order.
func treeText(root *ast.JSNode) string {
	var b strings.Builder
	ast.WalkJS(root, func(n *ast.JSNode, anc []*ast.JSNode) bool {
		fmt.Fprintf(&b, "%d %v %v %q %q %d\n", len(anc), n.Kind, n.Loc, n.Name, n.Op, n.Flags)
		return true
	})
	return b.String()
}

// TestConfigCode: a config is parsed once, by the one grammar: File.Code
// is the tree ReadCode reads for the file, names resolved the same, and
// the config's nodes are views of that tree's nodes.
func TestConfigCode(t *testing.T) {
	for _, c := range corpusConfigs(t) {
		f, err := ast.Parse(c.name, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		code := f.Code()
		rc, err := ast.ReadCode(c.name, c.src)
		if err != nil {
			t.Fatalf("%s: ReadCode: %v", c.id, err)
		}
		prog := code.Scripts[0].Program
		if got, want := treeText(prog), treeText(rc.Scripts[0].Program); got != want {
			t.Errorf("%s: File.Code's tree differs from ReadCode's", c.id)
		}
		if len(code.Refs) != len(rc.Refs) || len(code.Module.Bindings) != len(rc.Module.Bindings) {
			t.Errorf("%s: %d refs, %d bindings; ReadCode: %d, %d", c.id, len(code.Refs), len(code.Module.Bindings), len(rc.Refs), len(rc.Module.Bindings))
		}
		if f.Literal == nil {
			continue
		}
		found := false
		ast.WalkJS(prog, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			found = found || n.Kind == ast.JSObject && n.Loc == f.Literal.Loc
			return !found
		})
		if !found {
			t.Errorf("%s: the config literal %v is no object of the tree", c.id, f.Literal.Loc)
		}
	}
}

func TestConfigCodeBindings(t *testing.T) {
	src := "// hooks\nimport { defineFwConfig } from 'fw/config'\nconst config = defineFwConfig({ a: 1 })\nconfig.b = 2\nexport default config\n"
	f, err := ast.Parse("fw.config.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.Config == nil || len(f.Config.Props) != 2 || len(f.Comments) != 1 {
		t.Fatalf("config %v, comments %d", f.Config, len(f.Comments))
	}
	b := f.Code().Module.Lookup("config")
	if b == nil || len(b.Refs) != 2 || ast.CalleeName(b.Init) != "defineFwConfig" {
		t.Fatalf("binding %+v", b)
	}
	if f.Code() != f.Code() {
		t.Errorf("Code is not one tree")
	}
}

// TestConfigStatements: the statements the config view reads are the
// tree's, as esbuild reads them.
func TestConfigStatements(t *testing.T) {
	tests := []struct{ src, reason string }{
		// esbuild reads an interface whose name is on the next line.
		{"export default interface\nX { a: string }", "the default export is an interface"},
		{"export default { a: 1 }", ""},
		{"if (x) module.exports = { a: 1 }", ""},
		{"const c = { a: 1 }\nlabel: c.b = 2\nexport = c", ""},
		{"export default async function config() { return { a: 1 } }", ""},
		{"export default async function config() { if (x) { return { a: 1 } } return {} }", "without a single `return`"},
		// TypeScript overloads: the signature has no body to read.
		{"export default function f(): void;", "a function fwmigrate cannot read"},
		{"export default function f(): void\nexport default function f() { return { a: 1 } }", ""},
	}
	for _, tt := range tests {
		f, err := ast.Parse("fw.config.ts", []byte(tt.src))
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if tt.reason == "" && f.Config == nil || !strings.Contains(f.Reason, tt.reason) {
			t.Errorf("%q: Config %v, Reason %q; want %q", tt.src, f.Config != nil, f.Reason, tt.reason)
		}
	}
}
