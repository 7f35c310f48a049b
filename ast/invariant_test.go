package ast_test

import (
	"fmt"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fwmigrate/fwmigrate/ast"
)

// This file holds the checks every parsed file must pass: the span
// invariant (checked with esbuild) and the comment invariants. The corpus
// test and FuzzParse both use them.

func loaderFor(name string) api.Loader {
	if isTS(name) {
		return api.LoaderTS
	}
	return api.LoaderJS
}

func esbuildOK(code string, loader api.Loader) error {
	res := api.Transform(code, api.TransformOptions{Loader: loader, LogLevel: api.LogLevelSilent})
	if len(res.Errors) > 0 {
		return fmt.Errorf("%s", res.Errors[0].Text)
	}
	return nil
}

// visit calls fn for every node under n: object property values, array
// elements, the wrapped node of a wrapper, call arguments, unary operands.
func visit(n ast.Node, fnProp func(*ast.Property), fnNode func(ast.Node)) {
	if n == nil {
		return
	}
	fnNode(n)
	switch n := n.(type) {
	case *ast.Object:
		for _, p := range n.Props {
			fnProp(p)
			visit(p.Value, fnProp, fnNode)
		}
	case *ast.Array:
		for _, e := range n.Elements {
			visit(e, fnProp, fnNode)
		}
	case *ast.Unary:
		visit(n.Operand, fnProp, fnNode)
	case *ast.Expr:
		visit(n.Inner, fnProp, fnNode)
		for _, a := range n.Args {
			visit(a, fnProp, fnNode)
		}
	}
}

// skipTrivia returns the offset of the first byte at or after i that is not
// whitespace or part of a comment of f.
func skipTrivia(f *ast.File, i int) int {
	for i < len(f.Src) {
		switch f.Src[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			i++
			continue
		}
		j := sort.Search(len(f.Comments), func(k int) bool { return f.Comments[k].Loc.Start >= i })
		if j == len(f.Comments) || f.Comments[j].Loc.Start != i {
			return i
		}
		i = f.Comments[j].Loc.End
	}
	return i
}

// checkSpans verifies the span invariant on every node reachable from the
// exported value: each property slice is a valid property (`({slice})`),
// each value slice a valid expression (`(slice)`), each property ends right
// before its "," or the object's "}", and each array element right before
// "," or "]".
func checkSpans(f *ast.File) (errs []string) {
	loader := loaderFor(f.Name)
	root := f.ExportValue
	if root == nil {
		return nil
	}
	seen := map[ast.Span]bool{}
	// The slices are checked with one esbuild run, and one by one only when
	// that run fails, to find which.
	type item struct {
		code, what string
		s          ast.Span
	}
	var items []item
	check := func(code string, what string, s ast.Span) {
		items = append(items, item{code, what, s})
	}
	defer func() {
		var all strings.Builder
		for _, it := range items {
			all.WriteString(it.code)
			all.WriteString(";\n")
		}
		if esbuildOK(all.String(), loader) == nil {
			return
		}
		for _, it := range items {
			if err := esbuildOK(it.code, loader); err != nil {
				errs = append(errs, fmt.Sprintf("%s %d:%d %q: %v", it.what, it.s.Start, it.s.End, short(f.Text(it.s)), err))
			}
		}
	}()
	var objs []*ast.Object
	var arrs []*ast.Array
	visit(root, func(p *ast.Property) {
		if p.Loc.Start > p.Loc.End || p.Loc.Start < 0 || p.Loc.End > len(f.Src) {
			errs = append(errs, fmt.Sprintf("property span %v out of range", p.Loc))
			return
		}
		check("({"+f.Text(p.Loc)+"\n})", "property", p.Loc)
		next := skipTrivia(f, p.Loc.End)
		switch {
		case next < len(f.Src) && f.Src[next] == ',':
			if p.Comma != next {
				errs = append(errs, fmt.Sprintf("property %q: Comma %d, want %d", short(f.Text(p.Loc)), p.Comma, next))
			}
		case next < len(f.Src) && f.Src[next] == '}' && next == p.Parent.Loc.End-1:
			if p.Comma != -1 {
				errs = append(errs, fmt.Sprintf("property %q: Comma %d, want -1", short(f.Text(p.Loc)), p.Comma))
			}
		default:
			errs = append(errs, fmt.Sprintf("property %q ends before %q", short(f.Text(p.Loc)), short(f.Text(ast.Span{next, next + 10}))))
		}
		if p.Value != nil && (p.Value.Span().Start < p.Loc.Start || p.Value.Span().End > p.Loc.End) {
			errs = append(errs, fmt.Sprintf("property %q: value outside", short(f.Text(p.Loc))))
		}
	}, func(n ast.Node) {
		s := n.Span()
		if s.Start > s.End || s.Start < 0 || s.End > len(f.Src) {
			errs = append(errs, fmt.Sprintf("node span %v out of range", s))
			return
		}
		if e, ok := n.(*ast.Expr); ok && e.Hint == ast.HintSpread {
			return // `...x` is not an expression on its own
		}
		if seen[s] {
			return
		}
		seen[s] = true
		check("(\n"+f.Text(s)+"\n)", "value", s)
		switch n := n.(type) {
		case *ast.Object:
			objs = append(objs, n)
		case *ast.Array:
			arrs = append(arrs, n)
		}
	})
	for _, a := range arrs {
		for _, e := range a.Elements {
			if e == nil {
				continue
			}
			next := skipTrivia(f, e.Span().End)
			if next >= len(f.Src) || f.Src[next] != ',' && !(f.Src[next] == ']' && next == a.Loc.End-1) {
				errs = append(errs, fmt.Sprintf("element %q ends before %q", short(f.Text(e.Span())), short(f.Text(ast.Span{next, next + 10}))))
			}
		}
	}
	return errs
}

// checkComments verifies that File.Comments lists comments in order,
// without overlap, each with its own text; that blanking them out leaves a
// program esbuild reads the same way (so none was inside a string, a
// template or a regular expression); and that each comment inside an
// object, outside its properties, is attached there exactly once.
func checkComments(f *ast.File) []string {
	var errs []string
	seen := map[*ast.Comment]int{}
	prevEnd := 0
	blanked := []byte(string(f.Src))
	for _, c := range f.Comments {
		if c.Loc.Start < prevEnd || c.Loc.End > len(f.Src) {
			errs = append(errs, fmt.Sprintf("comment %v out of order", c.Loc))
			continue
		}
		prevEnd = c.Loc.End
		if c.Text != f.Text(c.Loc) {
			errs = append(errs, fmt.Sprintf("comment %v text %q", c.Loc, c.Text))
		}
		if c.Block != strings.HasPrefix(c.Text, "/*") || !c.Block && !strings.HasPrefix(c.Text, "//") {
			errs = append(errs, fmt.Sprintf("comment %v kind", c.Loc))
		}
		seen[c] = 0
		for i := c.Loc.Start; i < c.Loc.End; i++ {
			if blanked[i] != '\n' && blanked[i] != '\r' {
				blanked[i] = ' '
			}
		}
	}
	loader := loaderFor(f.Name)
	opts := api.TransformOptions{Loader: loader, LogLevel: api.LogLevelSilent, MinifyWhitespace: true,
		LegalComments: api.LegalCommentsNone, IgnoreAnnotations: true}
	a := api.Transform(string(f.Src), opts)
	b := api.Transform(string(blanked), opts)
	if len(a.Errors) == 0 && (len(b.Errors) > 0 || string(a.Code) != string(b.Code)) {
		errs = append(errs, "blanking the comments changes the program")
	}

	attach := func(c *ast.Comment, where string) {
		if _, ok := seen[c]; !ok {
			errs = append(errs, fmt.Sprintf("attached comment %v (%s) not in File.Comments", c.Loc, where))
			return
		}
		seen[c]++
	}
	var objs []*ast.Object
	if f.ExportValue != nil {
		visit(f.ExportValue, func(*ast.Property) {}, func(n ast.Node) {
			if o, ok := n.(*ast.Object); ok {
				objs = append(objs, o)
			}
		})
	}
	for _, o := range objs {
		for _, p := range o.Props {
			for _, c := range p.Leading {
				attach(c, "leading")
				if c.Loc.End > p.Loc.Start {
					errs = append(errs, fmt.Sprintf("leading comment %v after its property", c.Loc))
				}
			}
			if p.Trailing != nil {
				attach(p.Trailing, "trailing")
				if p.Trailing.Loc.Start < p.Loc.End {
					errs = append(errs, fmt.Sprintf("trailing comment %v before its property end", p.Trailing.Loc))
				}
			}
		}
		for _, c := range o.Dangling {
			attach(c, "dangling")
		}
		// Every comment between the braces and outside the properties must
		// be attached.
		first := sort.Search(len(f.Comments), func(k int) bool { return f.Comments[k].Loc.Start > o.Loc.Start })
		for _, c := range f.Comments[first:] {
			if c.Loc.End >= o.Loc.End {
				break
			}
			k := sort.Search(len(o.Props), func(k int) bool { return o.Props[k].Loc.End >= c.Loc.End })
			inside := k < len(o.Props) && c.Loc.Start >= o.Props[k].Loc.Start
			if !inside && seen[c] == 0 {
				errs = append(errs, fmt.Sprintf("comment %q in an object is not attached", c.Text))
			}
		}
	}
	for c, n := range seen {
		if n > 1 {
			errs = append(errs, fmt.Sprintf("comment %q attached %d times", c.Text, n))
		}
	}
	return errs
}
