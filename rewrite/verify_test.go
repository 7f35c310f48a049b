package rewrite_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// TestVerifyRejects feeds Verify rewrites that are wrong in one way each.
func TestVerifyRejects(t *testing.T) {
	const before = `import x from 'x'
export default defineFwConfig({
  // the routes
  generate: {
    routes: ['/'],
  },
  ssr: true,
  hooks: {
    done: () => ` + "`a\n  b`" + `,
  },
})
`
	move := rewrite.Op{Kind: rewrite.OpMove, Path: ast.Path{"generate", "routes"}, To: ast.Path{"engine", "prerender", "routes"}}
	moved := `import x from 'x'
export default defineFwConfig({
  engine: {
    prerender: {
      routes: ['/'],
    },
  },
  ssr: true,
  hooks: {
    done: () => ` + "`a\n  b`" + `,
  },
})
`
	cases := []struct {
		name  string
		after string
		ops   []rewrite.Op
		want  string
	}{
		{"does not parse", strings.Replace(moved, "ssr: true,", "ssr: true,,", 1), []rewrite.Op{move}, "does not parse"},
		{"outside changed", strings.Replace(moved, "from 'x'", "from 'y'", 1), []rewrite.Op{move}, "outside the config"},
		{"not literal any more", "export default withMatrix({})\n", []rewrite.Op{move}, "no longer exports an object literal"},
		{"move not made", before, []rewrite.Op{move}, "still there"},
		{"move lost the value", strings.Replace(moved, "['/']", "['/x']", 1), []rewrite.Op{move}, "does not hold the value"},
		{"set not held", moved, []rewrite.Op{move, {Kind: rewrite.OpSet, Path: ast.Path{"ssr"}, Value: false}}, "not the value set"},
		{"delete not made", moved, []rewrite.Op{move, {Kind: rewrite.OpDelete, Path: ast.Path{"ssr"}}}, "still there"},
		{"untouched changed", strings.Replace(moved, "ssr: true", "ssr: false", 1), []rewrite.Op{move}, "ssr changed"},
		{"untouched gone", strings.Replace(moved, "  ssr: true,\n", "", 1), []rewrite.Op{move}, "ssr disappeared"},
		{"path appeared", strings.Replace(moved, "ssr: true,", "ssr: true, spa: 1,", 1), []rewrite.Op{move}, "spa appeared"},
		{"template changed", strings.Replace(moved, "`a\n  b`", "`a\n    b`", 1), []rewrite.Op{{Kind: rewrite.OpMove, Path: ast.Path{"hooks"}, To: ast.Path{"h"}}}, "does not hold"},
		{"comment appeared", strings.Replace(moved, "ssr: true,", "ssr: true, // new", 1), []rewrite.Op{move}, "appeared"},
		{"comment lost", strings.Replace(before, "  // the routes\n", "", 1), nil, "was lost"},
	}
	for _, c := range cases {
		f, err := ast.Parse("fw.config.ts", []byte(before))
		if err != nil {
			t.Fatal(err)
		}
		if c.name == "template changed" {
			// Move hooks to h for real, then damage the template.
			res, err := rewrite.Apply(f, c.ops)
			if err != nil || len(res.Skipped) > 0 {
				t.Fatalf("%s: %v %v", c.name, err, res.Skipped)
			}
			c.after = strings.Replace(string(res.Src), "`a\n  b`", "`a\n    b`", 1)
		}
		err = rewrite.Verify("fw.config.ts", f, []byte(c.after), c.ops)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Verify = %v, want an error with %q", c.name, err, c.want)
		}
	}

	// The correct rewrite passes.
	f, _ := ast.Parse("fw.config.ts", []byte(before))
	res, err := rewrite.Apply(f, []rewrite.Op{move})
	if err != nil {
		t.Fatal(err)
	}
	if err := rewrite.Verify("fw.config.ts", f, res.Src, res.Applied); err != nil {
		t.Errorf("Verify rejects the real rewrite: %v", err)
	}
}
