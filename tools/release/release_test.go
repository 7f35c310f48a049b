package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/version"
)

// repoRoot is the module's root: tests run in tools/release.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return root
}

func hostOrSkip(t *testing.T) platform {
	t.Helper()
	p, ok := hostPlatform()
	if !ok {
		t.Skip("fwmigrate has no npm package for this platform")
	}
	return p
}

func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			t.Skipf("%s is not installed: the npm package tests need node and npm", name)
		}
	}
}

// run runs name in dir and returns its stdout, stderr and exit status; a
// command that cannot start, or ends by a signal, fails the test.
func run(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) || cmd.ProcessState.ExitCode() < 0 {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

func readPackageJSON(t *testing.T, path string) packageJSON {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pj packageJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return pj
}

func TestParsePlatforms(t *testing.T) {
	got, err := parsePlatforms("darwin-arm64, linux-x64,darwin-arm64")
	if err != nil || len(got) != 2 || got[0].GOOS != "darwin" || got[0].GOARCH != "arm64" || got[1].Name != "linux-x64" {
		t.Errorf("parsePlatforms = %v, %v", got, err)
	}
	all, err := parsePlatforms(platformNames())
	if err != nil || len(all) != 6 {
		t.Errorf("all platforms: %v, %v", all, err)
	}
	for _, bad := range []string{"", ",", "linux-amd64", "linux-x64,freebsd-x64"} {
		if _, err := parsePlatforms(bad); err == nil {
			t.Errorf("parsePlatforms(%q) accepted it", bad)
		}
	}
}

func TestNewOptionsVersion(t *testing.T) {
	o, err := newOptions("", "linux-x64", "")
	if err != nil || o.version != version.String() || !filepath.IsAbs(o.out) || filepath.Base(o.out) != "dist" {
		t.Errorf("default: %+v, %v", o, err)
	}
	if o, err := newOptions("x", "linux-x64", "v1.2.3-rc.1"); err != nil || o.version != "1.2.3-rc.1" {
		t.Errorf("--version=v1.2.3-rc.1: %q, %v", o.version, err)
	}
	if _, err := newOptions("x", "linux-x64", "1.2"); err == nil {
		t.Error("--version=1.2 accepted")
	}
}

// TestPackageFiles checks what the packages hold, without building: one
// package.json template for all, the exact version everywhere, the os and
// cpu fields, the launcher executable.
func TestPackageFiles(t *testing.T) {
	root := repoRoot(t)
	stage := t.TempDir()
	const ver = "1.2.3-test.4"
	for _, p := range platforms {
		if err := writePlatformPackage(root, filepath.Join(stage, p.Name), p, ver); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(stage, p.Name)
		pj := readPackageJSON(t, filepath.Join(dir, "package.json"))
		want := packageJSON{
			Name: "@fwmigrate/" + p.Name, Version: ver, License: "MIT",
			OS: []string{p.OS()}, CPU: []string{p.CPU()}, PreferUnplugged: true,
		}
		if pj.Name != want.Name || pj.Version != ver || pj.License != "MIT" || !reflect.DeepEqual(pj.OS, want.OS) ||
			!reflect.DeepEqual(pj.CPU, want.CPU) || !pj.PreferUnplugged || pj.Bin != nil || pj.OptionalDependencies != nil {
			t.Errorf("%s: package.json %+v", p.Name, pj)
		}
		readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		if !bytes.Contains(readme, []byte("# @fwmigrate/"+p.Name+"\n")) || !bytes.Contains(readme, []byte(p.OS()+" "+p.CPU()+", version "+ver)) {
			t.Errorf("%s: README.md:\n%s", p.Name, readme)
		}
		if _, err := os.Stat(filepath.Join(dir, "LICENSE")); err != nil {
			t.Error(err)
		}
	}
	if l, w := platforms[0], platforms[5]; l.OS() != "linux" || l.CPU() != "x64" || l.Exe() != "fwmigrate" ||
		w.OS() != "win32" || w.CPU() != "arm64" || w.Exe() != "fwmigrate.exe" {
		t.Errorf("platform fields: %v %v", l, w)
	}

	mainDir := filepath.Join(stage, "fwmigrate")
	if err := writeMainPackage(root, mainDir, ver); err != nil {
		t.Fatal(err)
	}
	pj := readPackageJSON(t, filepath.Join(mainDir, "package.json"))
	wantDeps := map[string]string{}
	for _, p := range platforms {
		wantDeps["@fwmigrate/"+p.Name] = ver
	}
	if pj.Name != "fwmigrate" || pj.Version != ver || pj.License != "MIT" || !reflect.DeepEqual(pj.Bin, map[string]string{"fwmigrate": "bin/fwmigrate"}) ||
		!reflect.DeepEqual(pj.OptionalDependencies, wantDeps) || pj.OS != nil || pj.CPU != nil {
		t.Errorf("fwmigrate: package.json %+v", pj)
	}
	raw, _ := os.ReadFile(filepath.Join(mainDir, "package.json"))
	if !bytes.Contains(raw, []byte(`"node": ">=18"`)) {
		t.Errorf("package.json escapes or lacks engines:\n%s", raw)
	}
	launcher := filepath.Join(mainDir, "bin", "fwmigrate")
	fi, err := os.Stat(launcher)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("launcher mode %v", fi.Mode())
	}
	got, _ := os.ReadFile(launcher)
	want, _ := os.ReadFile(filepath.Join(root, "npm", "fwmigrate", "bin", "fwmigrate"))
	if !bytes.Equal(got, want) || !bytes.HasPrefix(got, []byte("#!/usr/bin/env node\n")) {
		t.Error("the launcher is not npm/fwmigrate/bin/fwmigrate as it is")
	}
	for _, name := range []string{"README.md", "LICENSE"} {
		if _, err := os.Stat(filepath.Join(mainDir, name)); err != nil {
			t.Error(err)
		}
	}
}

// npmEnv is an npm environment that reads no user or global configuration,
// uses a fresh cache, and stays offline: the installs below come from the
// tarballs alone. The registry is a closed port on this machine, so that
// a request that slipped through fails at once instead of going out.
func npmEnv(t *testing.T) []string {
	dir := t.TempDir()
	for _, name := range []string{"npmrc", "globalnpmrc"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToLower(kv), "npm_config_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"npm_config_userconfig="+filepath.Join(dir, "npmrc"),
		"npm_config_globalconfig="+filepath.Join(dir, "globalnpmrc"),
		"npm_config_cache="+filepath.Join(dir, "cache"),
		"npm_config_offline=true",
		"npm_config_registry=http://127.0.0.1:9/",
		"npm_config_audit=false",
		"npm_config_fund=false",
		"npm_config_update_notifier=false",
	)
}

type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestNpmInstall makes this platform's release (the binary and the two
// tarballs), installs both tarballs with npm into a fresh project, offline,
// and runs fwmigrate through npx: its output and exit status must be those
// of the binary that go build makes, and its version the VERSION file's.
func TestNpmInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fwmigrate and installs its npm packages: not under -short")
	}
	needTools(t, "node", "npm", "npx")
	host := hostOrSkip(t)
	root := repoRoot(t)

	out := t.TempDir()
	tarballs, err := release(options{root: root, out: out, platforms: []platform{host}, version: version.String(), log: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	ver := version.String()
	wantTarballs := []string{filepath.Join(out, "fwmigrate-"+host.Name+"-"+ver+".tgz"), filepath.Join(out, "fwmigrate-"+ver+".tgz")}
	if !reflect.DeepEqual(tarballs, wantTarballs) {
		t.Fatalf("tarballs %v, want %v", tarballs, wantTarballs)
	}
	if left, _ := filepath.Glob(filepath.Join(out, "*")); len(left) != 2 {
		t.Errorf("--out holds %v, want the two tarballs alone", left)
	}

	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name": "npm-install-test", "private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(proj, "examples", "shop"), os.DirFS(filepath.Join(root, "examples", "shop"))); err != nil {
		t.Fatal(err)
	}
	env := npmEnv(t)
	if _, stderr, code := run(t, proj, env, "npm", append([]string{"install", "--no-save"}, tarballs...)...); code != 0 {
		t.Fatalf("npm install: exit %d\n%s", code, stderr)
	}
	for _, name := range []string{"fwmigrate", "@fwmigrate/" + host.Name} {
		if pj := readPackageJSON(t, filepath.Join(proj, "node_modules", filepath.FromSlash(name), "package.json")); pj.Version != ver {
			t.Errorf("installed %s is version %s, want %s", name, pj.Version, ver)
		}
	}

	// The settings schema ships with the launcher, the repository's own.
	schema, err := os.ReadFile(filepath.Join(proj, "node_modules", "fwmigrate", "fwmigrate.schema.json"))
	want, _ := os.ReadFile(filepath.Join(root, "settings", "fwmigrate.schema.json"))
	if err != nil || !bytes.Equal(schema, want) {
		t.Errorf("node_modules/fwmigrate/fwmigrate.schema.json is not settings/fwmigrate.schema.json (err %v)", err)
	}

	// The binary a developer gets from go build, with no flags.
	gobin := filepath.Join(t.TempDir(), host.Exe())
	if _, stderr, code := run(t, root, nil, "go", "build", "-o", gobin, "./cmd/fwmigrate"); code != 0 {
		t.Fatalf("go build: %s", stderr)
	}

	for _, args := range [][]string{
		{"check", "examples/shop"},
		{"check", "--format=json", "examples/shop"},
		{"check", "examples/nosuch/fw.config.ts"},
		{"version"},
	} {
		npxOut, npxErr, npxCode := run(t, proj, env, "npx", append([]string{"fwmigrate"}, args...)...)
		goOut, goErr, goCode := run(t, proj, nil, gobin, args...)
		if npxOut != goOut || npxErr != goErr || npxCode != goCode {
			t.Errorf("fwmigrate %s: npx and go build differ:\nnpx (exit %d):\n%s\n%s\ngo build (exit %d):\n%s\n%s",
				strings.Join(args, " "), npxCode, npxOut, npxErr, goCode, goOut, goErr)
		}
		switch args[0] + " " + args[len(args)-1] {
		case "check examples/shop":
			if npxCode != 1 || !strings.Contains(npxOut, "examples/shop/fw.config.ts") {
				t.Errorf("fwmigrate %s: exit %d, want 1 with findings in examples/shop/fw.config.ts:\n%s", strings.Join(args, " "), npxCode, npxOut)
			}
		case "check examples/nosuch/fw.config.ts":
			if npxCode != 2 || !strings.Contains(npxOut, "FW904") {
				t.Errorf("check of a missing config: exit %d, want 2 with FW904:\n%s", npxCode, npxOut)
			}
		case "version version":
			if first, _, _ := strings.Cut(npxOut, "\n"); first != "fwmigrate "+ver {
				t.Errorf("npx fwmigrate version: first line %q, want %q", first, "fwmigrate "+ver)
			}
		}
	}
}

// TestBuildVersionOverride builds a binary the way --version does and checks
// that the -X symbol exists: the linker would ignore a misspelt one.
func TestBuildVersionOverride(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fwmigrate: not under -short")
	}
	host := hostOrSkip(t)
	bin := filepath.Join(t.TempDir(), "bin", host.Exe())
	if err := buildBinary(repoRoot(t), host, "9.9.9-test.1", bin); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, t.TempDir(), nil, bin, "version")
	if first, _, _ := strings.Cut(out, "\n"); code != 0 || first != "fwmigrate 9.9.9-test.1" {
		t.Errorf("version: exit %d, first line %q", code, first)
	}
}
