package project_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/tsoracle"
	"github.com/fwmigrate/fwmigrate/project"
)

// contextTree is a project with a file in every place the generated globs
// tell apart.
var contextTree = map[string]string{
	"fw.config.ts":            "export default defineFwConfig({})\n",
	"app/app.vue":             "<template><p /></template>\n",
	"app/b.ts":                "export const b = 1\n",
	"app/types/x.d.ts":        "export {}\n",
	"types/augment.d.ts":      "declare global { interface Window { myGlobal: string } }\nexport {}\n",
	"@types/thing/index.d.ts": "declare module 'thing' { export const t: number }\n",
	"globals.d.ts":            "declare const G: number\n",
	"shared/utils/u.ts":       "export const u = 1\n",
	"shared/types/t.d.ts":     "export interface T { a: string }\n",
	"server/api/h.ts":         "export default 1\n",
	"server/utils/s.ts":       "export const s = 1\n",
	"modules/m.ts":            "export default {}\n",
	"modules/m/runtime/p.ts":  "export default {}\n",
	"layers/base/app/c.ts":    "export const c = 1\n",
	"layers/base/server/a.ts": "export default 1\n",
	"layers/base/shared/z.ts": "export const z = 1\n",
	"scripts/build.ts":        "export {}\n",
	"test/fw/a.test.ts":       "export {}\n",
	"node_modules/x/index.ts": "export {}\n",
	"package.json":            `{ "private": true }` + "\n",
}

func dirsA(root string) project.TSDirs {
	return project.TSDirs{Root: root, Src: filepath.Join(root, "app"), Server: filepath.Join(root, "server"),
		Shared: filepath.Join(root, "shared"), Modules: filepath.Join(root, "modules"), Build: filepath.Join(root, ".fw")}
}

func TestTSContextsHolding(t *testing.T) {
	root := "/p"
	c := project.ResolveTSContexts(compat.TSGeneration(4, 4), dirsA(root), nil)
	if c.Unknown != "" {
		t.Fatal(c.Unknown)
	}
	want := map[string][]string{
		"fw.config.ts":            {"node"},
		"app/app.vue":             {"app"},
		"app/b.ts":                {"app"},
		"types/augment.d.ts":      nil,
		"@types/thing/index.d.ts": nil,
		"globals.d.ts":            {"app", "shared"},
		"shared/utils/u.ts":       {"shared"},
		"shared/types/t.d.ts":     {"app", "server", "shared"},
		"server/api/h.ts":         {"server"},
		"modules/m.ts":            {"node"},
		"modules/m/runtime/p.ts":  {"app"},
		"layers/base/app/c.ts":    {"app"},
		"layers/base/server/a.ts": nil,
		"layers/base/shared/z.ts": {"shared"},
		"scripts/build.ts":        nil,
		"test/fw/a.test.ts":       {"app"},
		"node_modules/x/index.ts": nil,
	}
	for rel, w := range want {
		var got []string
		for _, f := range c.Holding(rel, true) {
			got = append(got, f.Context.String())
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: held by %v, want %v", rel, got, w)
		}
	}
	// Layout B: the app context is the whole root but server/ and the
	// node files.
	b := dirsA(root)
	b.Src = root
	c = project.ResolveTSContexts(compat.TSGeneration(4, 4), b, compat.MapConfig{"typescript": map[string]any{"tsConfig": map[string]any{"include": []any{"../extra/**/*"}}}})
	for rel, w := range map[string][]string{"types/augment.d.ts": {"app"}, "fw.config.ts": {"node"}, "server/api/h.ts": {"server"}, "extra/a.ts": {"app"}} {
		var got []string
		for _, f := range c.Holding(rel, true) {
			got = append(got, f.Context.String())
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("layout B %s: held by %v, want %v", rel, got, w)
		}
	}
	// Major 3: everything at the root, in the one file and the server's.
	c = project.ResolveTSContexts(compat.TSGeneration(3, 3), dirsA(root), nil)
	if got := c.Holding("types/augment.d.ts", true); len(got) != 2 {
		t.Errorf("major 3: types/augment.d.ts held by %d files, want 2", len(got))
	}
	if compat.TSGeneration(5, 5) != nil {
		t.Error("major 5: the spec does not describe its files; want nil")
	}
}

func TestParseDecl(t *testing.T) {
	d := project.ParseDecl([]byte("// c\ndeclare global {\n  interface Window {\n    myGlobal: string\n    run(): void\n  }\n  const VERSION: string\n}\nexport {}\n"), true)
	if d == nil || !d.Global || !reflect.DeepEqual(d.Names, []string{"Window", "VERSION"}) || !reflect.DeepEqual(d.Members, []string{"myGlobal", "run"}) {
		t.Errorf("declare global: %+v", d)
	}
	d = project.ParseDecl([]byte("declare module 'thing' {\n  export const t: number\n}\n"), true)
	if d == nil || d.Global || !reflect.DeepEqual(d.Modules, []string{"thing"}) {
		t.Errorf("declare module: %+v", d)
	}
	d = project.ParseDecl([]byte("declare const G: number\ninterface Foo { a: 1 }\n"), true)
	if d == nil || !d.Global || !reflect.DeepEqual(d.Names, []string{"G", "Foo"}) || !reflect.DeepEqual(d.Members, []string{"a"}) {
		t.Errorf("script .d.ts: %+v", d)
	}
	if d := project.ParseDecl([]byte("export const x = 1\n"), false); d != nil {
		t.Errorf("a plain module: %+v", d)
	}
}

// TestTSContextsOracle compares Holding with the files TypeScript puts in
// each generated context by its include (tsc --explainFiles on the files
// tsoracle generates), for both layouts.
func TestTSContextsOracle(t *testing.T) {
	tl := tsoracle.Setup(t)
	for _, layout := range []string{"A", "B"} {
		t.Run(layout, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for k, v := range contextTree {
				if k == "node_modules/x/index.ts" {
					continue // the harness's own node_modules
				}
				if layout == "B" {
					if rest, ok := strings.CutPrefix(k, "app/"); ok {
						k = rest
					}
				}
				files[k] = v
			}
			src := "app"
			if layout == "B" {
				src = "."
			}
			if _, err := tl.Write(dir, files, tsoracle.Framework{Version: "4.5.2", SrcDir: src}); err != nil {
				t.Fatal(err)
			}
			d := dirsA(dir)
			if layout == "B" {
				d.Src = dir
			}
			c := project.ResolveTSContexts(compat.TSGeneration(4, 4), d, nil)
			for _, f := range c.Files {
				if f.Legacy {
					continue
				}
				res, err := tl.Run(dir, tsoracle.TSC, "-p", ".fw/"+f.Name, "--noEmit", "--explainFiles")
				if err != nil && res == nil {
					t.Fatal(err)
				}
				got := matched(dir, res.Output)
				var want []string
				for rel := range files {
					if f.Holds(rel, false) {
						want = append(want, rel)
					}
				}
				sort.Strings(want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: TypeScript includes %v\nthe model %v", f.Name, got, want)
				}
			}
		})
	}
}

// matched returns the fixture files that --explainFiles says an include
// pattern matched (not the generated ones).
func matched(dir, out string) []string {
	var got []string
	cur := ""
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			cur = line
			continue
		}
		if strings.Contains(line, "Matched by include pattern") && cur != "" {
			if !filepath.IsAbs(cur) {
				cur = filepath.Join(dir, cur)
			}
			rel, err := filepath.Rel(dir, cur)
			if err != nil || strings.HasPrefix(rel, ".fw") || strings.HasPrefix(rel, "..") {
				continue
			}
			got = append(got, filepath.ToSlash(rel))
			cur = ""
		}
	}
	sort.Strings(got)
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	return got
}
