package rules

import (
	"bytes"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTypecheckScript = &Rule{
	Code:     "FW803",
	Name:     "typecheck-script-build",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "a package.json script runs `vue-tsc` or `tsc` on the root tsconfig.json without `-b`, which checks nothing once the root is the solution the target generates for",
		Why: `On framework major 4 the root tsconfig.json is a solution: "files": [] and
the references of the generated projects. Without -b (--build) the type
checker reads that root alone: it has no files, so it checks nothing and exits
0, whatever errors the code has (typescript-contexts.md §6.2, S1). The
framework's own command (fw typecheck) adds -b by itself (§7), but a script of
the form "fw prepare && vue-tsc --noEmit" bypasses it; the upgrade guide's
script is "fw prepare && vue-tsc -b --noEmit".
Reported when tsconfig.json references projects, and, as an info, when it
still extends the legacy .fw/tsconfig.json on major 4 (FW211 switches it to
the references; -b changes nothing before that: a root without references is
checked the same way in build mode).`,
		Example: `// package.json
{ "scripts": { "typecheck": "fw prepare && vue-tsc --noEmit" } }`,
		Fix: `Inserts -b after the checker's name: "vue-tsc -b --noEmit". Safe: with a
solution root it checks each referenced project; with a root that is a
project of its own, build mode checks the same files.
Not reported for a command with -p/--project (another tsconfig), -b or
--build already, or --version, --init, --help, --showConfig.`,
	},
	Run: runTypecheckScript,
}

func init() { Register(ruleTypecheckScript) }

var (
	reChecker = lazyregexp.New(`(^|[\s;&|(])((?:npx|bunx|pnpx)\s+|(?:pnpm|yarn)\s+(?:exec\s+)?)?(vue-tsc|tsc)(\s|$)`)
	reCmdEnd  = lazyregexp.New(`&&|\|\||[;|]`)
)

func runTypecheckScript(pass *Pass) {
	pr := pass.Project
	v, ok := pass.tsTarget()
	if !ok || !v.gen.Solution || pr.TSConfig == nil {
		return
	}
	tc := readTSConfig(pr.TSConfig.Src)
	if tc == nil {
		return
	}
	solution := false
	if refs, ok := tc.member("references"); ok {
		items, ok := jsonc.Items(tc.data, refs.ValStart)
		solution = ok && len(items) > 0
	}
	legacy := false
	if _, _, values, ok := tc.extendsValues(); ok && !solution {
		for _, s := range values {
			if abs := resolveTSPath(pr.Root, s); abs != "" && generatedName(abs, pr.Detection.V4.BuildDir) == v.gen.Legacy {
				legacy = true
			}
		}
	}
	if !solution && !legacy {
		return
	}
	if pkg := pr.Packages().Manifest; pkg != nil {
		packageScripts(pass, v, pkg, solution)
	}
	for _, wf := range pr.Workflows() {
		workflowSteps(pass, v, wf, solution)
	}
}

// packageScripts reports the checker runs without -b in package.json's
// scripts.
func packageScripts(pass *Pass, v tsView, pkg *project.TextFile, solution bool) {
	data := pkg.Src
	members, ok := jsonc.Members(data)
	if !ok {
		return
	}
	var scripts jsonc.Item
	found := false
	for _, m := range members {
		if m.Key(data) == "scripts" && data[m.ValStart] == '{' {
			scripts, found = m, true
		}
	}
	if !found {
		return
	}
	list, ok := jsonc.Members(data[:scripts.ValEnd][scripts.ValStart:])
	if !ok {
		return
	}
	for _, s := range list {
		val := s.ValStart + scripts.ValStart
		end := s.ValEnd + scripts.ValStart
		if data[val] != '"' || end-val < 2 {
			continue
		}
		raw := string(data[val+1 : end-1])
		name := s.Key(data[scripts.ValStart:scripts.ValEnd])
		for _, loc := range reChecker().FindAllStringSubmatchIndex(raw, -1) {
			tool := raw[loc[6]:loc[7]]
			rest := raw[loc[7]:]
			if e := reCmdEnd().FindStringIndex(rest); e != nil {
				rest = rest[:e[0]]
			}
			if !needsBuild(rest) {
				continue
			}
			at := val + 1 + loc[6]
			span := ast.Span{Start: at, End: at + len(tool)}
			var d *Diagnostic
			if solution {
				d = pass.reportIn(pkg.Display, data, span, "script `%s` runs `%s` without `-b` on tsconfig.json, which references the generated projects: it checks nothing and passes whatever errors the code has", name, tool)
			} else {
				d = pass.reportIn(pkg.Display, data, span, "script `%s` runs `%s` without `-b`: it will check nothing once tsconfig.json references the generated projects of framework major %d (FW211)", name, tool, v.gen.Major)
				d.Severity = Info
			}
			d.Path = "package.json"
			d.Fix = &Fix{
				Description:   "run `" + tool + " -b` in script `" + name + "`",
				Applicability: Safe,
				File:          pkg.Path,
				Ops:           []rewrite.Op{edit(ast.Span{Start: span.End, End: span.End}, " -b")},
			}
		}
	}
}

// needsBuild reports whether a checker's arguments (up to the command's
// end) type-check the root tsconfig.json without build mode.
func needsBuild(args string) bool {
	for _, a := range strings.Fields(args) {
		switch {
		case a == "-b" || a == "--build" || a == "-p" || a == "--project" || strings.HasPrefix(a, "--project=") || strings.HasPrefix(a, "-p="):
			return false
		case a == "--version" || a == "-v" || a == "--init" || a == "--help" || a == "-h" || a == "--showConfig":
			return false
		case strings.HasSuffix(a, ".ts") || strings.HasSuffix(a, ".vue") || strings.HasSuffix(a, ".tsx"):
			return false // files on the command line: no tsconfig read
		}
	}
	return true
}

var reRunKey = lazyregexp.New(`^(\s*)(?:-\s+)?run:\s*(.*)$`)

// workflowSteps reports the checker runs without -b in a CI workflow's
// run steps (a `run:` line, or the lines of a `run: |` block).
func workflowSteps(pass *Pass, v tsView, wf *project.TextFile, solution bool) {
	data := wf.Src
	blockIndent := -1 // the run key's indentation while in its block
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := string(data[off:end])
		lineStart := off
		off = end + 1
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		cmd, cmdAt := "", -1
		if blockIndent >= 0 {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if indent > blockIndent {
				cmd, cmdAt = line, 0
			} else {
				blockIndent = -1
			}
		}
		if cmdAt < 0 {
			m := reRunKey().FindStringSubmatchIndex(line)
			if m == nil {
				continue
			}
			val := strings.TrimSpace(line[m[4]:m[5]])
			if strings.HasPrefix(val, "|") || strings.HasPrefix(val, ">") {
				blockIndent = m[3] - m[2]
				continue
			}
			cmd, cmdAt = line[m[4]:], m[4]
		}
		for _, loc := range reChecker().FindAllStringSubmatchIndex(cmd, -1) {
			tool := cmd[loc[6]:loc[7]]
			rest := cmd[loc[7]:]
			if e := reCmdEnd().FindStringIndex(rest); e != nil {
				rest = rest[:e[0]]
			}
			if !needsBuild(strings.Trim(rest, "'\"\r")) {
				continue
			}
			at := lineStart + cmdAt + loc[6]
			span := ast.Span{Start: at, End: at + len(tool)}
			var d *Diagnostic
			if solution {
				d = pass.reportIn(wf.Display, data, span, "a step of this workflow runs `%s` without `-b` on tsconfig.json, which references the generated projects: it checks nothing and passes whatever errors the code has", tool)
			} else {
				d = pass.reportIn(wf.Display, data, span, "a step of this workflow runs `%s` without `-b`: it will check nothing once tsconfig.json references the generated projects of framework major %d (FW211)", tool, v.gen.Major)
				d.Severity = Info
			}
			d.Path = rootRel(pass.Project, wf.Path)
			d.Fix = &Fix{
				Description:   "run `" + tool + " -b` in the workflow step",
				Applicability: Safe,
				File:          wf.Path,
				Ops:           []rewrite.Op{edit(ast.Span{Start: span.End, End: span.End}, " -b")},
			}
		}
	}
}
