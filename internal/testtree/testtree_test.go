package testtree

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

func TestWrite(t *testing.T) {
	ar := txtar.Parse([]byte("-- in/a/b.txt --\nhello\n-- in/empty/.keep --\n-- out/c.txt --\nskipped\n"))
	dir := t.TempDir()
	got := Write(t, dir, ar, "in/")
	if len(got) != 1 || string(got["a/b.txt"]) != "hello\n" {
		t.Errorf("written: %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a", "b.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("a/b.txt: %q, %v", b, err)
	}
	if st, err := os.Stat(filepath.Join(dir, "empty")); err != nil || !st.IsDir() {
		t.Errorf(".keep did not make its directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "empty", ".keep")); !os.IsNotExist(err) {
		t.Errorf(".keep was written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); !os.IsNotExist(err) {
		t.Errorf("a file outside the prefix was written: %v", err)
	}
}

func TestFilesAndMap(t *testing.T) {
	dir := t.TempDir()
	got := Files(t, dir, []txtar.File{{Name: "d/"}, {Name: "x/y.txt", Data: []byte("y")}})
	if len(got) != 1 || string(got["x/y.txt"]) != "y" {
		t.Errorf("written: %q", got)
	}
	if st, err := os.Stat(filepath.Join(dir, "d")); err != nil || !st.IsDir() {
		t.Errorf("a name ending in / did not make a directory: %v", err)
	}
	got = Map(t, dir, map[string]string{"m/n.txt": "n", "m/o/.keep": ""})
	if len(got) != 1 || string(got["m/n.txt"]) != "n" {
		t.Errorf("Map wrote %q", got)
	}
	if st, err := os.Stat(filepath.Join(dir, "m", "o")); err != nil || !st.IsDir() {
		t.Errorf("Map: .keep did not make its directory: %v", err)
	}
}
