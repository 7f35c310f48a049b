package rules_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// ruleFile is the name of a rule's file: fw101_mixed_layout.go.
var ruleFile = regexp.MustCompile(`^fw\d{3}_\w+\.go$`)

// TestNoBorrowing checks that no rule file uses a package-level identifier
// (func, var, const, type, or a method or field of a type) that another
// rule file declares: what rules share lives in a package of its own
// (rules/internal/...) or in a helper file of rules, so that a rule can be
// read, moved or deleted alone.
//
// There are no exceptions. The engine does name rule files' declarations
// (check.go and suppress.go report through the tool's rules, ruleSyntax,
// ruleIO..., and compare their codes, CodeSyntax...), but the engine is
// not a rule file: only rule files are held to this.
//
// Names are resolved by go/parser: a name a file uses and does not declare
// is package-level (or predeclared). Methods and fields cannot be resolved
// without types, so a selector is matched by name: .x is borrowed when x is
// a method or field that another rule file declares and that neither the
// file itself nor a helper file declares.
func TestNoBorrowing(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	rulesFiles := map[string]*ast.File{}
	owner := map[string]string{}       // package-level name -> rule file declaring it
	memberOwner := map[string]string{} // method or field name -> a rule file declaring it
	helperMember := map[string]bool{}  // method or field names the other files declare
	ownMembers := map[string]map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !ruleFile.MatchString(name) {
			for _, m := range memberNames(f, true) {
				helperMember[m] = true
			}
			continue
		}
		rulesFiles[name] = f
		for _, n := range declared(f) {
			owner[n] = name
		}
		ownMembers[name] = map[string]bool{}
		for _, m := range memberNames(f, false) {
			memberOwner[m] = name
		}
		for _, m := range memberNames(f, true) {
			ownMembers[name][m] = true
		}
	}
	if len(rulesFiles) < 50 {
		t.Fatalf("found %d rule files: is the test running in rules/?", len(rulesFiles))
	}
	var bad []string
	for name, f := range rulesFiles {
		seen := map[string]bool{}
		use := func(id, from string) {
			if from == "" || from == name || seen[id] {
				return
			}
			seen[id] = true
			bad = append(bad, name+" uses "+id+" of "+from)
		}
		for _, id := range f.Unresolved {
			use(id.Name, owner[id.Name])
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				m := sel.Sel.Name
				if !ownMembers[name][m] && !helperMember[m] {
					use("."+m, memberOwner[m])
				}
			}
			return true
		})
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// declared returns the package-level names f declares, methods aside.
func declared(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" && d.Name.Name != "_" {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name != "_" {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// memberNames returns the names of the methods f declares and of the
// fields of its struct types: the named ones, and with anon the fields of
// struct types written inline too (a table's element type), which no
// other file can name but f's own selectors reach.
func memberNames(f *ast.File, anon bool) []string {
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			out = append(out, fd.Name.Name)
		}
	}
	fields := func(st *ast.StructType) {
		for _, fl := range st.Fields.List {
			for _, n := range fl.Names {
				out = append(out, n.Name)
			}
		}
	}
	if anon {
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				fields(st)
			}
			return true
		})
		return out
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok {
						fields(st)
					}
				}
			}
		}
	}
	return out
}

// TestInternalImports checks the helper packages under rules/internal: they
// read the project and its code for the rules and must not depend on them
// (nor on rewrite, which makes the rules' fixes), so they import only ast,
// compat, project and internal packages of the module. The packages those
// import do not import rules, so the direct imports decide.
func TestInternalImports(t *testing.T) {
	const mod = "github.com/fwmigrate/fwmigrate/"
	files, err := filepath.Glob("internal/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no files under rules/internal")
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			rest, ok := strings.CutPrefix(path, mod)
			if !ok {
				continue // the standard library or another module
			}
			switch {
			case rest == "ast", rest == "compat", rest == "project":
			case strings.HasPrefix(rest, "internal/"), strings.HasPrefix(rest, "rules/internal/"):
			default:
				t.Errorf("%s imports %s: rules/internal may import only ast, compat, project and internal packages", name, path)
			}
		}
	}
}
