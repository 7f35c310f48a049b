package tsoracle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// field is the spec's §8 fixture: layout A, a root types/ augmentation.
func field(root string) map[string]string {
	return map[string]string{
		"fw.config.ts":       "export default defineFwConfig({})\n",
		"app/a.ts":           "import { u } from '../shared/utils/u'\nexport const a: number = u\n",
		"app/b.ts":           "export const g: string = window.myGlobal\n",
		"types/augment.d.ts": "declare global { interface Window { myGlobal: string } }\nexport {}\n",
		"shared/utils/u.ts":  "export const u = 1\n",
		"server/api/h.ts":    "export default defineEventHandler(() => 'ok')\n",
		"tsconfig.json":      root,
		"package.json":       `{ "name": "fx", "private": true }` + "\n",
	}
}

const refs = `"references": [
    { "path": "./.fw/tsconfig.app.json" },
    { "path": "./.fw/tsconfig.server.json" },
    { "path": "./.fw/tsconfig.shared.json" },
    { "path": "./.fw/tsconfig.node.json" }
  ]`

// TestShapes reproduces typescript-contexts.md §6.2 with the generated
// files of 4.5.2 (TypeScript 6.0.3): the counts per code of each root
// shape, with and without -b.
func TestShapes(t *testing.T) {
	tl := Setup(t)
	shapes := []struct {
		name, root  string
		plain, buil map[string]int
	}{
		{"S1-solution", "{ \"files\": [],\n  " + refs + " }", map[string]int{}, map[string]int{"TS2339": 1}},
		{"S2-extends-refs", "{ \"extends\": \"./.fw/tsconfig.json\",\n  " + refs + " }",
			map[string]int{"TS6305": 4, "TS6306": 4, "TS6310": 4}, map[string]int{"TS6305": 4, "TS6306": 4, "TS6310": 4, "TS2339": 1}},
		{"S4-include-refs", "{ \"include\": [\"app/**/*\"],\n  " + refs + " }",
			map[string]int{"TS6305": 2, "TS6306": 4, "TS6310": 4}, map[string]int{"TS6305": 2, "TS6306": 4, "TS6310": 4, "TS2339": 1}},
		{"S5-extends", "{ \"extends\": \"./.fw/tsconfig.json\" }", map[string]int{"TS2339": 1}, map[string]int{"TS2339": 1}},
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := tl.Write(dir, field(s.root), Framework{Version: "4.5.2"}); err != nil {
				t.Fatal(err)
			}
			for _, mode := range []struct {
				args []string
				want map[string]int
			}{{[]string{"--noEmit"}, s.plain}, {[]string{"-b", "--noEmit"}, s.buil}} {
				res, err := tl.Run(dir, TSC, mode.args...)
				if err != nil {
					t.Fatal(err)
				}
				if got := res.Codes(); !reflect.DeepEqual(got, mode.want) {
					t.Errorf("tsc %s: codes %v, want %v\n%s", strings.Join(mode.args, " "), got, mode.want, res.Output)
				}
				for _, d := range res.Diags {
					if d.Code == "TS6305" && d.File == "" {
						t.Errorf("TS6305 without its source file: %s", d.Message)
					}
					if d.Code == "TS2339" && (d.File != "app/b.ts" || d.Line != 1) {
						t.Errorf("TS2339 at %s, want app/b.ts:1", d)
					}
				}
				removeBuildInfo(dir)
			}
		})
	}
}

func removeBuildInfo(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if err == nil && strings.HasSuffix(p, ".tsbuildinfo") {
			os.Remove(p)
		}
		return nil
	})
}

// TestVueTSC runs vue-tsc on a .vue file that uses an app auto-import and
// the engine's in server code, in the major-3 context (one program).
func TestVueTSC(t *testing.T) {
	tl := Setup(t)
	dir := t.TempDir()
	files := map[string]string{
		"fw.config.ts":         "export default defineFwConfig({})\n",
		"app.vue":              "<script setup lang=\"ts\">\nconst n = ref(1)\nconst s: string = useC()\n</script>\n<template><p>{{ n }}</p></template>\n",
		"composables/c.ts":     "export const useC = () => 1\n",
		"server/api/h.ts":      "export default defineEventHandler(() => useC())\n",
		"tsconfig.json":        "{ \"extends\": \"./.fw/tsconfig.json\" }\n",
		"pages/index.vue":      "<template><p /></template>\n",
		"types/augment.d.ts":   "export {}\n",
		"server/utils/util.ts": "export const sv = 1\n",
	}
	if _, err := tl.Write(dir, files, Framework{Version: "3.21.11"}); err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(dir, VueTSC, "--noEmit")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TS2322 app.vue:3"}
	var got []string
	for _, d := range res.Diags {
		got = append(got, d.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vue-tsc: %v, want %v\n%s", got, want, res.Output)
	}
}

func TestParse(t *testing.T) {
	out := "app/b.ts(3,15): error TS2339: Property 'x' does not exist on type 'Window'.\n" +
		"/p/tsconfig.json(2,5): error TS6306: Referenced project '/p/.fw/tsconfig.app.json' must have setting \"composite\": true.\n" +
		"error TS5083: Cannot read file '/p/.fw/tsconfig.app.json'.\n" +
		"  chained\n" +
		"error TS6305: Output file '/p/app/a.d.ts' has not been built from source file '/p/app/a.ts'.\n"
	got := Parse("/p", out)
	want := []Diagnostic{
		{Code: "TS5083", Message: "Cannot read file '/p/.fw/tsconfig.app.json'.\n  chained"},
		{Code: "TS6305", File: "app/a.ts", Message: "Output file '/p/app/a.d.ts' has not been built from source file '/p/app/a.ts'."},
		{Code: "TS2339", File: "app/b.ts", Line: 3, Message: "Property 'x' does not exist on type 'Window'."},
		{Code: "TS6306", File: "tsconfig.json", Line: 2, Message: "Referenced project '/p/.fw/tsconfig.app.json' must have setting \"composite\": true."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n%v\nwant\n%v", got, want)
	}
}

// TestGenerate checks the generated globs of both majors without the
// checkers (it runs under -short).
func TestGenerate(t *testing.T) {
	files := field("{}")
	files["app/composables/c.ts"] = "export const useC = () => 1\n"
	out, err := Generate(files, Framework{Version: "4.5.2"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		".fw/tsconfig.app.json":    {`"../app/**/*"`, `"../shared/**/*.d.ts"`, `"../*.d.ts"`, `"../server"`, `"noUncheckedIndexedAccess": true`},
		".fw/tsconfig.server.json": {`"../server/**/*"`, `"./types/engine.d.ts"`},
		".fw/tsconfig.shared.json": {`"../shared/**/*"`, `"./fw.shared.d.ts"`},
		".fw/tsconfig.node.json":   {`"../fw.config.*"`},
		".fw/types/imports.d.ts":   {`const useC: typeof import('../../app/composables/c')['useC']`, `const u: typeof import('../../shared/utils/u')['u']`},
	} {
		for _, w := range want {
			if !strings.Contains(out[name], w) {
				t.Errorf("%s lacks %s:\n%s", name, w, out[name])
			}
		}
	}
	if strings.Contains(out[".fw/tsconfig.server.json"], `"../**/*"`) {
		t.Error("major 4's server context keeps the engine's root glob")
	}
	out, err = Generate(files, Framework{Version: "4.5.2", Compat: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := out[".fw/types/engine-imports.d.ts"]; got != "export {}\n" {
		t.Errorf("compat 5 engine imports: %q", got)
	}
	out, err = Generate(map[string]string{"pages/index.vue": ""}, Framework{Version: "3.21.11"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"../**/*"`, `"noUncheckedIndexedAccess": false`} {
		if !strings.Contains(out[".fw/tsconfig.json"], w) {
			t.Errorf("3.x tsconfig.json lacks %s:\n%s", w, out[".fw/tsconfig.json"])
		}
	}
	if _, ok := out[".fw/tsconfig.app.json"]; ok {
		t.Error("major 3 writes no split files")
	}
	if _, err := Generate(nil, Framework{Version: "5.0.0"}); err == nil {
		t.Error("major 5: want an error")
	}
}
