package rewrite

import (
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Edits returns the byte edits that turn old into new: Start and End are
// byte offsets of old, New the bytes to put there, whatever the encoding.
//
// go-udiff diffs by runes and counts an invalid UTF-8 byte (Latin-1 é,
// 0xE9) as U+FFFD, three bytes, so its offsets drift two bytes per such
// byte before an edit: merged with another rewriter's edits, a fix landed
// beside its place (`=== null) {` became `=== null {`). Text that is not
// UTF-8 is therefore diffed as Latin-1, one rune per byte, and the offsets
// mapped back: byte-exact for any input.
func Edits(old, new []byte) []udiff.Edit {
	if utf8.Valid(old) && utf8.Valid(new) {
		return udiff.Bytes(old, new)
	}
	a, b := latin1(old), latin1(new)
	edits := udiff.Strings(a, b)
	// The edits are sorted and do not overlap, so their offsets only grow:
	// one pass over a maps them all to old's (one byte per rune).
	pos, n := 0, 0
	for i := range edits {
		for _, off := range []*int{&edits[i].Start, &edits[i].End} {
			for pos < *off {
				_, size := utf8.DecodeRuneInString(a[pos:])
				pos += size
				n++
			}
			*off = n
		}
		edits[i].New = unlatin1(edits[i].New)
	}
	return edits
}

// latin1 is s read as Latin-1: each byte one rune.
func latin1(s []byte) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for _, c := range s {
		b.WriteRune(rune(c))
	}
	return b.String()
}

// unlatin1 is latin1 undone: each rune (all below 256) one byte.
func unlatin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}
