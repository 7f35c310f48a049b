package project

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Files besides the sources that some rules read: a file the config names
// (a global stylesheet of css, spaLoadingTemplate), a file the framework
// looks for (spa-loading-template.html), and the project's tests.

// ReadText reads a text file of the project or of one of its local layers
// (path absolute, or relative to the project's root) with ReadSource's
// limits. A path outside those roots, once symlinks are resolved, is an
// error: the config names the file, and a config must not make fwmigrate
// read, say, /etc/passwd into a diagnostic.
func (p *Project) ReadText(path string) (*TextFile, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.Root, path)
	}
	path = filepath.Clean(path)
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	inside := false
	for _, root := range p.roots() {
		if pathx.Within(real, root) {
			inside = true
			break
		}
	}
	if !inside {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("outside the project")}
	}
	src, err := p.readFile(real)
	if err != nil {
		return nil, err
	}
	return &TextFile{Path: path, Display: p.display(path), Src: src}, nil
}

// roots are the project's root and its local layers' roots, symlinks
// resolved.
func (p *Project) roots() []string {
	var out []string
	for _, r := range append([]string{p.Root}, p.layerRoots()...) {
		if real, err := filepath.EvalSymlinks(r); err == nil {
			r = real
		}
		out = append(out, r)
	}
	return out
}

func (p *Project) layerRoots() []string {
	var out []string
	for _, ly := range p.Layers {
		out = append(out, ly.Root)
	}
	return out
}

// testDirs are the directories of the project's root that hold its tests
// by the test runners' conventions.
var testDirs = []string{"test", "tests", "__tests__"}

// TestSources returns the script files under the project root's test
// directories (test/, tests/, __tests__/), sorted, with Role RoleTest.
// They are not among Sources: the framework does not build them, but
// tests that mount the app's components see its component names. The
// same files are left out as from Sources (dependencies, build output,
// hidden and .gitignored paths); the walk is made on each call.
func (p *Project) TestSources() []*Source {
	w := &sourceWalk{p: p, seen: map[string]bool{}}
	for _, d := range testDirs {
		w.walk(p.Root, filepath.Join(p.Root, d), RoleTest, nil, nil)
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].Path < w.out[j].Path })
	return w.out
}
