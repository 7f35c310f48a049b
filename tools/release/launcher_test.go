package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The launcher's tests run npm/fwmigrate/bin/fwmigrate with node in
// node_modules trees written by the release program's own functions, with a
// shell script in place of the Go binary: fast, and independent of npm.

// fakeBinary prints each argument on stdout and a line on stderr, then does
// what its first argument says.
const fakeBinary = `#!/bin/sh
for a in "$@"; do printf 'arg:%s\n' "$a"; done
echo "to stderr" >&2
case "$1" in
exit) exit "$2" ;;
kill) kill -"$2" $$ ;;
trap) trap 'echo "got TERM"; exit 7' TERM; echo ready; while :; do sleep 0.05; done ;;
esac
`

const testVersion = "1.2.3-test.1"

// fakeInstall writes a project whose node_modules holds the fwmigrate
// package and returns the project's folder.
func fakeInstall(t *testing.T) string {
	t.Helper()
	needTools(t, "node")
	proj := t.TempDir()
	if err := writeMainPackage(repoRoot(t), filepath.Join(proj, "node_modules", "fwmigrate"), testVersion); err != nil {
		t.Fatal(err)
	}
	return proj
}

// installPlatform adds p's package at version ver, with the fake binary.
func installPlatform(t *testing.T, proj string, p platform, ver string) {
	t.Helper()
	dir := filepath.Join(proj, "node_modules", "@fwmigrate", p.Name)
	if err := writePlatformPackage(repoRoot(t), dir, p, ver); err != nil {
		t.Fatal(err)
	}
	writeFakeBinary(t, filepath.Join(dir, "bin", p.Exe()))
}

func writeFakeBinary(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake binary is a shell script")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(fakeBinary), 0o755); err != nil {
		t.Fatal(err)
	}
}

// launcherEnv is the environment without FWMIGRATE_BINARY, plus extra.
func launcherEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FWMIGRATE_BINARY=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

func launcher(proj string) string {
	return filepath.Join(proj, "node_modules", "fwmigrate", "bin", "fwmigrate")
}

// The platform names are node's: process.platform-process.arch.
func TestHostPlatformIsNodes(t *testing.T) {
	t.Parallel()
	needTools(t, "node")
	host := hostOrSkip(t)
	out, _, code := run(t, t.TempDir(), nil, "node", "-p", "process.platform + '-' + process.arch")
	if code != 0 || strings.TrimSpace(out) != host.Name {
		t.Errorf("node says %q, the release program %q", strings.TrimSpace(out), host.Name)
	}
}

func TestLauncherRunsPlatformBinary(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	installPlatform(t, proj, host, testVersion)
	stdout, stderr, code := run(t, proj, launcherEnv(), "node", launcher(proj), "exit", "3", "two words", "", "--flag=x")
	if want := "arg:exit\narg:3\narg:two words\narg:\narg:--flag=x\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	if stderr != "to stderr\n" || code != 3 {
		t.Errorf("stderr %q, exit %d; want %q, 3", stderr, code, "to stderr\n")
	}
	if _, _, code := run(t, proj, launcherEnv(), "node", launcher(proj), "exit", "0"); code != 0 {
		t.Errorf("exit 0 became %d", code)
	}
}

func TestLauncherBinaryOverride(t *testing.T) {
	t.Parallel()
	hostOrSkip(t)
	proj := fakeInstall(t) // no platform package at all
	bin := filepath.Join(t.TempDir(), "my-fwmigrate")
	writeFakeBinary(t, bin)
	stdout, _, code := run(t, proj, launcherEnv("FWMIGRATE_BINARY="+bin), "node", launcher(proj), "exit", "1")
	if stdout != "arg:exit\narg:1\n" || code != 1 {
		t.Errorf("FWMIGRATE_BINARY: stdout %q, exit %d", stdout, code)
	}

	missing := filepath.Join(t.TempDir(), "nothing-here")
	_, stderr, code := run(t, proj, launcherEnv("FWMIGRATE_BINARY="+missing), "node", launcher(proj), "check")
	if code != 2 || !strings.Contains(stderr, "cannot run "+missing+" (FWMIGRATE_BINARY)") {
		t.Errorf("FWMIGRATE_BINARY of a missing file: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestLauncherMissingPackage(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	_, stderr, code := run(t, proj, launcherEnv(), "node", launcher(proj), "check")
	for _, want := range []string{
		"cannot find the package @fwmigrate/" + host.Name,
		"(" + host.OS() + " " + host.CPU() + ")",
		"--omit=optional", "--no-optional",
		"npm i -D fwmigrate@" + testVersion + " @fwmigrate/" + host.Name + "@" + testVersion,
		"FWMIGRATE_BINARY",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the error lacks %q:\n%s", want, stderr)
		}
	}
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// node_modules copied from another machine: the launcher names what it found.
func TestLauncherOtherPlatformInstalled(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	other := platforms[0]
	if other == host {
		other = platforms[1]
	}
	installPlatform(t, proj, other, testVersion)
	_, stderr, code := run(t, proj, launcherEnv(), "node", launcher(proj))
	if code != 2 || !strings.Contains(stderr, "@fwmigrate/"+other.Name+" is installed instead") || !strings.Contains(stderr, "cannot find the package @fwmigrate/"+host.Name) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

func TestLauncherVersionMismatch(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	installPlatform(t, proj, host, "1.0.0")
	stdout, stderr, code := run(t, proj, launcherEnv(), "node", launcher(proj), "exit", "0")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "needs @fwmigrate/"+host.Name+" at the same version, and 1.0.0 is installed") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

// A platform the package has no binary for.
func TestLauncherUnsupportedPlatform(t *testing.T) {
	t.Parallel()
	host := hostOrSkip(t)
	proj := fakeInstall(t)
	pj := filepath.Join(proj, "node_modules", "fwmigrate", "package.json")
	data, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), `"@fwmigrate/`+host.Name+`"`, `"@fwmigrate/elsewhere"`, 1))
	if err := os.WriteFile(pj, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, proj, launcherEnv(), "node", launcher(proj))
	if code != 2 || !strings.Contains(stderr, "has no binary for this platform ("+host.OS()+" "+host.CPU()+")") ||
		!strings.Contains(stderr, "go install github.com/fwmigrate/fwmigrate/cmd/fwmigrate@v"+testVersion) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
