package rewrite_test

import (
	"bytes"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// TestEditsByteExact: the edits apply to old's bytes and give new, for
// UTF-8, Latin-1, Windows-1252 and mixed texts; each edit lies where the
// change is.
func TestEditsByteExact(t *testing.T) {
	for _, tc := range []struct{ old, new string }{
		{"if (data.value === null) {", "if (data.value == null) {"},
		{"// caf\xe9 \xe9\xe9\nif (data.value === null) {\n", "// caf\xe9 \xe9\xe9\nif (data.value == null) {\n"},
		{"// \x93quoted\x94 \x80\nimport x from '../a'\n", "// \x93quoted\x94 \x80\nimport x from '../../a'\n"},
		{"\xe9\xe9\xe9", "\xe9x\xe9"},
		{"é \xe9 ü", "é \xe9\xe9 ü!"},
		{"", "\xff"},
		{"\xff\xfe", ""},
	} {
		edits := rewrite.Edits([]byte(tc.old), []byte(tc.new))
		got, err := udiff.ApplyBytes([]byte(tc.old), edits)
		if err != nil || !bytes.Equal(got, []byte(tc.new)) {
			t.Errorf("Edits(%q, %q) = %+v: applied %q, %v", tc.old, tc.new, edits, got, err)
		}
		for _, e := range edits {
			if e.Start < 0 || e.End > len(tc.old) || e.Start > e.End {
				t.Errorf("Edits(%q, %q): edit %+v out of old's bytes", tc.old, tc.new, e)
			}
		}
	}
	// The edit of a one-byte change next to Latin-1 bytes is that byte.
	e := rewrite.Edits([]byte("\xe9\xe9 === \xe9"), []byte("\xe9\xe9 == \xe9"))
	if len(e) != 1 || e[0].End-e[0].Start != 1 || e[0].New != "" || e[0].Start < 3 || e[0].Start > 5 {
		t.Errorf("one '=' removed after two Latin-1 bytes: %+v", e)
	}
}

// FuzzEdits: for any two byte strings, the edits apply and give the new one.
func FuzzEdits(f *testing.F) {
	f.Add([]byte("a \xe9 b === c"), []byte("a \xe9 b == c"))
	f.Add([]byte("\x00\xff"), []byte("\xff\x00x"))
	f.Fuzz(func(t *testing.T, old, new []byte) {
		got, err := udiff.ApplyBytes(old, rewrite.Edits(old, new))
		if err != nil || !bytes.Equal(got, new) {
			t.Fatalf("Edits(%q, %q): applied %q, %v", old, new, got, err)
		}
	})
}
