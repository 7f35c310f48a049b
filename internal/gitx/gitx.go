// Package gitx runs git on repositories that fwmigrate does not trust.
//
// git reads the repository's config, and some of its settings name
// commands that git runs: core.fsmonitor (on every status), hooks, pagers,
// external diffs. A clone cannot set them in its .git/config, but a
// project folder that holds HEAD, objects/ and refs/ as committed files is
// taken by git for a git directory when git is started in it or below it,
// config included. So fwmigrate finds the work tree itself (Top, the
// nearest .git), refuses a folder on the way that looks like a git
// directory (Embedded), and runs git (Command) with those settings off and
// its search for the repository stopped above the top it expects.
package gitx

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Top is the nearest directory at or above dir (absolute) that holds a
// .git entry, "" when there is none: dir is not in a git work tree.
func Top(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// LooksLikeGitDir reports whether git takes dir for a git directory when
// it searches for the repository: a HEAD, and objects/ and refs/ (or a
// commondir file, which points git at them elsewhere).
func LooksLikeGitDir(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err != nil {
		return false
	}
	if _, err := os.Lstat(filepath.Join(dir, "commondir")); err == nil {
		return true
	}
	for _, sub := range []string{"objects", "refs"} {
		if _, err := os.Lstat(filepath.Join(dir, sub)); err != nil {
			return false
		}
	}
	return true
}

// Embedded returns the first directory from dir up to top (not top
// itself, whose .git git takes first) that looks like a git directory, ""
// when there is none. With top "", dir alone is looked at. git, started in
// dir, would take that directory for the repository and obey its config.
func Embedded(dir, top string) string {
	d := filepath.Clean(dir)
	if top == "" {
		if LooksLikeGitDir(d) {
			return d
		}
		return ""
	}
	top = filepath.Clean(top)
	for d != top {
		if LooksLikeGitDir(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return ""
}

// EmbeddedError is a project folder (or a folder between it and the top of
// its work tree) that looks like a git directory.
type EmbeddedError struct{ Dir string }

func (e *EmbeddedError) Error() string {
	return fmt.Sprintf("%s looks like a git directory (it holds HEAD, objects/ and refs/): git would take it for the repository and run the commands its config names, so fwmigrate does not run git there nor write to it (remove those entries if they are not meant to be there)", e.Dir)
}

// safeConfig turns off every setting of the repository's config that names
// a command git could run for the subcommands fwmigrate uses (status,
// rev-parse), and the pager.
var safeConfig = []string{
	"--no-pager",
	"--no-optional-locks", // status writes no index: apply's guard writes nothing
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.pager=cat",
	"-c", "diff.external=",
	"-c", "status.submoduleSummary=false",
}

// Command is git with args, run in dir, safely: the repository's commands
// off (safeConfig), no pager, no prompt, and git's search for the
// repository stopped above top (GIT_CEILING_DIRECTORIES), so that it finds
// the .git of top and nothing above. GIT_DIR and GIT_WORK_TREE from the
// environment are dropped: the repository is the one of dir.
func Command(dir, top string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append(append([]string{}, safeConfig...), args...)...)
	cmd.Dir = dir
	env := make([]string, 0, len(os.Environ())+4)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_PAGER", "PAGER", "GIT_EXTERNAL_DIFF", "GIT_OPTIONAL_LOCKS", "GIT_TERMINAL_PROMPT":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_PAGER=cat", "PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	if parent := filepath.Dir(top); top != "" && parent != top {
		env = append(env, "GIT_CEILING_DIRECTORIES="+parent)
	}
	cmd.Env = env
	return cmd
}

// Find returns the top of the git work tree that holds dir and its git
// directory, as git itself finds them from dir (rev-parse, run by
// Command); "" for both when dir is in no work tree (no .git at or above
// it). A folder on the way that looks like a git directory is an
// *EmbeddedError, and git is not run. So is a git that finds another top
// than the nearest .git.
func Find(dir string) (top, gitDir string, err error) {
	real, expect, err := locate(dir)
	if err != nil || expect == "" {
		return "", "", err
	}
	return findAt(real, expect)
}

// locate returns dir with its symlinks resolved and the top its nearest
// .git names ("" when none), before git is asked: a folder on the way
// that looks like a git directory is an *EmbeddedError.
func locate(dir string) (real, expect string, err error) {
	real, err = filepath.EvalSymlinks(dir)
	if err != nil {
		return "", "", err
	}
	expect = Top(real)
	if d := Embedded(real, expect); d != "" {
		return "", "", &EmbeddedError{Dir: d}
	}
	return real, expect, nil
}

// findAt is Find once locate has answered: git's rev-parse from real,
// whose nearest .git is at expect.
func findAt(real, expect string) (top, gitDir string, err error) {
	cmd := Command(real, expect, "rev-parse", "--show-toplevel", "--absolute-git-dir")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", "", err
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", "", errors.New(msg)
		}
		return "", "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("git rev-parse: unexpected answer %q", out)
	}
	top, gitDir = lines[0], lines[1]
	if rt, err := filepath.EvalSymlinks(top); err != nil || rt != expect {
		return "", "", fmt.Errorf("git finds the work tree at %s, not at %s where the .git is", top, expect)
	}
	return expect, gitDir, nil
}
