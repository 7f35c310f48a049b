package rules

import (
	"path/filepath"
	"sort"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Helpers shared by the code rules (FW6xx): the project's code, read once
// per check by package code, and the sites the rules' detectors find in
// it, turned into diagnostics and fixes.

// configCode returns the config read as code, for the code index and for
// the rules that follow paths through it (FW110): the code tree of the
// config's one parse (ast.File.Code).
func (x *Index) configCode() *code.File {
	x.configCodeOnce.Do(func() {
		p := x.project
		f := &code.File{Path: p.ConfigPath, Display: p.ConfigDisplay, Rel: filepath.Base(p.ConfigPath), Text: x.file.Src, Config: true}
		f.Code = x.file.Code()
		x.configCodeFile = f
	})
	return x.configCodeFile
}

// codeIndex is the project's code as the code rules' detectors see it:
// what was read, with the check's index.
type codeIndex struct {
	*code.Index
	index *Index // the check's index: the config, for detectors that depend on it (FW604)
}

// code returns the project's code as the code rules read it, the sites of
// the detectors the check predicted (Index.detectors) found in the same
// walk: the trees of a file are released once its sites are made.
func (x *Index) code() *codeIndex {
	x.codeOnce.Do(func() {
		x.sites = map[string]*detected{}
		x.codeIdx = x.detectKept(x.detectors)
	})
	return x.codeIdx
}

// detect reads the project's code with the detectors of rules (none found
// yet) walking each file, and records their sites.
func (x *Index) detect(rules []*Rule) *codeIndex { return x.newDetection(rules).ci }

// newDetection is detect's run of the detectors.
func (x *Index) newDetection(rules []*Rule) *detection {
	var config *code.File
	// The config itself: hooks and inline modules are module code.
	if x.project != nil && x.file != nil && code.Triggered(x.file.Src, code.Triggers) {
		config = x.configCode()
	}
	d := &detection{x: x, rules: rules}
	ci := code.Read(x.project, x.config, config, d.pass)
	if d.ci == nil {
		d.pass(ci) // no project: no walk
	}
	d.finish()
	return d
}

// site is one place of the code that a change of version 4 reaches.
type site struct {
	file *code.File
	span ast.Span
	msg  string
	// option is the default change the site depends on, when it is not the
	// rule's first flip (FW601: data's or error's).
	option string
	// notes and fix are added to the diagnostic as they are.
	notes []string
	fix   *Fix
	// info reports the site at info, below the rule's severity (FW605: a
	// use of the path that may or may not depend on its form).
	info bool
	// data is what a rule with a Run of its own reads from its sites
	// (FW851: the file's index reads), nil for the others.
	data any
}

// sitesOf returns the sites of the code rule r, found once per check by
// its detector: the rule reports them, and FW204 asks which default
// changes reach code.
//
// The detectors the check will ask for (Index.detectors) run together,
// in the walk of each file that reads the code (Index.code); a detector
// that was not among them runs when asked, in a reading of its own. A
// detector that panicked panics again here, in the rule that asks, which
// reports it as an internal error (runRule).
func (x *Index) sitesOf(r *Rule) []*site {
	x.code()
	d := func() *detected {
		x.siteMu.Lock()
		defer x.siteMu.Unlock()
		if x.sites[r.Code] == nil {
			x.detect([]*Rule{r})
		}
		return x.sites[r.Code]
	}()
	if d == nil {
		return nil // not a detector
	}
	if d.panicked {
		panic(d.panic)
	}
	return d.sites
}

// detected is what a detector found: its sites, or the panic it ended in.
type detected struct {
	sites    []*site
	panicked bool
	panic    any
}

// A fileScan is a code rule's detector that reads the code file by file
// (Rule.scan returns it, once per check, nil when the rule has nothing to
// look for in the project). Every file the code rules read is walked once
// for all the detectors of a check, on every core (code.WalkFile):
//
//   - file(i, f) is called for the i-th file of the code index (ci.Files),
//     on one worker, concurrently with other files: it returns the
//     detector's visitors of f (none when the file needs no walk), and may
//     also judge f without walking it (its blocks, its template's
//     elements). It reads what is shared (the index, the config, the
//     project) and writes only f's own results, which it keeps in the
//     visitor's Done (or, for work done without a walk, before it
//     returns): after a panic of another detector in the same file, file
//     is called again for that file and starts it afresh.
//   - sites() is called once every file is walked, and returns the
//     detector's sites: typically each file's in file order (perFileSites),
//     with whatever needs several files worked out here, in order.
//
// The data index's uses of a file (f.Uses) are found in the same walk, by
// a visitor before the scans': a scan reads them in its visitor's Done.
// Once a file is walked its trees may be released (code.Read): sites()
// reads what the visitors kept, never a tree (code.Walk of a released
// file panics). Neither does a whole project's detector (Rule.detect),
// which runs after the walk.
type fileScan struct {
	file  func(i int, f *code.File) []*code.Visitor
	sites func() []*site
}

// perFileSites is the fileScan of a detector whose sites are each file's
// alone: visit returns the visitor of a file (nil when it needs no walk),
// which appends the file's sites to *out; the detector's sites are every
// file's, in file order, then more() when it is set (sites that need
// several files).
func perFileSites(ci *codeIndex, visit func(f *code.File, out *[]*site) *code.Visitor, more func() []*site) *fileScan {
	per := make([][]*site, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i] = nil
			var out []*site
			v := visit(f, &out)
			if v == nil {
				per[i] = out
				return nil
			}
			done := v.Done
			v.Done = func() {
				if done != nil {
					done()
				}
				per[i] = out
			}
			return []*code.Visitor{v}
		},
		sites: func() []*site {
			var out []*site
			for _, s := range per {
				out = append(out, s...)
			}
			if more != nil {
				out = append(out, more()...)
			}
			return out
		},
	}
}

// perFileUses is the fileScan of a detector that judges the reads of the
// data composables' results (code.DataUse) one by one: judge is called for
// each use of each file, in the walk of the file (its tree in memory),
// and the detector's sites are every file's in the data index's order
// (ReadOrder: where two uses in different files ask for the same fix, the
// first one reported gets it), each file's in source order.
func perFileUses(ci *codeIndex, judge func(u *code.DataUse, out *[]*site)) *fileScan {
	per := make([][]*site, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i] = nil
			return []*code.Visitor{{Done: func() {
				var out []*site
				for _, u := range f.Uses() {
					judge(u, &out)
				}
				per[i] = out
			}}}
		},
		sites: func() []*site { return inReadOrder(ci, per) },
	}
}

// inReadOrder returns the sites per[i] of each file ci.Files[i], the files
// in the data index's order (ReadOrder).
func inReadOrder(ci *codeIndex, per [][]*site) []*site {
	at := make(map[*code.File]int, len(ci.Files))
	for i, f := range ci.Files {
		at[f] = i
	}
	var out []*site
	for _, f := range ci.Data.ReadOrder() {
		if i, ok := at[f]; ok {
			out = append(out, per[i]...)
		}
	}
	return out
}

// detection is one run of detectors, in code.Read's walk of the files:
// the file scans' visitors walk each file with the data index's, and
// then, in rule order, the scans' sites and the whole project's detectors
// are made (finish).
type detection struct {
	x     *Index
	rules []*Rule
	ci    *codeIndex
	runs  []*detectorRun
	scans []*detectorRun // the runs with a file scan
	// fails[i] are the panics of the scans in file i, by scan; dataFails
	// the data index's.
	fails     []map[*detectorRun]*detected
	dataFails []*detected
}

type detectorRun struct {
	r    *Rule
	scan *fileScan
	fail *detected // the detector panicked
}

// pass is the code.Pass of the detection: it makes the scans of the
// rules for the project (again when Read starts over) and returns the
// function that walks a file for them.
func (d *detection) pass(ci0 *code.Index) func(i int, f *code.File) {
	ci := &codeIndex{Index: ci0, index: d.x}
	d.ci, d.runs, d.scans = ci, nil, nil
	for _, r := range d.rules {
		if r.scan == nil && r.detect == nil {
			continue
		}
		rn := &detectorRun{r: r}
		if r.scan != nil {
			rn.fail = protect(func() { rn.scan = r.scan(ci) })
		}
		d.runs = append(d.runs, rn)
		if rn.scan != nil && rn.fail == nil {
			d.scans = append(d.scans, rn)
		}
	}
	d.fails = make([]map[*detectorRun]*detected, len(ci.Files))
	d.dataFails = make([]*detected, len(ci.Files))
	return d.file
}

// file walks the i-th file for the data index and the scans. A scan that
// panics is dropped and the file walked again for the others; a panic of
// the data index is every detector's.
func (d *detection) file(i int, f *code.File) { d.fileWith(i, f, d.scans, true) }

// fileWith walks the i-th file for the scans, and for the data index when
// data is set.
func (d *detection) fileWith(i int, f *code.File, scans []*detectorRun, data bool) {
	ci := d.ci
	failed := d.fails[i]
	for {
		var vs []*code.Visitor
		var who []int // the scan of each visitor; -1 the data index
		cur, at := -1, -1
		p := protect(func() {
			if data {
				if v := ci.Data.FileUses(f); v != nil {
					vs, who = append(vs, v), append(who, -1)
				}
			}
			for k, rn := range scans {
				if failed[rn] == nil {
					cur = k
					for _, v := range rn.scan.file(i, f) {
						vs, who = append(vs, v), append(who, k)
					}
					if h := d.x.detectorHook; h != nil {
						for _, v := range h(rn.r.Code, i, f) {
							vs, who = append(vs, v), append(who, k)
						}
					}
				}
			}
			cur = -2 // the walk: at says whose visitor
			code.WalkFile(f, vs, &at)
		})
		if p != nil && cur == -2 {
			cur = -1 // the walk itself: counted as the data index's
			if at >= 0 {
				cur = who[at]
			}
		}
		if p == nil {
			break
		}
		if cur < 0 {
			d.dataFails[i] = p
			break
		}
		if failed == nil {
			failed = map[*detectorRun]*detected{}
		}
		failed[scans[cur]] = p
	}
	d.fails[i] = failed
}

// finish records the detectors' sites in rule order: each scan's (or its
// panic), each whole-project detector's.
func (d *detection) finish() {
	x := d.x
	for _, p := range d.dataFails {
		if p != nil {
			// A panic of the data index is every detector's, as a panic
			// of Read was.
			for _, rn := range d.runs {
				x.sites[rn.r.Code] = p
			}
			return
		}
	}
	for _, failed := range d.fails {
		for _, rn := range d.scans {
			if p := failed[rn]; p != nil && rn.fail == nil {
				rn.fail = p
			}
		}
	}
	for _, rn := range d.runs {
		res := rn.fail
		if res == nil {
			res = &detected{}
			if p := protect(func() {
				if rn.scan != nil {
					res.sites = rn.scan.sites()
				} else if rn.r.scan == nil {
					res.sites = rn.r.detect(d.ci)
				}
			}); p != nil {
				res = p
			}
		}
		x.sites[rn.r.Code] = res
	}
}

// protect runs fn and returns the panic it ended in, nil when it returned.
func protect(fn func()) (d *detected) {
	defer func() {
		if e := recover(); e != nil {
			d = &detected{panicked: true, panic: e}
		}
	}()
	fn()
	return nil
}

// predictDetectors returns the detectors the rules that opts select will
// ask for when checking p: the code rules' own (compatibility version 5's
// when the project runs under it), and for FW204 those of the default
// changes it lists. A guess that misses one costs a walk of its own when
// it is asked for; one too many costs its work.
func predictDetectors(p *project.Project, index *Index, opts Options) []*Rule {
	if opts.Target < 4 {
		return nil
	}
	pass := &Pass{Project: p, File: index.file, Config: index.config, Target: opts.Target, Index: index}
	five := targetCompat(pass) >= 5
	flipsTo := 0 // FW204's
	if opts.Selected(ruleDefaultFlip) && index.file != nil && index.file.Config != nil {
		switch c := projectCompat(pass); {
		case p.Framework == 3 && c == 3:
			flipsTo = 4
		case p.Framework >= 4 && c == 5:
			flipsTo = 5
		}
	}
	var out []*Rule
	for _, r := range All() {
		if r.detect == nil && r.scan == nil {
			continue
		}
		compat5 := false
		if len(r.Flips) > 0 {
			_, to, _ := flipOf(r.Flips[0])
			compat5 = to == 5
		}
		switch {
		case opts.Selected(r) && (!compat5 || five):
		case flipsTo == 4 && len(r.Flips) > 0 && !compat5, flipsTo == 5 && compat5:
		default:
			continue
		}
		out = append(out, r)
	}
	return out
}

// runCodeRule is the Run of the code rules: it reports the sites its
// detector finds, each about the default change it depends on, unless the
// project keeps the version-3 behaviour of that change.
func runCodeRule(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	for _, s := range pass.Index.sitesOf(pass.Rule) {
		option := s.option
		if option == "" && len(pass.Rule.Flips) > 0 {
			option = pass.Rule.Flips[0]
		}
		if option != "" && !flipReaches(pass, option) {
			continue
		}
		d := pass.reportCode(s.file, s.span, option, "%s", s.msg)
		d.Notes = append(d.Notes, s.notes...)
		if note := pinUntilNote(pass, option); note != "" {
			d.Notes = append(d.Notes, note)
		}
		if note := pinNote(option); note != "" {
			d.Notes = append(d.Notes, note)
		}
		d.Fix = s.fix
		if s.info {
			d.Severity = Info
		}
	}
}

// runCompat5Rule is runCodeRule for the changes of compatibility version
// 5: only a project that runs under it (framework major 4 with
// future.compatibilityVersion: 5) is reported.
func runCompat5Rule(pass *Pass) {
	if targetCompat(pass) < 5 {
		return
	}
	runCodeRule(pass)
}

// reportCode reports at span of a code file, with its positions filled in
// here (Check knows only the config's and the .env files' lines).
func (p *Pass) reportCode(f *code.File, span ast.Span, option, format string, args ...any) *Diagnostic {
	d := p.Report(span, option, format, args...)
	if f.Config {
		return d // positions are the config's, filled by Check
	}
	d.File, d.Path = f.Display, f.Rel
	var lines ast.Lines
	if f.Code != nil {
		start, end := f.Code.Position(span.Start), f.Code.Position(span.End)
		d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
		return d
	}
	lines = ast.NewLines(f.Text)
	start, end := lines.Position(span.Start), lines.Position(span.End)
	d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
	d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	return d
}

// codeFix returns a fix that edits f (nil when f must not be edited: it
// could not be read fully). Each edit replaces a span's bytes; an empty
// span inserts.
func codeFix(f *code.File, desc string, app Applicability, edits ...rewrite.Op) *Fix {
	if f.Err != nil || len(edits) == 0 {
		return nil
	}
	for i := range edits {
		edits[i].Kind = rewrite.OpReplace
	}
	fix := &Fix{Description: desc, Applicability: app, Ops: edits}
	if !f.Config {
		fix.File = f.Path
	}
	return fix
}

// edit is an OpReplace of span with text.
func edit(span ast.Span, text string) rewrite.Op {
	return rewrite.Op{Kind: rewrite.OpReplace, Span: span, Text: text}
}

// flipOf returns the default change of version 4 at path, or of
// compatibility version 5 (to is 4 or 5).
func flipOf(path string) (f compat.Flip, to int, ok bool) {
	for _, f := range flippedDefaults() {
		if f.Path == path {
			return f, 4, true
		}
	}
	for _, f := range flippedDefaults5() {
		if f.Path == path {
			return f, 5, true
		}
	}
	return compat.Flip{}, 0, false
}

// flipReaches reports whether the default change at path reaches the
// project: it does unless the config sets the value that restores the
// version-3 behaviour where that value holds (on framework major 4, or on
// v3 with compatibility version 4; an unknown major counts as 3).
func flipReaches(pass *Pass, path string) bool {
	f, _, ok := flipOf(path)
	if !ok || !f.Restore.Set {
		return true
	}
	v, st := pass.Config.Value(path)
	if st != compat.Static || !sameValue(v, f.Restore.Value) {
		return true
	}
	if pass.Project.Framework >= 4 {
		return !f.OnV4
	}
	// On framework major 3 a pin that major 4 removes holds only until the
	// framework's upgrade, which is where the migration goes: the sites are
	// reached then (pinUntilNote says so).
	return !f.OnCompat4 || !f.OnV4
}

// pinUntilNote says that the config pins path on framework major 3 with a
// value that major 4 no longer takes, "" otherwise.
func pinUntilNote(pass *Pass, path string) string {
	f, _, ok := flipOf(path)
	if !ok || !f.Restore.Set || f.OnV4 || !f.OnCompat4 || pass.Project.Framework >= 4 {
		return ""
	}
	v, st := pass.Config.Value(path)
	if st != compat.Static || !sameValue(v, f.Restore.Value) {
		return ""
	}
	return "the config's `" + path + ": " + jsLiteral(f.Restore.Value) + "` keeps the version-3 behaviour only while the framework is major 3: major 4 removes the option, and this code changes behaviour with the framework's upgrade"
}

// pinNote tells the other way out of a site: keeping the version-3
// behaviour with `apply --pin`, where the framework can keep it. The note
// depends on the option alone, and a dense app has tens of thousands of
// sites: each option's note is made once and shared (13.5 MB of apply's
// live heap on the 20,000-file dense app were copies of it).
func pinNote(path string) string {
	if n, ok := pinNotes.Load(path); ok {
		return n.(string)
	}
	n := makePinNote(path)
	pinNotes.Store(path, n)
	return n
}

var pinNotes sync.Map // option path -> its pinNote

func makePinNote(path string) string {
	f, to, ok := flipOf(path)
	switch {
	case !ok:
		return ""
	case !f.Restore.Set || !f.OnV4:
		return "framework major 4 cannot keep the version-3 behaviour of `" + path + "`: change the code"
	case to == 5:
		return "or keep compatibility version 4's behaviour for now: set `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
	}
	return "or keep the version-3 behaviour for now: `fwmigrate apply --pin=" + path + "` sets `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
}

// configKeyPath returns the option path of the config property whose key
// is at span (a hooks key the code rules found in the config), nil when no
// property of the config's literal has that key.
func configKeyPath(ci *codeIndex, span ast.Span) ast.Path {
	if ci.index == nil || ci.index.file == nil || ci.index.file.Config == nil {
		return nil
	}
	var out ast.Path
	ci.index.file.Walk(func(path ast.Path, prop *ast.Property) bool {
		if out != nil {
			return false
		}
		if prop.KeySpan.Start <= span.Start && span.End <= prop.KeySpan.End && prop.KeySpan.Len() > 0 {
			out = append(ast.Path(nil), path...)
			return false
		}
		return prop.Loc.Start <= span.Start && span.End <= prop.Loc.End
	})
	return out
}

// otherFiles are the files besides the config and the .env files that the
// check read and may report in: the code files the code rules read (none
// when no code rule ran), tsconfig.json, the files the type rules read
// besides (typeFiles), and the files rules reported in through
// Pass.reportIn.
func (x *Index) otherFiles() []*project.TextFile {
	var out []*project.TextFile
	if x.codeIdx != nil {
		for _, f := range x.codeIdx.Files {
			if !f.Config {
				out = append(out, &project.TextFile{Path: f.Path, Display: f.Display, Src: f.Text})
			}
		}
	}
	if x.project.TSConfig != nil {
		out = append(out, x.project.TSConfig)
	}
	out = append(out, x.typeFiles()...)
	x.reportedMu.Lock()
	defer x.reportedMu.Unlock()
	names := make([]string, 0, len(x.reported))
	for name := range x.reported {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, f := range out {
		seen[f.Display] = true
	}
	for _, name := range names {
		if !seen[name] {
			out = append(out, &project.TextFile{Display: name, Src: x.reported[name]})
		}
	}
	return out
}
