package code_test

import (
	"fmt"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// seen is what a visitor saw of one node: the node, its depth, its parent
// and its template expression.
type seen struct {
	n, parent *ast.JSNode
	depth     int
	tx        *ast.TemplateExpr
}

// pruner returns a visit function that records what it sees and skips
// the subtrees of the nodes whose position is a multiple of k (none for
// k == 0), and the nodes it recorded.
func pruner(k int) (func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool, *[]seen) {
	var out []seen
	return func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
		var parent *ast.JSNode
		if len(up) > 0 {
			parent = up[len(up)-1]
		}
		out = append(out, seen{n, parent, len(up), tx})
		return k == 0 || (n.Loc.Start+int(n.Kind))%k != 0
	}, &out
}

// TestWalkFile: each visitor of one WalkFile sees exactly what it sees
// walking the file alone (Walk, or ast.WalkJS over the scripts for
// ScriptsOnly), whatever the others skip, and Done runs once, after the
// walk, in order.
func TestWalkFile(t *testing.T) {
	files := appgen.Dense(12)
	for name, src := range appgen.Files(24) {
		files[name] = src
	}
	checked := 0
	for name, src := range files {
		c, err := ast.ReadCode(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := &code.File{Path: name, Text: src, Code: c}
		ks := []int{0, 3, 5, 7, 11, 2}
		var vs []*code.Visitor
		var got []*[]seen
		var done []int
		for i, k := range ks {
			visit, out := pruner(k)
			i := i
			vs = append(vs, &code.Visitor{Visit: visit, ScriptsOnly: i%2 == 1, Done: func() {
				if len(done) != i {
					t.Errorf("Done of visitor %d called after %d others", i, len(done))
				}
				done = append(done, i)
			}})
			got = append(got, out)
		}
		code.WalkFile(f, vs, nil)
		if len(done) != len(vs) {
			t.Fatalf("%d of %d Done called", len(done), len(vs))
		}
		for i, k := range ks {
			visit, want := pruner(k)
			if vs[i].ScriptsOnly {
				for _, s := range c.Scripts {
					ast.WalkJS(s.Program, func(n *ast.JSNode, up []*ast.JSNode) bool { return visit(n, up, nil) })
				}
			} else {
				code.Walk(f, visit)
			}
			if fmt.Sprint(*got[i]) != fmt.Sprint(*want) {
				t.Fatalf("%s: visitor %d (skips at %d) saw %d nodes in the shared walk, %d alone", name, i, k, len(*got[i]), len(*want))
			}
			checked += len(*want)
		}
	}
	if checked < 10000 {
		t.Errorf("only %d visits checked", checked)
	}
}
