package rules

import (
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
	"github.com/fwmigrate/fwmigrate/rules/internal/props"
)

// Index is what the rules derive from one project, built once per check by
// Check and handed to every pass (as x/tools' analysis hands a pass the
// results of the analyzers it requires): the config's properties in walk
// order, indexed by option path, the layout view, and the entries apply
// moves into app/. Check runs some fifty passes over each project; without
// it, each walked the config again. Each part is computed on the first pass
// that asks (a run that selects a few rules pays for what they use) and is
// read-only afterwards.
type Index struct {
	project *project.Project
	file    *ast.File
	config  compat.Config
	target  int
	// before is Options.Before: the version the project runs before the
	// step, when the check looks past FW701's bump.
	before Versions

	walkOnce sync.Once
	props    *props.Index

	layoutOnce sync.Once
	layout     layoutView
	layoutOK   bool

	movedOnce sync.Once
	moved     []string

	rcOnce sync.Once
	rc     *rcKeySet

	// configSups are the config's fwmigrate-ignore comments by line
	// (Pass.suppressedAt).
	supOnce    sync.Once
	configSups map[int][]*suppression

	// idents are the config text's identifiers (envMentioned).
	identOnce sync.Once
	idents    map[string]bool

	codeOnce sync.Once
	codeIdx  *codeIndex
	// kept is the detection given back to the project's Cache when the
	// check is over (code_kept.go).
	kept *keptDetection
	// reusedDetection says the check reused the kept detection of the last
	// check (Result.ReusedDetection).
	reusedDetection bool
	// detectorHook is Options.DetectorHook.
	detectorHook func(rule string, i int, f *code.File) []*code.Visitor

	// moreCode is what the type rules (FW85x) read beyond codeIdx
	// (types_helpers.go).
	moreOnce sync.Once
	moreCode *code.More
	// vitest are the test runner's configs, parsed (FW852).
	vitestOnce sync.Once
	vitest     []*code.File

	configCodeOnce sync.Once
	configCodeFile *code.File

	// The code rules' sites (sitesOf): the detectors the check will ask
	// for (detectors: Check predicts them) run together, in the walk of
	// each file that reads the code (code); a detector not predicted runs
	// when asked. siteMu guards sites; the walks take no lock.
	detectors []*Rule
	siteMu    sync.Mutex
	sites     map[string]*detected
	// modPaths are the module path options judged (FW720-FW722).
	modPathOnce sync.Once
	modPaths    []*modFinding
	// reported are the files besides the config, the .env files and the
	// code index's that rules reported in (Pass.reportIn: package.json, a
	// workflow, a declaration file): their suppressions count too.
	reportedMu    sync.Mutex
	reported      map[string][]byte       // display -> text
	reportedLines map[string]reportedText // display -> the text's line table
}

// NewIndex returns the index of a project's config f (the project's own, or
// a rewritten text of it) checked against target.
func NewIndex(p *project.Project, f *ast.File, target int) *Index {
	return &Index{project: p, file: f, config: project.ConfigValues(f), target: target}
}

// walked is one property of the config (props.Prop).
type walked = props.Prop

// propIndex returns the index of the config's properties.
func (c *Index) propIndex() *props.Index {
	c.walkOnce.Do(func() { c.props = props.New(c.file) })
	return c.props
}

// walkCached is Pass.Walk over the indexed properties (props.Index.Walk):
// fn sees the same paths in the same order, and a false result skips the
// property's subtree. The paths are shared: fn may keep them but must not
// modify them.
func (p *Pass) walkCached(fn func(w *walked) bool) { p.Index.propIndex().Walk(fn) }

// hasOption reports whether the config sets option anywhere OptionProps
// looks.
func (p *Pass) hasOption(option string) bool { return p.Index.propIndex().Has(option) }

// optionProps is Pass.OptionProps; rules that look up many options take the
// index once and ask it.
func (c *Index) optionProps(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	c.propIndex().Each(option, fn)
}
