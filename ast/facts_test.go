package ast_test

import (
	"reflect"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// The cases of rewrite's former codeLiterals, which this replaces.
func TestMultilineLiterals(t *testing.T) {
	cases := []struct {
		code string
		want []string // the protected texts
		ok   bool
	}{
		{"() => `a\nb`", []string{"`a\nb`"}, true},
		{"() => `one line`", nil, true},
		{"(t) => {\n  return `${t} -\n x`\n}", []string{"`${t} -\n x`"}, true},
		{"() => `a${ {b: `c\nd`}.b }e`", []string{"`c\nd`", "`a${ {b: `c\nd`}.b }e`"}, true},
		{"() => `a${ `x\ny` }\nz`", []string{"`x\ny`", "`a${ `x\ny` }\nz`"}, true},
		{"f('a\\\nb', \"c\")", []string{"'a\\\nb'"}, true},
		{"f('a\\\r\nb')", []string{"'a\\\r\nb'"}, true},
		{"x.replace(/`/g, '')\n  + `\n`", []string{"`\n`"}, true},
		{"a / b / `\nc`", []string{"`\nc`"}, true},
		{"// `not a template\n`real\n`", []string{"`real\n`"}, true},
		{"/* ` */ `\n`", []string{"`\n`"}, true},
		{"x = /[/`]/.test(y)", nil, true},
		{"return /re`/", nil, true},
		{"`unterminated\n", nil, false},
		{"'unterminated\n'", nil, false},
		{"/* open", nil, false},
		{"f(/unclosed\n)", nil, false},
		{"() => { return `${ { a: 1 } }\n` }", []string{"`${ { a: 1 } }\n`"}, true},
		// The parser's reading of "/" after ")" and "}": a regular
		// expression after the head of an if, a division after a call.
		{"() => { if (x) /`/.test(y); return `a\nb` }", []string{"`a\nb`"}, true},
		{"f(a) / 2 / `\n`", []string{"`\n`"}, true},
	}
	for _, c := range cases {
		f := ast.NewFile("fw.config.ts", []byte("x = "+c.code))
		spans, ok := f.MultilineLiterals(ast.Span{Start: 4, End: len(f.Src)})
		if ok != c.ok {
			t.Errorf("%q: ok = %v, want %v", c.code, ok, c.ok)
			continue
		}
		var got []string
		for _, s := range spans {
			got = append(got, f.Text(s))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.code, got, c.want)
		}
	}
}

func FuzzMultilineLiterals(f *testing.F) {
	for _, s := range []string{"() => `a\nb${c}`", "x / y / `z`", "/[`]/g", "'\\\n'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		file := ast.NewFile("x.ts", []byte(code))
		spans, ok := file.MultilineLiterals(ast.Span{Start: 0, End: len(code)})
		if !ok {
			return
		}
		for _, s := range spans {
			if s.Start < 0 || s.End > len(code) || s.Start >= s.End {
				t.Fatalf("bad span %v in %q", s, code)
			}
		}
	})
}

func TestEnvReads(t *testing.T) {
	cases := []struct {
		value string
		want  []string
	}{
		{"process.env.API", []string{"API"}},
		{"process.env.API || 'http://x'", []string{"API"}},
		{"process.env['API'] ?? process.env.FW_API ?? ''", []string{"API", "FW_API"}},
		{"process?.env?.API", []string{"API"}},
		{"process.env?.['API']", []string{"API"}},
		{"process.env[`API`] || 0", []string{"API"}},
		{"process.env.PORT || -1", []string{"PORT"}},
		{"process.env.X as string", []string{"X"}},
		{"process.env.X || true || null || undefined || 1_000.5", []string{"X"}},
		{"'a' || process.env.B", []string{"B"}},
		{"process.env.X || 'a\\nb'", nil}, // an escape: not a plain literal
		{"process.env.X || `a${b}`", nil},
		{"process.env.X + 'a'", nil},
		{"process.env[key]", nil},
		{"process.env", nil},
		{"env.X", nil},
		{"process.env.X || y", nil},
		{"process.env.X || - 1", nil},
		{"process.env.X || 1n", nil},
		{"process.env.X || 1e3", nil},
		{"process.env.X || 'a'.trim()", nil},
		{"a ? process.env.X : 'b'", nil},
	}
	for _, c := range cases {
		src := "export default { a: " + c.value + " }"
		f, err := ast.ParseUnchecked("fw.config.ts", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", c.value, err)
		}
		got := f.EnvReads(f.Config.Props[0].Value)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.value, got, c.want)
		}
	}
}

func TestWrites(t *testing.T) {
	type w struct {
		path    string
		dynamic bool
	}
	cases := []struct {
		stmt string
		want []w
	}{
		{"config.ssr = false", []w{{"ssr", false}}},
		{"config.future.x = 1", []w{{"future.x", false}}},
		{"config['app'].head ||= {}", []w{{"app.head", false}}},
		{"config.modules.push('m')", []w{{"modules", false}}},
		{"config.a.b++", []w{{"a.b", false}}},
		{"--config.a", []w{{"a", false}}},
		{"delete config['e']", []w{{"e", false}}},
		{"config[k] = 1", []w{{"", true}}},
		{"config.a[k].b = 1", []w{{"a", true}}},
		{"config.a[k].push(1)", []w{{"a", true}}},
		{"config.set('x', 1)", []w{{"", true}}},
		{"Object.assign(config, { ssr: false, 'app': {} }, x)", []w{{"ssr", false}, {"app", false}, {"", true}}},
		{"Object.assign(config, { ...o, [k]: 1 })", []w{{"", true}, {"", true}}},
		{"Object.defineProperty(config, 'ssr', { value: 1 })", []w{{"ssr", false}}},
		{"Object.setPrototypeOf(config, null)", []w{{"", true}}},
		{"if (x) {\n  config.a = 1\n} else config.b.c.delete('d')", []w{{"a", false}, {"b.c", false}}},
		{"config = {}", []w{{"", true}}},
		{"console.log(config.a)", nil},
		{"other.a = config.a", nil},
	}
	for _, c := range cases {
		src := "let config = { a: 1 }\n" + c.stmt + "\nexport default config\n"
		f, err := ast.ParseUnchecked("fw.config.ts", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", c.stmt, err)
		}
		var got []w
		for _, m := range f.Writes {
			got = append(got, w{m.Path.String(), m.Dynamic})
			if m.Stmt != f.Mutations[len(f.Mutations)-1] || m.Loc.Start < m.Stmt.Start || m.Loc.End > m.Stmt.End {
				t.Errorf("%q: spans %v in statement %v", c.stmt, m.Loc, m.Stmt)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.stmt, got, c.want)
		}
	}
}
