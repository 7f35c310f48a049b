//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A binary killed by a signal: node ends by the same signal, so that the
// shell (or CI) sees a killed command, not a clean exit.
func TestLauncherReraisesSignal(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	installPlatform(t, proj, host, testVersion)
	for name, sig := range map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT} {
		cmd := exec.Command("node", launcher(proj), "kill", name)
		cmd.Dir = proj
		cmd.Env = launcherEnv()
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: %v", sig, err)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("binary killed by %v: node ended with %v (signaled %v, exit %d)", sig, ws.Signal(), ws.Signaled(), ws.ExitStatus())
		}
	}
}

// A signal sent to node alone (kill, a CI timeout) reaches the binary, and
// the binary's own exit status comes back.
func TestLauncherForwardsSignal(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	installPlatform(t, proj, host, testVersion)
	cmd := exec.Command("node", launcher(proj), "trap")
	cmd.Dir = proj
	cmd.Env = launcherEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a group to kill whole on failure
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() { // never hang the test on a launcher that does not forward
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // node, sh and sleep
		}
	}()
	r := bufio.NewReader(stdout)
	var before strings.Builder
	for {
		line, err := r.ReadString('\n')
		before.WriteString(line)
		if line == "ready\n" {
			break
		}
		if err != nil {
			t.Fatalf("the binary never got ready: %v\n%s", err, before.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	err = cmd.Wait()
	if string(rest) != "got TERM\n" || cmd.ProcessState.ExitCode() != 7 {
		t.Errorf("after SIGTERM to node: stdout %q, exit %d (%v); want the binary's \"got TERM\" and exit 7", rest, cmd.ProcessState.ExitCode(), err)
	}
}
