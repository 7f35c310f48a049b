package archtest

import (
	"path/filepath"
	"sort"
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
	tr := scan(t)
	imports, internal, mains := tr.imports, tr.internal, tr.mains

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
		for im := range imports[pkg] {
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
