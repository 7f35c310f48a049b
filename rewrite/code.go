package rewrite

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/fwmigrate/fwmigrate/ast"
)

// EditCode applies byte edits to an application or module file (a script
// or a .vue file): each edit is an OpReplace of its Span with its Text, an
// empty span inserting. Identical edits count once (two findings may carry
// the same fix); edits that overlap otherwise, or that insert different
// text at one place, are an error naming them. The result must pass
// esbuild's gate (the script, or each script block of a .vue file, with the
// loader its extension or lang says) and be read by the code reader as
// fully as the original was; a .json file (tsconfig.json) must be JSON
// with comments; a .yml or .yaml file (a CI workflow) is taken as edited. Otherwise nothing is returned but the error.
func EditCode(name string, src []byte, edits []Op) ([]byte, error) {
	var list []udiff.Edit
	seen := map[udiff.Edit]bool{}
	for _, op := range edits {
		if op.Kind != OpReplace {
			return nil, fmt.Errorf("%s: a code edit must replace a span, not %s", name, op.Kind)
		}
		if op.Span.Start < 0 || op.Span.End > len(src) || op.Span.Start > op.Span.End {
			return nil, fmt.Errorf("%s: edit span [%d,%d) is outside the file", name, op.Span.Start, op.Span.End)
		}
		e := udiff.Edit{Start: op.Span.Start, End: op.Span.End, New: op.Text}
		if !seen[e] {
			seen[e] = true
			list = append(list, e)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Start != list[j].Start {
			return list[i].Start < list[j].Start
		}
		return list[i].End < list[j].End
	})
	for i := 1; i < len(list); i++ {
		a, b := list[i-1], list[i]
		if b.Start < a.End || b.Start == a.Start && a.Start == a.End {
			return nil, fmt.Errorf("%s: edits at [%d,%d) and [%d,%d) overlap", name, a.Start, a.End, b.Start, b.End)
		}
	}
	out, err := udiff.Apply(string(src), list)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if filepath.Ext(name) == ".json" {
		if err := validateJSONC(name, []byte(out)); err != nil {
			return nil, err
		}
		return []byte(out), nil
	}
	if ext := filepath.Ext(name); ext == ".yml" || ext == ".yaml" {
		// A CI workflow's step (FW803 inserts a flag into a run line): no
		// YAML reader here; the rule's edits keep the line a plain scalar.
		return []byte(out), nil
	}
	if err := ValidateCode(name, []byte(out)); err != nil {
		return nil, err
	}
	_, before := ast.ReadCode(name, src)
	if _, after := ast.ReadCode(name, []byte(out)); after != nil && before == nil {
		return nil, fmt.Errorf("%s: the edited file no longer reads: %v", name, after)
	}
	return []byte(out), nil
}

// ValidateCode runs esbuild's parser on a code file: a script with the
// loader its extension says, or each script block of a .vue file with the
// loader of its lang. The error is a *ast.SyntaxError positioned in the
// file.
func ValidateCode(name string, src []byte) error {
	if filepath.Ext(name) != ".vue" {
		return ast.ValidateScript(name, src, 0, len(src), loaderOf(strings.TrimPrefix(filepath.Ext(name), ".")))
	}
	blocks, ok := ast.SFCBlocks(src)
	if !ok {
		return &ast.SyntaxError{File: name, Line: 1, Column: 1, Text: "a block of the component is not closed"}
	}
	for _, b := range blocks {
		if b.Tag != "script" || b.Src.Len() > 0 {
			continue
		}
		if err := ast.ValidateScript(name, src, b.Content.Start, b.Content.End, loaderOf(b.Lang)); err != nil {
			return err
		}
	}
	return nil
}

// validateJSONC checks a JSON file that may hold comments and trailing
// commas, as TypeScript reads tsconfig.json: esbuild's JSON parser, whose
// complaints about those two are not errors here.
func validateJSONC(name string, src []byte) error {
	res := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderJSON, Sourcefile: name, LogLevel: api.LogLevelSilent})
	for _, m := range res.Errors {
		if m.Text == "JSON does not support comments" || m.Text == "JSON does not support trailing commas" {
			continue
		}
		if m.Location != nil {
			return fmt.Errorf("%s:%d:%d: %s", name, m.Location.Line, m.Location.Column+1, m.Text)
		}
		return fmt.Errorf("%s: %s", name, m.Text)
	}
	return nil
}

func loaderOf(ext string) api.Loader {
	switch ext {
	case "ts", "mts", "cts", "typescript":
		return api.LoaderTS
	case "tsx":
		return api.LoaderTSX
	case "jsx":
		return api.LoaderJSX
	}
	return api.LoaderJS
}
