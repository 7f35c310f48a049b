// Package vscode holds the test of the VS Code extension in this folder (a
// Node program, not Go): TestExtension runs its JavaScript test against
// the real `fwmigrate lsp`.
package vscode

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestExtension runs test/extension.test.js: the extension's client code
// with vscode-languageclient, against `fwmigrate lsp` built here, over
// stdio, with the `vscode` module stubbed (test/vscode-stub.js: a real VS
// Code cannot be downloaded where the tests run). vscode-languageclient is
// installed with npm from the package lock into a cache folder, once per
// lock.
func TestExtension(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fwmigrate, installs vscode-languageclient with npm and runs node: not under -short")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the VS Code extension's test needs node and npm", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fwmigrate")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/fwmigrate/fwmigrate/cmd/fwmigrate").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	modules := nodeModules(t, ctx, ".")

	cmd := exec.CommandContext(ctx, "node", "--test", "test/extension.test.js")
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "FWMIGRATE_BIN="+bin, "NODE_PATH="+modules, "TMPDIR="+work)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test test/extension.test.js:\n%s", out)
	if err != nil {
		t.Fatalf("the extension's test failed: %v", err)
	}
	// node's closing lines: every test ran and passed.
	count := func(what string) string {
		m := regexp.MustCompile(`(?m)^# ` + what + ` (\d+)$`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("no %q line in node's output", what)
		}
		return string(m[1])
	}
	if tests, pass := count("tests"), count("pass"); tests == "0" || tests != pass {
		t.Errorf("%s tests, %s passed", tests, pass)
	}
}

// nodeModules installs the dependencies of the package in dir (its
// package.json and package-lock.json; not the devDependencies, which pack
// it) with `npm ci` into a cache folder keyed by the two, and returns its
// node_modules. The folder is made whole or not at all: npm installs into
// a new one, renamed into place once done.
func nodeModules(t *testing.T, ctx context.Context, dir string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(append(lock, 0), manifest...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	final := filepath.Join(cache, "fwmigrate-test", "vscode-"+hex.EncodeToString(sum[:8]))
	modules := filepath.Join(final, "node_modules")
	if _, err := os.Stat(modules); err == nil {
		return modules
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		t.Fatal(err)
	}
	stage, err := os.MkdirTemp(filepath.Dir(final), "stage-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(stage)
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(stage, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"}
	cmd := exec.CommandContext(ctx, "npm", args...)
	cmd.Dir = stage
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("npm %v (the npm registry is needed once, to fill %s): %v\n%s", args, final, err, stderr.String())
	}
	if err := os.Rename(stage, final); err != nil {
		if _, statErr := os.Stat(modules); statErr == nil {
			return modules // another run made it meanwhile
		}
		t.Fatal(fmt.Errorf("%s: %w", final, err))
	}
	return modules
}
