package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestExternalTests keeps the edit-test loop short (issue 19: go test
// -short ./... after an edit in ast/ or rules/). go test compiles a
// package that has an internal test file (`package x` in x_test.go) twice:
// once as everyone imports it, once with its test files; and every package
// of that test binary which imports it is compiled again against the test
// variant. An edit in ast/ or rules/ rebuilds every package that imports
// them, directly or not, so each of those that other packages import
// keeps external tests only (`package x_test`): measured, the second
// compiles were 12 of 72 CPU seconds after an edit in rules/ and 18 of 96
// after one in ast/. Main packages are imported by nobody and are not
// concerned; neither are packages the edits do not rebuild.
func TestExternalTests(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}  // package -> our packages it imports (not in tests)
	internal := map[string][]string{} // package -> its internal test files
	mains := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if len(f.Comments) > 0 && f.Comments[0].List[0].Text == "//go:build ignore" {
			return nil // a program run by go generate, in no build
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if strings.HasSuffix(path, "_test.go") {
			if !strings.HasSuffix(f.Name.Name, "_test") {
				internal[pkg] = append(internal[pkg], filepath.Base(path))
			}
			return nil
		}
		if f.Name.Name == "main" {
			mains[pkg] = true
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if ours, ok := strings.CutPrefix(p, module); ok {
				imports[pkg] = append(imports[pkg], ours)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// rebuilt: the packages an edit of ast/ or rules/ compiles again.
	rebuilt := map[string]bool{}
	var reaches func(pkg string, seen map[string]bool) bool
	reaches = func(pkg string, seen map[string]bool) bool {
		if pkg == "ast" || pkg == "rules" {
			return true
		}
		if seen[pkg] {
			return false
		}
		seen[pkg] = true
		for _, im := range imports[pkg] {
			if reaches(im, seen) {
				return true
			}
		}
		return false
	}
	for pkg := range imports {
		if reaches(pkg, map[string]bool{}) {
			rebuilt[pkg] = true
		}
	}
	rebuilt["ast"] = true

	var pkgs []string
	for pkg := range internal {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		if !rebuilt[pkg] || mains[pkg] {
			continue
		}
		t.Errorf("%s: internal test files %s (package %s, not %s_test): an edit in ast/ or rules/ would compile %s twice; test through its exported names",
			pkg, strings.Join(internal[pkg], ", "), filepath.Base(pkg), filepath.Base(pkg), pkg)
	}
}
