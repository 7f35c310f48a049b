package gitquote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuote compares Quote with the names git itself prints
// (git ls-files quotes as the diff headers do).
func TestQuote(t *testing.T) {
	names := []string{"plain.ts", "with space.ts", "q\"uote.vue", "back\\slash.ts", "new\nline.ts", "tab\t.ts", "bell\a.ts", "del\x7f.ts", "caf\u00e9.ts", "cr\r.ts", "esc\x1b.ts"}
	for _, n := range names {
		want := n
		switch n {
		case "q\"uote.vue":
			want = `"q\"uote.vue"`
		case "back\\slash.ts":
			want = `"back\\slash.ts"`
		case "new\nline.ts":
			want = `"new\nline.ts"`
		case "caf\u00e9.ts":
			want = `"caf\303\251.ts"`
		case "del\x7f.ts":
			want = `"del\177.ts"`
		case "esc\x1b.ts":
			want = `"esc\033.ts"`
		}
		if n == "tab\t.ts" || n == "bell\a.ts" || n == "cr\r.ts" {
			continue // checked against git below
		}
		if got := Quote(n); got != want {
			t.Errorf("Quote(%q) = %s, want %s", n, got, want)
		}
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitc := func(args ...string) string {
		cmd := exec.Command(git, append([]string{"-c", "core.quotePath=true"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	gitc("init", "-q")
	gitc("add", ".")
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(gitc("ls-files"), "\n"), "\n") {
		got[line] = true
	}
	for _, n := range names {
		if !got[Quote(n)] {
			t.Errorf("git does not list %s (Quote of %q); it lists %v", Quote(n), n, got)
		}
	}
}
