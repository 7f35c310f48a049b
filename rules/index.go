package rules

import (
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
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
	walk     []walked
	// options maps an option path (Path.String, environment prefix
	// removed) to 1 + the index in walk of its first occurrence.
	options map[string]int32

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

// walked is one property of the config, in the order ast.File.Walk visits
// them. The slices are shared by every pass and capped (len == cap), so that
// appending to them copies.
type walked struct {
	path ast.Path
	// prefix and rest are SplitEnvPrefix(path).
	prefix, rest ast.Path
	// option is rest.String(): the option path, as compat takes it.
	option string
	prop   *ast.Property
	// next is the index of the first entry after the property's subtree.
	next int
	// same is 1 + the index of the next occurrence of the same option, 0
	// for none.
	same int32
}

// walked returns the config's properties at every depth in ast.File.Walk's
// order, nil when there is no literal config.
func (c *Index) walked() []walked {
	c.walkOnce.Do(c.buildWalk)
	return c.walk
}

func (c *Index) buildWalk() {
	f := c.file
	if f == nil || f.Config == nil {
		return
	}
	// Sized up front: one array for all the entries, one for all the paths.
	n, segs := countProps(f.Config, 1)
	c.walk = make([]walked, 0, n)
	c.addProps(f.Config, nil, -1, make([]string, 0, segs))
	// Chain the occurrences of each option, last first, so that each chain
	// runs in source order.
	c.options = make(map[string]int32, n)
	for i := len(c.walk) - 1; i >= 0; i-- {
		w := &c.walk[i]
		if len(w.path) == 1 && w.path[0] == "$env" {
			continue // $env.<name> holds options, $env itself is none
		}
		w.same = c.options[w.option]
		c.options[w.option] = int32(i + 1)
	}
}

// addProps appends the properties of o, whose path is prefix (the entry at
// index parent, -1 for the config), as ast.File.Walk visits them. Paths are
// cut from arena, whose capacity countProps computed: appending within it
// keeps the earlier paths where they are.
func (c *Index) addProps(o *ast.Object, prefix ast.Path, parent int, arena []string) []string {
	for _, pr := range o.Props {
		start := len(arena)
		arena = append(append(arena, prefix...), c.file.Segment(pr))
		path := arena[start:len(arena):len(arena)]
		envPrefix, rest := SplitEnvPrefix(path)
		i := len(c.walk)
		c.walk = append(c.walk, walked{path: path, prefix: envPrefix[:len(envPrefix):len(envPrefix)], rest: rest, prop: pr})
		w := &c.walk[i]
		// rest.String(), built on the parent's: a rest of two segments or
		// more is the parent's rest plus the last segment (the environment
		// prefix is the same), and Path.String writes segment by segment.
		switch len(rest) {
		case 0:
		case 1:
			w.option = rest.String()
		default:
			if seg := (ast.Path{rest[len(rest)-1]}).String(); seg[0] == '[' {
				w.option = c.walk[parent].option + seg
			} else {
				w.option = c.walk[parent].option + "." + seg
			}
		}
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
			arena = c.addProps(child, path, i, arena)
		}
		c.walk[i].next = len(c.walk)
	}
	return arena
}

// countProps returns the number of properties ast.File.Walk visits in o,
// whose properties are at depth, and the sum of their paths' lengths.
func countProps(o *ast.Object, depth int) (n, segs int) {
	n, segs = len(o.Props), len(o.Props)*depth
	for _, pr := range o.Props {
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
			cn, cs := countProps(child, depth+1)
			n, segs = n+cn, segs+cs
		}
	}
	return n, segs
}

// walkCached is Pass.Walk over the cached properties: fn sees the same
// paths in the same order, and a false result skips the property's subtree.
// The paths are shared: fn may keep them but must not modify them.
func (p *Pass) walkCached(fn func(w *walked) bool) {
	ws := p.Index.walked()
	for i := 0; i < len(ws); {
		if fn(&ws[i]) {
			i++
		} else {
			i = ws[i].next
		}
	}
}

// hasOption reports whether the config sets option anywhere optionProps
// looks.
func (p *Pass) hasOption(option string) bool { return p.Index.first(option) > 0 }

// first returns 1 + the index of option's first occurrence, 0 for none.
func (c *Index) first(option string) int32 {
	c.walked()
	if !plainPath(option) {
		option = ast.ParsePath(option).String()
	}
	return c.options[option]
}

// optionProps is Pass.optionProps; rules that look up many options take the
// index once and ask it.
func (c *Index) optionProps(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	for i := c.first(option); i > 0; {
		w := &c.walk[i-1]
		fn(w.prefix, w.path, w.prop)
		i = w.same
	}
}

// plainPath reports whether s is a dotted path of ASCII identifier names,
// which ast.Path.String writes as it is: the options index is keyed by that
// form.
func plainPath(s string) bool {
	start := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if start {
				return false
			}
			start = true
		case c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			start = false
		case '0' <= c && c <= '9':
			if start {
				return false
			}
		default:
			return false
		}
	}
	return !start
}
