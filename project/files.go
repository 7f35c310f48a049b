package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/compat"
)

// The project's tree as the rules see it. Rules never read the disk: they
// ask the project, which looks once and keeps the answer for the project's
// life (a check of one project asks the same few paths many times; the tree
// does not change under a check).

// tree caches what the project's rules asked of the disk. Copies of a
// Project (WithFile) share it.
type tree struct {
	mu    sync.Mutex
	stats map[string]stat
	lists map[string]Listing

	fwOnce   sync.Once
	fwignore *TextFile
	fwErr    error

	strayOnce sync.Once
	stray     []string
	strayErr  error

	sourcesOnce sync.Once
	sources     []*Source

	tsOnce sync.Once // TSFiles (tscontext_load.go)
	ts     *TSFiles

	// folders is the listing the walks share when the project has no
	// Cache (folders.go).
	folders folders

	deps depsState // package.json, lockfile, node_modules, Node places, CI files (packages.go)
}

type stat struct {
	mode fs.FileMode
	ok   bool
}

func (p *Project) files() *tree {
	if p.tree == nil {
		// A Project built by hand (tests) gets a tree of its own on first
		// use; loaded ones have theirs from the Loader.
		p.tree = &tree{}
	}
	return p.tree
}

func (t *tree) stat(path string) stat {
	t.mu.Lock()
	s, ok := t.stats[path]
	t.mu.Unlock()
	if ok {
		return s
	}
	if fi, err := os.Stat(path); err == nil {
		s = stat{mode: fi.Mode(), ok: true}
	}
	t.mu.Lock()
	if t.stats == nil {
		t.stats = map[string]stat{}
	}
	t.stats[path] = s
	t.mu.Unlock()
	return s
}

// Exists reports whether something is at path (absolute), symlinks
// followed.
func (p *Project) Exists(path string) bool { return p.files().stat(path).ok }

// IsDir reports whether path (absolute) is a directory, symlinks followed.
func (p *Project) IsDir(path string) bool {
	s := p.files().stat(path)
	return s.ok && s.mode.IsDir()
}

// IsFile reports whether path (absolute) is a regular file, symlinks
// followed.
func (p *Project) IsFile(path string) bool {
	s := p.files().stat(path)
	return s.ok && s.mode.IsRegular()
}

// Listing is the names a directory holds.
type Listing struct {
	names  []string
	listed bool // false: the directory could not be listed
}

// List lists dir (absolute), so that the names it does not hold need no
// stat.
func (p *Project) List(dir string) Listing {
	t := p.files()
	t.mu.Lock()
	l, ok := t.lists[dir]
	t.mu.Unlock()
	if ok {
		return l
	}
	if d, err := os.Open(dir); err == nil {
		if names, err := d.Readdirnames(-1); err == nil {
			l = Listing{names: names, listed: true}
		}
		d.Close()
	}
	t.mu.Lock()
	if t.lists == nil {
		t.lists = map[string]Listing{}
	}
	t.lists[dir] = l
	t.mu.Unlock()
	return l
}

// MayHold reports whether a stat of name in the directory may find
// something: the listing holds it, letter case ignored (on a file system
// that ignores case, a stat of Vite.config.ts finds vite.config.ts), or the
// directory could not be listed.
func (l Listing) MayHold(name string) bool {
	if !l.listed {
		return true
	}
	for _, n := range l.names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// TextFile is a file of the project other than the config and the .env
// files, read for the rules that check its lines.
type TextFile struct {
	Path    string // absolute
	Display string // as shown to the user, like the config's display path
	Src     []byte
}

// FwIgnore returns the project's .fwignore, nil when there is none (a
// symlink is read through: the framework reads it the same way).
func (p *Project) FwIgnore() (*TextFile, error) {
	t := p.files()
	t.fwOnce.Do(func() {
		path := filepath.Join(p.Root, ".fwignore")
		src, ok := []byte(nil), false
		if p.overlay != nil {
			src, ok = p.overlay(path)
		}
		var err error
		if !ok {
			if err = p.Readable(path); err == nil {
				src, err = ReadSource(path)
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			t.fwErr = err
			return
		}
		t.fwignore = &TextFile{Path: path, Display: filepath.Join(filepath.Dir(p.ConfigDisplay), ".fwignore"), Src: src}
	})
	return t.fwignore, t.fwErr
}

// Stray returns compat.Stray of the project's layout root: the layout-B
// sources at the root that version 4 ignores once app/ is srcDir.
func (p *Project) Stray() ([]string, error) {
	t := p.files()
	t.strayOnce.Do(func() {
		root := p.Root
		if p.Detection != nil {
			root = p.Detection.Root
		}
		t.stray, t.strayErr = compat.Stray(root)
	})
	return t.stray, t.strayErr
}

// LayerDirs returns the <Root>/layers/* directories the framework
// registers as layers (compat.Layers), as the Loader found them.
func (p *Project) LayerDirs() ([]string, error) {
	if p.Layer == nil {
		return nil, nil
	}
	return p.Layer.autoDirs, p.Layer.autoErr
}
