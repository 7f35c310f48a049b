package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTrimLog: go test's log keeps each variable and each file inside the
// module once, with absolute paths (relative ones against the package
// folder, then the last chdir), in the order of first use; files outside
// the module, and chdirs out of it, go.
func TestTrimLog(t *testing.T) {
	pkg, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := moduleRoot(pkg)
	if root == "" {
		t.Fatal("no go.mod above", pkg)
	}
	tmp := t.TempDir()
	in := "# test log\n" +
		"getenv HOME\n" +
		"open testdata/a.txt\n" +
		"stat " + filepath.Join(tmp, "x") + "\n" +
		"getenv HOME\n" +
		"chdir " + tmp + "\n" +
		"open b.txt\n" +
		"chdir " + root + "\n" +
		"stat go.mod\n" +
		"open " + filepath.Join(pkg, "testdata/a.txt") + "\n" +
		"stat " + root + "x/go.mod\n"
	want := "# test log\n" +
		"getenv HOME\n" +
		"open " + filepath.Join(pkg, "testdata/a.txt") + "\n" +
		"chdir " + root + "\n" +
		"stat " + filepath.Join(root, "go.mod") + "\n"
	src, dst := filepath.Join(tmp, "full"), filepath.Join(tmp, "log")
	if err := os.WriteFile(src, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := trimLog(src, dst); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"no magic\n", "# test log\nstat\n", "# test log\nunlink x\n"} {
		if err := os.WriteFile(src, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := trimLog(src, dst); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
