package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTSRootShape = &Rule{
	Code:     "FW801",
	Name:     "tsconfig-root-shape",
	Category: Types,
	Severity: Error,
	Doc: Doc{
		Summary: "the root tsconfig.json references the generated projects but is not the solution the target generates for, or references projects the target does not generate",
		Why: `On framework major 4 the root tsconfig.json is a solution: "files": []
and the references of the four generated projects (.fw/tsconfig.app.json,
server, shared, node), nothing else. A root with references that also has
input files of its own (an extends of the legacy .fw/tsconfig.json, whose
include it inherits; an include; no "files") is a project of its own: the
type checker then reports, with or without -b, TS6306 ("must have setting
composite") and TS6310 ("may not disable emit") once per reference, and
TS6305 ("output file has not been built") once per root file that a
referenced project holds too (TypeScript 5.8 and 6; 7 drops TS6305) - 16
configuration errors on a small app, none of them in its code
(typescript-contexts.md §6.2).
A reference to a generated file the target does not write fails on its own:
TS6053 (plain) or TS5083 (-b). Framework major 3 writes only the legacy
.fw/tsconfig.json, with compatibility version 4 too (§2), so the references
its upgrade guide shows name files that do not exist there.
The finding lists the errors it causes, file by file (a note that starts
"type-check errors this causes").`,
		Example: `// tsconfig.json, framework major 4
{
  "extends": "./.fw/tsconfig.json",
  "references": [
    { "path": "./.fw/tsconfig.app.json" },
    { "path": "./.fw/tsconfig.server.json" },
    { "path": "./.fw/tsconfig.shared.json" },
    { "path": "./.fw/tsconfig.node.json" }
  ]
}`,
		Fix: `Gives tsconfig.json the shape the target generates for. Major 4: removes
the extends of the legacy file (an extends list keeps its other entries) and
the include, adds "files": [] when it is missing, and drops the references to
files major 4 does not write; the other members and the comments stay. Major
3: drops the references and an empty "files", and extends the legacy file
when it does not yet.
Safe: every error it removes is a configuration error, and each context is
checked as before. Unsafe when the root's compilerOptions must be carried:
a solution root passes none of them on, so, as FW211 does, they move to the
config's typescript.tsConfig.compilerOptions (which reaches all four
contexts); options the config already sets to the same value are only
removed from tsconfig.json.
No fix (the finding stays, with the reason) when "files" lists files (move
them into a context, or reference a project of your own for them), or when
a compilerOptions entry cannot be carried (see FW211).`,
	},
	Run: runTSRootShape,
}

func init() { Register(ruleTSRootShape) }

// rootRef is one element of the root's references.
type rootRef struct {
	item jsonc.Item
	path string // as written
	name string // the generated file it names, "" for another project
}

func runTSRootShape(pass *Pass) {
	pr := pass.Project
	ts := pr.TSConfig
	if ts == nil {
		return
	}
	v, ok := pass.tsTarget()
	if !ok {
		return
	}
	tc := readTSConfig(ts.Src)
	if tc == nil {
		return
	}
	data := tc.data
	refsMember, ok := tc.member("references")
	if !ok || data[refsMember.ValStart] != '[' {
		return
	}
	items, ok := jsonc.Items(data, refsMember.ValStart)
	if !ok || len(items) == 0 {
		return
	}
	build := pr.Detection.V4.BuildDir
	dir := filepath.Dir(ts.Path)
	var refs []rootRef
	var missing []rootRef
	existing := 0
	for _, it := range items {
		if data[it.ValStart] != '{' {
			return
		}
		members, ok := jsonc.Members(data[:it.ValEnd][it.ValStart:])
		if !ok {
			return
		}
		var p string
		for _, m := range members {
			if m.Key(data[it.ValStart:it.ValEnd]) == "path" {
				p, ok = m.String(data[it.ValStart:it.ValEnd])
				if !ok {
					return
				}
			}
		}
		r := rootRef{item: it, path: p}
		if abs := resolveTSPath(dir, p); abs != "" {
			r.name = generatedName(abs, build)
		}
		refs = append(refs, r)
		switch {
		case r.name == "":
		case v.gen.File(r.name) == nil || r.name == v.gen.Legacy:
			missing = append(missing, r)
		default:
			existing++
		}
	}

	// The root's own inputs: inherited from the legacy file, its include,
	// or its files (missing: TypeScript's default, everything).
	ext, elems, values, hasExt := tc.extendsValues()
	legacy := -1
	if hasExt {
		for i, s := range values {
			if abs := resolveTSPath(dir, s); abs != "" && generatedName(abs, build) == v.gen.Legacy {
				legacy = i
			}
		}
	}
	incl, hasInclude := tc.member("include")
	files, hasFiles := tc.member("files")
	filesEmpty := false
	if hasFiles {
		fl, ok := jsonc.Items(data, files.ValStart)
		filesEmpty = ok && data[files.ValStart] == '[' && len(fl) == 0
	}
	if hasExt && legacy < 0 && !hasInclude {
		return // an extends of another file: its include is not read here
	}
	ownInputs := legacy >= 0 || hasInclude || !hasFiles || !filesEmpty

	var why []string
	var preds []prediction
	if len(missing) > 0 {
		var names []string
		for _, r := range missing {
			names = append(names, "`"+r.path+"`")
		}
		why = append(why, fmt.Sprintf("it references %s, which framework major %d does not generate", andList(names), v.gen.Major))
		// The typecheck command runs -b on a root with references
		// (typescript-contexts.md §7): TS5083; plain --noEmit gives TS6053.
		preds = append(preds, prediction{"TS5083", "", len(missing)})
	}
	if ownInputs && existing > 0 && v.gen.Solution {
		var own []string
		switch {
		case legacy >= 0:
			own = append(own, "extends `"+values[legacy]+"` (whose include it inherits)")
		}
		if hasInclude {
			own = append(own, "sets `include`")
		}
		if !hasFiles {
			own = append(own, "has no `\"files\": []`")
		} else if !filesEmpty {
			own = append(own, "lists `files`")
		}
		why = append(why, fmt.Sprintf("it %s, so it is a project of its own beside the %d it references", andList(own), existing))
		preds = append(preds, prediction{"TS6306", "tsconfig.json", existing}, prediction{"TS6310", "tsconfig.json", existing})
		for _, f := range rootOverlap(pass, v, tc, legacy >= 0, refs) {
			preds = append(preds, prediction{"TS6305", f, 1})
		}
	}
	if len(why) == 0 {
		return
	}
	d := pass.reportIn(ts.Display, data, ast.Span{Start: refsMember.KeyStart, End: refsMember.KeyEnd},
		"tsconfig.json is not the solution framework major %d generates for: %s", v.gen.Major, strings.Join(why, "; "))
	d.Path = "tsconfig.json"
	d.Notes = append(d.Notes, predictNote(preds))

	// The fix.
	if hasFiles && !filesEmpty && v.gen.Solution {
		d.Notes = append(d.Notes, "no fix: `files` lists files of the root's own: move them into a generated context (typescript.tsConfig.include) or a project of your own, then remove it")
		return
	}
	var edits []rewrite.Op
	del := map[int]bool{} // members deleted whole
	var keep []jsonc.Item
	for _, r := range refs {
		drop := false
		for _, m := range missing {
			drop = drop || m.item == r.item
		}
		if !drop {
			keep = append(keep, r.item)
		}
	}
	var configOps []rewrite.Op
	app := Safe
	desc := ""
	if v.gen.Solution {
		if legacy >= 0 {
			if len(elems) == 1 || data[ext.ValStart] != '[' {
				del[tc.at["extends"]] = true
			} else {
				edits = append(edits, dropElement(elems, legacy))
			}
		}
		if hasInclude {
			del[tc.at["include"]] = true
			_ = incl
		}
		if co, ok := tc.member("compilerOptions"); ok {
			keys, ops, reason := tc.carry(pass, co)
			if reason != "" {
				d.Notes = append(d.Notes, "no fix: "+reason)
				return
			}
			configOps = ops
			if len(ops) > 0 {
				app = Unsafe
			}
			del[tc.at["compilerOptions"]] = true
			if len(keys) > 0 {
				desc = ", moving its compilerOptions `" + strings.Join(keys, "`, `") + "` to `typescript.tsConfig.compilerOptions`"
			}
		}
		if !hasFiles {
			edits = append(edits, tc.insertBefore(refsMember, `"files": [],`))
		}
	} else {
		// Major 3: the legacy file, no references.
		if hasFiles && filesEmpty && !hasInclude {
			del[tc.at["files"]] = true
		}
		if legacy < 0 && !hasExt {
			rel, err := filepath.Rel(dir, filepath.Join(build, v.gen.Legacy))
			if err != nil {
				return
			}
			rel = filepath.ToSlash(rel)
			if !strings.HasPrefix(rel, "../") {
				rel = "./" + rel
			}
			// The references member becomes the extends.
			edits = append(edits, edit(ast.Span{Start: refsMember.Start, End: refsMember.ValEnd}, `"extends": "`+rel+`"`))
		} else {
			del[tc.at["references"]] = true
		}
	}
	if v.gen.Solution && len(keep) < len(refs) {
		if len(keep) == 0 {
			d.Notes = append(d.Notes, "no fix: none of its references names a file the target generates")
			return
		}
		for i := len(refs) - 1; i >= 0; i-- {
			gone := true
			for _, k := range keep {
				gone = gone && k != refs[i].item
			}
			if gone {
				edits = append(edits, dropElement(items, i))
				items = append(items[:i:i], items[i+1:]...)
			}
		}
	}
	for i := range tc.members {
		if del[i] {
			edits = append(edits, tc.deleteMember(i))
		}
	}
	d.Fix = &Fix{
		Description:   fmt.Sprintf("give tsconfig.json the shape framework major %d generates for%s", v.gen.Major, desc),
		Applicability: app,
		File:          ts.Path,
		Ops:           mergeEdits(edits),
		ConfigOps:     configOps,
	}
}

// dropElement deletes element i of a list with its comma.
func dropElement(elems []jsonc.Item, i int) rewrite.Op {
	el := elems[i]
	if i < len(elems)-1 {
		return edit(ast.Span{Start: el.Start, End: elems[i+1].Start}, "")
	}
	if i == 0 {
		return edit(ast.Span{Start: el.Start, End: el.End}, "")
	}
	return edit(ast.Span{Start: elems[i-1].End, End: el.End}, "")
}

// insertBefore inserts a member's text before member m, on a line of its
// own in m's indentation when m stands on one.
func (tc *tsconfig) insertBefore(m jsonc.Item, text string) rewrite.Op {
	data := tc.data
	ls := bytes.LastIndexByte(data[:m.Start], '\n') + 1
	indent := data[ls:m.Start]
	if len(bytes.TrimLeft(indent, " \t")) != 0 {
		return edit(ast.Span{Start: m.Start, End: m.Start}, text+" ")
	}
	nl := "\n"
	if ls >= 2 && data[ls-2] == '\r' {
		nl = "\r\n"
	}
	return edit(ast.Span{Start: m.Start, End: m.Start}, text+nl+string(indent))
}

// rootOverlap returns the root-relative files that the root's own program
// takes (through the legacy file it extends, its include, or everything
// when it has neither) and a referenced context holds too: one TS6305
// each (declarations have no output). The .vue files count: vue-tsc, the
// framework's checker, reports them (the oracle test runs it); plain tsc
// does not read them.
func rootOverlap(pass *Pass, v tsView, tc *tsconfig, extendsLegacy bool, refs []rootRef) []string {
	var include []string
	if m, ok := tc.member("include"); ok {
		its, _ := jsonc.Items(tc.data, m.ValStart)
		for _, it := range its {
			if s, ok := it.String(tc.data); ok {
				include = append(include, s)
			}
		}
	}
	var listed map[string]bool // "files": the root program when no include
	if m, ok := tc.member("files"); ok {
		listed = map[string]bool{}
		its, _ := jsonc.Items(tc.data, m.ValStart)
		for _, it := range its {
			if s, ok := it.String(tc.data); ok {
				listed[strings.TrimPrefix(filepath.ToSlash(filepath.Clean(s)), "./")] = true
			}
		}
	}
	legacy := v.ctx.Legacy()
	var out []string
	for _, rel := range tsProgramFiles(pass.Project, true) {
		if isDeclPath(rel) {
			continue
		}
		after := v.after(rel)
		inRoot := false
		switch {
		case len(include) > 0:
			f := *legacy
			f.Include, f.Exclude = include, []string{"node_modules"}
			inRoot = f.Holds(after, true)
		case extendsLegacy && legacy != nil:
			inRoot = legacy.Holds(after, true)
		case listed != nil:
			inRoot = listed[after]
		default:
			inRoot = true
		}
		if !inRoot {
			continue
		}
		held := false
		for _, f := range v.ctx.Holding(after, true) {
			for _, r := range refs {
				held = held || r.name == f.Name
			}
		}
		if held {
			out = append(out, after)
		}
	}
	return out
}
