package rewrite

import (
	"errors"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

func TestEditCode(t *testing.T) {
	vue := "<template>\n  <p v-if=\"data === null\">x</p>\n</template>\n<script setup lang=\"ts\">\nconst { data } = await useFetch<Post>('/a')\nif (data.value === null) {}\n</script>\n"
	op := func(old string, nth int, text string) Op {
		i := -1
		for k := 0; k <= nth; k++ {
			i += 1 + strings.Index(vue[i+1:], old)
		}
		return Op{Kind: OpReplace, Span: ast.Span{Start: i, End: i + len(old)}, Text: text}
	}
	out, err := EditCode("pages/a.vue", []byte(vue), []Op{op("===", 0, "=="), op("===", 1, "=="), op("===", 1, "==")})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(vue, "===", "=="); string(out) != want {
		t.Errorf("got\n%s", out)
	}
	// A script edit that breaks the block is refused, positioned in the file.
	_, err = EditCode("pages/a.vue", []byte(vue), []Op{op("{}", 0, "{")})
	var se *ast.SyntaxError
	if !errors.As(err, &se) || se.Line != 7 {
		t.Fatalf("error %v (line %d), want a syntax error at the block's end, line 7", err, se.Line)
	}
	// Overlaps and different insertions at one place are errors.
	if _, err := EditCode("a.ts", []byte("let a = 1\n"), []Op{{Kind: OpReplace, Span: ast.Span{Start: 4, End: 5}, Text: "b"}, {Kind: OpReplace, Span: ast.Span{Start: 4, End: 9}, Text: "c = 2"}}); err == nil {
		t.Error("overlapping edits accepted")
	}
	if _, err := EditCode("a.ts", []byte("f()\n"), []Op{{Kind: OpReplace, Span: ast.Span{Start: 2, End: 2}, Text: "1"}, {Kind: OpReplace, Span: ast.Span{Start: 2, End: 2}, Text: "2"}}); err == nil {
		t.Error("two insertions at one place accepted")
	}
	// TSX keeps its JSX.
	if _, err := EditCode("a.tsx", []byte("const a = <div>{x as number}</div>\n"), nil); err != nil {
		t.Error(err)
	}
}
