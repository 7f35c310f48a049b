package migrate_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/gitx"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// git runs git in dir for a test's setup, as a user would (not through
// gitx).
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// fsmonitorHook writes a script that creates marker when git runs it, and
// returns its path.
func fsmonitorHook(t *testing.T, marker string) string {
	t.Helper()
	hook := filepath.Join(t.TempDir(), "fsmonitor.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return hook
}

// TestGitGuardRunsNoRepositoryCommand: the guard's git status runs no
// core.fsmonitor command, even one the repository's own config sets (which
// a plain git status runs: checked first, so that the test shows
// something).
func TestGitGuardRunsNoRepositoryCommand(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	testtree.WriteMap(t, dir, map[string]string{"fw.config.ts": "export default {}\n"})
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "init")
	marker := filepath.Join(t.TempDir(), "ran")
	git(t, dir, "config", "core.fsmonitor", fsmonitorHook(t, marker))

	git(t, dir, "status", "--porcelain")
	if _, err := os.Stat(marker); err != nil {
		t.Skip("this git does not run core.fsmonitor on status: nothing to show")
	}
	os.Remove(marker)

	dirty, err := migrate.GitDirty(dir, []string{filepath.Join(dir, "fw.config.ts")})
	if err != nil || len(dirty) != 0 {
		t.Fatalf("dirty %v, %v", dirty, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("git status ran the repository's core.fsmonitor")
	}
}

// writeEmbeddedGitDir writes into dir what git takes for a git directory whose
// work tree is dir and whose core.fsmonitor creates marker: HEAD, config,
// objects/ and refs/, as a repository can commit them.
func writeEmbeddedGitDir(t *testing.T, dir, marker string) {
	t.Helper()
	testtree.WriteMap(t, dir, map[string]string{
		"HEAD":                 "ref: refs/heads/main\n",
		"config":               "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = " + fsmonitorHook(t, marker) + "\n",
		"objects/info/.keep":   "",
		"refs/heads/.keep":     "",
		"fw.config.ts":         "export default defineFwConfig({\n  generate: { routes: ['/'] },\n})\n",
		"package.json":         `{ "devDependencies": { "fw": "^3.12.0" } }`,
		"pages/index.vue":      "<template><p>hi</p></template>\n",
		"components/Hello.vue": "<template><p>hello</p></template>\n",
	})
}

// TestEmbeddedGitDirRefused: a project folder that looks like a git
// directory (committed in a real repository, or alone) is refused by apply
// before git runs: exit status 2, the folder named, nothing written, and
// its core.fsmonitor never runs (a plain git status there runs it:
// checked first). --allow-dirty, which runs no git, refuses it too.
func TestEmbeddedGitDirRefused(t *testing.T) {
	for _, inRepo := range []bool{true, false} {
		name := map[bool]string{true: "in a repository", false: "alone"}[inRepo]
		t.Run(name, func(t *testing.T) {
			top := t.TempDir()
			proj := filepath.Join(top, "shop")
			marker := filepath.Join(t.TempDir(), "ran")
			if inRepo {
				git(t, top, "init", "-q")
			}
			writeEmbeddedGitDir(t, proj, marker)
			if inRepo {
				git(t, top, "add", ".")
				git(t, top, "commit", "-q", "-m", "init")
			}
			git(t, proj, "status", "--porcelain")
			if _, err := os.Stat(marker); err != nil {
				t.Skip("this git does not run the embedded core.fsmonitor: nothing to show")
			}
			os.Remove(marker)

			var ee *gitx.EmbeddedError
			if _, err := migrate.GitDirty(proj, []string{filepath.Join(proj, "fw.config.ts")}); !errors.As(err, &ee) || ee.Dir != proj {
				t.Fatalf("GitDirty: %v", err)
			}
			before := snapshotTree(t, top)
			for _, allowDirty := range []bool{false, true} {
				p := project.NewLoader().Load(filepath.Join(proj, "fw.config.ts"), "fw.config.ts")
				res := migrate.Run([]*project.Project{p}, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, AllowDirty: allowDirty})
				if len(res) != 1 || !res[0].Fatal || res[0].Written || !strings.Contains(res[0].Err, "looks like a git directory (it holds HEAD, objects/ and refs/)") {
					t.Fatalf("allow-dirty %v: %+v", allowDirty, res[0])
				}
			}
			if d := diffTrees(before, snapshotTree(t, top)); d != "" {
				t.Fatalf("the project was written:\n%s", d)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the embedded core.fsmonitor ran")
			}
		})
	}
}
