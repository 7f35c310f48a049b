package rewrite

import (
	"reflect"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

func TestCodeLiterals(t *testing.T) {
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
	}
	for _, c := range cases {
		src := []byte(c.code)
		spans, ok := codeLiterals(src, ast.Span{Start: 0, End: len(src)})
		if ok != c.ok {
			t.Errorf("%q: ok = %v, want %v", c.code, ok, c.ok)
			continue
		}
		var got []string
		for _, s := range spans {
			got = append(got, c.code[s.Start:s.End])
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.code, got, c.want)
		}
	}
}

func FuzzCodeLiterals(f *testing.F) {
	for _, s := range []string{"() => `a\nb${c}`", "x / y / `z`", "/[`]/g", "'\\\n'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		src := []byte(code)
		spans, ok := codeLiterals(src, ast.Span{Start: 0, End: len(src)})
		if !ok {
			return
		}
		for _, s := range spans {
			if s.Start < 0 || s.End > len(src) || s.Start >= s.End {
				t.Fatalf("bad span %v in %q", s, code)
			}
		}
	})
}
