package code

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

// A Visitor is one detector's share of a file's walk: WalkFile walks the
// file once and hands every node to each of the visitors of that file, so
// that the detectors of a check cost one walk per file, not one each.
type Visitor struct {
	// Visit (nil for a visitor that needs Done alone: it reads what the
	// visitors before it found) sees the nodes as Walk's fn does: every node of the scripts,
	// then of the template expressions, in source order, with its
	// ancestors (nearest last, within the script or template expression:
	// copy the slice to keep it) and its template expression (nil in a
	// script). Returning false skips the node's subtree for this visitor
	// alone; the others still see it.
	Visit func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool
	// ScriptsOnly leaves the template expressions out (what ast.WalkJS
	// over the file's scripts visits).
	ScriptsOnly bool
	// Done, when set, is called once the walk is over.
	Done func()
}

// WalkFile walks f's scripts and template expressions once, calling the
// Visit of every visitor for each node as if each visitor walked the file
// alone with Walk (or ast.WalkJS over the scripts, for ScriptsOnly), then
// each Done in order. A subtree that no visitor wants is not walked.
//
// When cur is not nil, *cur is the index in vs of the visitor being
// called, so that a caller that recovers a panic knows whose it is.
func WalkFile(f *File, vs []*Visitor, cur *int) {
	if f.Released {
		panic("code: a walk of " + f.Rel + ", whose trees were released")
	}
	var at int
	if cur == nil {
		cur = &at
	}
	if f.Code != nil && len(vs) > 0 {
		// skip[i] >= 0: visitor i returned false at a node of that depth,
		// and sleeps until the walk is back at that depth or above.
		skip := make([]int, len(vs))
		walk := func(root *ast.JSNode, tx *ast.TemplateExpr) {
			for i := range skip {
				skip[i] = -1
			}
			ast.WalkJS(root, func(n *ast.JSNode, up []*ast.JSNode) bool {
				d := len(up)
				awake := false
				for i, v := range vs {
					if s := skip[i]; s >= 0 {
						if d > s {
							continue
						}
						skip[i] = -1
					}
					if tx != nil && v.ScriptsOnly {
						continue
					}
					*cur = i
					if v.Visit == nil {
						continue // a visitor of Done alone
					}
					if v.Visit(n, up, tx) {
						awake = true
					} else {
						skip[i] = d
					}
				}
				return awake
			})
		}
		for _, s := range f.Code.Scripts {
			walk(s.Program, nil)
		}
		if t := f.Code.Template; t != nil {
			scriptsOnly := true
			for _, v := range vs {
				scriptsOnly = scriptsOnly && v.ScriptsOnly
			}
			if !scriptsOnly {
				for _, x := range t.Exprs {
					walk(x.Node, x)
				}
			}
		}
	}
	for i, v := range vs {
		if v.Done != nil {
			*cur = i
			v.Done()
		}
	}
}
