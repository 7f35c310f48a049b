package ast_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

func TestBadInput(t *testing.T) {
	tests := []struct {
		name, src string
		// wantErr is a substring of the error text, "" for no error.
		wantErr     string
		line, col   int
		reason      string // when there is no error: a substring of Reason ("" for a config)
		uncheckedOK bool   // ParseUnchecked accepts what esbuild rejects (not a syntax rule it knows)
	}{
		{name: "empty", src: "", reason: "empty"},
		{name: "bom only", src: "\uFEFF", reason: "empty"},
		{name: "whitespace only", src: " \n\t\r\n", reason: "empty"},
		{name: "bom", src: "\uFEFFexport default { a: 1 }"},
		{name: "crlf", src: "export default {\r\n  a: 1,\r\n}\r\n"},
		{name: "cr only", src: "export default {\r  a: 1,\r}\r"},
		{name: "invalid utf-8 in string", src: "export default { a: 'x\xffy' }"},
		{name: "nul in string", src: "export default { a: 'x\x00y' }"},
		{name: "nul in code", src: "export default {\n  a: \x00 }", wantErr: `Unexpected "\x00"`, line: 2, col: 6},
		{name: "invalid utf-8 in code", src: "export default { a: 1 } \xff", wantErr: `\xff`, line: 1, col: 25},
		{name: "unterminated string", src: "export default {\n  a: 'abc\n}", wantErr: "Unterminated string literal", line: 2, col: 10},
		{name: "unterminated comment", src: "export default { a: 1 } /* abc", wantErr: "*/", line: 1, col: 31},
		{name: "unterminated template", src: "export default { a: `abc${x}", wantErr: "Unterminated", line: 1, col: 29},
		{name: "unterminated regex", src: "export default { a: /abc\n}", wantErr: "Unterminated regular expression", line: 1, col: 25},
		{name: "unterminated object", src: "export default { a: 1", wantErr: "end of file", line: 1, col: 22},
		{name: "error after bom", src: "\uFEFFexport default { a: }", wantErr: `Unexpected "}"`, line: 1, col: 21},
		{name: "error after unicode", src: "export default { é: ) }", wantErr: `Unexpected ")"`, line: 1, col: 22},
		{name: "stray brace", src: "}", wantErr: `Unexpected "}"`, line: 1, col: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ast.Parse("fw.config.ts", []byte(tt.src))
			uf, uerr := ast.ParseUnchecked("fw.config.ts", []byte(tt.src))
			if tt.wantErr == "" {
				if err != nil || uerr != nil {
					t.Fatalf("Parse: %v; ParseUnchecked: %v", err, uerr)
				}
				if tt.reason == "" && (f.Config == nil || uf.Config == nil) {
					t.Fatalf("no config: %s", f.Reason)
				}
				if tt.reason != "" && !strings.Contains(f.Reason, tt.reason) {
					t.Errorf("Reason = %q, want %q", f.Reason, tt.reason)
				}
				return
			}
			var se *ast.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error = %v, want a *SyntaxError", err)
			}
			if !strings.Contains(se.Text, tt.wantErr) || se.Line != tt.line || se.Column != tt.col {
				t.Errorf("esbuild: %d:%d %q, want %d:%d %q", se.Line, se.Column, se.Text, tt.line, tt.col, tt.wantErr)
			}
			if want := fmt.Sprintf("fw.config.ts:%d:%d: ", se.Line, se.Column); !strings.HasPrefix(se.Error(), want) {
				t.Errorf("Error() = %q", se.Error())
			}
			if frame := se.Format(false); !strings.Contains(frame, "fw.config.ts:") || !strings.Contains(frame, "╵") {
				t.Errorf("Format:\n%s", frame)
			}
			if se.Messages == nil {
				t.Errorf("no esbuild messages")
			}
			// The parser alone finds the error too, at the same place.
			var ue *ast.SyntaxError
			if !errors.As(uerr, &ue) {
				t.Fatalf("ParseUnchecked = %v, want a *SyntaxError", uerr)
			}
			if ue.Line != tt.line || ue.Column != tt.col || ue.Messages != nil {
				t.Errorf("parser: %s, want %d:%d", ue, tt.line, tt.col)
			}
			if frame := ue.Format(false); !strings.Contains(frame, ue.Text) || !strings.Contains(frame, "╵") {
				t.Errorf("Format:\n%s", frame)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	const n = 10000
	rep := func(s string) string { return strings.Repeat(s, n) }
	tests := []struct{ name, src string }{
		{"objects", "export default " + rep("{a:") + "1" + rep("}")},
		{"arrays", "export default {a: " + rep("[") + rep("]") + "}"},
		{"parens", "export default {a: " + rep("(") + "1" + rep(")") + "}"},
		{"calls", "export default {a: f" + rep("(f") + rep(")") + "}"},
		{"unary", "export default {a: " + rep("- ") + "1}"},
		{"not", "export default {a: " + rep("!") + "x}"},
		{"arrows", "export default {a: " + rep("x => ") + "1}"},
		{"conditionals", "export default {a: " + rep("x ? y : ") + "1}"},
		{"assignments", "export default {a: " + rep("x = ") + "1}"},
		{"templates", "export default {a: " + rep("`${") + "1" + rep("}`") + "}"},
		{"types", "export default {a: x as " + rep("A<") + "B" + rep(">") + "}"},
		{"type assertions", "export default {a: " + rep("<T>") + "x}"},
		{"new", "export default {a: " + rep("new ") + "X}"},
		{"spreads", "export default {a: " + rep("{...") + "x" + rep("}") + "}"},
		{"computed keys", "export default " + rep("{[") + "x" + rep("]: 1}")},
		{"function body", "export default {a() {" + rep("{") + rep("}") + "}}"},
		{"statements", rep("if (x) ") + "f()\nexport default {}"},
		{"blocks", rep("{") + rep("}") + "\nexport default {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ast.ParseUnchecked("fw.config.ts", []byte(tt.src))
			var se *ast.SyntaxError
			if !errors.As(err, &se) || !strings.Contains(se.Text, "Too deeply nested") {
				t.Fatalf("err = %v, want the depth limit", err)
			}
			if se.Line != 1 || se.Column < 1 || se.Offset <= 0 {
				t.Errorf("position %d:%d offset %d", se.Line, se.Column, se.Offset)
			}
		})
	}
	ok := "export default " + strings.Repeat("{a:", 900) + "1" + strings.Repeat("}", 900)
	if _, err := ast.Parse("fw.config.ts", []byte(ok)); err != nil {
		t.Errorf("900 levels: %v", err)
	}
}

func TestLargeInput(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 MB config: not with -short")
	}
	src := generateConfig(10 << 20)
	f, err := ast.Parse("fw.config.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	f.Walk(func(ast.Path, *ast.Property) bool { n++; return true })
	if f.Config == nil || n < 100000 {
		t.Errorf("config %v, %d properties", f.Config != nil, n)
	}
}

// generateConfig returns a config of about size bytes in the style of the
// corpus: nested objects, arrays of strings, comments, functions.
func generateConfig(size int) []byte {
	var b strings.Builder
	b.WriteString("import { defineFwConfig } from 'fw/config'\n\n// generated\nexport default defineFwConfig({\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  // section %d\n  section%d: {\n", i, i)
		fmt.Fprintf(&b, "    enabled: %t, // toggles it\n    name: 'section-%d',\n    weight: %d.5,\n", i%2 == 0, i, i)
		fmt.Fprintf(&b, "    paths: ['~/a/%d', \"~/b/%d\", `~/c/${dir}/%d`],\n", i, i, i)
		fmt.Fprintf(&b, "    nested: { deep: { deeper: { value: null, re: /^\\/api\\/%d/ } } },\n", i)
		fmt.Fprintf(&b, "    handler: (req: Request): boolean => req.url.startsWith('/x') && req.method !== 'GET',\n")
		fmt.Fprintf(&b, "    setup() {\n      if (process.env.X) { return { a: 1 } }\n      return null\n    },\n")
		b.WriteString("  },\n")
	}
	b.WriteString("})\n")
	return []byte(b.String())
}
