//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// guidedProject is a layout-B project on major 3 with safe fixes (the
// version step: FW701's bump of fw to major 4, FW601 in the code), one
// unsafe one left (FW203), and code that depends on a default version 4
// changes (FW603, FW609).
func guidedProject(t *testing.T) string {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"package.json":    `{"dependencies": {"fw": "^3.12.0"}}`,
		"fw.config.ts":    "export default defineFwConfig({\n  experimental: { compileTemplate: true },\n})\n",
		"pages/index.vue": nullCheckPage,
		"pages/about.vue": nullCheckPage,
	})
	return dir
}

// TestGuidedApply: on a terminal, apply shows its plan and asks before it
// writes; yes writes, no (or an empty answer, or the end of the input)
// writes nothing and exits 1.
func TestGuidedApply(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	for _, c := range []struct {
		answer string
		exit   int
		writes bool
	}{
		{"y\r", 0, true},
		{"YES\r", 0, true},
		{"n\r", 1, false},
		{"\r", 1, false},
		{"\x04", 1, false}, // ^D: the end of the input
	} {
		dir := guidedProject(t)
		before, _ := os.ReadFile(filepath.Join(dir, "package.json"))
		r := startPTY(t, dir, ptyEnv(), true, "apply", "--to=4", ".")
		r.waitFor("Write these changes? [y/N] ")
		plan := r.output()
		for _, want := range []string{
			"The plan: 1 project to rewrite.",
			"Moves:\r\n  fw.config.ts: move 1 entry (2 files) into app/: pages/",
			"Fixes, by rule:\r\n",
			"    FW601 data-null-check ",
			"    FW701 framework-behind ",
			"The code fixes edit 3 code files.",
			"Left for --unsafe (they change behaviour; not made in this run), by rule:\r\n",
			"    FW203 removed-option ",
			"    FW603 shallow-data-mutation ",
			"these pins would keep them while it is changed",
			"  `experimental.defaults.useAsyncData.deep: true` (2 places in the code)\r\n",
			"  `experimental.pendingWhenIdle: true` (2 places in the code)\r\n",
		} {
			if !strings.Contains(plan, want) {
				t.Errorf("answer %q: the plan lacks %q:\n%s", c.answer, want, plan)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "app")); err == nil {
			t.Fatalf("answer %q: written before the answer", c.answer)
		}
		r.send(c.answer)
		if code := r.wait(); code != c.exit {
			t.Errorf("answer %q: exit %d, want %d\n%s", c.answer, code, c.exit, r.output())
		}
		after, _ := os.ReadFile(filepath.Join(dir, "package.json"))
		_, err := os.Stat(filepath.Join(dir, "app", "pages", "index.vue"))
		if wrote := err == nil; wrote != c.writes || (string(after) != string(before)) != c.writes {
			t.Errorf("answer %q: wrote %v (package.json changed %v), want %v\n%s", c.answer, wrote, string(after) != string(before), c.writes, r.output())
		}
		out := r.output()
		if c.writes && !strings.Contains(out, "fw.config.ts: migrated to layout A") {
			t.Errorf("answer %q: no report after the answer:\n%s", c.answer, out)
		}
		if !c.writes && (!strings.Contains(out, "Nothing written.") || strings.Contains(out, "migrated to layout A")) {
			t.Errorf("answer %q: want 'Nothing written.' and no report:\n%s", c.answer, out)
		}
	}
}

// TestGuidedApplyNotAsked: --yes, CI, a pipe for stdout, --dry-run and
// check --fix write (or not) without a question, as before.
func TestGuidedApplyNotAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	for _, c := range []struct {
		env    []string
		all    bool
		args   []string
		exit   int
		writes bool
	}{
		{nil, true, []string{"apply", "--to=4", "--yes", "."}, 0, true},
		{nil, true, []string{"apply", "--to=4", "-y", "."}, 0, true},
		{[]string{"CI=true"}, true, []string{"apply", "--to=4", "."}, 0, true},
		{nil, false, []string{"apply", "--to=4", "."}, 0, true},
		{nil, true, []string{"apply", "--to=4", "--dry-run", "."}, 1, false},
		{nil, true, []string{"check", "--fix", "."}, 0, true},
		{nil, true, []string{"apply", "--to=4", "--format=json", "."}, 0, true},
	} {
		dir := guidedProject(t)
		r := startPTY(t, dir, ptyEnv(c.env...), c.all, c.args...)
		code := r.wait()
		out := r.output() + r.stdout.String()
		if strings.Contains(out, "[y/N]") {
			t.Errorf("%s %s: asked:\n%s", c.env, c.args, out)
		}
		if code != c.exit {
			t.Errorf("%s %s: exit %d, want %d\n%s", c.env, c.args, code, c.exit, out)
		}
		_, err := os.Stat(filepath.Join(dir, "app", "pages", "index.vue"))
		if (err == nil) != c.writes {
			t.Errorf("%s %s: wrote %v, want %v\n%s", c.env, c.args, err == nil, c.writes, out)
		}
	}
}

// TestGuidedRecovery: a project that an interrupted apply left half
// written is finished before anything is planned; the guided apply asks
// before that too.
func TestGuidedRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	for _, answer := range []string{"n\r", "y\r"} {
		dir := guidedProject(t)
		// An apply killed at its first move (TestMain's crash hook).
		crash := startPTY(t, dir, ptyEnv("FWMIGRATE_TEST_CRASH_AT=move:0", "CI=true"), false, "apply", "--to=4", ".")
		if code := crash.wait(); code != 77 {
			t.Fatalf("the crashed apply: exit %d\n%s%s", code, crash.output(), crash.stdout.String())
		}
		r := startPTY(t, dir, ptyEnv(), true, "apply", "--to=4", ".")
		r.waitFor("Finish it? [y/N] ")
		if !strings.Contains(r.output(), "An interrupted apply left 1 project half written") {
			t.Errorf("the question does not say why:\n%s", r.output())
		}
		r.send(answer)
		code := r.wait()
		out := r.output()
		if answer == "n\r" {
			if code != 1 || !strings.Contains(out, "Nothing written.") {
				t.Errorf("no: exit %d\n%s", code, out)
			}
			// Still interrupted: check says so.
			c := startPTY(t, dir, ptyEnv(), false, "check", "--format=concise", ".")
			c.wait()
			if !strings.Contains(c.stdout.String(), "FW909") {
				t.Errorf("no: the interrupted apply is not pending any more:\n%s", c.stdout.String())
			}
			continue
		}
		if code != 0 || !strings.Contains(out, "completed the interrupted apply") {
			t.Errorf("yes: exit %d\n%s", code, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "app", "pages", "index.vue")); err != nil {
			t.Errorf("yes: not finished: %v", err)
		}
	}
}

// TestGuidedGitGuard: the git guard answers before the question (issue
// 24): a project with uncommitted changes is refused in the plan shown, and
// a yes writes the clean one alone, never ending in "uncommitted changes";
// with every project dirty nothing is asked, and the refusal is the one
// apply gives without a terminal (exit 2, nothing written).
func TestGuidedGitGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	repo := func(t *testing.T, dirs ...string) string {
		root := t.TempDir()
		for _, d := range dirs {
			p := guidedProject(t)
			if err := os.Rename(p, filepath.Join(root, d)); err != nil {
				t.Fatal(err)
			}
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "init"}} {
			cmd := exec.Command(git, args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		return root
	}
	dirty := func(t *testing.T, config string) {
		if err := os.WriteFile(config, []byte("export default defineFwConfig({\n  experimental: { compileTemplate: true },\n})\n// edited\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	moved := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "app", "pages", "index.vue"))
		return err == nil
	}

	t.Run("one dirty", func(t *testing.T) {
		root := repo(t, "clean", "dirty")
		dirty(t, filepath.Join(root, "dirty", "fw.config.ts"))
		r := startPTY(t, root, ptyEnv(), true, "apply", "--to=4", ".")
		r.waitFor("Write these changes? [y/N] ")
		plan := r.output()
		for _, want := range []string{"The plan: 1 project to rewrite, 1 refused", "Refused: dirty/fw.config.ts: ", "uncommitted changes in dirty/fw.config.ts"} {
			if !strings.Contains(strings.ReplaceAll(plan, "\r\n  ", " "), want) {
				t.Errorf("the plan lacks %q:\n%s", want, plan)
			}
		}
		r.send("y\r")
		code := r.wait()
		out := r.output()[len(plan):]
		if code != 2 || !moved(filepath.Join(root, "clean")) || moved(filepath.Join(root, "dirty")) {
			t.Errorf("yes: exit %d, clean moved %v, dirty moved %v\n%s", code, moved(filepath.Join(root, "clean")), moved(filepath.Join(root, "dirty")), r.output())
		}
		if !strings.Contains(out, "clean/fw.config.ts: migrated to layout A") {
			t.Errorf("yes: the clean project is not reported written:\n%s", out)
		}
	})

	t.Run("all dirty", func(t *testing.T) {
		root := repo(t, "dirty")
		dirty(t, filepath.Join(root, "dirty", "fw.config.ts"))
		r := startPTY(t, root, ptyEnv(), true, "apply", "--to=4", ".")
		r.send("n\r") // read only if it asks (it must not): then no
		code := r.wait()
		out := r.output()
		if strings.Contains(out, "[y/N]") {
			t.Errorf("asked with nothing to write:\n%s", out)
		}
		if code != 2 || moved(filepath.Join(root, "dirty")) || !strings.Contains(strings.ReplaceAll(out, "\r\n", " "), "uncommitted changes in dirty/fw.config.ts") {
			t.Errorf("exit %d, moved %v\n%s", code, moved(filepath.Join(root, "dirty")), out)
		}
		// As without a terminal.
		stdout, stderr, pipeCode := runIn(t, root, []string{"apply", "--to=4", "."})
		if pipeCode != code || !strings.Contains(stdout+stderr, "uncommitted changes in dirty/fw.config.ts") {
			t.Errorf("in a pipe: exit %d (%d on the terminal)\n%s%s", pipeCode, code, stdout, stderr)
		}
	})
}
