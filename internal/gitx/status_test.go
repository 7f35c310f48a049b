package gitx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir for a test's setup, as a user would.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestStatusTouches: for every path of a work tree with every kind of
// change (modified, staged, deleted, renamed, untracked in untracked
// folders, odd names), and for folders and missing paths, Status.Touches
// says what `git status --porcelain -- path` says: something or nothing.
func TestStatusTouches(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	gitIn(t, top, "init", "-q")
	files := []string{"a/clean.ts", "a/mod.ts", "a/staged.ts", "b/gone.ts", "b/old.ts", "c/d/deep.ts", "sp ace/caf\u00e9 x.ts", "q\"uote/n.ts", "top.ts"}
	for _, f := range files {
		write(t, filepath.Join(top, f), "x\n")
	}
	write(t, filepath.Join(top, ".gitignore"), "*.log\n")
	gitIn(t, top, "add", ".")
	gitIn(t, top, "commit", "-q", "-m", "init")
	write(t, filepath.Join(top, "a/mod.ts"), "y\n")
	write(t, filepath.Join(top, "a/staged.ts"), "y\n")
	gitIn(t, top, "add", "a/staged.ts")
	os.Remove(filepath.Join(top, "b/gone.ts"))
	os.MkdirAll(filepath.Join(top, "e"), 0o755)
	gitIn(t, top, "mv", "b/old.ts", "e/new.ts")
	write(t, filepath.Join(top, "u/v/w/new.ts"), "n\n")
	write(t, filepath.Join(top, "c/d/untracked.ts"), "n\n")
	write(t, filepath.Join(top, "sp ace/caf\u00e9 y.ts"), "n\n")
	write(t, filepath.Join(top, "c/ignored.log"), "n\n")

	real, _ := filepath.EvalSymlinks(top)
	st, err := ReadStatus(real)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"", "a", "a/clean.ts", "a/mod.ts", "a/staged.ts", "a/missing.ts", "b", "b/gone.ts", "b/old.ts", "e", "e/new.ts",
		"c", "c/d", "c/d/deep.ts", "c/d/untracked.ts", "c/ignored.log", "u", "u/v", "u/v/w", "u/v/w/new.ts", "u/v/w/missing.ts", "u/x",
		"sp ace", "sp ace/caf\u00e9 x.ts", "sp ace/caf\u00e9 y.ts", "q\"uote", "q\"uote/n.ts", "top.ts", "nothing/here.ts"}
	touched := 0
	for _, p := range paths {
		spec := p
		if spec == "" {
			spec = "."
		}
		want := strings.TrimSpace(gitIn(t, real, "status", "--porcelain", "--", spec)) != ""
		if got := st.Touches(p); got != want {
			t.Errorf("Touches(%q) = %v, git status -- %q says %v", p, got, spec, want)
		}
		if want {
			touched++
		}
	}
	if touched < 10 || touched == len(paths) {
		t.Errorf("%d of %d paths touched: the test shows nothing", touched, len(paths))
	}
}

// TestReposFind: Repos answers as Find does for directories of a work
// tree and of one nested in it, and asks git once per work tree; a
// directory that looks like a git directory is refused as Find refuses
// it.
func TestReposFind(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	top, _ = filepath.EvalSymlinks(top)
	gitIn(t, top, "init", "-q")
	inner := filepath.Join(top, "vendor", "inner")
	write(t, filepath.Join(inner, "x.ts"), "x\n")
	gitIn(t, inner, "init", "-q")
	dirs := []string{top, filepath.Join(top, "a"), filepath.Join(top, "a", "b"), filepath.Join(top, "c"), inner, filepath.Join(inner, "d")}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(top, "bad")
	for _, f := range []string{"HEAD", "objects/.keep", "refs/.keep"} {
		write(t, filepath.Join(bad, f), "x")
	}

	// A git that logs its runs.
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	write(t, filepath.Join(bin, "git"), "#!/bin/sh\necho run >> '"+log+"'\nexec '"+realGit+"' \"$@\"\n")
	os.Chmod(filepath.Join(bin, "git"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GIT_DISCOVERY_ACROSS_FILESYSTEM", "")

	var r Repos
	for _, d := range dirs {
		want1, want2, wantErr := Find(d)
		os.Remove(log)
		got1, got2, gotErr := r.Find(d)
		if got1 != want1 || got2 != want2 || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("Repos.Find(%s) = %q, %q, %v; Find: %q, %q, %v", d, got1, got2, gotErr, want1, want2, wantErr)
		}
	}
	// Asked again: no git at all.
	os.Remove(log)
	for _, d := range dirs {
		r.Find(d)
	}
	if b, err := os.ReadFile(log); err == nil {
		t.Errorf("git ran %d times for directories of work trees already found", strings.Count(string(b), "run"))
	}
	if _, _, err := r.Find(bad); err == nil {
		t.Errorf("a folder that looks like a git directory: no error")
	}
}
