package txn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPreflightNames: a file whose temporary's name would be too long is
// refused before anything is written, by its project path.
func TestPreflightNames(t *testing.T) {
	dir, p := freshPlan(t, 3)
	long := filepath.Join(dir, strings.Repeat("n", 240)+".vue")
	if err := os.WriteFile(long, []byte("a"), 0o644); err != nil {
		t.Skip(err) // a file system with shorter names
	}
	p.Edits = append(p.Edits, Edit{Path: long, NewPath: long, Old: []byte("a"), New: []byte("b"), Mode: 0o644})
	before := snapshot(t, dir)
	err := p.Run(Exec{})
	if err == nil || !strings.Contains(err.Error(), "nothing written: ") || !strings.Contains(err.Error(), "its name is too long to be replaced safely") || !strings.Contains(err.Error(), "nnnn.vue") {
		t.Fatalf("got %v", err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("the tree changed:\n%s", d)
	}
}

// TestPreflightWritable: a folder the plan must write in and cannot is
// refused before anything is written. Root may write anywhere, so as root
// the check runs in a child process (this test binary again) as the
// unprivileged user nobody (65534), over a tree that user owns; it is
// skipped only where the system will not start one (no setuid right, no
// such credentials).
func TestPreflightWritable(t *testing.T) {
	if os.Geteuid() != 0 {
		dir, p := freshPlan(t, 3)
		ro := filepath.Dir(p.Edits[0].Path)
		if err := os.Chmod(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(ro, 0o755)
		before := snapshot(t, dir)
		checkPreflightWritable(t, p.Run(Exec{}))
		if d := diffTrees(before, snapshot(t, dir)); d != "" {
			t.Fatalf("the tree changed:\n%s", d)
		}
		return
	}
	base, dir := asNobody(t)
	writeTree(t, dir, 3)
	p, err := planTree(dir)
	must(t, err)
	// The tree is nobody's, but for the folder of the first edit, which
	// nobody may read and not write.
	must(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, nobody, nobody)
	}))
	ro := filepath.Dir(p.Edits[0].Path)
	must(t, os.Chmod(ro, 0o555))
	before := snapshot(t, dir)
	out, err := runAsNobody(t, base, envPreflightChild+"="+dir)
	if err != nil {
		t.Fatalf("the child as nobody: %v\n%s", err, out)
	}
	checkPreflightWritable(t, errors.New(strings.TrimSpace(string(out))))
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("the tree changed:\n%s", d)
	}
}

// checkPreflightWritable checks the refusal of the read-only folder of the
// tests' tree: named, nothing written.
func checkPreflightWritable(t *testing.T, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "nothing written: ") || !strings.Contains(err.Error(), "cannot write in this folder") || !strings.Contains(err.Error(), "components: cannot write") {
		t.Fatalf("got %v", err)
	}
}

// nobody is the unprivileged user the root-run tests switch to.
const nobody = 65534

// envPreflightChild names the tree the child plans and runs (TestMain).
const envPreflightChild = "FWMIGRATE_TXN_PREFLIGHT_CHILD"

// preflightChild is the child of TestPreflightWritable: it plans the tree
// in dir, runs the plan and prints the error (an empty line when it ran).
func preflightChild(dir string) int {
	p, err := planTree(dir)
	if err == nil {
		err = p.Run(Exec{})
	}
	if err == nil {
		fmt.Println()
		return 0
	}
	fmt.Println(err)
	return 0
}

// asNobody makes a folder nobody can reach (base, with the test binary
// copied into it, since the build's folder is root's alone) and a tree
// folder inside it, both removed after the test.
func asNobody(t *testing.T) (base, dir string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("switching to another user is tried on Linux only")
	}
	base, err := os.MkdirTemp("", "txn-nobody")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(base) })
	must(t, os.Chmod(base, 0o755))
	exe, err := os.Executable()
	must(t, err)
	data, err := os.ReadFile(exe)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(base, "txn.test"), data, 0o755))
	dir = filepath.Join(base, "tree")
	must(t, os.Mkdir(dir, 0o755))
	return base, dir
}

// runAsNobody runs the test binary copied in base as the user nobody, with
// env added, and returns its output. A system that will not switch users
// skips the test.
func runAsNobody(t *testing.T, base string, env ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(base, "txn.test"), "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = base
	cmd.SysProcAttr = nobodyAttr()
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Skipf("cannot start a process as the user %d here: %v", nobody, err)
	}
	if ee != nil {
		return append(out, ee.Stderr...), err
	}
	return out, nil
}
