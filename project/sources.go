package project

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Role is what a source file is to the framework.
type Role uint8

const (
	// RoleApp is app code: every .vue file and script under the srcDir's
	// app folders (pages/, components/, layouts/, composables/, utils/,
	// plugins/, middleware/, or the whole srcDir when it is not the
	// root), app.vue, error.vue and app.config.*.
	RoleApp Role = iota
	// RoleModule is module code: <rootDir>/modules/**.
	RoleModule
	// RoleServer is server code: <serverDir>/**.
	RoleServer
	// RoleShared is code both sides import: <rootDir>/shared/**.
	RoleShared
	// RoleTest is a test of the project's: <rootDir>/test/**, tests/**,
	// __tests__/** (TestSources; never among Sources).
	RoleTest
)

var roleNames = [...]string{"app", "module", "server", "shared", "test"}

func (r Role) String() string { return roleNames[r] }

// Source is one source file of the project or of one of its local layers.
type Source struct {
	Path    string // absolute
	Display string // as shown to the user: relative to the working directory, like ConfigDisplay
	Rel     string // relative to its root (the project's, or its layer's), slash-separated
	Role    Role
	// Layer is the local layer the file belongs to, nil for the project's
	// own files.
	Layer *Layer

	overlay func(path string) ([]byte, bool) // the project's (Read)
	cache   *Cache                           // the project's (Read), nil when none
	budget  *budget                          // the project's (Read), nil when none
}

// Lang returns the file's language as the code reader takes it: "vue",
// "ts", "tsx", "js" or "jsx".
func (s *Source) Lang() string { return sourceLang(s.Path) }

// OwnerConfig is the config of the project a file belongs to: the file
// itself when it is a config, else the nearest fw.config.* in its folder or
// above (as the framework's own lookup goes, by compat.ConfigNames' order);
// "" when there is none.
func OwnerConfig(file string) string {
	if compat.IsConfigName(filepath.Base(file)) {
		return file
	}
	for dir := filepath.Dir(file); ; {
		for _, n := range compat.ConfigNames {
			c := filepath.Join(dir, n)
			if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
				return c
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// IsCodeName reports whether a file name is one the code rules read (a
// .vue file or a script; not a declaration file).
func IsCodeName(name string) bool { return sourceLang(name) != "" }

func sourceLang(name string) string {
	switch filepath.Ext(name) {
	case ".vue":
		return "vue"
	case ".ts", ".mts", ".cts":
		if strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, ".d.mts") || strings.HasSuffix(name, ".d.cts") {
			return "" // declarations: no code runs
		}
		return "ts"
	case ".tsx":
		return "tsx"
	case ".js", ".mjs", ".cjs":
		return "js"
	case ".jsx":
		return "jsx"
	}
	return ""
}

// appDirs are the srcDir folders that hold app code when srcDir is the root
// (layout B): the others there (server/, public/, tests, scripts) are not
// the app's. pages, layouts, middleware and plugins follow dir.*.
var appDirs = []string{"components", "composables", "utils"}

// appFiles are the srcDir files that are app code.
var appFiles = []string{"app.vue", "error.vue", "app.config.ts", "app.config.js", "app.config.mjs", "app.config.mts"}

// Sources returns the source files of the project and of its local layers,
// by role, sorted by path; each file once. The tree is walked on the first
// call and the answer kept for the project's life. Dependencies, build
// output, hidden directories and what the repository's .gitignore files
// exclude are left out, and symlinked directories are not followed.
//
// With a Cache (the language server), the list is kept between checks
// while what it depends on stays (keptSources): the folders' listing (the
// editor's file events forget it), the resolutions of the project and its
// layers, and the editor's buffers; a check after an edit of a file's
// content then makes no walk at all.
func (p *Project) Sources() []*Source {
	t := p.files()
	t.sourcesOnce.Do(func() {
		var key [sha256.Size]byte
		var gen, before int64
		if p.cache != nil {
			key, gen = p.sourcesKey(), p.cache.folders.gen.Load()
			if out := p.keptSources(key); out != nil {
				t.sources = out
				return
			}
		}
		if p.budget != nil {
			before = p.budget.entries.Load()
		}
		w := &sourceWalk{p: p, seen: map[string]bool{}}
		if p.Layer != nil && p.Detection != nil {
			w.layer(p.Root, p.Detection, nil)
		}
		for _, ly := range p.Layers {
			if ly.Detection != nil {
				w.layer(ly.Root, ly.Detection, ly)
			}
		}
		sort.Slice(w.out, func(i, j int) bool { return w.out[i].Path < w.out[j].Path })
		t.sources = w.out
		if p.cache != nil && p.cache.folders.gen.Load() == gen && (p.budget == nil || p.budget.hit.Load() == nil) {
			k := &keptSources{key: key, list: w.out}
			if p.budget != nil {
				k.entries = p.budget.entries.Load() - before
			}
			p.cache.Keep(keptSourcesSlot+p.ConfigPath, k)
		}
	})
	return t.sources
}

// keptSources is a project's sources list that its Cache keeps between
// checks, under the key of what the walk depends on besides the disk's
// listing: sourcesKey.
type keptSources struct {
	key     [sha256.Size]byte
	entries int64 // the walk's entries, counted in a reusing project's budget
	list    []*Source
}

const keptSourcesSlot = "project.sources\x00"

// sourcesKey sums what the source walk depends on besides the folders'
// listing (and the texts of the .gitignore files, which change with it):
// the listing's generation, the project's and its layers' roots and
// resolutions, its config's display, its budget, and the buffers the
// editor has open (a buffer-only file is a source; an app file at the
// srcDir is one while the editor has it).
func (p *Project) sourcesKey() [sha256.Size]byte {
	k := NewKeySum()
	str := k.Str
	str(fmt.Sprint(p.cache.folders.gen.Load(), p.Layer != nil))
	str(p.Root)
	str(p.ConfigPath)
	str(p.ConfigDisplay)
	if p.Layer != nil && p.Detection != nil {
		str(fmt.Sprintf("%+v", *p.Detection))
	}
	for _, ly := range p.Layers {
		str(ly.Root)
		if ly.Detection != nil {
			str(fmt.Sprintf("%+v", *ly.Detection))
		}
	}
	if p.budget != nil {
		str(fmt.Sprintf("%+v", p.budget.Budget))
	}
	if p.buffers != nil {
		bufs := append([]string(nil), p.buffers()...)
		sort.Strings(bufs)
		for _, b := range bufs {
			str(b)
		}
	}
	return k.Sum()
}

// keptSources returns the sources list the Cache kept under key, made
// this project's (its layers, overlay, cache and budget), nil when none.
func (p *Project) keptSources(key [sha256.Size]byte) []*Source {
	slot := keptSourcesSlot + p.ConfigPath
	k, _ := p.cache.Take(slot).(*keptSources)
	if k == nil || k.key != key {
		return nil
	}
	p.cache.Keep(slot, k)
	layers := map[*Layer]*Layer{} // the kept list's layers -> this project's, by root
	for _, s := range k.list {
		if s.Layer != nil && layers[s.Layer] == nil {
			for _, ly := range p.Layers {
				if ly.Root == s.Layer.Root {
					layers[s.Layer] = ly
				}
			}
			if layers[s.Layer] == nil {
				return nil
			}
		}
	}
	if p.budget != nil {
		if p.budget.Files > 0 && p.budget.entries.Load()+k.entries > int64(p.budget.Files) {
			return nil // past this project's budget: walk, and say where it stopped
		}
		p.budget.entries.Add(k.entries)
	}
	out := make([]*Source, len(k.list))
	src := make([]Source, len(k.list))
	for i, s := range k.list {
		src[i] = Source{Path: s.Path, Display: s.Display, Rel: s.Rel, Role: s.Role, Layer: layers[s.Layer], overlay: p.overlay, cache: p.cache, budget: p.budget}
		out[i] = &src[i]
	}
	return out
}

type sourceWalk struct {
	p    *Project
	seen map[string]bool
	out  []*Source
}

// layer adds the sources of one root (the project's or a layer's), as its
// Detection resolves them today.
func (w *sourceWalk) layer(root string, d *compat.Detection, ly *Layer) {
	// The tree as the project resolves it today, and as version 4 will (a
	// tree already in layout A on v3 without compatibility version 4 has
	// its code in app/, which only version 4 reads).
	w.resolution(root, d.Current, ly)
	if d.V4.SrcDir != d.Current.SrcDir || d.V4.ServerDir != d.Current.ServerDir {
		w.resolution(root, d.V4, ly)
	}
}

func (w *sourceWalk) resolution(root string, r compat.Resolution, ly *Layer) {
	// The roles that own a folder come first: under version 3 the server
	// folder is inside a custom srcDir (<srcDir>/server), and it is the
	// server's, not the app's.
	if dir := r.Dir["modules"]; dir != "" {
		w.walk(root, dir, RoleModule, ly, nil)
	}
	if r.ServerDir != "" {
		w.walk(root, r.ServerDir, RoleServer, ly, nil)
	}
	if dir := r.Dir["shared"]; dir != "" {
		w.walk(root, dir, RoleShared, ly, nil)
	}
	if r.SrcDir == "" {
		return
	}
	if r.SrcDir != root {
		// Layout A or a custom srcDir: all of it is the app's, but for
		// the folders above and public/ (assets, not code).
		skip := map[string]bool{r.Dir["public"]: true, r.Dir["modules"]: true, r.ServerDir: true, r.Dir["shared"]: true}
		w.walk(root, r.SrcDir, RoleApp, ly, skip)
	} else {
		for _, k := range []string{"pages", "layouts", "middleware", "plugins"} {
			if dir := r.Dir[k]; dir != "" {
				w.walk(root, dir, RoleApp, ly, nil)
			}
		}
		for _, name := range appDirs {
			w.walk(root, filepath.Join(r.SrcDir, name), RoleApp, ly, nil)
		}
	}
	for _, name := range appFiles {
		w.file(root, filepath.Join(r.SrcDir, name), RoleApp, ly)
	}
}

func (w *sourceWalk) add(root, p string, role Role, ly *Layer) {
	if w.seen[p] {
		return
	}
	w.seen[p] = true
	rel, err := filepath.Rel(root, p)
	if err != nil {
		rel = p
	}
	w.out = append(w.out, &Source{Path: p, Display: w.p.display(p), Rel: filepath.ToSlash(rel), Role: role, Layer: ly, overlay: w.p.overlay, cache: w.p.cache, budget: w.p.budget})
}

// file adds one file when it is a regular file (symlinks followed), or an
// editor's buffer.
func (w *sourceWalk) file(root, p string, role Role, ly *Layer) {
	if sourceLang(p) != "" && w.p.overlay != nil {
		if _, ok := w.p.overlay(p); ok {
			w.add(root, p, role, ly)
			return
		}
	}
	if sourceLang(p) == "" || !w.p.IsFile(p) || w.p.Readable(p) != nil {
		// A link out of the checkout is not read (Project.Readable).
		return
	}
	w.add(root, p, role, ly)
}

// walk adds the sources under dir, but for the directories in skip.
func (w *sourceWalk) walk(root, dir string, role Role, ly *Layer, skip map[string]bool) {
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		if errors.Is(err, fs.ErrNotExist) && w.p.buffers != nil {
			// The folder may exist in the editor only, with a new file.
			gi, rel := ignore.GitDown(ignore.RepoTop(root), dir)
			w.buffers(root, dir, role, ly, skip, gi, rel)
		}
		return
	}
	gi, rel := ignore.GitDown(ignore.RepoTop(root), dir)
	var visit func(dir, rel string, gi *ignore.Git)
	visit = func(dir, rel string, gi *ignore.Git) {
		// Past the project's budget (a hostile tree: millions of files,
		// folders thousands deep), the walk stops; the project says so.
		if w.p.budget.check(dir) != nil {
			return
		}
		entries, err := w.p.readDir(dir)
		if err != nil {
			return
		}
		gi = gi.InDir(rel, dir, entries)
		for _, e := range entries {
			name := e.Name()
			child := filepath.Join(dir, name)
			if w.p.budget.entry(child) != nil {
				return
			}
			childRel := path.Join(rel, name)
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				// A symlinked file is read through; a symlinked directory
				// is not walked (it may lead outside, or in circles).
				if sourceLang(name) != "" && !gi.Ignored(childRel, false) {
					w.file(root, child, role, ly)
				}
			case e.IsDir():
				if strings.HasPrefix(name, ".") || compat.SkipDir(name) || skip[child] || gi.Ignored(childRel, true) {
					continue
				}
				visit(child, childRel, gi)
			case e.Type().IsRegular():
				if sourceLang(name) != "" && !gi.Ignored(childRel, false) {
					w.add(root, child, role, ly)
				}
			}
		}
	}
	visit(dir, rel, gi)
	w.buffers(root, dir, role, ly, skip, gi, rel)
}

// buffers adds the editor's buffers under dir that exist nowhere else (a
// file created in the editor, not saved yet), as the walk would add them
// once saved: not under a hidden or skipped folder, nor one the .gitignore
// of dir's level excludes.
func (w *sourceWalk) buffers(root, dir string, role Role, ly *Layer, skip map[string]bool, gi *ignore.Git, rel string) {
	if w.p.buffers == nil {
		return
	}
	for _, b := range w.p.buffers() {
		if w.seen[b] || sourceLang(b) == "" {
			continue
		}
		sub, ok := pathx.Rel(dir, b)
		if !ok || sub == "." {
			continue
		}
		if _, err := os.Lstat(b); err == nil {
			continue // on disk: the walk took it, or left it out on purpose
		}
		parts := strings.Split(filepath.ToSlash(sub), "/")
		hidden := false
		at, atRel := dir, rel
		for i, name := range parts {
			at, atRel = filepath.Join(at, name), path.Join(atRel, name)
			last := i == len(parts)-1
			if !last && (strings.HasPrefix(name, ".") || compat.SkipDir(name) || skip[at]) || gi.Ignored(atRel, !last) {
				hidden = true
				break
			}
		}
		if !hidden && w.p.budget.entry(b) == nil {
			w.add(root, b, role, ly)
		}
	}
}

// display shows an absolute path the way the project's config is shown:
// relative to the working directory.
func (p *Project) display(abs string) string {
	rel, err := filepath.Rel(p.Root, abs)
	if err != nil {
		return abs
	}
	return filepath.Join(filepath.Dir(p.ConfigDisplay), rel)
}

// Read reads the file (with ReadSource's limits, the size limit the
// project's budget's), or takes its text from the Loader's Overlay; a
// binary file is an error. Past the project's budget (its time, or the
// bytes its check reads) nothing more is read: the error is the
// *BudgetError.
func (s *Source) Read() ([]byte, error) {
	if e := s.budget.mayRead(s.Path); e != nil {
		return nil, e
	}
	src, ok := []byte(nil), false
	if s.overlay != nil {
		src, ok = s.overlay(s.Path)
	}
	var err error
	if !ok {
		limit := s.budget.fileSize()
		if s.cache != nil {
			src, err = s.cache.read(s.Path, limit)
		} else {
			src, err = readLimited(s.Path, limit)
		}
		var se *SizeError
		if errors.As(err, &se) {
			se.Flag = BudgetFlags.FileSize
		}
		if err != nil {
			return nil, err
		}
	}
	if e := s.budget.read(s.Path, len(src)); e != nil {
		return nil, e
	}
	return src, binaryErr(src)
}
