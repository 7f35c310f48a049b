//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestSpecialFiles names configs that are not regular files directly on the
// command line and finds them in a walk: a FIFO (reading would block until a
// writer comes), a link to /dev/zero (reading would never end) and a
// directory. Each is refused from its file type, before any read.
func TestSpecialFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	testtree.Map(t, dir, map[string]string{
		"good/fw.config.ts": "export default defineFwConfig({ generate: { routes: ['/'] } })\n",
		"fifo/":             "",
		"zero/":             "",
		"dir/fw.config.ts/": "",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo", "fw.config.ts"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero", "fw.config.js")); err != nil {
		t.Fatal(err)
	}
	// The link's target as the finding names it: relative to the link's
	// folder (the temporary folder may be /dev/shm, see
	// testtree.TmpfsWhenShort, where it is ../zero, not ../dev/zero).
	real, err := filepath.EvalSymlinks(filepath.Join(dir, "zero"))
	if err != nil {
		t.Fatal(err)
	}
	zero, err := filepath.Rel(real, "/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	wants := map[string]string{
		"repo/fifo/fw.config.ts: error FW904 [unreadable-file] cannot read: not a regular file but a named pipe (FIFO)": "",
		// /dev/zero lies outside the checkout: not read at all (the
		// reader's refusal of devices is tested in project).
		"repo/zero/fw.config.js: warning FW910 [config-outside-project] fw.config.js is a symlink to " + zero + ", outside the checkout: not read, so not checked": "",
		"repo/dir/fw.config.ts: error FW904 [unreadable-file] is a directory, not a config file":                                                                   "",
		"repo/good/fw.config.ts:1:45: warning FW201": "",
	}
	for _, args := range [][]string{
		nil, // walked
		{"repo/fifo/fw.config.ts", "repo/zero/fw.config.js", "repo/dir/fw.config.ts", "repo/good/fw.config.ts"}, // named
	} {
		done := make(chan struct{})
		var out string
		var code int
		go func() {
			defer close(done)
			if args == nil {
				out, code = checkTree(t, dir)
			} else {
				out, code = checkTree(t, dir, args...)
			}
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			// Unblock a reader stuck on the FIFO, so that the report
			// says what hung instead of the test binary timing out.
			if w, err := os.OpenFile(filepath.Join(dir, "fifo", "fw.config.ts"), os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("check %v hangs", args)
		}
		if code != exitError {
			t.Errorf("check %v: exit status %d, want %d", args, code, exitError)
		}
		for want := range wants {
			if !strings.Contains(out, want) {
				t.Errorf("check %v: output lacks %s\n%s", args, want, out)
			}
		}
	}
}

// TestPermissionDenied checks a config the OS refuses to read for real. As
// root, chmod does not deny, so the test binary runs itself as fwmigrate
// under an unprivileged user (uid 65534, nobody), when it may.
func TestPermissionDenied(t *testing.T) {
	base := t.TempDir()
	// The other user must reach base: t.TempDir's directories are 0700.
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(base, "repo")
	testtree.Map(t, dir, map[string]string{
		"good/fw.config.ts":   "export default defineFwConfig({ generate: { routes: ['/'] } })\n",
		"denied/fw.config.ts": "export default defineFwConfig({})\n",
	})
	if err := os.Chmod(filepath.Join(dir, "denied", "fw.config.ts"), 0); err != nil {
		t.Fatal(err)
	}

	// The test binary is fwmigrate when its argv[0] says so (see
	// TestMain); copy it where the other user can run it.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "fwmigrate")
	if err := copyFile(exe, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "check", "--format=concise", "repo")
	cmd.Dir = base
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if os.Geteuid() == 0 {
			t.Skipf("cannot run as an unprivileged user: %v", err)
		}
		t.Fatalf("%v\n%s", err, out)
	}
	if ee.ExitCode() != exitError {
		t.Errorf("exit status %d, want %d", ee.ExitCode(), exitError)
	}
	for _, want := range []string{
		"repo/denied/fw.config.ts: error FW904 [unreadable-file] cannot open: permission denied",
		"repo/good/fw.config.ts:1:45: warning FW201",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
