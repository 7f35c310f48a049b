package code_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

func parsed(t *testing.T, path, src string) *code.File {
	t.Helper()
	f := &code.File{Path: path, Text: []byte(src)}
	f.Parse()
	if f.Err != nil {
		t.Fatalf("%s: %v", path, f.Err)
	}
	return f
}

func TestExports(t *testing.T) {
	f := parsed(t, "/p/server/utils/my-db.ts", `
export function a() {}
export const b = 1, { c, d: [e] } = x
export class C {}
export interface I {}
export type T = string
export enum E { X }
export { f, g as h, type U } from './y'
export type { V } from './z'
export * as ns from './n'
export default function () {}
const k = 1
export { k as default }
`)
	got, complete := code.Exports(f)
	var b strings.Builder
	for _, e := range got {
		fmt.Fprintf(&b, "%s:%v:%v ", e.Name, e.Default, e.Type)
	}
	want := "a:false:false b:false:false c:false:false e:false:false C:false:false I:false:true T:false:true E:false:false f:false:false h:false:false U:false:true V:false:true ns:false:false myDb:true:false "
	if b.String() != want || !complete {
		t.Errorf("exports:\n got %s\nwant %s (complete %v)", b.String(), want, complete)
	}
	f = parsed(t, "/p/x.ts", "export * from './y'\n")
	if _, complete := code.Exports(f); complete {
		t.Error("export * is followed")
	}
}

func TestDefaultName(t *testing.T) {
	for in, want := range map[string]string{
		"/p/utils/db.ts": "db", "/p/utils/my-db.ts": "myDb", "/p/utils/my_db.client.ts": "myDbClient",
		"/p/utils/auth/index.ts": "auth", "/p/utils/Foo.ts": "Foo", "/p/utils/a-b/index.ts": "aB",
	} {
		if got := code.DefaultName(in); got != want {
			t.Errorf("DefaultName(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestSpecifier(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"/p/server/api/a.ts", "/p/server/utils/db.ts", "../utils/db"},
		{"/p/shared/utils/a.ts", "/p/shared/utils/b.ts", "./b"},
		{"/p/shared/utils/a.ts", "/p/shared/types/index.d.ts", "../types/index"},
		{"/p/server/api/a.ts", "/p/server/utils/db.mts", ""},
	} {
		got, ok := code.Specifier(c.from, c.to)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Specifier(%s, %s) = %q %v, want %q", c.from, c.to, got, ok, c.want)
		}
	}
}

func TestInsertImports(t *testing.T) {
	apply := func(src string, groups []code.ImportGroup) string {
		f := parsed(t, "/p/a.ts", src)
		ins, ok := code.InsertImports(f, 0, groups)
		if !ok {
			return "!ok"
		}
		sort.SliceStable(ins, func(i, j int) bool { return ins[i].At > ins[j].At })
		out := src
		for _, in := range ins {
			out = out[:in.At] + in.Text + out[in.At:]
		}
		return out
	}
	h3 := []code.ImportGroup{{Module: "h3", Specs: []code.ImportSpec{{Name: "getQuery"}, {Name: "defineEventHandler"}}}}
	for _, c := range []struct {
		src    string
		groups []code.ImportGroup
		want   string
	}{
		{"export default 1\n", h3, "import { defineEventHandler, getQuery } from 'h3'\nexport default 1\n"},
		{"import x from \"y\";\nx();\n", h3, "import x from \"y\";\nimport { defineEventHandler, getQuery } from \"h3\";\nx();\n"},
		{"import { readBody } from 'h3'\n", h3, "import { readBody, defineEventHandler, getQuery } from 'h3'\n"},
		{"import type { H3Event } from 'h3'\n", h3, "import type { H3Event } from 'h3'\nimport { defineEventHandler, getQuery } from 'h3'\n"},
		{"import * as h3 from 'h3'\n", h3, "import * as h3 from 'h3'\nimport { defineEventHandler, getQuery } from 'h3'\n"},
		{"#!/usr/bin/env node\nrun()\n", h3, "#!/usr/bin/env node\nimport { defineEventHandler, getQuery } from 'h3'\nrun()\n"},
		{"a()\r\n", []code.ImportGroup{{Module: "./db", Specs: []code.ImportSpec{{Name: "db", Default: true}, {Name: "T", Type: true}, {Name: "x"}}}},
			"import db, { x } from './db'\r\nimport type { T } from './db'\r\na()\r\n"},
		{"a()\n", []code.ImportGroup{{Module: "./db", Specs: []code.ImportSpec{{Name: "a", Default: true}, {Name: "b", Default: true}}}}, "!ok"},
	} {
		if got := apply(c.src, c.groups); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

func TestTypeRefs(t *testing.T) {
	f := parsed(t, "/p/server/api/a.ts", "import type { Imported } from './x'\n"+
		"// Thing in a comment\n"+
		"/* Thing */\n"+
		"const s = 'Thing' + \"Thing\" + `Thing ${x as Thing} Thing` + /Thing/.source\n"+
		"function f(a: Thing, b: Imported): Array<Thing> { return obj.Thing ?? { Thing: 1 } }\n"+
		"let o: { Thing: number; Other?: string }\n"+
		"interface Local {}\n"+
		"let l: Local | Other\n")
	got := code.TypeRefs(f, map[string]bool{"Thing": true, "Imported": true, "Local": true, "Other": true})
	var b strings.Builder
	for _, name := range []string{"Thing", "Imported", "Local", "Other"} {
		for _, s := range got[name] {
			fmt.Fprintf(&b, "%s@%d ", f.Text[s.Start:s.End], s.Start)
		}
	}
	if want := "Thing@114 Thing@159 Thing@186 Other@305 "; b.String() != want {
		t.Errorf("TypeRefs: %s, want %s", b.String(), want)
	}
}

func TestSemicolons(t *testing.T) {
	for src, want := range map[string]bool{
		"a();\nb();\nfunction f() {}\n": true,
		"a()\nb();\nc()\n":              false,
		"function f() {}\n":             false,
		"export const a = 1;\n":         true,
	} {
		f := parsed(t, "/p/a.ts", src)
		if got := code.Semicolons(f, f.Code.Scripts[0]); got != want {
			t.Errorf("Semicolons(%q) = %v", src, got)
		}
	}
}
