package code_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// readProject writes a generated app with extra files and loads it.
func readProject(t *testing.T, extra map[string]string) *project.Project {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	for name, src := range appgen.Dense(24) {
		files[name] = string(src)
	}
	for name, src := range extra {
		files[name] = src
	}
	testtree.Map(t, dir, files)
	return project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
}

// summary is what a Read found, as text: the files and their order, the
// composables, the calls, and the uses each file's walk found.
func summary(t *testing.T, p *project.Project, ahead bool) (string, int) {
	t.Helper()
	var mu sync.Mutex
	uses := map[string][]string{}
	passes := 0
	pass := func(ci *code.Index) func(i int, f *code.File) {
		passes++
		return func(i int, f *code.File) {
			var out []string
			v := ci.Data.FileUses(f)
			if v != nil {
				code.WalkFile(f, []*code.Visitor{v}, nil)
			}
			for _, u := range f.Uses() {
				out = append(out, fmt.Sprintf("%s %v %s %v deep=%v", u.Field, u.Ref.Loc, u.Call.Name, u.Call.Key().Start, u.Call.DeepSet()))
			}
			mu.Lock()
			uses[f.Rel] = out
			mu.Unlock()
		}
	}
	var ci *code.Index
	if ahead {
		ci = code.Read(p, nil, nil, pass)
	} else {
		ci = code.ReadAll(p, nil, nil, pass)
	}
	var b strings.Builder
	for _, f := range ci.Files {
		fmt.Fprintf(&b, "file %s released=%v uses=%v\n", f.Rel, f.Released, uses[f.Rel])
	}
	for _, f := range ci.Data.ReadOrder() {
		fmt.Fprintf(&b, "order %s\n", f.Rel)
	}
	var names []string
	for name, c := range ci.Data.Composables {
		names = append(names, fmt.Sprintf("%s %s %v %v", name, c.Call.File.Rel, c.Call.Span, c.Fields))
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "composables %v\n", names)
	for _, c := range ci.Data.Calls {
		fmt.Fprintf(&b, "call %s %v %s immediate=%v\n", c.File.Rel, c.Span, c.Name, !code.NotImmediate(c))
	}
	var inside []string
	for name, cs := range ci.Data.Inside {
		for _, c := range cs {
			inside = append(inside, fmt.Sprintf("inside %s %s %v", name, c.File.Rel, c.Span))
		}
	}
	sort.Strings(inside)
	fmt.Fprintf(&b, "%s\n", strings.Join(inside, "\n"))
	return b.String(), passes
}

// TestReadAhead: Read, which parses ahead only the files that may define
// composables and lets every tree go once its file is walked, finds what
// reading every file first finds: the same files, order, composables,
// calls and uses. A composable its look at the text misses (a comment
// between function and the name) makes it start over (Pass called again),
// with the same result.
func TestReadAhead(t *testing.T) {
	for _, c := range []struct {
		name   string
		extra  map[string]string
		passes int
	}{
		{"generated", nil, 1},
		{"missed", map[string]string{
			"composables/hidden.ts": "export function /* why not */ useHidden() { return useFetch('/h', { immediate: false }) }\n",
			"pages/hidden.vue":      "<script setup>\nconst { data, pending } = useHidden()\nconst n = data.value === null\n</script>\n<template><p v-if=\"pending\">{{ data }}</p></template>\n",
		}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := readProject(t, c.extra)
			got, passes := summary(t, p, true)
			want, _ := summary(t, readProject(t, c.extra), false)
			// Released or not, as the project keeps no trees: both are.
			if got != want {
				t.Errorf("reading ahead:\n%s\nreading every file first:\n%s", got, want)
			}
			if passes != c.passes {
				t.Errorf("Pass called %d times, want %d", passes, c.passes)
			}
			if !strings.Contains(got, "released=true") || strings.Contains(got, "released=false") {
				t.Errorf("not every file released:\n%s", got)
			}
			if c.name == "missed" && !strings.Contains(got, "useHidden composables/hidden.ts") {
				t.Errorf("the hidden composable was not found:\n%s", got)
			}
		})
	}
}

// TestReleased: a file whose trees were let go answers positions and texts
// as before, keeps its scripts' spans, and cannot be walked.
func TestReleased(t *testing.T) {
	src := []byte("<script setup>\nconst { data } = await useFetch('/a')\n</script>\n<template><p>{{ data }}</p></template>\n")
	c, err := ast.ReadCode("a.vue", src)
	if err != nil {
		t.Fatal(err)
	}
	f := &code.File{Path: "a.vue", Rel: "a.vue", Text: src, Code: c}
	q := f.QuoteAt(ast.Span{Start: 20, End: 21}, nil)
	pos := c.Position(40)
	f.Release()
	if f.Code.Position(40) != pos || f.Code.Text(ast.Span{Start: 15, End: 20}) != "const" || f.QuoteAt(ast.Span{Start: 20, End: 21}, nil) != q {
		t.Errorf("positions, texts or quotes changed")
	}
	if f.Code.Template != nil || f.Code.Scripts[0].Program.List != nil {
		t.Errorf("a tree is left")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("a walk of a released file did not panic")
		}
	}()
	code.Walk(f, func(*ast.JSNode, []*ast.JSNode, *ast.TemplateExpr) bool { return true })
}

// TestMayDefine: MayDefine says what its regular expression says.
func TestMayDefine(t *testing.T) {
	re := regexp.MustCompile(`function\s*\*?\s*use|\buse[A-Za-z0-9_$]*\s*[!:=]`)
	texts := []string{
		"export function useX() {}", "function*useX(){}", "function * \n use()", "const useX = () => 1", "let useX!: T",
		"const useX: () => T = f", "useX==y", "$useX = 1", "a.useX = 1", "reuse = 1", "_useX = 1", "ause: 1",
		"useFetch('/a')", "const { data } = useFetch()", "import { useX } from 'y'", "functionuse", "myfunction use",
		"function /* c */ useX() {}", "use", "use$ =", "use\t:\n", "x\\u0075seX", "useA(); useB = 1", "", "funct use =",
	}
	for _, s := range append(texts, string(appgen.Dense(8)["pages/p0.vue"]), string(appgen.Dense(8)["composables/items2.ts"])) {
		if got, want := code.MayDefine([]byte(s)), re.MatchString(s) || strings.Contains(s, `\u`); got != want {
			t.Errorf("MayDefine(%q) = %v, the expression says %v", s, got, want)
		}
	}
}
