package testtree

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Run runs m's tests and returns their exit status, with go test's record
// of what they read cut down to what go test looks at again.
//
// go test caches a test's result keyed by the files and environment
// variables the test process used: the testing package writes every
// os.Open, os.Stat, os.Chdir and os.Getenv to a log (-test.testlogfile),
// and go test reads that log back after the run and at every later run to
// see whether the cached result still holds. For each file it first asks
// whether the file lies in the module, resolving symbolic links of both
// the file and the module's folder, and it keeps only the files that do.
// Our tests build whole projects in temporary folders and check them:
// rules logged 163k lines, txn 180k and cmd/fwmigrate 106k, which cost
// go test 700k stat calls and 2 to 3 s of a core per package at every
// `go test ./...`, even when the result was cached (measured 2026-11-26).
//
// So the tests write their log to a file of their own, and Run copies to
// go test's file the lines go test keeps: every environment variable
// (once each), and the files lexically inside the module. Paths are made
// absolute, as go test would (relative to the package folder, then to the
// last chdir), and duplicates dropped; the order of first use is kept, so
// the same run logs the same lines. What is lost: a temporary file that is
// a symbolic link into the module, which go test would follow; no test
// here reads the module's files that way. Without a log flag (a crash
// test's child, a plain run of the binary) Run is m.Run.
func Run(m *testing.M) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	f := flag.Lookup("test.testlogfile")
	if f == nil || f.Value.String() == "" {
		return m.Run()
	}
	dst := f.Value.String()
	full := dst + ".full"
	if err := f.Value.Set(full); err != nil {
		return m.Run()
	}
	code := m.Run()
	if err := trimLog(full, dst); err != nil {
		// No log: go test does not cache the result, which is safe.
		os.Remove(dst)
	}
	os.Remove(full)
	return code
}

// trimLog writes to dst the lines of the log src that go test keeps (see
// Run).
func trimLog(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	const magic = "# test log\n" // testing/internal/testdeps
	if !bytes.HasPrefix(data, []byte(magic)) {
		return os.ErrInvalid
	}
	pwd, err := os.Getwd()
	if err != nil {
		return err
	}
	// go test runs the binary in the package folder; the tests' chdirs
	// are logged, and Run is called before any test runs.
	root := moduleRoot(pwd)
	if root == "" {
		return os.ErrNotExist
	}
	out := bytes.NewBufferString(magic)
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data[len(magic):]))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		op, name, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			return os.ErrInvalid
		}
		switch op {
		case "getenv":
		case "chdir":
			pwd = name // always absolute
			if !pathx.Within(name, root) {
				continue
			}
		case "stat", "open":
			if !filepath.IsAbs(name) {
				name = filepath.Join(pwd, name)
			}
			if !pathx.Within(name, root) {
				continue
			}
		default:
			return os.ErrInvalid
		}
		line := op + " " + name
		if seen[line] {
			continue
		}
		seen[line] = true
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return os.WriteFile(dst, out.Bytes(), 0o644)
}

// moduleRoot is the folder of the go.mod at or above dir, or "".
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
