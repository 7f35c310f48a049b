//go:build unix

package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// progressProject writes a layout-B project of n pages on major 3, each
// with a safe code fix.
func progressProject(t *testing.T, n int) string {
	dir := t.TempDir()
	files := map[string]string{
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
		"fw.config.ts": "export default defineFwConfig({})\n",
	}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("pages/p%d.vue", i)] = nullCheckPage
	}
	testtree.Map(t, dir, files)
	return dir
}

// TestProgressOnTerminal: on a terminal, check and apply show what they
// are doing on stderr, one line redrawn in place at most every 100 ms,
// and erase it before they end; the report on stdout has none of it.
func TestProgressOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	dir := progressProject(t, 60)
	// The first line is drawn at once (with the delay at 0): the step the
	// run starts with, or a later one.
	for _, c := range []struct {
		args  []string
		exit  int
		first string
	}{
		{[]string{"check", "."}, 1, `\rfwmigrate: checking (0 projects|[0-9]+ projects?, [0-9]+ files? read)(\x1b\[K|$)`},
		{[]string{"apply", "--to=4", "--dry-run", "."}, 1, `\rfwmigrate: (finding the projects|reading|planning|checking)`},
		{[]string{"apply", "--to=4", "."}, 0, `\rfwmigrate: (finding the projects|reading|planning|checking)`},
	} {
		start := time.Now()
		r := startPTY(t, dir, ptyEnv(), false, c.args...)
		if code := r.wait(); code != c.exit {
			t.Fatalf("%s: exit %d, want %d\n%s", c.args, code, c.exit, r.output())
		}
		took := time.Since(start)
		out := r.output()
		if !regexp.MustCompile(`^` + c.first).MatchString(out) {
			t.Errorf("%s: the terminal does not start with the progress (%s):\n%q", c.args, c.first, out)
		}
		if !strings.Contains(out, "\r\x1b[K") {
			t.Errorf("%s: the progress line is not erased:\n%q", c.args, out)
		}
		// Each redraw is a carriage return: at most one per 100 ms.
		if n, most := strings.Count(out, "\r\x1b[K")+strings.Count(out, "\rfwmigrate:"), int(took/progressInterval)+3; n > most {
			t.Errorf("%s: %d redraws in %v, want at most %d", c.args, n, took, most)
		}
		// Nothing of it in the report (a pipe), nor an unfinished line on
		// the terminal: the last progress line is erased before the end.
		if strings.Contains(r.stdout.String(), "fwmigrate: ") || strings.Contains(r.stdout.String(), "\r") {
			t.Errorf("%s: progress in the report:\n%s", c.args, r.stdout.String())
		}
		if i := strings.LastIndex(out, "\rfwmigrate:"); i >= 0 && !strings.Contains(out[i:], "\r\x1b[K") {
			t.Errorf("%s: the last progress line stays:\n%q", c.args, out[i:])
		}
		if c.args[0] == "apply" && c.args[2] == "--dry-run" {
			// The report of a dry run goes to stderr: after the erased line.
			if i, j := strings.LastIndex(out, "\r\x1b[K"), strings.Index(out, "Would make"); j < i {
				t.Errorf("the report was printed before the progress was erased:\n%q", out)
			}
		}
	}
	// A written apply shows its writes: the project is migrated now, so a
	// fresh one is.
	dir = progressProject(t, 200)
	r := startPTY(t, dir, ptyEnv(), false, "apply", "--to=4", ".")
	if code := r.wait(); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, r.output())
	}
	for _, s := range []string{"fwmigrate: writing fw.config.ts: ", "fwmigrate: making the code fixes of fw.config.ts: "} {
		if !strings.Contains(r.output(), s) {
			t.Logf("the terminal did not show %q (a fast machine can write between two redraws):\n%q", s, r.output())
		}
	}
}

// TestProgressNotInCI: CI set, --progress=false, or TERM=dumb: no
// progress on the terminal either.
func TestProgressNotInCI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fwmigrate on a pseudo-terminal: not under -short")
	}
	dir := progressProject(t, 20)
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{[]string{"CI=true"}, []string{"check", "."}},
		{nil, []string{"check", "--progress=false", "."}},
		{[]string{"TERM=dumb"}, []string{"check", "."}},
		{[]string{"CI=1"}, []string{"apply", "--to=4", "--dry-run", "--format=json", "."}},
	} {
		r := startPTY(t, dir, ptyEnv(c.env...), false, c.args...)
		r.wait()
		if out := r.output(); strings.Contains(out, "fwmigrate: ") {
			t.Errorf("%s %s: progress shown:\n%q", c.env, c.args, out)
		}
	}
}
