package ast_test

import (
	"testing"
	"unicode/utf8"

	"github.com/fwmigrate/fwmigrate/ast"
)

// TestLinesOffset: Offset undoes Position at every character start of a
// text with a BOM, every kind of line end, two-byte, three-byte and
// four-byte (two UTF-16 units) characters; positions past a line or the
// text clamp to their ends.
func TestLinesOffset(t *testing.T) {
	src := []byte("\xEF\xBB\xBFé😀x\r\nab\rça\n\n€\U0001F600z")
	l := ast.NewLines(src)
	for off := 3; off <= len(src); {
		p := l.Position(off)
		if got := l.Offset(p.Line, p.ColumnUTF16); got != off {
			t.Errorf("offset %d: position %d:%d gives back %d", off, p.Line, p.ColumnUTF16, got)
		}
		if off == len(src) {
			break
		}
		if src[off] == '\r' && src[off+1] == '\n' {
			off += 2 // no character starts between CR and LF
			continue
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	for _, c := range []struct{ line, col, want int }{
		{1, 1, 3},   // after the BOM
		{1, 3, 5},   // inside 😀 (a surrogate pair): its start
		{1, 99, 10}, // past the end of line 1: before CRLF
		{2, 99, 14}, // before the lone CR
		{4, 1, len("\xEF\xBB\xBFé😀x\r\nab\rça\n")},
		{9, 1, len(src)}, // past the last line
		{0, 5, 0},
	} {
		if got := l.Offset(c.line, c.col); got != c.want {
			t.Errorf("Offset(%d, %d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}
