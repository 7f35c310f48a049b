package ast_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

func texts(cs []*ast.Comment) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

func TestCommentAttachment(t *testing.T) {
	src := `export default defineFwConfig({ // on the brace line
  // leading a
  a: 1, // trailing a
  /* leading b */ b: 2 /* trailing b */,
  c: 3, /* inline */ d: 4,

  // leading e, 1
  // leading e, 2
  e: {
    // dangling in empty
  },
  f: [1, /* in array */ 2],
  g: 7 // trailing g, no comma
  // dangling after last
})
`
	f := mustParse(t, "fw.config.ts", src)
	want := map[string]struct {
		leading  []string
		trailing string
	}{
		"a": {[]string{"// on the brace line", "// leading a"}, "// trailing a"},
		"b": {[]string{"/* leading b */"}, "/* trailing b */"},
		"c": {nil, ""},
		"d": {[]string{"/* inline */"}, ""},
		"e": {[]string{"// leading e, 1", "// leading e, 2"}, ""},
		"f": {nil, ""},
		"g": {nil, "// trailing g, no comma"},
	}
	for _, p := range f.Config.Props {
		w := want[p.Key]
		tr := ""
		if p.Trailing != nil {
			tr = p.Trailing.Text
		}
		if !reflect.DeepEqual(texts(p.Leading), w.leading) || tr != w.trailing {
			t.Errorf("%s: leading %q trailing %q; want %q %q", p.Key, texts(p.Leading), tr, w.leading, w.trailing)
		}
	}
	if got := texts(f.Config.Dangling); !reflect.DeepEqual(got, []string{"// dangling after last"}) {
		t.Errorf("dangling %q", got)
	}
	e := f.Config.Get("e").Value.(*ast.Object)
	if got := texts(e.Dangling); !reflect.DeepEqual(got, []string{"// dangling in empty"}) {
		t.Errorf("empty object dangling %q", got)
	}
	if len(f.Comments) != 12 {
		t.Errorf("%d comments: %q", len(f.Comments), texts(f.Comments))
	}
}

func TestExtent(t *testing.T) {
	tests := []struct {
		name, src, key, want string
	}{
		{"own lines", "export default {\n  a: 1,\n  b: 2,\n  c: 3,\n}\n", "b", "export default {\n  a: 1,\n  c: 3,\n}\n"},
		{"with comments", "export default {\n  a: 1,\n  // about b\n  /* more */\n  b: 2, // b!\n  c: 3,\n}\n", "b", "export default {\n  a: 1,\n  c: 3,\n}\n"},
		{"first", "export default {\n  a: 1,\n  b: 2,\n}\n", "a", "export default {\n  b: 2,\n}\n"},
		{"last without trailing comma", "export default {\n  a: 1,\n  b: 2\n}\n", "b", "export default {\n  a: 1\n}\n"},
		{"last with trailing comma", "export default {\n  a: 1,\n  b: 2,\n}\n", "b", "export default {\n  a: 1,\n}\n"},
		{"last keeps a commented comma", "export default {\n  a: 1, // keep\n  b: 2\n}\n", "b", "export default {\n  a: 1, // keep\n}\n"},
		{"inline first", "export default { a: 1, b: 2 }", "a", "export default { b: 2 }"},
		{"inline last", "export default { a: 1, b: 2 }", "b", "export default { a: 1 }"},
		{"inline sole", "export default { a: 1 }", "a", "export default {}"},
		{"sole on own line", "export default {\n  a: 1,\n}\n", "a", "export default {\n}\n"},
		{"blank lines around", "export default {\n  a: 1,\n\n  b: 2,\n\n  c: 3,\n}\n", "b", "export default {\n  a: 1,\n\n  c: 3,\n}\n"},
		{"blank line before last", "export default {\n  a: 1,\n\n  b: 2,\n}\n", "b", "export default {\n  a: 1,\n}\n"},
		{"blank line after first", "export default {\n  a: 1,\n\n  b: 2,\n}\n", "a", "export default {\n  b: 2,\n}\n"},
		{"brace-line comment", "export default { // note\n  a: 1,\n  b: 2,\n}\n", "a", "export default {\n  b: 2,\n}\n"},
		{"first on brace line", "export default { a: 1,\n  b: 2,\n}\n", "a", "export default {\n  b: 2,\n}\n"},
		{"crlf", "export default {\r\n  a: 1,\r\n  b: 2,\r\n}\r\n", "a", "export default {\r\n  b: 2,\r\n}\r\n"},
		{"nested", "export default {\n  a: {\n    x: 1,\n    y: 2,\n  },\n}\n", "a.y", "export default {\n  a: {\n    x: 1,\n  },\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "fw.config.ts", tt.src)
			p := f.Lookup(tt.key)
			if p == nil {
				t.Fatalf("no %s", tt.key)
			}
			ext := p.Extent(f)
			got := tt.src[:ext.Start] + tt.src[ext.End:]
			if got != tt.want {
				t.Errorf("after deleting %s:\n%s\nwant:\n%s", tt.key, got, tt.want)
			}
			if err := esbuildOK(got, loaderFor("fw.config.ts")); err != nil {
				t.Errorf("result does not parse: %v", err)
			}
		})
	}
}

func TestPath(t *testing.T) {
	tests := []struct {
		path ast.Path
		s    string
	}{
		{ast.Path{"app", "head", "meta"}, "app.head.meta"},
		{ast.Path{"routeRules", "/api/**"}, `routeRules["/api/**"]`},
		{ast.Path{"hooks", "pages:extend"}, `hooks["pages:extend"]`},
		{ast.Path{"a", "b.c", "d"}, `a["b.c"].d`},
		{ast.Path{"", "x"}, `[""].x`},
		{ast.Path{"q", `say "hi"\`}, `q["say \"hi\"\\"]`},
		{ast.Path{"$development", "_x", "café"}, "$development._x.café"},
		{ast.Path{"1"}, `["1"]`},
		{ast.Path{"ssr"}, "ssr"},
		{ast.Path{"a.b"}, `["a.b"]`},
		{ast.Path{""}, `[""]`},
		{ast.Path{"[k]"}, `["[k]"]`},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.s {
			t.Errorf("%q.String() = %q, want %q", []string(tt.path), got, tt.s)
		}
		if got := ast.ParsePath(tt.s); !reflect.DeepEqual(got, tt.path) {
			t.Errorf("ParsePath(%q) = %q, want %q", tt.s, []string(got), []string(tt.path))
		}
	}
	if got := ast.ParsePath("hooks.pages:extend"); !reflect.DeepEqual(got, ast.Path{"hooks", "pages:extend"}) {
		t.Errorf("bare colon segment: %q", []string(got))
	}
}

func TestLookupAndWalk(t *testing.T) {
	src := `export default defineFwConfig({
  app: { head: { meta: [{ a: 1 }] } },
  'routeRules': { '/api/**': { cors: true } },
  dup: 1,
  dup: { x: 2 },
  wrapped: ({ inner: 1 }) as const,
  ...spread,
  [computed]: 3,
  m() {},
})
`
	f := mustParse(t, "fw.config.ts", src)
	for path, want := range map[string]string{
		"app.head.meta":              "meta: [{ a: 1 }]",
		`routeRules["/api/**"].cors`: "cors: true",
		"dup.x":                      "x: 2",
		"wrapped.inner":              "inner: 1",
		"app.head.meta.a":            "",
		"nope":                       "",
		"app.nope.x":                 "",
	} {
		p := f.Lookup(path)
		got := ""
		if p != nil {
			got = f.Text(p.Loc)
		}
		if got != want {
			t.Errorf("Lookup(%q) = %q, want %q", path, got, want)
		}
	}
	var paths []string
	f.Walk(func(path ast.Path, p *ast.Property) bool {
		paths = append(paths, path.String())
		return path.String() != "wrapped"
	})
	want := []string{"app", "app.head", "app.head.meta", "routeRules", `routeRules["/api/**"]`, `routeRules["/api/**"].cors`,
		"dup", "dup", "dup.x", "wrapped", `["..."]`, `["[computed]"]`, "m"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("Walk paths\n%q\nwant\n%q", paths, want)
	}
}

func TestPosition(t *testing.T) {
	src := "\uFEFFexport default {\n\ta: 'é😀', b: 1,\r\n  c: 2 }"
	f := mustParse(t, "fw.config.ts", src)
	for _, tt := range []struct {
		needle string
		want   ast.Position
	}{
		{"export", ast.Position{1, 1, 1}},
		{"a:", ast.Position{2, 2, 2}},
		{"b:", ast.Position{2, 15, 12}}, // é is 2 bytes/1 unit, 😀 4 bytes/2 units
		{"c:", ast.Position{3, 3, 3}},
	} {
		off := strings.Index(src, tt.needle)
		if got := f.Position(off); got != tt.want {
			t.Errorf("Position(%q) = %+v, want %+v", tt.needle, got, tt.want)
		}
	}
	off := strings.Index(src, "b:")
	if got := f.LineStart(off); got != strings.Index(src, "\ta") {
		t.Errorf("LineStart = %d", got)
	}
	if got := f.LineIndent(off); got != "\t" {
		t.Errorf("LineIndent = %q", got)
	}
	if got := f.LineStart(5); got != 3 {
		t.Errorf("LineStart after BOM = %d", got)
	}
	if got := f.Position(len(src) + 10); got.Line != 3 {
		t.Errorf("Position past the end = %+v", got)
	}
}

func TestStyle(t *testing.T) {
	tests := []struct {
		name, src string
		want      ast.Style
	}{
		{"defaults", "export default {}", ast.Style{Indent: "  ", Quote: '\'', EOL: "\n"}},
		{"antfu", "import a from 'a'\nexport default defineFwConfig({\n  a: 'x',\n  b: {\n    c: [\n      'y',\n    ],\n  },\n})\n",
			ast.Style{Indent: "  ", Quote: '\'', TrailingCommas: true, EOL: "\n", FinalNewline: true}},
		{"prettier", "import a from \"a\";\nexport default defineFwConfig({\n    a: \"x\",\n    b: {\n        c: 1\n    }\n});\n",
			ast.Style{Indent: "    ", Quote: '"', Semicolons: true, EOL: "\n", FinalNewline: true}},
		{"tabs crlf bom", "\uFEFFexport default {\r\n\ta: 1,\r\n\tb: {\r\n\t\tc: 2,\r\n\t},\r\n}", ast.Style{Indent: "\t", Quote: '\'', TrailingCommas: true, EOL: "\r\n", BOM: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "fw.config.ts", tt.src)
			if f.Style != tt.want {
				t.Errorf("Style = %+v, want %+v", f.Style, tt.want)
			}
		})
	}
}

func TestCorpusStyle(t *testing.T) {
	want := map[string]ast.Style{
		"031-open-pv-calculator.txtar/fw.config.mjs": {Indent: "  ", Quote: '\'', TrailingCommas: true, EOL: "\r\n", FinalNewline: true},
		"033-legacy-keys-js.txtar/fw.config.js":      {Indent: "    ", Quote: '"', EOL: "\n", FinalNewline: true},
		"025-gp-boilerplate.txtar/fw.config.js":      {Indent: "  ", Quote: '\'', Semicolons: true, EOL: "\n", FinalNewline: true},
		"032-webpack-builder.txtar/fw.config.ts":     {Indent: "  ", Quote: '"', TrailingCommas: true, Semicolons: true, EOL: "\n", FinalNewline: true},
	}
	for _, c := range corpusConfigs(t) {
		w, ok := want[c.id]
		if !ok {
			continue
		}
		f, err := ast.Parse(c.name, c.src)
		if err != nil {
			t.Fatal(err)
		}
		if f.Style != w {
			t.Errorf("%s: Style = %+v, want %+v", c.id, f.Style, w)
		}
	}
}

// FuzzJSONQuote checks the quoting of a path segment that is not an
// identifier (Path.String's jsonQuote, with its shortcut for keys with
// nothing to escape) against the escaping loop, jsonQuoteEscaped. A
// segment written bare is an identifier name: nothing to escape in it.
func FuzzJSONQuote(f *testing.F) {
	for _, s := range []string{"", "/api/**", `a"b`, `a\b`, "tab\there", "\x7f", "caf\xc3\xa9", "bad\xff", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ast.Path{s}.String()
		if got == s && s != "" && jsonQuoteEscaped(s) == `"`+s+`"` {
			return // an identifier
		}
		if want := "[" + jsonQuoteEscaped(s) + "]"; got != want {
			t.Fatalf("Path{%q}.String() = %s, want %s", s, got, want)
		}
	})
}

// jsonQuoteEscaped is api.go's escaping loop: s as a JSON string, with
// invalid UTF-8 as U+FFFD and nothing escaped beyond JSON's needs.
func jsonQuoteEscaped(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r) // invalid UTF-8 comes out as U+FFFD
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzLineStarts checks NewLines's line table (with its shortcut for files
// without CR) against the plain definition: a line starts after LF, after a
// CR not followed by LF, and after CRLF.
func FuzzLineStarts(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\nb", "a\r\nb\rc\n", "\r", "\r\n\r\n", "\n\n", "x\ry"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := []int32{0}
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
				want = append(want, int32(i+1))
			case '\n':
				want = append(want, int32(i+1))
			}
		}
		// The line table as Line reads it: the first offset of each line.
		lines := ast.NewLines([]byte(s))
		var got []int32
		for o := 0; o <= len(s); o++ {
			switch l := lines.Line(o); {
			case l == len(got)+1:
				got = append(got, int32(o))
			case l != len(got):
				t.Fatalf("lines of %q: offset %d on line %d after line %d", s, o, l, len(got))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("lines of %q = %v, want %v", s, got, want)
		}
	})
}
