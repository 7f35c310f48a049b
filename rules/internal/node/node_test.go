package node_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules/internal/node"
)

func TestSourcePrefixes(t *testing.T) {
	for option, want := range map[string]string{
		"extends": "github: gh: gitlab: bitbucket:",
		"theme":   "github: gitlab: bitbucket: https://",
	} {
		if got := strings.Join(node.SourcePrefixes(option), " "); got != want {
			t.Errorf("SourcePrefixes(%s) = %q, want %q", option, got, want)
		}
	}
}

func TestPartialValue(t *testing.T) {
	for _, tc := range []struct {
		expr string
		typ  string
		fits bool
	}{
		{`['a', 42]`, "array<string>", false},
		{`['a', ...more, b]`, "array<string>", true},
		{`['a', ...more, 42]`, "array<string>", false},
		{`{ ...base, port: '3000' }`, "{port: number}", true}, // an object with a spread is judged as a whole: not at all
		{`{ port: '3000', host }`, "{port: number}", false},
		{`{ handler() {}, port: 1 }`, "{port: number, handler: string}", true},
		{`'x' as const`, "'x' | 'y'", true},
		{`[, 'a']`, "array<string>", true},
	} {
		f, err := ast.Parse("fw.config.ts", []byte("export default defineFwConfig({ v: "+tc.expr+" })"))
		if err != nil {
			t.Fatalf("%s: %v", tc.expr, err)
		}
		v := node.PartialValue(f.Lookup("v").Value)
		if got := compat.MustParseType(tc.typ).Check(v); got != tc.fits {
			t.Errorf("%s against %s: fits %v, want %v (value %#v)", tc.expr, tc.typ, got, tc.fits, v)
		}
	}
}
