package rewrite

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/hashicorp/go-multierror"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Verify proves a rewrite before it is written: after must pass esbuild's
// gate and parse with ast; the bytes outside the config object must be
// unchanged; every applied op must hold (set: the value is at the path;
// delete: the path is gone; move: the value is at To and gone from Path;
// rename: the same value under the new key) unless a later op changed the
// same paths; every option path that no op touched must keep its exact
// source text; and every comment of before must still be there, except
// those of properties the ops deleted or replaced.
func Verify(filename string, before *ast.File, after []byte, applied []Op) error {
	af, err := ast.Parse(filename, after)
	if err != nil {
		return fmt.Errorf("%s: the rewritten text does not parse: %w", filename, err)
	}
	if before.Config == nil {
		if !bytes.Equal(before.Src, after) {
			return fmt.Errorf("%s: the file changed although its config is not an object literal", filename)
		}
		return nil
	}
	if af.Config == nil {
		return fmt.Errorf("%s: the rewritten file no longer exports an object literal (%s)", filename, af.Reason)
	}
	v := &verifier{name: filename, b: before, a: af, ops: applied}
	v.outside()
	v.checkOps()
	v.untouched()
	v.comments()
	return v.errs.ErrorOrNil()
}

type verifier struct {
	name string
	b, a *ast.File
	ops  []Op
	errs *multierror.Error
}

func (v *verifier) fail(format string, args ...any) {
	v.errs = multierror.Append(v.errs, fmt.Errorf(v.name+": "+format, args...))
}

func (v *verifier) outside() {
	bc, ac := v.b.Config.Loc, v.a.Config.Loc
	if !bytes.Equal(v.b.Src[:bc.Start], v.a.Src[:ac.Start]) || !bytes.Equal(v.b.Src[bc.End:], v.a.Src[ac.End:]) {
		v.fail("bytes outside the config object changed")
	}
}

// paths returns the option paths op works on (for OpReplace, the property
// whose text holds the span).
func (v *verifier) paths(op Op) []ast.Path {
	switch op.Kind {
	case OpMove, OpRename:
		return []ast.Path{op.Path, op.To}
	case OpReplace:
		if p := v.replaced(op.Span); p != nil {
			return []ast.Path{p}
		}
		return nil
	}
	return []ast.Path{op.Path}
}

// replaced is the path of the deepest property of before whose text holds
// span, nil when none does.
func (v *verifier) replaced(span ast.Span) ast.Path {
	var best ast.Path
	v.b.Walk(func(path ast.Path, p *ast.Property) bool {
		if p.Loc.Start <= span.Start && span.End <= p.Loc.End {
			if len(path) >= len(best) {
				best = append(ast.Path(nil), path...)
			}
			return true
		}
		return false
	})
	return best
}

func related(a, b ast.Path) bool { return hasPrefix(a, b) || hasPrefix(b, a) }

// overlaps reports that one of ops works on a path related to one of op's.
func (v *verifier) overlaps(ops []Op, op Op) bool {
	mine := v.paths(op)
	for _, o := range ops {
		for _, p := range v.paths(o) {
			for _, q := range mine {
				if related(p, q) {
					return true
				}
			}
		}
	}
	return false
}

func (v *verifier) checkOps() {
	for i, op := range v.ops {
		if op.Kind == OpReplace || v.overlaps(v.ops[i+1:], op) {
			continue
		}
		earlier := v.overlaps(v.ops[:i], op)
		switch op.Kind {
		case OpSet:
			p := Lookup(v.a, op.Path)
			if p == nil || p.Value == nil {
				v.fail("%s was set but is missing", op.Path)
				continue
			}
			got, bad := ast.Static(p.Value)
			if bad != nil || !equalValues(got, op.Value) {
				v.fail("%s holds %s, not the value set", op.Path, v.a.Text(p.Value.Span()))
			}
		case OpDelete:
			if Lookup(v.a, op.Path) != nil {
				v.fail("%s was deleted but is still there", op.Path)
			}
		case OpMove, OpRename:
			if len(op.Path) == len(op.To) && hasPrefix(op.Path, op.To) {
				continue
			}
			if Lookup(v.a, op.Path) != nil {
				v.fail("%s was moved to %s but is still there", op.Path, op.To)
			}
			q := Lookup(v.a, op.To)
			if q == nil {
				v.fail("%s was moved but %s is missing", op.Path, op.To)
				continue
			}
			if earlier {
				continue
			}
			p := Lookup(v.b, op.Path)
			if p == nil {
				continue // nothing to move: To was already there
			}
			if !v.contains(p.Value, q.Value) {
				v.fail("%s does not hold the value moved from %s", op.To, op.Path)
			}
		}
	}
}

// Lookup returns the effective (last) property at path, seen through
// wrappers, or nil.
func Lookup(f *ast.File, path ast.Path) *ast.Property {
	if f.Config == nil || len(path) == 0 {
		return nil
	}
	obj := f.Config
	for i, seg := range path {
		var found *ast.Property
		for _, p := range obj.Props {
			if isNamed(p) && p.Key == seg {
				found = p
			}
		}
		if found == nil || i == len(path)-1 {
			return found
		}
		if found.Value == nil {
			return nil
		}
		o, ok := ast.Unwrap(found.Value).(*ast.Object)
		if !ok {
			return nil
		}
		obj = o
	}
	return nil
}

// contains reports that value t (in after) holds everything of value s
// (in before): the same literal or code, every property of an object, the
// elements of an array at its end.
func (v *verifier) contains(s, t ast.Node) bool {
	if s == nil || t == nil {
		return s == nil && t == nil
	}
	so, sok := ast.Unwrap(s).(*ast.Object)
	to, tok := ast.Unwrap(t).(*ast.Object)
	if sok && tok {
		for _, p := range so.Props {
			var q *ast.Property
			for _, r := range to.Props {
				switch {
				case !isNamed(p):
					if !isNamed(r) && v.sameCode(p.Loc, r.Loc, true) {
						q = r
					}
				case isNamed(r) && r.Key == p.Key:
					q = r
				}
			}
			if q == nil {
				return false
			}
			if !isNamed(p) {
				continue
			}
			if p.Value == nil || q.Value == nil {
				if !v.sameCode(p.Loc, q.Loc, true) {
					return false
				}
			} else if !v.contains(p.Value, q.Value) {
				return false
			}
		}
		return true
	}
	sa, sok := ast.Unwrap(s).(*ast.Array)
	ta, tok := ast.Unwrap(t).(*ast.Array)
	if sok && tok {
		off := len(ta.Elements) - len(sa.Elements)
		if off < 0 {
			return false
		}
		for i, el := range sa.Elements {
			if !v.contains(el, ta.Elements[off+i]) {
				return false
			}
		}
		return true
	}
	a, bad1 := ast.Static(s)
	b, bad2 := ast.Static(t)
	if bad1 == nil && bad2 == nil {
		return reflect.DeepEqual(a, b)
	}
	return v.sameCode(s.Span(), t.Span(), false)
}

// sameCode reports that the code at s in before and at t in after is the
// same program: equal once esbuild has removed the whitespace and comments
// around tokens (the contents of strings and templates stay exact). prop
// says the spans are whole properties rather than values.
func (v *verifier) sameCode(s, t ast.Span, prop bool) bool {
	a, b := v.b.Text(s), v.a.Text(t)
	if a == b {
		return true
	}
	// Without a template literal or a line continuation, no line break is
	// inside a literal, so texts equal but for indentation are equal code.
	if NormText(a) == NormText(b) && !strings.ContainsAny(a, "`\\") {
		return true
	}
	open, close := "(", "\n)"
	if prop {
		open, close = "({", "\n})"
	}
	loader := api.LoaderJS
	switch strings.ToLower(filepath.Ext(v.name)) {
	case ".ts", ".mts", ".cts":
		loader = api.LoaderTS
	}
	opts := api.TransformOptions{Loader: loader, MinifyWhitespace: true, LegalComments: api.LegalCommentsNone}
	ra := api.Transform(open+a+close, opts)
	rb := api.Transform(open+b+close, opts)
	return len(ra.Errors) == 0 && len(rb.Errors) == 0 && bytes.Equal(ra.Code, rb.Code)
}

// NormText drops the indentation of every line: what a move may change.
func NormText(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimLeft(l, " \t"), "\r")
	}
	return strings.Join(lines, "\n")
}

type leaf struct {
	path ast.Path
	text string
}

// leaves maps every option path of f to its value's text; an object value
// is represented by its wrappers only, since its properties are leaves of
// their own. Spreads and computed keys are keyed by their text.
func leaves(f *ast.File) map[string]leaf {
	out := map[string]leaf{}
	f.Walk(func(path ast.Path, p *ast.Property) bool {
		path = append(ast.Path(nil), path...)
		key := path.String()
		if !isNamed(p) {
			parent := path
			if len(parent) > 0 {
				parent = parent[:len(parent)-1]
			}
			key = parent.String() + " \x00" + f.Text(p.Loc)
			out[key] = leaf{parent, ""}
			return false
		}
		text := f.Text(p.Loc)
		if p.Value != nil {
			if o, ok := ast.Unwrap(p.Value).(*ast.Object); ok {
				vs := p.Value.Span()
				text = f.Text(ast.Span{Start: vs.Start, End: o.Loc.Start}) + "{}" + f.Text(ast.Span{Start: o.Loc.End, End: vs.End})
			} else {
				text = f.Text(p.Value.Span())
			}
		}
		out[key] = leaf{path, text}
		return true
	})
	return out
}

func (v *verifier) touched(p ast.Path) bool {
	for _, op := range v.ops {
		for _, q := range v.paths(op) {
			if related(p, q) {
				return true
			}
		}
	}
	return false
}

func (v *verifier) untouched() {
	bl, al := leaves(v.b), leaves(v.a)
	for k, b := range bl {
		if v.touched(b.path) {
			continue
		}
		a, ok := al[k]
		switch {
		case !ok:
			v.fail("%s disappeared although no change was meant for it", b.path)
		case a.text != b.text:
			v.fail("%s changed from %q to %q although no change was meant for it", b.path, b.text, a.text)
		}
	}
	for k, a := range al {
		if _, ok := bl[k]; !ok && !v.touched(a.path) {
			v.fail("%s appeared although no change was meant for it", a.path)
		}
	}
}

// comments checks that every comment of before is in after (as text, its
// indentation aside), except those inside what the ops deleted or replaced,
// and that no comment appeared.
func (v *verifier) comments() {
	var gone, kept []ast.Span
	replaced := false
	for i, op := range v.ops {
		switch op.Kind {
		case OpReplace:
			gone = append(gone, op.Span)
			replaced = true
		case OpSet:
			if p := Lookup(v.b, op.Path); p != nil && p.Value != nil {
				gone = append(gone, p.Value.Span())
			}
		case OpDelete:
			if p := Lookup(v.b, op.Path); p != nil {
				gone = append(gone, p.Extent(v.b))
			}
			gone = append(gone, v.emptiedParents(op.Path)...)
		case OpMove:
			if len(op.Path) == len(op.To) && hasPrefix(op.Path, op.To) {
				continue // a move onto itself does nothing
			}
			gone = append(gone, v.emptiedParents(op.Path)...)
			// The moved property keeps its comments, when what moved is
			// what the original held and no later op replaced it.
			if p := Lookup(v.b, op.Path); p != nil {
				switch {
				case v.overlaps(v.ops[i+1:], op):
					gone = append(gone, p.Extent(v.b))
				case !v.overlaps(v.ops[:i], op):
					kept = append(kept, p.Extent(v.b))
				}
			}
		}
	}
	inside := func(c *ast.Comment, spans []ast.Span) bool {
		for _, s := range spans {
			if s.Start <= c.Loc.Start && c.Loc.End <= s.End {
				return true
			}
		}
		return false
	}
	have := map[string]int{}
	for _, c := range v.a.Comments {
		have[NormText(c.Text)]++
	}
	for _, c := range v.b.Comments {
		t := NormText(c.Text)
		if have[t] > 0 {
			have[t]--
			continue
		}
		if inside(c, gone) && !inside(c, kept) {
			continue
		}
		v.fail("the comment %q at line %d was lost", c.Text, v.b.Position(c.Loc.Start).Line)
	}
	if replaced {
		return
	}
	for t, n := range have {
		if n > 0 {
			v.fail("the comment %q appeared", t)
		}
	}
}

// emptiedParents returns the extents (in before) of the parents of path
// that removing it may have removed: those gone from after, and those that
// held nothing else (a later op may have created them anew).
func (v *verifier) emptiedParents(path ast.Path) []ast.Span {
	var out []ast.Span
	for k := len(path) - 1; k > 0; k-- {
		p := Lookup(v.b, path[:k])
		if p == nil {
			break
		}
		o, _ := ast.Unwrap(p.Value).(*ast.Object)
		if Lookup(v.a, path[:k]) != nil && (o == nil || len(o.Props) != 1) {
			break
		}
		out = append(out, p.Extent(v.b))
	}
	return out
}
