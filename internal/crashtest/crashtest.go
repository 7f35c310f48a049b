// Package crashtest is the harness of the tests that kill a write at a
// chosen point, as kill -9 would: the test binary runs itself again as a
// child whose hook exits at that point, and the test then looks at what the
// child left. txn's and migrate's crash tests share it.
package crashtest

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// Status is the child's exit status at the chosen point.
const Status = 77

// The child's environment: the folder it works in, the point at which it
// exits (point:index), and a free flag for what the test asks of it.
const (
	envDir  = "FWMIGRATE_CRASHTEST_DIR"
	envAt   = "FWMIGRATE_CRASHTEST_AT"
	envFlag = "FWMIGRATE_CRASHTEST_FLAG"
)

// Main is a crash-testing package's TestMain. In the child it runs child on
// its folder, with the hook that exits at the chosen point and the flag the
// test set, and exits with child's status (0: the run ended without reaching
// the point; 2: it failed). In the test it gives the tests, and so their
// children, a user state folder of their own (journals of plans outside git
// and run records go there), then runs them.
func Main(m *testing.M, child func(dir string, flag bool, hook func(point string, i int)) int) {
	if dir := os.Getenv(envDir); dir != "" {
		point, idx, _ := strings.Cut(os.Getenv(envAt), ":")
		at, _ := strconv.Atoi(idx)
		hook := func(p string, i int) {
			if p == point && i == at {
				os.Exit(Status)
			}
		}
		os.Exit(child(dir, os.Getenv(envFlag) != "", hook))
	}
	// A -short run makes its files on a tmpfs where there is one: the
	// children die at their points either way (a kill, not a power cut),
	// and the full run keeps the real file system.
	flag.Parse()
	testtree.TmpfsWhenShort()
	state, err := os.MkdirTemp("", "crashtest-state")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := testtree.Run(m)
	os.RemoveAll(state)
	os.Exit(code)
}

// Crash runs the child in dir, to die at point:i (with flag), and fails
// the test unless it died there.
func Crash(t testing.TB, dir, point string, i int, flag bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envDir+"="+dir, fmt.Sprintf("%s=%s:%d", envAt, point, i))
	if flag {
		cmd.Env = append(cmd.Env, envFlag+"=1")
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != Status {
		t.Fatalf("the child did not crash at %s:%d: %v\n%s", point, i, err, out)
	}
}

// Points runs body in a parallel subtest (most of a crash test waits for
// its syncs) for each kill point of points, twice: the run carried on, then
// undone. at says the point's name and index; the subtest is named
// "name:i", and "name:i/"+undo for the second, and body gets that name.
func Points[P any](t *testing.T, points []P, at func(P) (string, int), undo string, body func(t *testing.T, name string, p P, back bool)) {
	for _, p := range points {
		for _, back := range []bool{false, true} {
			point, i := at(p)
			name := fmt.Sprintf("%s:%d", point, i)
			if back {
				name += "/" + undo
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				body(t, name, p, back)
			})
		}
	}
}
