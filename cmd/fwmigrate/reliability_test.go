package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

// bigConfig returns a valid config of about size bytes.
func bigConfig(size int) string {
	var b strings.Builder
	b.WriteString("export default defineFwConfig({\n  generate: { routes: ['/'] },\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  // section %d\n  section%d: {\n    enabled: %t,\n    paths: ['~/a/%d', \"~/b/%d\"],\n", i, i, i%2 == 0, i, i)
		fmt.Fprintf(&b, "    nested: { deep: { value: null, re: /^\\/api\\/%d/ } },\n    setup() { return null },\n  },\n", i)
	}
	b.WriteString("})\n")
	return b.String()
}

// checkTree runs `fwmigrate check --format=concise [args]` in dir's parent
// and returns its output and exit status. Without paths among args, it
// checks dir.
func checkTree(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(filepath.Dir(dir)); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	argv := append([]string{"check", "--format=concise"}, args...)
	paths := false
	for _, a := range args {
		paths = paths || !strings.HasPrefix(a, "-")
	}
	if !paths {
		argv = append(argv, filepath.Base(dir))
	}
	code := run(argv, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	return stdout.String(), code
}

// TestReliability puts every kind of broken input the issue lists in one
// monorepo next to good projects: each broken one gets its own clear error,
// the good ones are still checked, and the exit status is 2.
//
// Permission denied cannot come from chmod when the tests run as root, so
// the run's Loader gets a reader that answers EACCES for that one file (the
// error the OS gives); TestPermissionDenied checks the real thing as an
// unprivileged user. The file deleted during the run is deleted for real,
// by the same reader, after discovery found it and just before it is read.
//
// The big config is 10 MB; with -short, 256 KB (the 10 MB one takes most
// of the package's time).
func TestReliability(t *testing.T) {
	big := 10 << 20
	if testing.Short() {
		big = 256 << 10
	}
	dir := filepath.Join(t.TempDir(), "repo")
	deep := strings.Repeat("d/", 300) // 300 directories down
	testtree.Map(t, dir, map[string]string{
		"apps/good/fw.config.ts":        "export default defineFwConfig({ generate: { routes: ['/'] } })\n",
		"apps/good2/fw.config.js":       "export default { generate: { routes: ['/'] } }\n",
		"apps/denied/fw.config.ts":      "export default defineFwConfig({})\n",
		"apps/deleted/fw.config.ts":     "export default defineFwConfig({})\n",
		"apps/big/fw.config.ts":         bigConfig(big),
		"apps/binary/fw.config.ts":      "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
		"apps/nested/fw.config.ts":      "export default defineFwConfig(" + strings.Repeat("{a:", 10000) + "1" + strings.Repeat("}", 10000) + ")\n",
		"apps/bangs/fw.config.ts":       "export default " + strings.Repeat("!", 250000) + "1\n",
		"apps/brackets/fw.config.js":    "export default " + strings.Repeat("[", 200000) + "\n",
		"apps/" + deep + "fw.config.ts": "export default defineFwConfig({ generate: { routes: ['/'] } })\n",
		"layers/a/fw.config.ts":         "export default defineFwConfig({ extends: ['../b'] })\n",
		"layers/b/fw.config.ts":         "export default defineFwConfig({ extends: '../a' })\n",
		"apps/uses-a/fw.config.ts":      "export default defineFwConfig({ extends: ['../../layers/a'], generate: { routes: ['/'] } })\n",
	})
	if err := os.Symlink("..", filepath.Join(dir, "apps", "good", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "apps", "dirconf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "apps", "dirconf", "fw.config.ts"), 0o755); err != nil {
		t.Fatal(err)
	}

	defer func(f func() *project.Loader) { newLoader = f }(newLoader)
	newLoader = func() *project.Loader {
		l := project.NewLoader()
		l.ReadFile = func(path string) ([]byte, error) {
			switch filepath.Base(filepath.Dir(path)) {
			case "denied":
				return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EACCES}
			case "deleted":
				if err := os.Remove(path); err != nil {
					t.Error(err)
				}
			}
			return project.ReadSource(path)
		}
		return l
	}
	out, code := checkTree(t, dir)
	if code != exitError {
		t.Errorf("exit status %d, want %d", code, exitError)
	}
	for _, want := range []string{
		`repo/apps/denied/fw.config.ts: error FW904 [unreadable-file] cannot open: permission denied`,
		`repo/apps/deleted/fw.config.ts: error FW904 [unreadable-file] cannot open: no such file or directory`,
		`repo/apps/binary/fw.config.ts: error FW904 [unreadable-file] binary file, not a config: NUL byte at offset 8`,
		`repo/apps/nested/fw.config.ts:1:\d+: error FW901 [syntax-error] Too deeply nested`,
		// Deep enough to overflow esbuild's stack (and end the process),
		// were it not for the nesting gate.
		`repo/apps/bangs/fw.config.ts:1:\d+: error FW901 [syntax-error] Too deeply nested`,
		`repo/apps/brackets/fw.config.js:1:\d+: error FW901 [syntax-error] Too deeply nested`,
		`repo/apps/good/loop: error FW904 [unreadable-file] directory symlink loop: repo/apps/good/loop points to .., which holds it`,
		`repo/apps/dirconf/fw.config.ts: error FW904 [unreadable-file] is a directory, not a config file`,
		`repo/layers/a/fw.config.ts:1:\d+: error FW906 [extends-cycle] extends cycle: "../b" → "../a" leads back to this config`,
		`repo/layers/b/fw.config.ts:1:\d+: error FW906 [extends-cycle] extends cycle: "../a" → "../b" leads back to this config`,
		// The good projects, the 10 MB config, the deep one and the one
		// extending the cycle are checked.
		`repo/apps/good/fw.config.ts:1:\d+: warning FW201`,
		`repo/apps/good2/fw.config.js:1:\d+: warning FW201`,
		`repo/apps/big/fw.config.ts:2:\d+: warning FW201`,
		`repo/apps/` + deep + `fw.config.ts:1:\d+: warning FW201`,
		`repo/apps/uses-a/fw.config.ts:1:\d+: warning FW201`,
	} {
		re := regexp.MustCompile(`(?m)^` + strings.ReplaceAll(regexp.QuoteMeta(want), `\\d\+`, `\d+`))
		if !re.MatchString(out) {
			t.Errorf("output lacks %s", want)
		}
	}
	// Each broken file has exactly its own error, nothing else: no
	// internal error, and no second error for the cycle's users.
	for _, bad := range []string{"FW999", "apps/uses-a/fw.config.ts:1:1: error", "apps/big/fw.config.ts: error"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %s", bad)
		}
	}
	if n := strings.Count(out, "FW906"); n != 2 {
		t.Errorf("%d FW906 diagnostics, want 2 (one per config on the cycle)", n)
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}
