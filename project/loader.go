package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/txn"
)

// SourceKind says where a layer source points.
type SourceKind uint8

const (
	SourceLocal   SourceKind = iota // a directory or config file on disk, relative to the declaring config
	SourceRemote                    // github:, gh:, gitlab:, bitbucket:, https://, http://: not fetched
	SourcePackage                   // an npm package name: dependencies are not read
	SourceDynamic                   // an entry only known when the config runs
)

func (k SourceKind) String() string {
	switch k {
	case SourceLocal:
		return "local"
	case SourceRemote:
		return "remote"
	case SourcePackage:
		return "package"
	}
	return "dynamic"
}

// remotePrefixes are the sources the framework downloads (migration facts
// §13, the reference's extends and theme rows).
var remotePrefixes = []string{"github:", "gh:", "gitlab:", "bitbucket:", "https://", "http://"}

// npmName is what the framework's loader tries as a package before a path.
var npmName = lazyregexp.New(`^(@[\da-z~-][\d._a-z~-]*/)?[\da-z~-][\d._a-z~-]*($|/.*)`)

// Layer is a local layer: a directory, with or without a config of its own.
// A Loader loads each layer once, however many projects extend it, and
// shares it: a Layer is read-only once loaded.
type Layer struct {
	// Root is the layer's directory, absolute, symlinks resolved.
	Root string
	// ConfigPath is its config, absolute, symlinks resolved; "" when the
	// layer has none (a directory of components is a layer too).
	// ConfigDisplay is ConfigPath relative to the working directory.
	ConfigPath    string
	ConfigDisplay string
	// Src, File and Err are as in Project.
	Src  []byte
	File *ast.File
	Err  error
	// Detection is the layer's own layout: each layer resolves its own
	// srcDir, serverDir, dir.* and future.compatibilityVersion (migration
	// facts §13). Its Major comes from the layer's own package.json.
	Detection *compat.Detection
	DetectErr error
	// Extends are the sources the layer's config declares (theme, then the
	// extends entries), in priority order.
	Extends []*LayerRef

	auto     []*LayerRef    // <Root>/layers/*: registered only when the config is a project's
	autoDirs []string       // their directories, as compat.Layers lists them
	autoErr  error          // <Root>/layers could not be listed
	rc       *RuntimeConfig // the runtimeConfig keys its config declares
}

// LayerRef is one layer source as a config declares it.
type LayerRef struct {
	// Source is the entry as written ("./layers/base", "github:org/theme"),
	// or "layers/<name>" for an auto-registered directory; "" for a dynamic
	// entry.
	Source string
	// Option is where it was declared: "theme", "extends", or "layers" for
	// an auto-registered <rootDir>/layers/* directory.
	Option string
	Kind   SourceKind
	// Span is the entry in the declaring config (the source string, the
	// whole entry when dynamic); empty for auto-registered layers.
	Span ast.Span
	// Layer is the loaded local layer; nil for other kinds and for local
	// sources that could not be resolved (Err says why).
	Layer *Layer
	Err   error
	// Cycle is set, in Project.Extends only, when the layer extends the
	// project back: the sources followed from this entry back to the
	// project's config, as written in each config along the way.
	Cycle []string
	// Cut is set, in Project.Extends only, when the layers reached through
	// this entry go deeper than MaxLayerDepth or past MaxLayers: what it
	// says was not loaded for the project.
	Cut string

	key string // cache key of the local layer
	ent *entry // the entry Layer came from, once linked
}

// A repository can commit a chain of thousands of layers, each extending
// the next; every project of the chain loads the layers below it, so their
// number bounds the work per project. The framework's own apps use a few.
const (
	// MaxLayerDepth is how many layers deep a project's walk follows
	// extends and theme (the project's own entries are depth 1).
	MaxLayerDepth = 16
	// MaxLayers is how many layers one project loads in all.
	MaxLayers = 256
)

// Loader loads projects and the local layers they extend. It parses each
// config once: a layer shared by many projects, or a project that is also
// another's layer, is read, parsed and inspected once (a project released
// before another reached it is read again: see Release). A Loader is safe
// for concurrent use.
type Loader struct {
	// ReadFile reads config and .env files; nil means ReadSource. Tests
	// replace it to inject errors the OS would not give them (permission
	// denied, as root).
	ReadFile func(path string) ([]byte, error)
	// Overlay, when set, is asked before the disk for every file the
	// Loader and its projects read: configs, .env files, package.json (for
	// the framework major), source files and the text files rules read
	// (Project.ReadText, .fwignore). An editor serves its unsaved buffers
	// through it (fwmigrate lsp), so that what is checked is what the user
	// sees. path is absolute, as the reader is about to open it; ok false
	// means the disk has the file. Directory listings still come from the
	// disk.
	Overlay func(path string) (src []byte, ok bool)
	// Buffers, when set, lists the paths Overlay has a text for. A file
	// that exists only there (a new page not saved yet) is among the
	// project's sources when it lies in one of its source folders, as it
	// would once saved (Project.Sources).
	Buffers func() []string
	// Cache, when set, keeps the code of source files read between the
	// Loader's checks and the next Loader's (the language server's).
	Cache *Cache
	// Budget bounds each project's check (budget.go); its zero value is
	// DefaultBudget.
	Budget Budget

	// Tops are the paths the run was given (the folders or configs named
	// on the command line, the editor's workspace folders): outside a git
	// work tree, reads are confined to the one that holds the project
	// (see checkout).
	Tops []string

	cwd       string            // real working directory, for displays
	checkouts map[string]string // checkout by directory

	mu      sync.Mutex
	entries map[string]*entry
}

// entry is one cached layer. load fills layer without waiting on any other
// entry; link resolves the refs to loaded layers, waiting only on loads, so
// that concurrent loads of layers that extend each other cannot deadlock.
type entry struct {
	key       string
	root, cfg string // absolute paths, symlinks resolved
	loadOnce  sync.Once
	linkOnce  sync.Once // resolves Extends
	autoOnce  sync.Once // lists and resolves <root>/layers/*, for projects only
	layer     *Layer
	project   bool // loaded as a project
	reached   bool // reached as a layer of another config
	// depth is the fewest layers between a project of the run (Load) and
	// this layer, when that is at most MaxLayerDepth (0: not reached so).
	// LayerProjects checks only these: a chain of thousands of layers is
	// cut once, at the limit from the projects given, not again at every
	// layer of it.
	depth int
	// majors are the framework majors of the projects that extend this
	// layer (package.json or --framework): a layer runs under its app's
	// framework, so a layer without a major of its own takes theirs.
	majors map[int]bool
}

// NewLoader returns an empty Loader reading from the OS.
func NewLoader() *Loader {
	cwd, _ := os.Getwd()
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	return &Loader{cwd: cwd, entries: map[string]*entry{}}
}

func (l *Loader) read(path string) ([]byte, error) {
	if l.Overlay != nil {
		if src, ok := l.Overlay(path); ok {
			return src, nil
		}
	}
	if err := l.confine(path, filepath.Dir(path)); err != nil {
		return nil, err
	}
	if l.ReadFile != nil {
		return l.ReadFile(path)
	}
	return ReadSource(path)
}

// display is p relative to the working directory, or p itself.
func (l *Loader) display(p string) string {
	if l.cwd != "" {
		if rel, err := filepath.Rel(l.cwd, p); err == nil {
			return rel
		}
	}
	return p
}

// entryFor returns the cache entry of the layer at root with config cfg
// ("" for none), both absolute with symlinks resolved.
func (l *Loader) entryFor(root, cfg string) *entry {
	key := cfg
	if key == "" {
		key = root + string(filepath.Separator)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[key]
	if e == nil {
		e = &entry{key: key, root: root, cfg: cfg}
		l.entries[key] = e
	}
	return e
}

func (l *Loader) load(e *entry) *Layer {
	e.loadOnce.Do(func() { e.layer = l.loadLayer(e.root, e.cfg) })
	return e.layer
}

// linked returns the entry's layer with its Extends resolved to layers.
func (l *Loader) linked(e *entry) *Layer {
	ly := l.load(e)
	e.linkOnce.Do(func() { l.link(ly.Extends) })
	return ly
}

// withAuto returns the entry's layer linked, with its auto-registered
// <Root>/layers/* directories listed and linked too: the framework
// registers them for the project it runs, not for that project's layers.
func (l *Loader) withAuto(e *entry) *Layer {
	ly := l.linked(e)
	e.autoOnce.Do(func() { l.addAuto(ly) })
	return ly
}

// addAuto lists, resolves and links ly's <Root>/layers/* directories.
func (l *Loader) addAuto(ly *Layer) {
	dirs, err := compat.Layers(ly.Root)
	ly.autoDirs, ly.autoErr, ly.auto = dirs, err, nil
	// Later names take priority (migration facts §13): highest first.
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		r := &LayerRef{Source: "layers/" + filepath.Base(d), Option: "layers", Kind: SourceLocal}
		l.resolveLocal(r, d, ly.Root)
		ly.auto = append(ly.auto, r)
	}
	l.link(ly.auto)
}

// link points each resolved ref at its loaded layer.
func (l *Loader) link(refs []*LayerRef) {
	for _, r := range refs {
		if r.key == "" {
			continue
		}
		l.mu.Lock()
		t := l.entries[r.key]
		t.reached = true
		l.mu.Unlock()
		r.ent, r.Layer = t, l.load(t)
	}
}

// loadLayer reads, parses and inspects one config (or a layer directory
// without one) and resolves its layer sources to cache entries, without
// loading them.
func (l *Loader) loadLayer(root, cfg string) *Layer {
	ly := &Layer{Root: root, ConfigPath: cfg}
	var conf compat.Config = compat.MapConfig{}
	if cfg != "" {
		ly.ConfigDisplay = l.display(cfg)
		ly.Src, ly.Err = l.read(cfg)
		if ly.Err == nil {
			ly.Err = binaryErr(ly.Src)
		}
		if ly.Err != nil {
			return ly
		}
		f, err := ast.Parse(ly.ConfigDisplay, ly.Src)
		if err != nil {
			ly.Err = err
			return ly
		}
		ly.File = f
		conf = astConfig{f}
		ly.Extends = l.declaredRefs(f, filepath.Dir(cfg))
		ly.rc = DeclaredRuntimeConfig(f)
	}
	major, majorErr := l.packageMajor(root)
	ly.Detection, ly.DetectErr = compat.DetectMajor(root, conf, major, majorErr)
	return ly
}

// loadText reads the text file name in root (through the overlay, a symlink
// read through as the tools that read it do), nil when there is none or it
// cannot be read as text. displayDir is how to show root to the user.
func (l *Loader) loadText(root, displayDir, name string) *TextFile {
	path := filepath.Join(root, name)
	src, err := l.read(path)
	if err != nil || binaryErr(src) != nil {
		return nil
	}
	return &TextFile{Path: path, Display: filepath.Join(displayDir, name), Src: src}
}

// packageMajor is compat.PackageMajor, with root/package.json read
// through the overlay.
func (l *Loader) packageMajor(root string) (int, error) {
	if l.Overlay != nil {
		path := filepath.Join(root, "package.json")
		if src, ok := l.Overlay(path); ok {
			return compat.ParsePackageMajor(path, src)
		}
	}
	return compat.PackageMajor(root)
}

// declaredRefs reads the theme and extends options of f (in that order:
// theme has the higher priority) and resolves local sources against dir.
func (l *Loader) declaredRefs(f *ast.File, dir string) []*LayerRef {
	if f.Config == nil {
		return nil
	}
	var refs []*LayerRef
	add := func(option string, n ast.Node) {
		if skipSource(n) {
			return
		}
		r := &LayerRef{Option: option, Span: n.Span()}
		if s, ok := layerSource(n); ok {
			r.Source = s
			l.classify(r, dir)
		} else {
			r.Kind = SourceDynamic
		}
		refs = append(refs, r)
	}
	for _, option := range []string{"theme", "extends"} {
		prop := f.Config.Get(option)
		if prop == nil {
			continue
		}
		if prop.Value == nil {
			refs = append(refs, &LayerRef{Option: option, Kind: SourceDynamic, Span: prop.Loc})
			continue
		}
		arr, ok := ast.Unwrap(prop.Value).(*ast.Array)
		if !ok {
			add(option, prop.Value)
			continue
		}
		for i, el := range arr.Elements {
			if el == nil {
				continue // a hole
			}
			spread := false
			for _, s := range arr.Spreads {
				spread = spread || s == i
			}
			if tuple, ok := ast.Unwrap(el).(*ast.Array); ok && !spread && len(tuple.Elements) > 0 && tuple.Elements[0] != nil && len(tuple.Spreads) == 0 {
				el = tuple.Elements[0] // [source, options]
			}
			if spread {
				refs = append(refs, &LayerRef{Option: option, Kind: SourceDynamic, Span: el.Span()})
				continue
			}
			add(option, el)
		}
	}
	return refs
}

// skipSource reports an entry the framework skips: null, false, undefined.
func skipSource(n ast.Node) bool {
	switch n := ast.Unwrap(n).(type) {
	case *ast.Null:
		return true
	case *ast.Boolean:
		return !n.Value
	case *ast.Ident:
		return n.Name == "undefined"
	}
	return false
}

func layerSource(n ast.Node) (string, bool) {
	switch n := ast.Unwrap(n).(type) {
	case *ast.String:
		return n.Value, true
	case *ast.Template:
		if n.Static && n.Tag.Len() == 0 {
			return n.Value, true
		}
	}
	return "", false
}

// classify decides what a written source is, the way the framework's
// loader does: remote prefixes are downloaded; a name that looks like a
// package is a package when one is installed, else a path; anything else is
// a path relative to the declaring config.
func (l *Loader) classify(r *LayerRef, dir string) {
	s := r.Source
	for _, p := range remotePrefixes {
		if strings.HasPrefix(s, p) {
			r.Kind = SourceRemote
			return
		}
	}
	if !strings.HasPrefix(s, ".") && !filepath.IsAbs(s) && npmName().MatchString(s) {
		if installed(dir, s) {
			r.Kind = SourcePackage
			return
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(s))); err != nil {
			r.Kind = SourcePackage // neither installed nor a path: a package not installed
			return
		}
	}
	r.Kind = SourceLocal
	p := filepath.FromSlash(s)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	l.resolveLocal(r, p, dir)
}

// installed reports whether node_modules/<name> exists in dir or above.
func installed(dir, name string) bool {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "node_modules", filepath.FromSlash(name))); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// resolveLocal points r at the layer at p: a directory (its config, if it
// has one, in ConfigNames order) or a config file, with or without its
// extension. from is the directory of the config that names it: a layer
// outside from's checkout is not read (OutsideError).
func (l *Loader) resolveLocal(r *LayerRef, p, from string) {
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		for _, ext := range compat.ConfigExts {
			if i, e := os.Stat(p + ext); e == nil && !i.IsDir() {
				p, info, err = p+ext, i, nil
				break
			}
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = errors.New("no such directory or config file")
		}
		r.Err = err
		return
	}
	root, cfg := p, ""
	if info.IsDir() {
		for _, n := range compat.ConfigNames {
			c := filepath.Join(p, n)
			if _, err := os.Lstat(c); err == nil {
				cfg = c
				break
			}
		}
	} else {
		// A file must be a config: anything else (/etc/passwd) is not read,
		// so that no message ever quotes it.
		if !compat.IsConfigName(filepath.Base(p)) {
			r.Err = fmt.Errorf("%s is a file, not a layer directory or a config (fw.config.*): not read", filepath.Base(p))
			return
		}
		root, cfg = filepath.Dir(p), p
	}
	// Each of the layer's folder and its config must lie in the checkout
	// of the config that names it; the error names each as written.
	top := l.checkout(realRoot(from))
	for _, f := range []*string{&root, &cfg} {
		if *f == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(*f)
		if err != nil {
			r.Err = err
			return
		}
		if top != "" && !Within(real, top) {
			r.Err = &OutsideError{Path: filepath.Clean(*f), Real: real, Checkout: top}
			return
		}
		*f = real
	}
	r.key = l.entryFor(root, cfg).key
}

// Load reads, parses and inspects the project whose config is at
// configPath, with its layers. display is how to show configPath to the
// user. It never fails: problems are recorded in the Project for Check to
// report.
func (l *Loader) Load(configPath, display string) *Project {
	abs, err := filepath.Abs(configPath)
	if err != nil {
		abs = configPath
	}
	p := &Project{Root: filepath.Dir(abs), ConfigPath: abs, ConfigDisplay: display, tree: &tree{}, overlay: l.Overlay, cache: l.Cache, budget: newBudget(l.Budget), buffers: l.Buffers}
	// The config is cached by its real path, so that a project reached
	// again as another's layer is the same parse. A file gone since it was
	// found is reported by the read.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	// The config's real path resolved its directory too; only a config
	// that is itself a symlink needs its directory resolved apart.
	p.RealRoot, p.ConfigReal = filepath.Dir(real), real
	if st, err := os.Lstat(abs); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		p.RealRoot = realRoot(p.Root)
	}
	if !Within(real, p.RealRoot) {
		p.ConfigOutside = real
	}
	p.Journal, p.JournalRefused = pendingJournal(p.RealRoot)
	p.Checkout = l.checkout(p.RealRoot)
	if p.ConfigOutside != "" {
		if err := l.confine(abs, p.RealRoot); err != nil {
			// Not read: the finding (FW910) names the link only.
			p.Layer = &Layer{Root: p.RealRoot, ConfigDisplay: display, Err: err}
			return p
		}
	}
	e := l.entryFor(filepath.Dir(real), real)
	l.mu.Lock()
	e.project = true
	l.mu.Unlock()
	p.key = e.key
	l.fill(p, e, 0)
	return p
}

// fill gives p the entry's layer and resolves p's layers. base is how
// deep p's own layer lies below the run's projects (0 for one of them).
func (l *Loader) fill(p *Project, e *entry, base int) {
	ly := l.withAuto(e)
	p.Layer = ly
	if p.Err != nil {
		return
	}
	if p.RealRoot != "" && ly.Root != p.RealRoot {
		// A config that is a symlink to another directory: the framework
		// runs it with the project's directory as rootDir, so the layout,
		// the framework major (package.json) and the layers/* directories
		// are the project's, not those beside the link's target.
		own := *ly
		own.Root = p.RealRoot
		var conf compat.Config = compat.MapConfig{}
		if ly.File != nil {
			conf = astConfig{ly.File}
		}
		major, majorErr := l.packageMajor(p.RealRoot)
		own.Detection, own.DetectErr = compat.DetectMajor(p.RealRoot, conf, major, majorErr)
		l.addAuto(&own)
		ly = &own
		p.Layer = ly
	}
	if p.Detection != nil {
		p.Framework = p.Detection.Major
	} else if major, _ := l.packageMajor(p.Root); major > 0 {
		p.Framework = major
	}
	if p.Framework != 0 {
		p.FrameworkSource = "package.json"
	} else if d := p.fwDep(); d != nil && d.Installed != nil {
		// A range that names no major ("latest", "*", ">=3"): the
		// version installed (node_modules, else the lockfile) says.
		if v, err := semver.Parse(d.Installed.Version); err == nil && v.Major >= 2 {
			p.Framework = int(v.Major)
			p.FrameworkSource = fmt.Sprintf("package.json: %q names no major, and %s has %s", d.Range, d.Installed.Source, d.Installed.Version)
		}
	}
	p.Env = l.loadEnvFiles(p.Root, filepath.Dir(p.ConfigDisplay))
	p.TSConfig = l.loadText(p.Root, filepath.Dir(p.ConfigDisplay), "tsconfig.json")

	// Layers: each source's layer, then the layers it extends (depth
	// first), each once; the project itself is never its own layer. The
	// walk links every layer it reaches, which cycleBack relies on. It
	// stops at MaxLayerDepth and MaxLayers, and cut records why for the
	// project's entry the cut layer was reached through.
	seen := map[*Layer]bool{ly: true}
	cut := map[*LayerRef]string{}
	var top *LayerRef // the project's entry the walk is under
	var walk func(refs []*LayerRef, depth int)
	walk = func(refs []*LayerRef, depth int) {
		for _, r := range refs {
			if depth == 1 {
				top = r
			}
			if r.Layer == nil || seen[r.Layer] {
				continue
			}
			if depth > MaxLayerDepth {
				if cut[top] == "" {
					cut[top] = fmt.Sprintf("the layers it extends go deeper than %d layers", MaxLayerDepth)
				}
				continue
			}
			if len(p.Layers) >= MaxLayers {
				if cut[top] == "" {
					cut[top] = fmt.Sprintf("the project extends more than %d layers", MaxLayers)
				}
				continue
			}
			seen[r.Layer] = true
			p.Layers = append(p.Layers, r.Layer)
			if r.ent != nil {
				l.mu.Lock()
				if p.Framework != 0 {
					if r.ent.majors == nil {
						r.ent.majors = map[int]bool{}
					}
					r.ent.majors[p.Framework] = true
				}
				if d := base + depth; d <= MaxLayerDepth && (r.ent.depth == 0 || d < r.ent.depth) {
					r.ent.depth = d
				}
				l.mu.Unlock()
			}
			walk(l.linked(r.ent).Extends, depth+1)
		}
	}
	walk(ly.Extends, 1)
	walk(ly.auto, 1)

	// Project.Extends are copies: Cycle is the project's own.
	for _, refs := range [][]*LayerRef{ly.Extends, ly.auto} {
		for _, r := range refs {
			c := *r
			if c.Layer != nil && c.Option != "layers" {
				c.Cycle = cycleBack(ly, c.Layer, c.Source)
			}
			c.Cut = cut[r]
			p.Extends = append(p.Extends, &c)
		}
	}
	if ly.autoErr != nil {
		p.Extends = append(p.Extends, &LayerRef{Source: "layers", Option: "layers", Kind: SourceLocal, Err: ly.autoErr})
	}
}

// cycleBack returns the sources followed from next back to self through
// extends and theme (first written is first followed), or nil when next
// does not lead back. Only declared sources count: the framework registers
// <rootDir>/layers/* for the project it runs, not for its layers.
func cycleBack(self, next *Layer, source string) []string {
	// Each step points at the one it came from: copying the path at every
	// step made a chain of n layers cost n² (and every project of the
	// chain asks).
	type step struct {
		layer  *Layer
		source string
		from   *step
	}
	seen := map[*Layer]bool{}
	stack := []*step{{layer: next, source: source}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.layer == self {
			var path []string
			for t := s; t != nil; t = t.from {
				path = append(path, t.source)
			}
			slices.Reverse(path)
			return path
		}
		if seen[s.layer] {
			continue
		}
		seen[s.layer] = true
		// Push in reverse so that the first source is followed first.
		for i := len(s.layer.Extends) - 1; i >= 0; i-- {
			r := s.layer.Extends[i]
			if r.Layer != nil {
				stack = append(stack, &step{layer: r.Layer, source: r.Source, from: s})
			}
		}
	}
	return nil
}

// Release tells the Loader that p has been checked and is no longer used.
// Unless p's config has been reached as a layer of another config, the
// Loader forgets it, so that a run over many projects keeps only their
// layers in memory. Should a project loaded later reach it as a layer, it
// is read again (and not checked again: it was checked as a project).
func (l *Loader) Release(p *Project) {
	if p.key == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.entries[p.key]; e != nil && !e.reached {
		l.entries[p.key] = &entry{key: e.key, root: e.root, cfg: e.cfg, project: true}
	}
}

// ExtendersMajor returns the framework major of the projects loaded so far
// that extend the config at configReal (a Project's ConfigReal) as a local
// layer, when they agree on one, and 0 otherwise: a layer without a major
// of its own runs under the framework of the apps that extend it. A
// layer that is also a project of the run (its config found by the walk)
// is checked before all of its apps may have been loaded; the caller asks
// again once they all have.
func (l *Loader) ExtendersMajor(configReal string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[configReal]
	if e == nil || len(e.majors) != 1 {
		return 0
	}
	for m := range e.majors {
		return m
	}
	return 0
}

// InheritMajor gives p, when it has no framework major of its own, the one
// the projects loaded so far that extend it agree on (ExtendersMajor), and
// reports whether it did.
func (l *Loader) InheritMajor(p *Project) bool {
	if p.Framework != 0 || p.ConfigReal == "" {
		return false
	}
	m := l.ExtendersMajor(p.ConfigReal)
	if m == 0 {
		return false
	}
	p.Framework, p.FrameworkSource = m, "the projects that extend it"
	return true
}

// LayerProjects returns a project for every local layer config reached by
// the projects loaded so far, at most MaxLayerDepth layers below one, that
// was not loaded as a project itself, sorted by display: each is checked
// once, on its own, however many projects extend it. Call it after the Load
// calls have returned.
func (l *Loader) LayerProjects() []*Project {
	var out []*Project
	for {
		var todo []*entry
		l.mu.Lock()
		for _, e := range l.entries {
			if e.depth > 0 && !e.project && e.cfg != "" {
				e.project = true
				todo = append(todo, e)
			}
		}
		l.mu.Unlock()
		if len(todo) == 0 {
			break
		}
		// A layer checked as a project registers its own layers/*
		// directories, which may reach layers not seen yet: go on until
		// nothing new comes.
		for _, e := range todo {
			ly := l.load(e)
			p := &Project{Root: e.root, ConfigPath: e.cfg, ConfigDisplay: ly.ConfigDisplay, tree: &tree{}, overlay: l.Overlay, cache: l.Cache,
				budget: newBudget(l.Budget), buffers: l.Buffers, RealRoot: e.root, ConfigReal: e.cfg}
			p.Journal, p.JournalRefused = pendingJournal(e.root)
			l.fill(p, e, e.depth)
			l.InheritMajor(p)
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ConfigDisplay < out[j].ConfigDisplay })
	return out
}

// pendingJournal is txn.Pending for a project: the journal to run, or the
// one found that is refused.
func pendingJournal(root string) (string, *txn.RefusedError) {
	j, err := txn.Pending(root)
	var re *txn.RefusedError
	if errors.As(err, &re) {
		return "", re
	}
	return j, nil
}
