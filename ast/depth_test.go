package ast_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// TestDepthGate: texts that nest past what esbuild's stack survives are
// refused before esbuild sees them (it would end the process), with the
// parser's own error; 250,000 levels of each construct esbuild recurses on
// (with -short, 50,000: still past the gate's raw limit, rawMaxDepth, by
// more than twice).
func TestDepthGate(t *testing.T) {
	n := 250000
	if testing.Short() {
		n = 50000
	}
	if raw := rawMaxDepth(t, n); n <= 2*raw {
		t.Fatalf("%d levels do not test the gate (raw limit %d)", n, raw)
	}
	rep := strings.Repeat
	for _, c := range []struct{ name, src string }{
		{"not", "export default " + rep("!", n) + "1"},
		{"spaced not", "export default " + rep("! ", n) + "1"},
		{"typeof", "export default " + rep("typeof ", n) + "1"},
		{"minus", "export default " + rep("- ", n) + "1"},
		{"array", "export default " + rep("[", n) + rep("]", n)},
		{"array unclosed", "export default " + rep("[", n)},
		{"paren", "export default " + rep("(", n) + "1" + rep(")", n)},
		{"object", "export default " + rep("{a:", n) + "1" + rep("}", n)},
		{"template", "export default " + rep("`${", n) + "1" + rep("}`", n)},
		{"assign", rep("a=", n) + "1"},
		{"arrow", "export default " + rep("a=>", n) + "1"},
		{"ternary", "export default " + rep("a?b:", n) + "c"},
		{"ternary with functions", "export default " + rep("a?function(){}:", n) + "c"},
		{"if", rep("if(a)", n) + "x"},
		{"else if", rep("if(a){}else ", n) + "x"},
		{"label", rep("a:", n) + "x"},
		{"do", rep("do ", n) + "x;" + rep("while(0)", n)},
		{"function", rep("function f(){", n) + rep("}", n)},
		{"power", "export default " + rep("a**", n) + "1"},
		// A "{" after a case label is a block, so the "/" after it starts
		// a regular expression: read as a template, the rest would hide.
		{"case block regexp", "switch(a){case 1:{}/`/;\n" + rep("!", n) + "x\n`}"},
		{"label block regexp", "a:{}/`/;\n" + rep("a=", n) + "1\n`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := ast.Validate("fw.config.ts", []byte(c.src))
			var se *ast.SyntaxError
			if !errors.As(err, &se) || !strings.HasPrefix(se.Text, "Too deeply nested") {
				t.Fatalf("got %v", err)
			}
			if se.Line < 1 || se.Column < 1 || se.Offset <= 0 || se.Offset > len(c.src) {
				t.Errorf("position %d:%d offset %d", se.Line, se.Column, se.Offset)
			}
		})
	}
}

// TestDepthGateKeepsValid: long flat code is not deep. Statements in a
// row, semicolons or not, long lists and operator chains that esbuild
// parses in a loop pass the gate.
func TestDepthGateKeepsValid(t *testing.T) {
	const n = 5000
	rep := strings.Repeat
	for _, c := range []struct{ name, src string }{
		{"statements without semicolons", rep("x = a ? 1 : 2\n", n)},
		{"if blocks", rep("if (a) { b = 1 } else { b = 2 }\n", n)},
		{"if statements", rep("if (a) b = 1;\n", n)},
		{"objects", "export default {" + rep("a: x ? 1 : 2, ", n) + "}"},
		{"array of negations", "export default [" + rep("!a, ", n) + "]"},
		{"sum", "export default " + rep("a - b + ", n) + "1"},
		{"interface", "interface X {\n" + rep("  a: string\n", n) + "}\nexport default {}"},
		{"switch", "switch (a) {\n" + rep("case 1: b = 2\n", n) + "}\nexport default {}"},
		{"nesting under the limit", "export default " + rep("[", 900) + rep("]", 900)},
		{"comment of dashes", "// " + rep("-", 3*n) + "\nexport default {}"},
		{"string of brackets", "export default '" + rep("(", 3*n) + "'"},
		{"regexp of brackets", "export default /" + rep("\\(", 3*n) + "/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := ast.CheckDepth("fw.config.ts", []byte(c.src)); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

func BenchmarkDepthGate(b *testing.B) {
	src := []byte(strings.Repeat("export default defineFwConfig({ app: { head: { title: 'x', meta: [{ name: 'a', content: `b${c}` }] } }, x: a ? !b : -c })\n", 200))
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if err := ast.CheckDepth("fw.config.ts", src); err != nil {
			b.Fatal(err)
		}
	}
}

// rawMaxDepth is the limit of the gate's raw count, read from the error
// it gives for n brackets inside a string (which only the raw count sees).
func rawMaxDepth(t *testing.T, n int) int {
	t.Helper()
	err := ast.Validate("fw.config.ts", []byte("export default '"+strings.Repeat("(", n)+"'"))
	var se *ast.SyntaxError
	var raw int
	if !errors.As(err, &se) {
		t.Fatalf("%d brackets in a string: got %v, want the raw limit's error", n, err)
	}
	if _, err := fmt.Sscanf(se.Text, "Too deeply nested: more than %d levels of brackets and operators", &raw); err != nil {
		t.Fatalf("%d brackets in a string: %q is not the raw limit's error", n, se.Text)
	}
	return raw
}
