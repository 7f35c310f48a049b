package gitx

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEmbedded: a folder with HEAD, objects/ and refs/ (or HEAD and a
// commondir) is found at the project or between it and the top of the work
// tree; the top itself (whose .git git takes first) is not looked at, nor
// is anything above it; HEAD alone is not a git directory.
func TestEmbedded(t *testing.T) {
	top := t.TempDir()
	write(t, filepath.Join(top, ".git", "HEAD"), "ref: refs/heads/main\n")
	for _, f := range []string{"HEAD", "objects/.keep", "refs/.keep"} {
		write(t, filepath.Join(top, f), "x") // the top looks like one too: its .git wins
		write(t, filepath.Join(top, "a", f), "x")
	}
	write(t, filepath.Join(top, "c", "HEAD"), "x")
	write(t, filepath.Join(top, "c", "commondir"), "../.git\n")
	write(t, filepath.Join(top, "d", "HEAD"), "x")
	write(t, filepath.Join(top, "d", "objects", ".keep"), "x")
	for _, c := range []struct{ dir, want string }{
		{top, ""},
		{filepath.Join(top, "a"), filepath.Join(top, "a")},
		{filepath.Join(top, "a", "b"), filepath.Join(top, "a")},
		{filepath.Join(top, "c"), filepath.Join(top, "c")},
		{filepath.Join(top, "d"), ""},
	} {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if got := Embedded(c.dir, Top(c.dir)); got != c.want {
			t.Errorf("Embedded(%s) = %q, want %q", c.dir, got, c.want)
		}
	}
	// Outside any work tree only the folder itself is looked at.
	alone := t.TempDir()
	for _, f := range []string{"HEAD", "objects/.keep", "refs/.keep"} {
		write(t, filepath.Join(alone, f), "x")
	}
	if Top(alone) != "" {
		t.Skip("the temporary folder lies in a git work tree")
	}
	if got := Embedded(alone, ""); got != alone {
		t.Errorf("Embedded(%s, \"\") = %q", alone, got)
	}
	if got := Embedded(filepath.Join(alone, "objects"), ""); got != "" {
		t.Errorf("a folder below one looked at: %q", got)
	}
}

// TestCommand: git runs with the repository's commands off, no pager, the
// search for the repository stopped above top, and without GIT_DIR or
// GIT_WORK_TREE from the environment.
func TestCommand(t *testing.T) {
	t.Setenv("GIT_DIR", "/elsewhere/.git")
	t.Setenv("GIT_WORK_TREE", "/elsewhere")
	t.Setenv("GIT_CEILING_DIRECTORIES", "")
	cmd := Command("/w/repo/sub", "/w/repo", "status")
	args := strings.Join(cmd.Args, " ")
	for _, want := range []string{"--no-pager", "-c core.fsmonitor=false", "-c core.hooksPath=/dev/null", "-c core.pager=cat", "-c diff.external=", " status"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if i := strings.Index(args, " status"); i < strings.Index(args, "core.fsmonitor") {
		t.Errorf("the settings come after the subcommand: %q", args)
	}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_WORK_TREE=") {
			t.Errorf("environment keeps %s", kv)
		}
	}
	for _, want := range []string{"GIT_CEILING_DIRECTORIES=/w", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0"} {
		if !slices.Contains(cmd.Env, want) {
			t.Errorf("environment lacks %s", want)
		}
	}
	if cmd.Dir != "/w/repo/sub" {
		t.Errorf("dir %q", cmd.Dir)
	}
}

// TestFind: git finds the work tree of the nearest .git from a folder
// below it; a folder that looks like a git directory on the way is an
// EmbeddedError and git does not run; no .git above is no work tree.
func TestFind(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", top).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	sub := filepath.Join(top, "apps", "shop")
	write(t, filepath.Join(sub, "fw.config.ts"), "")
	gotTop, gitDir, err := Find(sub)
	if err != nil || gotTop != top || gitDir != filepath.Join(top, ".git") {
		t.Fatalf("Find: %q %q %v", gotTop, gitDir, err)
	}
	for _, f := range []string{"HEAD", "objects/.keep", "refs/.keep"} {
		write(t, filepath.Join(top, "apps", f), "x")
	}
	var ee *EmbeddedError
	if _, _, err := Find(sub); !errors.As(err, &ee) || ee.Dir != filepath.Join(top, "apps") {
		t.Fatalf("Find through a git-directory-like folder: %v", err)
	}
	alone := t.TempDir()
	if Top(alone) == "" {
		if gotTop, _, err := Find(alone); gotTop != "" || err != nil {
			t.Fatalf("Find outside a work tree: %q %v", gotTop, err)
		}
	}
}
