// Command release builds fwmigrate's npm packages:
//
//	go run ./tools/release [--out=dist] [--platforms=linux-x64,...] [--version=1.2.3]
//
// For each platform it cross-compiles a static binary (CGO_ENABLED=0,
// -trimpath, -ldflags "-s -w") and writes the package @fwmigrate/<platform>
// (package.json with "os" and "cpu", README, LICENSE, bin/fwmigrate[.exe]);
// then it writes the package fwmigrate (the launcher from npm/fwmigrate, a
// package.json whose optionalDependencies name every platform package at the
// exact same version, README, LICENSE), and packs each with npm pack into the
// output folder. It prints the tarballs in the order to publish them: the
// platform packages first, so that fwmigrate never names a version that the
// registry lacks.
//
// With --vscode (the default) it also packs the VS Code extension of
// editors/vscode into fwmigrate-vscode-VERSION.vsix (vscode.go).
//
// The version is internal/version's (the VERSION file); --version overrides
// it for test releases, in the packages and in the binaries alike.
// --platforms builds a subset of the binaries (the test builds only this
// machine's); the main package still names all six.
//
// It is a Go program rather than a goreleaser configuration because it must
// run wherever the tests run (CI included) with nothing but Go and npm:
// goreleaser's binaries are not reachable here, and a Go program is built by
// the toolchain the repository already needs.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/version"
)

// scope is the npm scope of the platform packages.
const scope = "@fwmigrate/"

// platform is one binary package. Name is node's process.platform and
// process.arch joined by "-": the launcher looks for scope+Name.
type platform struct {
	Name         string
	GOOS, GOARCH string
}

var platforms = []platform{
	{"linux-x64", "linux", "amd64"},
	{"linux-arm64", "linux", "arm64"},
	{"darwin-x64", "darwin", "amd64"},
	{"darwin-arm64", "darwin", "arm64"},
	{"win32-x64", "windows", "amd64"},
	{"win32-arm64", "windows", "arm64"},
}

// OS and CPU are the package.json "os" and "cpu" values (node's names).
func (p platform) OS() string  { name, _, _ := strings.Cut(p.Name, "-"); return name }
func (p platform) CPU() string { _, name, _ := strings.Cut(p.Name, "-"); return name }

func (p platform) Package() string { return scope + p.Name }

// Exe is the binary's file name, under bin/ in the package.
func (p platform) Exe() string {
	if p.GOOS == "windows" {
		return "fwmigrate.exe"
	}
	return "fwmigrate"
}

// hostPlatform is the platform of the machine this runs on.
func hostPlatform() (platform, bool) {
	for _, p := range platforms {
		if p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH {
			return p, true
		}
	}
	return platform{}, false
}

func parsePlatforms(list string) ([]platform, error) {
	var out []platform
	seen := map[string]bool{}
next:
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		for _, p := range platforms {
			if p.Name == name {
				out = append(out, p)
				continue next
			}
		}
		return nil, fmt.Errorf("unknown platform %q (known: %s)", name, platformNames())
	}
	if len(out) == 0 {
		return nil, errors.New("no platform given")
	}
	return out, nil
}

func platformNames() string {
	var names []string
	for _, p := range platforms {
		names = append(names, p.Name)
	}
	return strings.Join(names, ",")
}

type options struct {
	root      string // the module's root folder
	out       string // where the tarballs go
	platforms []platform
	version   string
	log       io.Writer
	vscode    bool // pack the VS Code extension too (main; the npm tests leave it)
}

func main() {
	out := flag.String("out", "", "output folder (default: dist at the module's root)")
	plats := flag.String("platforms", platformNames(), "comma-separated platforms to build")
	ver := flag.String("version", "", "version of the packages and binaries (default: internal/version/VERSION)")
	vscode := flag.Bool("vscode", true, "also pack the VS Code extension (editors/vscode) into a .vsix")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./tools/release [flags]\n\nBuilds fwmigrate's binaries and npm packages and packs them.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	opts, err := newOptions(*out, *plats, *ver)
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
	opts.vscode = *vscode
	tarballs, err := release(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
	if opts.vscode {
		vsix, err := packVSCode(opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, "release: the VS Code extension:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "the VS Code extension: %s (code --install-extension it; vsce publish --packagePath it)\n", vsix)
	}
	fmt.Fprintln(os.Stderr, "publish in this order (platform packages first):")
	for _, t := range tarballs {
		fmt.Println(t)
	}
}

func newOptions(out, plats, ver string) (options, error) {
	o := options{log: os.Stderr, version: version.String()}
	if ver != "" {
		o.version = strings.TrimPrefix(ver, "v")
	}
	if err := version.Check(o.version); err != nil {
		return o, err
	}
	var err error
	if o.platforms, err = parsePlatforms(plats); err != nil {
		return o, err
	}
	if o.root, err = moduleRoot(); err != nil {
		return o, err
	}
	o.out = out
	if o.out == "" {
		o.out = filepath.Join(o.root, "dist")
	}
	o.out, err = filepath.Abs(o.out)
	return o, err
}

// moduleRoot is the folder of the go.mod that the go command sees from here.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the fwmigrate module: run it from the repository")
	}
	return filepath.Dir(gomod), nil
}

// release builds, writes and packs the packages; it returns the tarballs'
// paths in publishing order.
func release(o options) ([]string, error) {
	// The packages are written into a new folder and removed once packed:
	// a fixed name under --out could be a folder of the user's (--out=.
	// would name the repository's npm/).
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return nil, err
	}
	stage, err := os.MkdirTemp(o.out, "stage-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	var dirs []string
	for _, p := range o.platforms {
		dir := filepath.Join(stage, p.Name)
		start := time.Now()
		if err := buildBinary(o.root, p, o.version, filepath.Join(dir, "bin", p.Exe())); err != nil {
			return nil, err
		}
		fmt.Fprintf(o.log, "built %s in %.1fs\n", p.Name, time.Since(start).Seconds())
		if err := writePlatformPackage(o.root, dir, p, o.version); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	mainDir := filepath.Join(stage, "fwmigrate")
	if err := writeMainPackage(o.root, mainDir, o.version); err != nil {
		return nil, err
	}
	dirs = append(dirs, mainDir)
	var tarballs []string
	for _, dir := range dirs {
		t, err := npmPack(dir, o.out, o.log)
		if err != nil {
			return nil, err
		}
		tarballs = append(tarballs, t)
	}
	return tarballs, nil
}

// buildBinary cross-compiles cmd/fwmigrate for p into dst: static (no cgo),
// without file system paths or symbol tables. The version comes from the
// embedded VERSION file; -X overrides it only for another version.
func buildBinary(root string, p platform, ver, dst string) error {
	ldflags := "-s -w"
	if ver != version.String() {
		ldflags += " -X " + version.OverrideSymbol + "=" + ver
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", dst, "./cmd/fwmigrate")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", p.Name, err, out)
	}
	return os.Chmod(dst, 0o755)
}

// packageJSON is the one template of every package.json written here; the
// fields a package does not use are left out.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage"`
	Repository           repository        `json:"repository"`
	License              string            `json:"license"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"` // yarn PnP: keep the binary on disk
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

type repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

func newPackageJSON(name, ver, description string) packageJSON {
	return packageJSON{
		Name:        name,
		Version:     ver,
		Description: description,
		Homepage:    "https://github.com/fwmigrate/fwmigrate",
		Repository:  repository{Type: "git", URL: "git+https://github.com/fwmigrate/fwmigrate.git"},
		License:     "MIT",
	}
}

// writePlatformPackage writes p's package.json, README.md and LICENSE into
// dir (the binary is built there separately).
func writePlatformPackage(root, dir string, p platform, ver string) error {
	pj := newPackageJSON(p.Package(), ver, fmt.Sprintf("The %s %s binary of fwmigrate (install fwmigrate instead)", p.OS(), p.CPU()))
	pj.OS = []string{p.OS()}
	pj.CPU = []string{p.CPU()}
	pj.PreferUnplugged = true
	tmpl, err := template.ParseFiles(filepath.Join(root, "npm", "platform", "README.md"))
	if err != nil {
		return err
	}
	var readme strings.Builder
	data := struct{ Name, OS, CPU, Version string }{p.Package(), p.OS(), p.CPU(), ver}
	if err := tmpl.Execute(&readme, data); err != nil {
		return err
	}
	return writeFiles(dir, pj, map[string]file{
		"README.md": {data: []byte(readme.String())},
		"LICENSE":   {from: filepath.Join(root, "LICENSE")},
	})
}

// writeMainPackage writes the fwmigrate package into dir: the launcher, and
// a package.json whose optional dependencies are every platform package at
// exactly ver (a range could pair the launcher with another version's
// binary).
func writeMainPackage(root, dir, ver string) error {
	pj := newPackageJSON("fwmigrate", ver, "Check fw.config files and migrate projects to the framework's version 4")
	pj.Keywords = []string{"fw", "fw.config", "migration", "codemod", "lint", "upgrade"}
	pj.Bin = map[string]string{"fwmigrate": "bin/fwmigrate"}
	pj.Engines = map[string]string{"node": ">=18"}
	pj.OptionalDependencies = map[string]string{}
	for _, p := range platforms {
		pj.OptionalDependencies[p.Package()] = ver
	}
	npm := filepath.Join(root, "npm", "fwmigrate")
	return writeFiles(dir, pj, map[string]file{
		"bin/fwmigrate": {from: filepath.Join(npm, "bin", "fwmigrate"), mode: 0o755},
		"README.md":     {from: filepath.Join(npm, "README.md")},
		"LICENSE":       {from: filepath.Join(root, "LICENSE")},
		// The settings schema of this very version, for editors offline:
		// "$schema": "./node_modules/fwmigrate/fwmigrate.schema.json".
		"fwmigrate.schema.json": {from: filepath.Join(root, "settings", "fwmigrate.schema.json")},
	})
}

// file is one file of a package: data, or the contents of the file from.
type file struct {
	data []byte
	from string
	mode os.FileMode // 0o644 when zero
}

func writeFiles(dir string, pj packageJSON, files map[string]file) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // ">=18", not "\u003e=18"
	enc.SetIndent("", "  ")
	if err := enc.Encode(pj); err != nil {
		return err
	}
	files["package.json"] = file{data: buf.Bytes()}
	var err error
	for name, f := range files {
		if f.from != "" {
			if f.data, err = os.ReadFile(f.from); err != nil {
				return err
			}
		}
		if f.mode == 0 {
			f.mode = 0o644
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, f.mode); err != nil {
			return err
		}
		// WriteFile's mode is filtered by the umask and ignored for a file
		// that exists: set it.
		if err := os.Chmod(p, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// npmPack packs the package in dir into the folder out and returns the
// tarball's path.
func npmPack(dir, out string, log io.Writer) (string, error) {
	cmd := exec.Command("npm", "pack", "--json", "--ignore-scripts", "--pack-destination", out)
	cmd.Dir = dir
	cmd.Stderr = log
	stdout, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack in %s: %w", dir, err)
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(stdout, &packed); err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack in %s: unexpected output %q", dir, stdout)
	}
	path := filepath.Join(out, packed[0].Filename)
	fmt.Fprintf(log, "packed %s\n", path)
	return path, nil
}
