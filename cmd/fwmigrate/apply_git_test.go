package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestApplyGitGuard: in a git work tree, apply refuses config files with
// uncommitted changes (modified, staged or untracked) unless --allow-dirty,
// writes clean ones, and --dry-run never refuses.
func TestApplyGitGuard(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	sh := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	const config = "export default defineFwConfig({\n  generate: { routes: ['/'] },\n})\n"
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(dir, rel))
		return string(b)
	}
	sh("init", "-q")
	tree := map[string]string{}
	for _, p := range []string{"clean", "modified", "staged", "untracked"} {
		tree[p+"/package.json"] = `{ "dependencies": { "fw": "^3.12.0" } }`
		tree[p+"/fw.config.ts"] = config
	}
	testtree.Map(t, dir, tree)
	sh("add", "clean", "modified", "staged", "untracked/package.json")
	sh("commit", "-q", "-m", "init")
	write("modified/fw.config.ts", config+"// edited\n")
	write("staged/fw.config.ts", config+"// staged\n")
	sh("add", "staged/fw.config.ts")

	args := []string{"apply", "--to=4", "--select=FW201", "."}
	stdout, stderr, code := runIn(t, dir, append(args, "--dry-run"))
	if code != 1 || strings.Count(stdout, "+++ b/") != 4 {
		t.Errorf("--dry-run on dirty files: exit %d\n%s%s", code, stdout, stderr)
	}

	stdout, _, code = runIn(t, dir, args)
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, stdout)
	}
	if !strings.Contains(read("clean/fw.config.ts"), "prerender") {
		t.Errorf("the clean file was not written:\n%s", stdout)
	}
	for _, p := range []string{"modified", "staged", "untracked"} {
		if strings.Contains(read(p+"/fw.config.ts"), "prerender") {
			t.Errorf("%s was written despite its uncommitted changes", p)
		}
		if !strings.Contains(stdout, p+"/fw.config.ts: refused, nothing written: uncommitted changes in ") {
			t.Errorf("no refusal for %s:\n%s", p, stdout)
		}
	}

	stdout, _, code = runIn(t, dir, append(args, "--allow-dirty"))
	if code != 0 {
		t.Errorf("--allow-dirty: exit %d\n%s", code, stdout)
	}
	for _, p := range []string{"modified", "staged", "untracked"} {
		if !strings.Contains(read(p+"/fw.config.ts"), "prerender") {
			t.Errorf("--allow-dirty did not write %s", p)
		}
	}

	// Outside a work tree there is no guard.
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "fw.config.ts"), []byte(config), 0o644)
	if _, _, code := runIn(t, out, args); code != 0 {
		t.Errorf("outside git: exit %d", code)
	}
}

// TestApplyGitGuardWithoutGit: in a git work tree (a .git at or above the
// project) apply must ask git about uncommitted changes: with no git on
// PATH, or a git that fails, it refuses (exit 2) and names --allow-dirty,
// which writes anyway. Outside a work tree no git is needed.
func TestApplyGitGuardWithoutGit(t *testing.T) {
	const config = "export default defineFwConfig({\n  generate: { routes: ['/'] },\n})\n"
	args := []string{"apply", "--to=4", "--select=FW201", "."}
	setup := func(repo bool) string {
		dir := t.TempDir()
		if repo {
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(dir, "app1"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "app1", "fw.config.ts"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	written := func(dir string) bool {
		b, _ := os.ReadFile(filepath.Join(dir, "app1", "fw.config.ts"))
		return string(b) != config
	}
	failing := t.TempDir()
	if err := os.WriteFile(filepath.Join(failing, "git"), []byte("#!/bin/sh\necho 'fatal: unsafe repository' >&2\nexit 128\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"no git", t.TempDir(), "but git is not on PATH (use --allow-dirty to write anyway)"},
		{"git fails", failing, "fatal: unsafe repository (use --allow-dirty to write anyway)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			dir := setup(true)
			stdout, _, code := runIn(t, dir, args)
			if code != 2 || !strings.Contains(stdout, "app1/fw.config.ts: refused, nothing written: cannot ask git whether the project has uncommitted changes: ") || !strings.Contains(stdout, c.want) {
				t.Errorf("exit %d\n%s", code, stdout)
			}
			if written(dir) {
				t.Errorf("written without git's answer")
			}
			if _, _, code := runIn(t, dir, append(args, "--allow-dirty")); code != 0 || !written(dir) {
				t.Errorf("--allow-dirty: exit %d, written %v", code, written(dir))
			}
			out := setup(false)
			if _, _, code := runIn(t, out, args); code != 0 || !written(out) {
				t.Errorf("outside a work tree: exit %d, written %v", code, written(out))
			}
		})
	}
}
