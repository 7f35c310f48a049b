package rewrite_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

func TestEditCode(t *testing.T) {
	vue := "<template>\n  <p v-if=\"data === null\">x</p>\n</template>\n<script setup lang=\"ts\">\nconst { data } = await useFetch<Post>('/a')\nif (data.value === null) {}\n</script>\n"
	op := func(old string, nth int, text string) rewrite.Op {
		i := -1
		for k := 0; k <= nth; k++ {
			i += 1 + strings.Index(vue[i+1:], old)
		}
		return rewrite.Op{Kind: rewrite.OpReplace, Span: ast.Span{Start: i, End: i + len(old)}, Text: text}
	}
	out, err := rewrite.EditCode("pages/a.vue", []byte(vue), []rewrite.Op{op("===", 0, "=="), op("===", 1, "=="), op("===", 1, "==")})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(vue, "===", "=="); string(out) != want {
		t.Errorf("got\n%s", out)
	}
	// A script edit that breaks the block is refused, positioned in the file.
	_, err = rewrite.EditCode("pages/a.vue", []byte(vue), []rewrite.Op{op("{}", 0, "{")})
	var se *ast.SyntaxError
	if !errors.As(err, &se) || se.Line != 7 {
		t.Fatalf("error %v (line %d), want a syntax error at the block's end, line 7", err, se.Line)
	}
	// Overlaps and different insertions at one place are errors.
	if _, err := rewrite.EditCode("a.ts", []byte("let a = 1\n"), []rewrite.Op{{Kind: rewrite.OpReplace, Span: ast.Span{Start: 4, End: 5}, Text: "b"}, {Kind: rewrite.OpReplace, Span: ast.Span{Start: 4, End: 9}, Text: "c = 2"}}); err == nil {
		t.Error("overlapping edits accepted")
	}
	if _, err := rewrite.EditCode("a.ts", []byte("f()\n"), []rewrite.Op{{Kind: rewrite.OpReplace, Span: ast.Span{Start: 2, End: 2}, Text: "1"}, {Kind: rewrite.OpReplace, Span: ast.Span{Start: 2, End: 2}, Text: "2"}}); err == nil {
		t.Error("two insertions at one place accepted")
	}
	// TSX keeps its JSX.
	if _, err := rewrite.EditCode("a.tsx", []byte("const a = <div>{x as number}</div>\n"), nil); err != nil {
		t.Error(err)
	}
}

// TestEditJSONC: a .json file (tsconfig.json) is validated as JSON with
// comments and trailing commas, as TypeScript reads it: those two pass, a
// broken object does not, and nothing is returned then.
func TestEditJSONC(t *testing.T) {
	src := "{\n  // why\n  \"extends\": \"./.fw/tsconfig.json\",\n}\n"
	at := strings.Index(src, `"extends"`)
	end := strings.Index(src, `json",`) + len(`json"`)
	out, err := rewrite.EditCode("tsconfig.json", []byte(src), []rewrite.Op{{Kind: rewrite.OpReplace, Span: ast.Span{Start: at, End: end}, Text: `"files": [], /* refs */ "references": [{ "path": "./a.json" },]`}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  // why\n  \"files\": [], /* refs */ \"references\": [{ \"path\": \"./a.json\" },],\n}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, err = rewrite.EditCode("tsconfig.json", []byte(src), []rewrite.Op{{Kind: rewrite.OpReplace, Span: ast.Span{Start: at, End: end}, Text: `"files": [] "references": []`}})
	if err == nil || out != nil || !strings.Contains(err.Error(), "tsconfig.json:3:") {
		t.Errorf("a broken edit: %q, %v", out, err)
	}
}
