package project

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

// What the project depends on and what is installed: package.json's
// dependencies with the byte spans of their ranges (for fixes), the version
// each resolved to (node_modules, else the lockfile), and the package
// manager. Everything is read from the project's root, once, on first
// use; nothing outside the root is read (a symlink out of it is not
// followed).

// Package sources, as Installed.Source and Dep.Source say them.
const (
	SourceNodeModules = "node_modules"
	SourceRange       = "package.json range"
)

// maxPackageFile bounds a package's package.json or module.json read from
// node_modules (real ones are a few kilobytes).
const maxPackageFile = 4 << 20

// maxLockfile bounds a lockfile (large monorepos have lockfiles of a few
// tens of megabytes).
const maxLockfile = MaxSourceSize

// Dep is one dependency of package.json.
type Dep struct {
	Name string
	// Field is "dependencies", "devDependencies" or "optionalDependencies".
	Field string
	// Range is the value as JSON reads it ("^3.12.0", "catalog:").
	Range string
	// Span is the value's text inside its quotes in package.json; Plain
	// is true when that text is Range itself (no escapes), so that a fix
	// may replace it.
	Span  ast.Span
	Plain bool
	// Installed is the version found, nil when neither node_modules nor a
	// lockfile says: then the range is all there is (Source says so).
	Installed *Installed
}

// Source says where the dependency's version comes from: "node_modules",
// the lockfile's name, or "package.json range".
func (d *Dep) Source() string {
	if d.Installed != nil {
		return d.Installed.Source
	}
	return SourceRange
}

// Installed is a dependency's version as installed or locked.
type Installed struct {
	Version string
	// Source is "node_modules" or the lockfile's name.
	Source string
	// File is the file read (node_modules/<name>/package.json or the
	// lockfile), as shown to the user.
	File string
	// EnginesNode is the installed package's engines.node ("" when none or
	// not from node_modules).
	EnginesNode string
	// Compatibility is a module's declared meta.compatibility.fw, from its
	// built dist/module.json in node_modules; HasCompatibility is false
	// when there is none to read (no module.json, or it declares none).
	Compatibility    string
	HasCompatibility bool
	CompatibilityIn  string // the module.json read, as shown to the user
}

// Manager is the project's package manager.
type Manager struct {
	// Name is "npm", "pnpm", "yarn" or "bun"; "" when nothing says.
	Name string
	// Source says what told: the packageManager field or a lockfile's
	// name.
	Source string
}

// InstallCommand is the command that installs the project's dependencies
// with its package manager ("npm install" when none is known).
func (m Manager) InstallCommand() string {
	if m.Name == "" {
		return "npm install"
	}
	return m.Name + " install"
}

// Packages is the project's package.json, lockfile and node_modules.
type Packages struct {
	// Manifest is package.json, nil when there is none; Err says why it
	// could not be used (invalid JSON: a *compat.PackageError with its
	// position; a symlink out of the project).
	Manifest *TextFile
	Err      error
	// Deps are the dependencies in the order package.json writes them;
	// a name written twice in one field is its last entry, as in JSON.
	Deps []*Dep
	// PackageManager is the packageManager field ("pnpm@9.1.0"), "" when
	// none.
	PackageManager string
	Manager        Manager
	// Lockfile is the lockfile read ("pnpm-lock.yaml"), "" when none;
	// LockErr is why it could not be read (a *LockError with its position,
	// or a read error). Others are further lockfiles found beside it.
	Lockfile string
	LockErr  error
	Others   []string
	// NodeModules reports a node_modules folder in the root.
	NodeModules bool

	// members are package.json's top-level members, for the Node places.
	members []jsonc.Item
}

// Dep returns the dependency name (dependencies before devDependencies),
// nil when package.json does not have it.
func (ps *Packages) Dep(name string) *Dep {
	var found *Dep
	for _, d := range ps.Deps {
		if d.Name == name && (found == nil || found.Field != "dependencies") {
			found = d
		}
	}
	return found
}

// lockfiles are the lockfiles read, in the order one is chosen when
// several are present and packageManager does not say, with their package
// manager and reader.
var lockfiles = []struct {
	name, manager string
	read          func([]byte) (Resolved, error)
}{
	{"pnpm-lock.yaml", "pnpm", ParsePnpmLock},
	{"yarn.lock", "yarn", ParseYarnLock},
	{"package-lock.json", "npm", ParsePackageLock},
	{"npm-shrinkwrap.json", "npm", ParsePackageLock},
	{"bun.lock", "bun", ParseBunLock},
	{"bun.lockb", "bun", nil}, // binary: names the manager only
}

// depsState is what packages.go, node.go and ci.go load, once per project
// (the tree's: copies of a Project share it).
type depsState struct {
	pkgOnce sync.Once
	pkgs    *Packages

	ciOnce sync.Once
	ci     *CIFiles

	nodeOnce sync.Once
	node     []*NodePlace
}

// Packages returns what the project depends on and what is installed,
// read on first use.
func (p *Project) Packages() *Packages {
	s := &p.files().deps
	s.pkgOnce.Do(func() { s.pkgs = p.loadPackages() })
	return s.pkgs
}

func (p *Project) loadPackages() *Packages {
	ps := &Packages{}
	root := p.Root
	path := filepath.Join(root, "package.json")
	src, err := p.readConfined(path, MaxSourceSize, true)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		ps.Err = err
	default:
		ps.Manifest = &TextFile{Path: path, Display: p.display(path), Src: src}
		ps.Err = ps.readManifest(src)
	}
	if ps.Err != nil {
		var pe *compat.PackageError
		if errors.As(ps.Err, &pe) && ps.Manifest != nil {
			pe.Path = ps.Manifest.Display
		}
	}
	// A workspace's packages share the lockfile and, hoisted, the
	// node_modules of a folder above them: both are looked for from the
	// project's root up to its checkout's, as Node resolves a package.
	up := p.upDirs()
	var modules []string
	for _, d := range up {
		if p.IsDir(filepath.Join(d, "node_modules")) {
			modules = append(modules, d)
		}
	}
	ps.NodeModules = len(modules) > 0

	// The lockfile: the one of the packageManager field's manager, else
	// the first found.
	if name, _, ok := strings.Cut(ps.PackageManager, "@"); ok && name != "" {
		ps.Manager = Manager{Name: name, Source: "the packageManager field of package.json"}
	}
	var found []int
	lockDir := root
	for _, d := range up {
		for i, lf := range lockfiles {
			if p.IsFile(filepath.Join(d, lf.name)) {
				found = append(found, i)
			}
		}
		if len(found) > 0 {
			lockDir = d
			break
		}
	}
	chosen := -1
	for _, i := range found {
		if ps.Manager.Name == "" || lockfiles[i].manager == ps.Manager.Name {
			chosen = i
			break
		}
	}
	if chosen < 0 && len(found) > 0 {
		chosen = found[0]
	}
	var resolved Resolved
	for _, i := range found {
		if i != chosen {
			ps.Others = append(ps.Others, lockfiles[i].name)
		}
	}
	if chosen >= 0 {
		lf := lockfiles[chosen]
		ps.Lockfile = lf.name
		if lockDir != root {
			if rel, err := filepath.Rel(root, filepath.Join(lockDir, lf.name)); err == nil {
				ps.Lockfile = filepath.ToSlash(rel)
			}
		}
		if ps.Manager.Name == "" {
			ps.Manager = Manager{Name: lf.manager, Source: lf.name}
		}
		if lf.read != nil {
			lpath := filepath.Join(lockDir, lf.name)
			src, err := p.readConfined(lpath, maxLockfile, false)
			if err == nil {
				resolved, err = lf.read(src)
			}
			var le *LockError
			if errors.As(err, &le) {
				le.File = p.display(lpath)
			}
			ps.LockErr = err
		}
	}

	for _, d := range ps.Deps {
		for _, m := range modules {
			if d.Installed = p.installed(m, d.Name); d.Installed != nil {
				break
			}
		}
		if d.Installed == nil && resolved != nil {
			if v, ok := resolved.Version(d.Name, d.Range); ok {
				d.Installed = &Installed{Version: v, Source: ps.Lockfile, File: p.display(filepath.Join(root, filepath.FromSlash(ps.Lockfile)))}
			}
		}
	}
	return ps
}

// readManifest reads package.json's dependencies, packageManager and
// members; a JSON error is a *compat.PackageError with its position.
func (ps *Packages) readManifest(src []byte) error {
	if _, err := compat.ParsePackageMajor("package.json", src); err != nil {
		return err
	}
	var pkg struct {
		PackageManager any `json:"packageManager"`
	}
	_ = json.Unmarshal(src, &pkg)
	if s, ok := pkg.PackageManager.(string); ok {
		ps.PackageManager = s
	}
	members, ok := jsonc.Members(src)
	if !ok {
		return &compat.PackageError{Path: "package.json", Msg: "not a JSON object"}
	}
	ps.members = members
	for _, field := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		var m *jsonc.Item
		for i := range members {
			if members[i].Key(src) == field {
				m = &members[i] // the last of duplicate keys, as in JSON
			}
		}
		if m == nil || src[m.ValStart] != '{' {
			continue
		}
		items, ok := jsonc.Items(src, m.ValStart)
		if !ok {
			continue
		}
		at := map[string]int{}
		for _, it := range items {
			if src[it.ValStart] != '"' {
				continue // not a string: npm rejects it; nothing to read
			}
			var name, rng string
			if json.Unmarshal(src[it.KeyStart:it.KeyEnd], &name) != nil || json.Unmarshal(src[it.ValStart:it.ValEnd], &rng) != nil {
				continue
			}
			_, plain := it.String(src)
			d := &Dep{Name: name, Field: field, Range: rng, Span: ast.Span{Start: it.ValStart + 1, End: it.ValEnd - 1}, Plain: plain}
			if i, dup := at[name]; dup {
				ps.Deps[i] = d
				continue
			}
			at[name] = len(ps.Deps)
			ps.Deps = append(ps.Deps, d)
		}
	}
	return nil
}

// npmPackageName is a name npm publishes: no path tricks ("..", "/" but
// the scope's), no upper case.
var npmPackageName = lazyregexp.New(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// installed reads node_modules/<name>/package.json and, for a module, its
// dist/module.json; nil when the package is not installed there or its
// package.json has no version.
// upDirs are the project's root and the folders above it up to its
// checkout's root (Checkout), nearest first; the root alone when the
// checkout is not known.
func (p *Project) upDirs() []string {
	dirs := []string{p.Root}
	top := p.Checkout
	if top == "" || !Within(realRoot(p.Root), top) {
		return dirs
	}
	for d := realRoot(p.Root); d != top; {
		parent := filepath.Dir(d)
		if parent == d || len(dirs) > 64 {
			break
		}
		d = parent
		dirs = append(dirs, d)
	}
	return dirs
}

// installed is the package name as installed in dir/node_modules, nil
// when it is not there (or cannot be read).
func (p *Project) installed(dir, name string) *Installed {
	if !npmPackageName().MatchString(name) || len(name) > 214 {
		return nil
	}
	dir = filepath.Join(dir, "node_modules", filepath.FromSlash(name))
	src, err := p.readConfined(filepath.Join(dir, "package.json"), maxPackageFile, false)
	if err != nil {
		return nil
	}
	var pkg struct {
		Name    any `json:"name"`
		Version any `json:"version"`
		Engines any `json:"engines"`
	}
	if json.Unmarshal(src, &pkg) != nil {
		return nil
	}
	v, ok := pkg.Version.(string)
	if !ok {
		return nil
	}
	if v, ok = cleanVersion(v); !ok {
		return nil
	}
	in := &Installed{Version: v, Source: SourceNodeModules, File: p.display(filepath.Join(dir, "package.json"))}
	if e, ok := pkg.Engines.(map[string]any); ok {
		if n, ok := e["node"].(string); ok {
			in.EnginesNode = n
		}
	}
	mpath := filepath.Join(dir, "dist", "module.json")
	if msrc, err := p.readConfined(mpath, maxPackageFile, false); err == nil {
		var meta struct {
			Compatibility map[string]any `json:"compatibility"`
			Meta          struct {
				Compatibility map[string]any `json:"compatibility"`
			} `json:"meta"`
		}
		if json.Unmarshal(msrc, &meta) == nil {
			c := meta.Compatibility
			if c == nil {
				c = meta.Meta.Compatibility
			}
			if s, ok := c[compat.FrameworkPackage].(string); ok {
				in.Compatibility, in.HasCompatibility = s, true
			}
			in.CompatibilityIn = p.display(mpath)
		}
	}
	return in
}

// readConfined reads a file of the project, refusing one that leads out of
// the checkout (Readable) and any file not regular or larger than limit.
// overlay says whether an editor's buffer may stand for the file
// (package.json: yes; what a package manager writes: no).
func (p *Project) readConfined(path string, limit int64, overlay bool) ([]byte, error) {
	if overlay && p.overlay != nil {
		if src, ok := p.overlay(path); ok {
			return src, binaryErr(src)
		}
	}
	if err := p.Readable(path); err != nil {
		return nil, err
	}
	src, err := readLimited(path, limit)
	if err == nil {
		err = binaryErr(src)
	}
	return src, err
}

// fwDep is the framework's dependency in package.json, nil when there is
// none (or package.json cannot be read).
func (p *Project) fwDep() *Dep {
	ps := p.Packages()
	if ps == nil {
		return nil
	}
	return ps.Dep(compat.FrameworkPackage)
}
