package rewrite

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o600, 0o644, 0o755} {
		p := filepath.Join(dir, "fw.config.ts")
		if err := os.WriteFile(p, []byte("old"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // umask aside
			t.Fatal(err)
		}
		if err := WriteFile(p, []byte("new")); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "new" {
			t.Fatalf("content %q, %v", b, err)
		}
		info, _ := os.Stat(p)
		if info.Mode().Perm() != mode {
			t.Errorf("mode %v, want %v", info.Mode().Perm(), mode)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	// A symbolic link stays a link; its target gets the new text.
	target := filepath.Join(dir, "real.ts")
	link := filepath.Join(dir, "link.ts")
	os.WriteFile(target, []byte("a"), 0o640)
	if err := os.Symlink("real.ts", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := WriteFile(link, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "b" {
		t.Errorf("target holds %q", b)
	}
	if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v", info.Mode().Perm())
	}

	// Errors name the file and leave nothing behind.
	if err := WriteFile(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("writing over a directory: %v", err)
	}
	missing := filepath.Join(dir, "no", "such", "fw.config.ts")
	if err := WriteFile(missing, []byte("x")); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("writing into a missing directory: %v", err)
	}
}

// TestDiffGitApply checks that git apply accepts Diff's output and that it
// reproduces the new text byte for byte: line endings, BOM, final newline.
func TestDiffGitApply(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	cases := []struct{ name, old, new string }{
		{"lf", "a\nb\nc\n", "a\nB\nc\nd\n"},
		{"crlf", "a\r\nb\r\nc\r\n", "a\r\nb\r\n  x: 1,\r\nc\r\n"},
		{"bom", "\uFEFFexport default {\n}\n", "\uFEFFexport default {\n  a: 1,\n}\n"},
		{"no final newline", "a\nb", "a\nc"},
		{"add final newline", "a\nb", "a\nb\n"},
		{"first and last line", "x\n1\n2\n3\n4\n5\n6\n7\n8\ny\n", "X\n1\n2\n3\n4\n5\n6\n7\n8\nY\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			run := func(args ...string) {
				cmd := exec.Command(git, args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			run("init", "-q")
			name := filepath.Join("apps", "web", "fw.config.ts")
			os.MkdirAll(filepath.Join(dir, "apps", "web"), 0o755)
			os.WriteFile(filepath.Join(dir, name), []byte(c.old), 0o644)
			d := Diff(name, []byte(c.old), []byte(c.new))
			if !strings.HasPrefix(d, "--- a/apps/web/fw.config.ts\n+++ b/apps/web/fw.config.ts\n") {
				t.Fatalf("header:\n%s", d)
			}
			os.WriteFile(filepath.Join(dir, "p.diff"), []byte(d), 0o644)
			run("apply", "p.diff")
			got, _ := os.ReadFile(filepath.Join(dir, name))
			if string(got) != c.new {
				t.Errorf("git apply gave %q, want %q\n%s", got, c.new, d)
			}
		})
	}
	if d := Diff("x", []byte("same"), []byte("same")); d != "" {
		t.Errorf("equal texts give %q", d)
	}
}
