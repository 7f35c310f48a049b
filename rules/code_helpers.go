package rules

import (
	"path/filepath"
	"sort"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
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

// code returns the project's code as the code rules read it.
func (x *Index) code() *codeIndex {
	x.codeOnce.Do(func() {
		var config *code.File
		// The config itself: hooks and inline modules are module code.
		if x.project != nil && x.file != nil && code.Triggered(x.file.Src, code.Triggers) {
			config = x.configCode()
		}
		x.codeIdx = &codeIndex{Index: code.Read(x.project, x.config, config), index: x}
	})
	return x.codeIdx
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
	// data is what a rule with a Run of its own reads from its sites
	// (FW851: the file's index reads), nil for the others.
	data any
}

// sitesOf returns the sites of the code rule r, found once per check by
// its detector: the rule reports them, and FW204 asks which default
// changes reach code.
//
// The first ask runs every detector the check will ask for (Index.detectors)
// at once (runDetectors); a detector that was not among them runs when
// asked. A detector that panicked panics again here, in the rule that asks,
// which reports it as an internal error (runRule).
func (x *Index) sitesOf(r *Rule) []*site {
	d := func() *detected {
		x.siteMu.Lock()
		defer x.siteMu.Unlock()
		if x.sites == nil {
			x.sites = map[string]*detected{}
			x.runDetectors(x.detectors)
		}
		if x.sites[r.Code] == nil {
			x.runDetectors([]*Rule{r})
		}
		return x.sites[r.Code]
	}()
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
// The data index's uses (ci.Data.Uses) are found in the same walk: file
// and its visitor must not read them; sites may.
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

// runDetectors runs the detectors of rules not run yet: the file scans in
// one walk of each file, on every core, with the data index's uses (found
// once per check); then, in rule order, the scans' sites and the whole
// project's detectors. Call with x.siteMu held.
func (x *Index) runDetectors(rules []*Rule) {
	ci := x.code()
	type run struct {
		r    *Rule
		scan *fileScan
		fail *detected // the detector panicked
	}
	var runs []*run
	for _, r := range rules {
		if x.sites[r.Code] != nil || r.scan == nil && r.detect == nil {
			continue
		}
		rn := &run{r: r}
		if r.scan != nil {
			rn.fail = protect(func() { rn.scan = r.scan(ci) })
		}
		runs = append(runs, rn)
	}
	if x.codeFail != nil {
		// The data index failed: nothing of the code is judged.
		for _, rn := range runs {
			x.sites[rn.r.Code] = x.codeFail
		}
		return
	}
	uses := !x.usesDone
	x.usesDone = true
	var scans []*run
	for _, rn := range runs {
		if rn.scan != nil && rn.fail == nil {
			scans = append(scans, rn)
		}
	}
	if uses || len(scans) > 0 {
		// fails[i] are the panics of the detectors in file i, by scan;
		// dataFails[i] the data index's.
		fails := make([]map[int]*detected, len(ci.Files))
		dataFails := make([]*detected, len(ci.Files))
		par.For(len(ci.Files), func(i int) {
			f := ci.Files[i]
			var failed map[int]*detected
			for {
				var vs []*code.Visitor
				var who []int // the scan of each visitor; -1 the data index
				cur, at := -1, -1
				p := protect(func() {
					if uses {
						if v := ci.Data.FileUses(f); v != nil {
							vs, who = append(vs, v), append(who, -1)
						}
					}
					for k, rn := range scans {
						if failed[k] == nil {
							cur = k
							for _, v := range rn.scan.file(i, f) {
								vs, who = append(vs, v), append(who, k)
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
					dataFails[i] = p
					break
				}
				if failed == nil {
					failed = map[int]*detected{}
				}
				failed[cur] = p
			}
			if len(failed) > 0 {
				fails[i] = failed
			}
		})
		for _, p := range dataFails {
			if p != nil {
				// A panic of the data index is every detector's, now and
				// for the rest of the check (as a panic of Read was).
				x.codeFail = p
				for _, rn := range runs {
					x.sites[rn.r.Code] = p
				}
				return
			}
		}
		if uses {
			ci.Data.CollectUses()
		}
		for _, failed := range fails {
			for k, p := range failed {
				if scans[k].fail == nil {
					scans[k].fail = p
				}
			}
		}
	}
	for _, rn := range runs {
		d := rn.fail
		if d == nil {
			d = &detected{}
			if p := protect(func() {
				if rn.scan != nil {
					d.sites = rn.scan.sites()
				} else if rn.r.scan == nil {
					d.sites = rn.r.detect(ci)
				}
			}); p != nil {
				d = p
			}
		}
		x.sites[rn.r.Code] = d
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
		if note := pinNote(option); note != "" {
			d.Notes = append(d.Notes, note)
		}
		d.Fix = s.fix
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
	return !f.OnCompat4
}

// pinNote tells the other way out of a site: keeping the version-3
// behaviour with `apply --pin`, where the framework can keep it.
func pinNote(path string) string {
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
