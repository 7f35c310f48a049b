//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The tests of what fwmigrate does on a terminal (progress, the guided
// apply) run it on a pseudo-terminal: the test binary is fwmigrate when
// its argv[0] says so (TestMain), and testscript.Main put a copy named
// fwmigrate on PATH.

// ptyRun is fwmigrate running with its stderr (and, for the guided mode,
// its stdin and stdout) on a pseudo-terminal.
type ptyRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	ptmx   *os.File
	stdout bytes.Buffer // when stdout is a pipe

	mu   sync.Mutex
	out  bytes.Buffer // what the terminal got
	read chan struct{}
}

// ptyEnv is the environment of a run on a terminal: no CI, no COLUMNS,
// a TERM that is not dumb, progress shown at once.
func ptyEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CI", "COLUMNS", "TERM", "NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "TERM=xterm", "NO_COLOR=1", "FWMIGRATE_TEST_PROGRESS_DELAY=0")
	return append(env, extra...)
}

// startPTY runs fwmigrate args in dir; all puts stdin and stdout on the
// terminal too (else stdout is a pipe and stdin is empty).
func startPTY(t *testing.T, dir string, env []string, all bool, args ...string) *ptyRun {
	t.Helper()
	bin, err := exec.LookPath("fwmigrate")
	if err != nil {
		t.Skipf("fwmigrate is not on PATH (testscript.Main puts it there): %v", err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, ptmx: ptmx, read: make(chan struct{})}
	r.cmd = exec.Command(bin, args...)
	r.cmd.Dir = dir
	r.cmd.Env = env
	r.cmd.Stderr = tty
	if all {
		r.cmd.Stdin, r.cmd.Stdout = tty, tty
	} else {
		r.cmd.Stdout = &r.stdout
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	go func() {
		defer close(r.read)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			r.mu.Lock()
			r.out.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				return // EIO once the child has closed the terminal
			}
		}
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		ptmx.Close()
	})
	return r
}

// output is what the terminal got so far.
func (r *ptyRun) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// waitFor waits until the terminal got s, and fails the test if it does
// not within a minute (or the run ends without it).
func (r *ptyRun) waitFor(s string) {
	r.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if strings.Contains(r.output(), s) {
			return
		}
		select {
		case <-r.read:
			if strings.Contains(r.output(), s) {
				return
			}
			r.t.Fatalf("the run ended without printing %q:\n%s", s, r.output())
		case <-time.After(20 * time.Millisecond):
		}
	}
	r.t.Fatalf("no %q on the terminal within a minute:\n%s", s, r.output())
}

// send types s on the terminal.
func (r *ptyRun) send(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.ptmx, s); err != nil {
		r.t.Fatal(err)
	}
}

// wait waits for the run's end and returns its exit status.
func (r *ptyRun) wait() int {
	r.t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		r.t.Fatalf("the run did not end:\n%s", r.output())
	}
	select {
	case <-r.read:
	case <-time.After(10 * time.Second):
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return 0
}
