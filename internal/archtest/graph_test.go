// Package archtest holds the test of the import graph: the layers of
// README's Architecture section, enforced.
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

const module = "github.com/fwmigrate/fwmigrate/"

// layer is each package's place: a package imports only packages of lower
// layers (internal/* are tools of every layer). The shape is
// cmd -> {lsp, migrate} -> workspace -> {settings, fix} -> rules ->
// project -> {compat, ast}, with fix -> rewrite -> ast and the move's plan
// (rewrite/move) beside the rules that ask about it.
var layer = map[string]int{
	"ast":                         1,
	"compat":                      1,
	"txn":                         1,
	"rewrite":                     2,
	"project":                     2,
	"rewrite/move":                3,
	"rewrite/move/internal/specs": 2, // the move's specifier scanner (JS, CSS, .vue), a unit of its own
	"rules/internal/code":         3,
	"rules/internal/node":         3,
	"rules/internal/modpath":      3,
	"rules/internal/secret":       3, // the secret checks of FW501, FW502, FW506, and their tests
	"rules/internal/props":        3, // the index of the config's properties (rules.Index), and its tests
	"rules":                       4,
	"rules/ruledocs":              5,
	"fix":                         5,
	"settings":                    5,
	"workspace":                   6,
	"lsp":                         7,
	"migrate":                     7,
	"migrate/internal/knobs":      2, // apply's settings that only migrate's tests turn (issue 19: its tests external); its Commit is a txn writer
	"cmd/fwmigrate":               8,
	"bench":                       9,
	"bench/floor":                 9,
	"bench/editloop":              9, // go test -short ./... after an edit, by hand
	"tools/release":               9,
	"tools/tscompare":             9, // the types rules against the real type checker, by hand
	"tools/realapps":              9, // real apps rebuilt and measured, by hand
}

// tree is the module's packages as the tests see them.
type tree struct {
	imports  map[string]map[string]bool // package -> our packages it imports (not in tests)
	internal map[string][]string        // package -> its internal test files (package x in x_test.go)
	mains    map[string]bool            // the main packages
}

// scan reads the package clause and imports of every Go file of the
// module (testdata, node_modules and dot folders left out, and programs
// that go generate runs, which are in no build).
func scan(t *testing.T) tree {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{imports: map[string]map[string]bool{}, internal: map[string][]string{}, mains: map[string]bool{}}
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
				tr.internal[pkg] = append(tr.internal[pkg], filepath.Base(path))
			}
			return nil
		}
		if f.Name.Name == "main" {
			tr.mains[pkg] = true
		}
		if tr.imports[pkg] == nil {
			tr.imports[pkg] = map[string]bool{}
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, module) {
				tr.imports[pkg][strings.TrimPrefix(p, module)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestImportGraph(t *testing.T) {
	imports := scan(t).imports
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if strings.HasPrefix(p, "internal/") {
			continue
		}
		if _, ok := layer[p]; !ok {
			t.Errorf("package %s has no layer: add it to the table (and to README's Architecture)", p)
			continue
		}
		for im := range imports[p] {
			if strings.HasPrefix(im, "internal/") {
				continue
			}
			if layer[im] >= layer[p] {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports run downwards only", p, layer[p], im, layer[im])
			}
		}
	}
	for _, pair := range [][2]string{{"lsp", "migrate"}, {"migrate", "lsp"}} {
		if imports[pair[0]][pair[1]] {
			t.Errorf("%s imports %s: the front ends share the workspace, not each other", pair[0], pair[1])
		}
	}
	if len(imports["workspace"]) == 0 || !imports["lsp"]["workspace"] || !imports["migrate"]["workspace"] || !imports["cmd/fwmigrate"]["workspace"] {
		t.Error("check, apply and the language server all go through the workspace")
	}
}
