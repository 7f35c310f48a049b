// Package project is what fwmigrate knows of a project before any rule runs
// (as go/packages is to go/analysis): its config, parsed once and shared
// with the projects that reach it as a layer (Loader), its local layers, its
// framework major (package.json), its .env files, the runtimeConfig keys
// its configs declare, its tree as the rules may see it (Exists, IsDir, List,
// FwIgnore: each asked of the disk once), its source files by role
// (Sources), where its root really is and what lies outside it (RealRoot,
// ConfigOutside), and the journal an interrupted apply left (Journal). Rules get a loaded Project; they never read the disk.
package project

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/txn"
)

// Project is one config file and what surrounds it: its layout, its .env
// files, its framework major and its layers.
//
// A project's own config is a layer like any other (a layer shared by two
// apps may be checked as a project too): the embedded Layer holds what they
// share (Src, File, Err, Detection, DetectErr), read-only, as the Loader
// cached it. Root, ConfigPath, ConfigDisplay and Extends are the project's
// own: where the config was named (a layer's are its real paths), and its
// layer sources with the auto-registered <Root>/layers/* directories added.
type Project struct {
	*Layer

	// Root is the directory holding the config (the rootDir), absolute.
	Root string
	// ConfigPath is the config file, absolute; ConfigDisplay is the same
	// path as shown to the user (relative to the working directory).
	ConfigPath    string
	ConfigDisplay string

	// RealRoot is Root with its symlinks resolved; ConfigReal is
	// ConfigPath's. ConfigOutside is ConfigReal when the config is a
	// symlink to a file outside RealRoot: the project is checked, and
	// apply writes nothing through it.
	RealRoot, ConfigReal, ConfigOutside string

	// Checkout is the folder the project's reads are confined to (the git
	// work tree, else the path given to the run that holds it; "" for a
	// library caller outside git: see Loader.Tops). Readable says whether
	// a file may be read.
	Checkout string

	// Via is the directory symlink a walk followed to reach the config,
	// below the paths the user gave (set by the caller that walked): the
	// project lies where the user did not point, and apply writes
	// nothing through the link.
	Via string

	// Journal is the journal an interrupted apply left for the project
	// (txn.Pending: in the git directory or the user's state folder, never
	// in the tree), "" when there is none: the project is half written
	// until apply completes or rolls it back. JournalRefused is set
	// instead when a journal was found that is never run (one in the tree,
	// or one that fails its checks): why, and how to remove it.
	Journal        string
	JournalRefused *txn.RefusedError

	// Framework is the framework major, 0 when unknown; FrameworkSource says
	// where it comes from: "package.json", "the projects that extend it" (a
	// layer without a major of its own), or "--framework".
	Framework       int
	FrameworkSource string

	// Env holds the project's .env* files, sorted by name.
	Env []*EnvFile

	// TSConfig is the root tsconfig.json beside the config, nil when there
	// is none or it cannot be read (a directory, a binary file): FW211
	// reads which generated file it extends.
	TSConfig *TextFile

	// Extends are the layer sources the config declares (theme, then the
	// extends entries) followed by the auto-registered <Root>/layers/*
	// directories, in priority order, each with the local layer it resolves
	// to. See LayerRef.
	Extends []*LayerRef
	// Layers are the local layers the project inherits from, in priority
	// order (highest first): each source's layer followed by the layers that
	// one extends, depth first, each once. The project is not among them.
	// Each layer resolves its own srcDir, dir.* and compatibility version
	// (Layer.Detection); RuntimeConfigKeys merges their runtimeConfig keys.
	Layers []*Layer

	key  string // the Loader cache key of its Layer
	tree *tree  // what the rules asked of the disk (files.go)
	// overlay is the Loader's Overlay: the project's reads of source and
	// text files go through it (readFile).
	overlay func(path string) ([]byte, bool)
	cache   *Cache // the Loader's, nil when none
	// budget bounds the project's check (budget.go); nil: no limits.
	budget *budget
	// buffers is the Loader's Buffers: files only the editor has.
	buffers func() []string
}

// Failed returns the project of a config that could not be loaded at all
// (it vanished, it is a directory): err says why.
func Failed(configPath, display string, err error) *Project {
	return &Project{Layer: &Layer{Err: err}, ConfigPath: configPath, ConfigDisplay: display, tree: &tree{}}
}

// WithFile returns a copy of p whose config is f (a rewritten text of the
// same file), sharing everything else: apply checks each round of fixes on
// it. p is not changed.
func (p *Project) WithFile(f *ast.File) *Project {
	ly := *p.Layer
	ly.File, ly.Src = f, f.Src
	next := *p
	next.Layer = &ly
	return &next
}

// LoadProject reads, parses and inspects the project whose config is at
// configPath, with its layers. display is how to show configPath to the
// user. It never fails: problems are recorded in the Project for Check to
// report. To load many projects that may share layers, use one Loader.
func LoadProject(configPath, display string) *Project {
	return NewLoader().Load(configPath, display)
}

// Reload loads p's config again (apply's check of a moved project) as the
// run loaded it: with the same budget, and its reads confined to the same
// checkout. LoadProject would take the default budget, which a run that
// raised it (a huge app) could find exceeded.
func (p *Project) Reload() *Project {
	l := NewLoader()
	if p.budget != nil {
		l.Budget = p.budget.Budget
	}
	if p.Checkout != "" {
		l.Tops = []string{p.Checkout}
	}
	return l.Load(p.ConfigPath, p.ConfigDisplay)
}

// ShowPath shows a path under the project's real root (a journal in the
// repository's .git, say) the way the project's config is shown; any other
// path stays absolute.
func (p *Project) ShowPath(abs string) string {
	if rel, ok := pathx.Rel(p.RealRoot, abs); ok && p.RealRoot != "" {
		return filepath.Join(filepath.Dir(p.ConfigDisplay), rel)
	}
	return abs
}
