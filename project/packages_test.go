package project_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

func load(t *testing.T, dir string) *project.Project {
	t.Helper()
	p := project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	return p
}

func TestPackagesInstalled(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({ modules: ['@nuxtjs/i18n'] })
-- package.json --
{
  "name": "app",
  "packageManager": "pnpm@9.1.0",
  "dependencies": { "fw": "^3.12.0", "@nuxtjs/i18n": "^8.0.0", "esc": "\u005e1.0.0", "gone": "^1.0.0" },
  "devDependencies": { "@fw/kit": "~3.12.0", "fw": "3.12.0" }
}
-- pnpm-lock.yaml --
lockfileVersion: '9.0'
importers:
  .:
    dependencies:
      gone:
        specifier: ^1.0.0
        version: 1.2.3
-- package-lock.json --
{"lockfileVersion": 3, "packages": {}}
-- node_modules/fw/package.json --
{"name": "fw", "version": "3.12.1", "engines": {"node": "^14.18.0 || >=16.10.0"}}
-- node_modules/@nuxtjs/i18n/package.json --
{"name": "@nuxtjs/i18n", "version": "8.3.1"}
-- node_modules/@nuxtjs/i18n/dist/module.json --
{"name": "@nuxtjs/i18n", "configKey": "i18n", "compatibility": {"fw": "^3.0.0-rc.11", "bridge": false}, "version": "8.3.1"}
-- node_modules/@fw/kit/package.json --
{"name": "@fw/kit", "version": 3}
`)
	ps := load(t, dir).Packages()
	if ps.Err != nil || ps.Manifest == nil {
		t.Fatalf("manifest: %v", ps.Err)
	}
	if ps.Manager.Name != "pnpm" || ps.Lockfile != "pnpm-lock.yaml" || len(ps.Others) != 1 || ps.Others[0] != "package-lock.json" || ps.Manager.InstallCommand() != "pnpm install" {
		t.Errorf("manager %+v lockfile %q others %v", ps.Manager, ps.Lockfile, ps.Others)
	}
	var names []string
	for _, d := range ps.Deps {
		names = append(names, d.Field+":"+d.Name)
		if d.Plain && string(ps.Manifest.Src[d.Span.Start:d.Span.End]) != d.Range {
			t.Errorf("%s: span %q, range %q", d.Name, ps.Manifest.Src[d.Span.Start:d.Span.End], d.Range)
		}
	}
	if got := strings.Join(names, " "); got != "dependencies:fw dependencies:@nuxtjs/i18n dependencies:esc dependencies:gone devDependencies:@fw/kit devDependencies:fw" {
		t.Errorf("deps: %s", got)
	}
	fw := ps.Dep("fw")
	if fw.Field != "dependencies" || fw.Installed == nil || fw.Installed.Version != "3.12.1" || fw.Source() != "node_modules" || fw.Installed.EnginesNode != "^14.18.0 || >=16.10.0" {
		t.Errorf("fw: %+v %+v", fw, fw.Installed)
	}
	i18n := ps.Dep("@nuxtjs/i18n").Installed
	if i18n == nil || !i18n.HasCompatibility || i18n.Compatibility != "^3.0.0-rc.11" || i18n.Version != "8.3.1" {
		t.Errorf("i18n: %+v", i18n)
	}
	if esc := ps.Dep("esc"); esc.Plain || esc.Range != "^1.0.0" || esc.Source() != project.SourceRange {
		t.Errorf("esc: %+v", esc)
	}
	if gone := ps.Dep("gone"); gone.Installed == nil || gone.Installed.Version != "1.2.3" || gone.Source() != "pnpm-lock.yaml" {
		t.Errorf("gone (lockfile): %+v", gone.Installed)
	}
	if kit := ps.Dep("@fw/kit"); kit.Installed != nil {
		t.Errorf("@fw/kit has a version that is not a string: %+v", kit.Installed)
	}
}

func TestPackagesLockfileOnlyAndErrors(t *testing.T) {
	dir := writeArchive(t, `
-- a/fw.config.ts --
export default defineFwConfig({})
-- a/package.json --
{"dependencies": {"fw": "^3.12.0"}}
-- a/yarn.lock --
# yarn lockfile v1

fw@^3.12.0:
  version "3.13.0"
-- b/fw.config.ts --
export default defineFwConfig({})
-- b/package.json --
{"dependencies": {"fw": "^3.12.0"}}
-- b/bun.lock --
{
  "lockfileVersion": 1,
  "packages": { "fw": ["fw@3.12.0" "x"] }
}
-- c/fw.config.ts --
export default defineFwConfig({})
-- c/package.json --
{"dependencies": {"fw": "^3.12.0"},
-- d/fw.config.ts --
export default defineFwConfig({})
`)
	a := load(t, filepath.Join(dir, "a")).Packages()
	if fw := a.Dep("fw"); fw.Installed == nil || fw.Installed.Version != "3.13.0" || fw.Source() != "yarn.lock" || a.Manager.Name != "yarn" || a.Manager.Source != "yarn.lock" {
		t.Errorf("a: %+v %+v", fw.Installed, a.Manager)
	}
	b := load(t, filepath.Join(dir, "b")).Packages()
	var le *project.LockError
	if !errors.As(b.LockErr, &le) || le.Line != 3 || !strings.Contains(le.Error(), "bun.lock:3:") {
		t.Errorf("b: %v", b.LockErr)
	}
	if b.Dep("fw").Source() != project.SourceRange {
		t.Errorf("b: fw from %s", b.Dep("fw").Source())
	}
	c := load(t, filepath.Join(dir, "c")).Packages()
	var pe *compat.PackageError
	if !errors.As(c.Err, &pe) || pe.Line != 1 || pe.Column != 36 || !strings.HasSuffix(pe.Path, "package.json") {
		t.Errorf("c: %v", c.Err)
	}
	d := load(t, filepath.Join(dir, "d")).Packages()
	if d.Manifest != nil || d.Err != nil || len(d.Deps) != 0 || d.Manager.InstallCommand() != "npm install" {
		t.Errorf("d: %+v", d)
	}
}

// TestPackagesConfined: node_modules entries that are symlinks out of the
// checkout (app/ is a git work tree), names with path tricks and FIFOs
// are not read.
func TestPackagesConfined(t *testing.T) {
	dir := writeArchive(t, `
-- outside/fw/package.json --
{"name": "fw", "version": "9.9.9"}
-- app/fw.config.ts --
export default defineFwConfig({})
-- app/package.json --
{"dependencies": {"fw": "^3.12.0", "../outside/fw": "1", "@fw/kit": "^3"}}
-- app/package-lock.json --
{"lockfileVersion": 3, "packages": {"node_modules/fw": {"version": "3.12.0"}}}
-- app/.git/HEAD --
ref: refs/heads/main
`)
	app := filepath.Join(dir, "app")
	if err := os.MkdirAll(filepath.Join(app, "node_modules", "@fw", "kit"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside", "fw"), filepath.Join(app, "node_modules", "fw")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(app, "node_modules", "@fw", "kit", "package.json")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ps := load(t, app).Packages()
	if fw := ps.Dep("fw"); fw.Installed == nil || fw.Installed.Version != "3.12.0" || fw.Source() != "package-lock.json" {
		t.Errorf("fw: read through a symlink out of the project? %+v", fw.Installed)
	}
	if d := ps.Dep("../outside/fw"); d == nil || d.Installed != nil {
		t.Errorf("a name with a path: %+v", d)
	}
	if d := ps.Dep("@fw/kit"); d.Installed != nil {
		t.Errorf("a FIFO read: %+v", d.Installed)
	}
}

func TestNodePlaces(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({})
-- package.json --
{"engines": {"node": ">=18.0.0"}, "volta": {"node": "20.11.1"}}
-- .nvmrc --
# pinned
v20
-- .node-version --
lts/iron
-- .tool-versions --
pnpm 9.1.0
nodejs 20.11.1 18.20.0
-- .github/workflows/ci.yml --
name: ci
on: push
jobs:
  test:
    strategy:
      matrix:
        node: [ 18, '20.x' ] # both
        os: [ubuntu-latest]
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node }}
  lint:
    strategy:
      matrix:
        node-version:
          - 22
          - "lts/*"
    steps:
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node-version }}
      - uses: actions/setup-node@v4
        with:
          node-version: '20' # again
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ env.NODE }}
-- .github/workflows/other.yaml --
jobs:
  x:
    steps:
      - with:
          node-version-file: .nvmrc
-- .github/workflows/notes.txt --
node-version: 1
-- Dockerfile --
ARG NODE_VERSION=20.11-alpine
FROM node:${NODE_VERSION} AS build
FROM --platform=linux/amd64 node:22-bookworm-slim
FROM docker.io/library/node:lts-alpine
FROM node
FROM nginx:1.25
-- web.Dockerfile --
from node:18.20.5@sha256:abc
`)
	p := load(t, dir)
	var got []string
	for _, np := range p.NodePlaces() {
		f, _ := os.ReadFile(np.Path)
		if string(f[np.Span.Start:np.Span.End]) != np.Text {
			t.Errorf("%s: span %q != text %q", np.Display, f[np.Span.Start:np.Span.End], np.Text)
		}
		s := filepath.Base(np.Path) + ":" + np.Kind + ":" + np.Text
		if np.Plain {
			s += ":plain"
		}
		if np.Known {
			s += ":" + np.Range.Normal()
		}
		if np.Note != "" {
			s += ":(" + np.Note + ")"
		}
		got = append(got, s)
	}
	want := []string{
		"package.json:engines.node:>=18.0.0:>=18.0.0",
		"package.json:volta.node:20.11.1:plain:20.11.1",
		".nvmrc:.nvmrc:v20:plain:>=20.0.0 <21.0.0-0",
		".node-version:.node-version:lts/iron:>=20.0.0 <21.0.0-0",
		".tool-versions:.tool-versions:20.11.1:plain:20.11.1",
		"ci.yml:workflow:18:plain:>=18.0.0 <19.0.0-0:(matrix.node)",
		"ci.yml:workflow:20.x:>=20.0.0 <21.0.0-0:(matrix.node)",
		"ci.yml:workflow:22:plain:>=22.0.0 <23.0.0-0:(matrix.node-version)",
		"ci.yml:workflow:lts/*:(matrix.node-version)",
		"ci.yml:workflow:20:plain:>=20.0.0 <21.0.0-0",
		"ci.yml:workflow:${{ env.NODE }}",
		"Dockerfile:Dockerfile:20.11:plain:>=20.11.0 <20.12.0-0:(ARG NODE_VERSION)",
		"Dockerfile:Dockerfile:22:plain:>=22.0.0 <23.0.0-0",
		"Dockerfile:Dockerfile:lts",
		"Dockerfile:Dockerfile:node:(no tag: latest)",
		"web.Dockerfile:Dockerfile:18.20.5:plain:18.20.5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("places:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ws := p.Workflows(); len(ws) != 2 || filepath.Base(ws[0].Path) != "ci.yml" || len(ws[0].Src) == 0 {
		t.Errorf("workflows: %d", len(ws))
	}
	if ds := p.CI().Dockerfiles; len(ds) != 2 {
		t.Errorf("dockerfiles: %d", len(ds))
	}
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// TestNodePlacesLinear: a workflow of many matrix keys and as many
// references to them is read in time proportional to its size.
func TestNodePlacesLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test: skipped under -short")
	}
	var b strings.Builder
	b.WriteString("jobs:\n  a:\n    strategy:\n      matrix:\n")
	const n = 10000 // about 600 kB, under the 1 MB a workflow may have
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "        k%d: [1]\n", i)
	}
	b.WriteString("    steps:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "      - with:\n          node-version: ${{ matrix.k%d }}\n", i)
	}
	dir := writeArchive(t, "-- fw.config.ts --\nexport default defineFwConfig({})\n")
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "big.yml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := testtree.CPUTime()
	places := load(t, dir).NodePlaces()
	if d := testtree.CPUTime() - start; d > 3*time.Second {
		t.Errorf("%v for %d bytes", d, b.Len())
	}
	if len(places) != n {
		t.Errorf("%d places, want %d", len(places), n)
	}
}

// TestPackagesWorkspace: in a workspace, the lockfile and the hoisted
// node_modules are the top folder's: the package's version is read from
// there, up to the checkout and not beyond it.
func TestPackagesWorkspace(t *testing.T) {
	dir := writeArchive(t, `
-- node_modules/fw/package.json --
{"name": "fw", "version": "9.9.9"}
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/package-lock.json --
{"lockfileVersion": 3, "packages": {"node_modules/@fw/kit": {"version": "3.17.2"}}}
-- repo/node_modules/fw/package.json --
{"name": "fw", "version": "3.17.2"}
-- repo/apps/web/fw.config.ts --
export default defineFwConfig({})
-- repo/apps/web/package.json --
{"dependencies": {"fw": "^3.12.0", "@fw/kit": "^3.12.0", "vue": "^3.5.0"}}
`)
	ps := load(t, filepath.Join(dir, "repo", "apps", "web")).Packages()
	if d := ps.Dep("fw"); d.Installed == nil || d.Installed.Version != "3.17.2" || d.Source() != "node_modules" {
		t.Errorf("fw hoisted to the workspace's node_modules: %+v", d.Installed)
	}
	if d := ps.Dep("@fw/kit"); d.Installed == nil || d.Installed.Version != "3.17.2" || ps.Lockfile != "../../package-lock.json" {
		t.Errorf("@fw/kit from the workspace's lockfile (%q): %+v", ps.Lockfile, d.Installed)
	}
	if d := ps.Dep("vue"); d.Installed != nil {
		t.Errorf("vue is installed nowhere: %+v", d.Installed)
	}
}
