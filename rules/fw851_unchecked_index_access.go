package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleUncheckedIndexAccess = &Rule{
	Code:     "FW851",
	Name:     "unchecked-index-access",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "an estimate, per file, of the index reads that noUncheckedIndexedAccess (on in version 4) makes `T | undefined` and that the code uses unguarded",
		Why: `Version 4 generates every TypeScript context with noUncheckedIndexedAccess: true
(framework major 3 on compatibility version 3 had it off for app code, which
the root typecheck also used for server code; typescript-contexts.md §3). A read
by index (list[i], record[key], s.split(',')[1]) is then T | undefined, and
code that uses it where undefined is an error fails to type-check: TS2532
(Object is possibly 'undefined') when its property is read or it is an operand
of arithmetic, TS18048 for a variable that holds it, TS2322 when it is assigned
to a typed variable or returned from a function with a return type, TS2722
when called. Real apps have dozens to hundreds of them. Nothing changes when
the code runs.
This rule counts them, file by file, from the code's syntax: an estimate, and
it says so. fwmigrate does not know the types: a read of a tuple or of an object
with known keys is not affected, but is counted when it looks like an array or
record read (a const holding an object literal or an as-const array is known); a read passed to a function whose parameter refuses undefined (TS2345)
and a Record read with a dot are not counted. Reads guarded by ?., !, as, ??,
|| or a test before (an enclosing if, while, && or ?: that tests the same read,
an earlier if (...) return) are not counted. Reported for projects known to run
framework major 3 on compatibility version 3 (package.json) whose config and
root tsconfig.json do not set the flag: app, shared, module and server code
(server code was checked with the app's options by the root typecheck).
apply, which moves such a project to major 4 when it bumps fw (FW701), makes
the config's fixes for major 4, and this one with them: the bump is the step
that turns the flag on. A package.json that allows major 4 while the fw
installed or locked is a 3.x counts as major 3 until the install.`,
		Example: `// package.json: "fw": "^3.12.0"
const first: string = names[0]            // TS2322
const label = items[i].label              // TS2532
const [key, value] = line.split('=')
value.trim()                              // TS18048`,
		Fix: `One finding for the project, in the config, which lists the sites file by file
(the first 50 by position, the rest counted by file) and offers the two ways out.
Safe: pin the flag off, as version 3 had it:
typescript.tsConfig.compilerOptions.noUncheckedIndexedAccess: false (the app,
shared and node contexts and the legacy file) and, when a server file has
sites, engine.typescript.tsConfig.compilerOptions.noUncheckedIndexedAccess: false
too (on the released 4.x the server's context takes only the engine's setting).
Or keep the flag and fix the listed sites by hand: ?. or ?? a default, a check
before the use, or ! where the index is known to exist. One finding rather than
one per site or file: a real app has hundreds of sites, the choice between the
two ways is made once for the project, and the pin is an edit of the config.`,
	},
	Run: runUncheckedIndexAccess,
}

func init() {
	ruleUncheckedIndexAccess.scan = scanIndexReads
	Register(ruleUncheckedIndexAccess)
}

const (
	uncheckedFlag       = "typescript.tsConfig.compilerOptions.noUncheckedIndexedAccess"
	uncheckedEngineFlag = "engine.typescript.tsConfig.compilerOptions.noUncheckedIndexedAccess"
	// uncheckedListed is how many sites the finding lists; the others are
	// counted by file.
	uncheckedListed = 50
)

// uncheckedRoles are the sources whose contexts get the flag in version 4.
var uncheckedRoles = []project.Role{project.RoleApp, project.RoleShared, project.RoleModule, project.RoleServer}

// runUncheckedIndexAccess reports the files' reads as one finding of the
// project, in the config (apply makes config fixes of findings there): the
// count, the sites file by file, and the pin.
func runUncheckedIndexAccess(pass *Pass) {
	var files []fileReads
	for _, s := range pass.Index.sitesOf(pass.Rule) {
		if fr, ok := s.data.(fileReads); ok {
			files = append(files, fr)
		}
	}
	if len(files) == 0 {
		return
	}
	reportIndexReads(pass, files)
}

// scanIndexReads finds the unguarded index reads of the project's code
// when the flag will change for it: in the one walk of the files the code
// rules read (a visitor each), and in the files no code rule reads (the
// server's, and those without a code rule's word: parsed and walked once,
// when their text may hold an index read).
func scanIndexReads(ci *codeIndex) *fileScan {
	x := ci.index
	pass := &Pass{Project: ci.Project, File: x.file, Config: x.config, Target: x.target, Index: x}
	if x.target < 4 || ci.Project == nil || !uncheckedTurnsOn(pass) || flipSet(pass, uncheckedFlag) || tsconfigSets(ci.Project, "noUncheckedIndexedAccess") {
		return nil
	}
	engineSet := flipSet(pass, uncheckedEngineFlag)
	view, viewOK := pass.tsTarget()
	times := func(f *code.File) int { return errorsPerSite(view, viewOK, rootRel(ci.Project, f.Path), nil) }
	wanted := func(f *code.File) bool {
		if f.Config || f.Src == nil || f.Src.Role == project.RoleServer && engineSet {
			return false
		}
		ok := false
		for _, r := range uncheckedRoles {
			ok = ok || f.Src.Role == r
		}
		return ok && ci.Project.Memo(f.Path, f.Text, "fw851.reads", func() bool { return code.MaybeIndexRead(f.Text) })
	}
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || !wanted(f) {
			return nil
		}
		return code.IndexReadVisitor(f, func(reads []code.IndexRead) {
			if len(reads) > 0 {
				*out = append(*out, readsSite(f, rootRel(ci.Project, f.Path), times(f), reads))
			}
		})
	}, func() []*site {
		extra := x.more(ci.Index).Extra(uncheckedRoles, wanted)
		per := make([]*site, len(extra))
		par.For(len(extra), func(i int) {
			if reads := code.IndexReads(extra[i]); len(reads) > 0 {
				per[i] = readsSite(extra[i], rootRel(ci.Project, extra[i].Path), times(extra[i]), reads)
			}
		})
		var out []*site
		for _, s := range per {
			if s != nil {
				out = append(out, s)
			}
		}
		return out
	})
}

// uncheckedTurnsOn reports whether the version step turns the flag on for
// the project's code: it runs framework major 3 on compatibility version 3
// today. When apply bumps fw in the same run (FW701), the check runs as
// major 4, where the flag is on already, but the project comes from major 3
// (Options.Before): the step is the one that turns it on, and the pin is
// made with the bump. Before holds the compatibility version of the config
// as it was, too: the rounds may rewrite it (FW206 removes a redundant
// compatibilityVersion: 4 on major 4).
//
// A project whose package.json already allows major 4 (bumped by hand, or
// by FW701's quickfix alone) while the fw installed or locked is still a
// 3.x runs major 3 until the install: the step is still ahead of it, on
// the compatibility version its config gives major 3.
func uncheckedTurnsOn(pass *Pass) bool {
	from := pass.Index.before
	if from.Framework == 0 {
		p := pass.Project
		from = Versions{Framework: p.Framework, Compat: projectCompat(pass)}
		if p.Framework == 4 && installedMajor(p) == 3 {
			v, st := pass.Config.Value("future.compatibilityVersion")
			from.Framework = 3
			from.Compat, _ = compat.EffectiveCompat(3, v, st)
		}
	}
	return from.Framework == 3 && from.Compat == 3
}

// installedMajor is the major of the fw that node_modules or the lockfile
// holds, 0 when neither says.
func installedMajor(p *project.Project) uint64 {
	ps := p.Packages()
	if ps.Manifest == nil || ps.Err != nil {
		return 0
	}
	fw := ps.Dep(compat.FrameworkPackage)
	if fw == nil || fw.Installed == nil {
		return 0
	}
	v, err := semver.Parse(fw.Installed.Version)
	if err != nil {
		return 0
	}
	return v.Major
}

// fileReads are one file's unguarded index reads: where it is, how many
// times the type check reports each (errorsPerSite), and the reads.
type fileReads struct {
	file  *code.File
	rel   string
	times int
	reads []code.IndexRead
}

// readsSite carries a file's reads to the rule's Run.
func readsSite(f *code.File, rel string, times int, reads []code.IndexRead) *site {
	return &site{file: f, span: reads[0].Span, data: fileReads{f, rel, times, reads}}
}

// reportIndexReads reports the reads of files: the count and the codes
// the type checker reports, each site (up to uncheckedListed) by its file
// and position, the predictions, and the pin (with the engine's when a
// server file has reads).
func reportIndexReads(pass *Pass, files []fileReads) {
	codes := map[string]int{}
	total, server := 0, false
	var ps []prediction
	for _, fr := range files {
		per := map[string]int{}
		for _, r := range fr.reads {
			codes[r.Code]++
			per[r.Code]++
		}
		total += len(fr.reads)
		server = server || fr.file.Src != nil && fr.file.Src.Role == project.RoleServer
		for c, n := range per {
			if fr.times > 0 {
				ps = append(ps, prediction{code: c, file: fr.rel, n: n * fr.times})
			}
		}
	}
	var tally []string
	for c, n := range codes {
		tally = append(tally, fmt.Sprintf("%s ×%d", c, n))
	}
	sort.Strings(tally)
	span := pass.Anchor()
	if p := pass.Lookup("typescript"); p != nil {
		span = p.Loc
	}
	d := pass.Report(span, uncheckedFlag, "an estimated %s %s in %s: with noUncheckedIndexedAccess, which version 4 turns on, the type checker reports %s",
		text.Plural(total, "index read"), verbUsed(total), text.Plural(len(files), "file"), strings.Join(tally, ", "))
	d.Notes = append(d.Notes, "an estimate from the code's syntax, not its types: a tuple or an object with known keys is not affected; a read passed to a function (TS2345) is not counted")
	listed := 0
	var rest []string
	for _, fr := range files {
		shown := 0
		for _, r := range fr.reads {
			if listed == uncheckedListed {
				break
			}
			listed++
			shown++
			pos := fr.file.Code.Position(r.Span.Start)
			what := "`" + excerptOf(fr.file.Text, r.Read) + "`"
			if r.Var != "" {
				what = "`" + r.Var + "`, which holds " + what + ","
			}
			d.Notes = append(d.Notes, fmt.Sprintf("%s:%d:%d: %s %s (%s)", fr.file.Display, pos.Line, pos.Column, what, r.What, r.Code))
		}
		if n := len(fr.reads) - shown; n > 0 {
			rest = append(rest, fmt.Sprintf("%s ×%d", fr.file.Display, n))
		}
	}
	if len(rest) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("and %d more: %s", total-listed, strings.Join(rest, ", ")))
	}
	d.Notes = append(d.Notes, "to keep the flag, fix these by hand: `?.` or `?? default`, a check before the use, or `!` where the index surely exists")
	if len(ps) > 0 {
		d.Notes = append(d.Notes, predictNote(ps))
	}
	ops := []rewrite.Op{{Kind: rewrite.OpSet, Path: ast.ParsePath(uncheckedFlag), Value: false}}
	desc := "pin `" + uncheckedFlag + ": false`, as version 3 had it"
	if server {
		ops = append(ops, rewrite.Op{Kind: rewrite.OpSet, Path: ast.ParsePath(uncheckedEngineFlag), Value: false})
		desc = "pin `" + uncheckedFlag + ": false` and, for the server's context, `" + uncheckedEngineFlag + ": false`, as version 3 had it"
	}
	d.Fix = &Fix{Description: desc, Applicability: Safe, Ops: ops}
}

func verbUsed(n int) string {
	if n == 1 {
		return "is used where undefined is an error"
	}
	return "are used where undefined is an error"
}

// tsconfigSets reports whether the root tsconfig.json's compilerOptions
// set an option (the project's choice, which today overrides the generated
// file, and which FW211 carries into the config).
func tsconfigSets(p *project.Project, option string) bool {
	if p.TSConfig == nil {
		return false
	}
	tc := readTSConfig(p.TSConfig.Src)
	if tc == nil {
		return false
	}
	co, ok := tc.member("compilerOptions")
	if !ok {
		return false
	}
	opts, ok := jsonc.Items(tc.data, co.ValStart)
	if !ok {
		return false
	}
	for _, o := range opts {
		if o.Key(tc.data) == option {
			return true
		}
	}
	return false
}
