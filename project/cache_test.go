package project_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"github.com/fwmigrate/fwmigrate/project"
)

func TestCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ts")
	if err := os.WriteFile(path, []byte("const a = useFetch('/x')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := project.NewCache()
	one, err := c.ReadSource(path)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := c.ReadSource(path)
	if !same(one, two) {
		t.Error("an unchanged file is read again")
	}
	calls := 0
	fact := func() bool { calls++; return true }
	c.Memo(path, one, "k", fact)
	c.Memo(path, two, "k", fact)
	if calls != 1 {
		t.Errorf("a fact of the same text computed %d times", calls)
	}
	// The same size, another text, a later time: read and computed anew.
	if err := os.WriteFile(path, []byte("const b = useFetch('/y')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	// Until the disk is said to change (ForgetFolders: the editor's file
	// events), the text read is the disk's, without a stat.
	if kept, _ := c.ReadSource(path); !same(kept, one) {
		t.Errorf("a file read again before the disk was said to change: %q", kept)
	}
	c.ForgetFolders()
	three, _ := c.ReadSource(path)
	if string(three) != "const b = useFetch('/y')\n" {
		t.Fatalf("a changed file is not read again: %q", three)
	}
	c.Memo(path, three, "k", fact)
	if calls != 2 {
		t.Errorf("a fact of a new text is not computed again (%d calls)", calls)
	}

	// Replaced by another file (a new inode), same size and time: read anew.
	tmp := filepath.Join(dir, "b.ts")
	if err := os.WriteFile(tmp, []byte("const c = useFetch('/z')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(tmp, later, later)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	c.ForgetFolders()
	if four, _ := c.ReadSource(path); string(four) != "const c = useFetch('/z')\n" {
		t.Errorf("a file replaced by another of the same size and time is not read again: %q", four)
	}

	// An empty file has facts too (nothing to point at: same() holds for
	// any two empty slices).
	empty := filepath.Join(dir, "empty.ts")
	if c.Memo(empty, nil, "k", func() bool { return true }) != true || c.Memo(empty, []byte{}, "k", func() bool { return false }) != true {
		t.Error("an empty text's fact")
	}

	// What a check keeps for the next: taken once.
	c.Keep("k", 1)
	if c.Take("k") != 1 || c.Take("k") != nil {
		t.Error("Keep and Take: not taken once")
	}
	c.Keep("k", 2)

	// Dropped once not asked for.
	c.Next(1)
	c.Next(1)
	if c.Len() != 0 {
		t.Errorf("%d entries kept past their checks", c.Len())
	}
	if c.Take("k") != nil {
		t.Error("a value kept past its checks")
	}
}

// same reports whether a and b are the same slice: the same bytes at the
// same address (cache.go's test of a text read once).
func same(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}
