package rewrite_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rewrite"
)

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
			d := rewrite.Diff(name, []byte(c.old), []byte(c.new))
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
	if d := rewrite.Diff("x", []byte("same"), []byte("same")); d != "" {
		t.Errorf("equal texts give %q", d)
	}
}
