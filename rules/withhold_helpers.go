package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// withholdFixes takes the config fix off the diagnostics whose fix would
// edit what a statement after the config's declaration sets or may change
// (`config.dir = {...}`, `if (x) config.ssr = false`): fixes edit the
// object literal, and such a key is not (only) there. The note says why,
// so that check shows no fix that apply would then refuse.
func withholdFixes(p *project.Project, diags []*Diagnostic) {
	f := p.File
	if f == nil || f.Literal == nil || len(f.Writes) == 0 {
		return
	}
	for _, d := range diags {
		if d.Fix == nil || d.Fix.File != "" || d.File != p.ConfigDisplay {
			continue
		}
		if why := fixBlocked(f, d.Fix.Ops); why != "" {
			d.Notes = append(d.Notes, "no automatic fix: "+why)
			d.Fix, d.Withheld = nil, why
		}
	}
}

// fixBlocked says why ops cannot be made on the literal, "" when they can.
func fixBlocked(f *ast.File, ops []rewrite.Op) string {
	for _, op := range ops {
		if op.Kind == rewrite.OpReplace {
			for _, w := range f.Writes {
				if op.Span.Start >= w.Stmt.Start && op.Span.End <= w.Stmt.End {
					return fmt.Sprintf("the text to change is in the statement at line %d, outside the object literal: edit it by hand", f.Position(w.Stmt.Start).Line)
				}
			}
			continue
		}
		for _, path := range []ast.Path{op.Path, op.To} {
			if len(path) == 0 {
				continue
			}
			w, ok := f.WriteTo(path[0])
			if !ok {
				continue
			}
			line := f.Position(w.Stmt.Start).Line
			if w.Read {
				return fmt.Sprintf("`%s` is set by the assignment at line %d, outside the object literal that fixes edit: make the change by hand", w.Path, line)
			}
			return fmt.Sprintf("the statement at line %d may change `%s` after the config is declared: make the change by hand", line, path[0])
		}
	}
	return ""
}

// release makes the held fixes (Diagnostic.Held) of the rules named in
// codes the diagnostics' fixes: the user asked for them although code reads
// what they change. The note that said why the fix was withheld says
// instead that it is made, and why it still breaks that code.
func release(diags []*Diagnostic, codes []string) {
	if len(codes) == 0 {
		return
	}
	for _, d := range diags {
		if d.Held == nil || !slices.Contains(codes, d.Code) {
			continue
		}
		made := "fix made as --unsafe=" + d.Code + " asks, although " + d.Withheld
		for i, n := range d.Notes {
			if strings.HasPrefix(n, "no automatic fix: ") {
				d.Notes[i] = made
			}
		}
		d.Fix, d.Held, d.Withheld = d.Held, nil, ""
	}
}
