package rules

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTsconfigReferences = &Rule{
	Code:     "FW211",
	Name:     "tsconfig-references",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "the root tsconfig.json extends the legacy generated `.fw/tsconfig.json` instead of referencing the four projects framework major 4 generates",
		Why: `Framework major 3 generates one .fw/tsconfig.json (also with
compatibility version 4), which the root tsconfig.json extends. Major 4
generates one for each context: app code (.fw/tsconfig.app.json), server code
(.fw/tsconfig.server.json), code shared by both (.fw/tsconfig.shared.json) and
the config and modules (.fw/tsconfig.node.json), and still the legacy
.fw/tsconfig.json, so the extends keeps working (an info, not a warning). The
recommended root tsconfig.json references the four instead ("files": [] and
"references"), so that each context is type-checked with its own settings;
references and the extends are exclusive.
A root tsconfig.json with references passes none of its compilerOptions to the
generated projects: typescript.tsConfig.compilerOptions in the config does,
to all four.
Reported only when package.json (or --framework) says major 4: on major 3 the
four files are not generated, so the references would name files that do not
exist. The generated files are the same whether the sources are in app/ or
not.`,
		Example: `// tsconfig.json beside fw.config.ts
{
  "extends": "./.fw/tsconfig.json",
  "compilerOptions": { "strict": true }
}`,
		Fix: `Replaces the extends with "files": [] and the four references (an extends
list keeps its other entries), and moves the root compilerOptions into the
config's typescript.tsConfig.compilerOptions, where the framework writes them
into every generated project; options the config already sets to the same
value are only removed from tsconfig.json. tsconfig.json is edited on its
bytes: its comments and other members stay.
Unsafe: type-checking changes. A root with "files": [] checks nothing by
itself, so a type-check script must build the references (ui-tsc -b
--noEmit); code is checked by the generated project of its context, and type
augmentations must be in app/, server/ or shared/; server/tsconfig.json, which
extended the generated server file, is to be deleted.
No fix (the finding stays, with the reason) when tsconfig.json already has
files or references, when it sets include or exclude (beside "files": [] they
would make the root a project of its own), or when a compilerOptions entry
cannot be carried as it is: a value that is not plain JSON (a comment or a
trailing comma inside it), an option the framework manages per context (types,
paths, noEmit) or sets for app code only (lib, jsx, jsxImportSource), or one
that typescript.tsConfig.compilerOptions sets to another value or at run time.`,
	},
	Run: runTsconfigReferences,
}

func init() { Register(ruleTsconfigReferences) }

// tsconfigContexts are major 4's generated projects, in the order of the
// recommended root tsconfig.json (migration facts §9).
var tsconfigContexts = []string{"app", "server", "shared", "node"}

// tsconfigNotCarried are the compilerOptions that typescript.tsConfig does
// not pass to all four generated projects as they are (facts §9), with why.
var tsconfigNotCarried = map[string]string{
	"types":           "the framework manages it per context",
	"paths":           "the framework manages it per context",
	"noEmit":          "the framework manages it per context",
	"lib":             "typescript.tsConfig sets it for app code only",
	"jsx":             "typescript.tsConfig sets it for app code only",
	"jsxImportSource": "typescript.tsConfig sets it for app code only",
}

var tsCompilerOptions = ast.ParsePath("typescript.tsConfig.compilerOptions")

func runTsconfigReferences(pass *Pass) {
	pr := pass.Project
	ts := pr.TSConfig
	// Framework major 3 generates the legacy file only, with compatibility
	// version 4 too: the references would name files that do not exist.
	if pass.Target < 4 || pr.Framework < 4 || ts == nil || pr.Detection == nil || pr.Detection.V4.BuildDir == "" {
		return
	}
	data := ts.Src
	members, ok := jsonc.Members(data)
	if !ok {
		return // not an object this reader can follow: nothing to judge
	}
	tc := &tsconfig{data: data, members: members, at: map[string]int{}}
	for i, m := range members {
		tc.at[m.Key(data)] = i // the last of duplicate keys wins, as in JSON
	}
	ext, ok := tc.member("extends")
	if !ok {
		return
	}
	legacy := filepath.Join(pr.Detection.V4.BuildDir, "tsconfig.json")
	isLegacy := func(s string) bool {
		if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && !filepath.IsAbs(s) {
			return false // resolved as a package, not a path
		}
		path := filepath.Join(filepath.Dir(ts.Path), filepath.FromSlash(s))
		// TypeScript adds .json to a path without it.
		return path == legacy || !strings.HasSuffix(path, ".json") && path+".json" == legacy
	}
	// The extends value: one string, or a list of them (TypeScript 5).
	var elems []jsonc.Item
	which, value := -1, ""
	span := ast.Span{Start: ext.ValStart, End: ext.ValEnd}
	if data[ext.ValStart] == '[' {
		if elems, ok = jsonc.Items(data, ext.ValStart); !ok {
			return
		}
		for i, el := range elems {
			if s, ok := el.String(data); ok && isLegacy(s) {
				which, value, span = i, s, ast.Span{Start: el.ValStart, End: el.ValEnd}
			}
		}
	} else if s, ok := ext.String(data); ok && isLegacy(s) {
		value = s
	}
	if value == "" {
		return
	}
	d := pass.Report(span, "", "tsconfig.json extends `%s`, the legacy file that framework major 4 still generates: the recommended root tsconfig.json references the generated app, server, shared and node projects instead", value)
	d.File, d.Path = ts.Display, "tsconfig.json"
	fix, why := tc.fix(pass, ext, elems, which, value)
	if why != "" {
		d.Notes = append(d.Notes, "no fix: "+why)
		return
	}
	fix.File = ts.Path
	d.Fix = fix
}

// tsconfig is a root tsconfig.json as jsonc reads it.
type tsconfig struct {
	data    []byte
	members []jsonc.Item
	at      map[string]int // key -> index in members
}

func (tc *tsconfig) member(key string) (jsonc.Item, bool) {
	i, ok := tc.at[key]
	if !ok {
		return jsonc.Item{}, false
	}
	return tc.members[i], true
}

// fix is the fix that switches the extends of ext (the element which of
// elems, when the extends is a list) to the references and carries the
// compilerOptions, or why there is none.
func (tc *tsconfig) fix(pass *Pass, ext jsonc.Item, elems []jsonc.Item, which int, value string) (*Fix, string) {
	for _, k := range []string{"files", "references"} {
		if _, ok := tc.member(k); ok {
			return nil, "tsconfig.json already has `" + k + "`, which the references replace: remove the extends by hand"
		}
	}
	for _, k := range []string{"include", "exclude"} {
		if _, ok := tc.member(k); ok {
			return nil, "tsconfig.json sets `" + k + "`: beside `\"files\": []` it would make the root a project of its own, checked without the generated settings; move it to `typescript.tsConfig` (app code) or delete it, then apply again"
		}
	}
	var keys []string
	var configOps []rewrite.Op
	co, hasCO := tc.member("compilerOptions")
	if hasCO {
		var why string
		keys, configOps, why = tc.carry(pass, co)
		if why != "" {
			return nil, why
		}
	}
	edits := tc.referencesEdit(ext, elems, which, value)
	if hasCO {
		edits = append(edits, tc.deleteMember(tc.at["compilerOptions"]))
	}
	desc := "replace the extends of `" + value + "` in tsconfig.json by `\"files\": []` and the references of the four generated projects"
	if len(keys) > 0 {
		desc += ", moving its compilerOptions `" + strings.Join(keys, "`, `") + "` to `typescript.tsConfig.compilerOptions`"
	} else if hasCO {
		desc += ", deleting its empty compilerOptions"
	}
	return &Fix{Description: desc, Applicability: Unsafe, Ops: mergeEdits(edits), ConfigOps: configOps}, ""
}

// carry returns the keys of the compilerOptions member co and the config
// ops that set those typescript.tsConfig.compilerOptions does not set yet,
// or why they cannot be carried.
func (tc *tsconfig) carry(pass *Pass, co jsonc.Item) (keys []string, ops []rewrite.Op, why string) {
	data := tc.data
	opts, ok := jsonc.Items(data, co.ValStart)
	if !ok || data[co.ValStart] != '{' {
		return nil, nil, "tsconfig.json's compilerOptions is not an object: carry it to `typescript.tsConfig.compilerOptions` by hand"
	}
	if pass.File == nil || pass.File.Config == nil {
		return nil, nil, "the config's options cannot be edited (it is not an object literal)"
	}
	_, st := pass.Config.Value(tsCompilerOptions.String())
	if st == compat.Dynamic {
		return nil, nil, "`typescript.tsConfig.compilerOptions` may be set at run time: carry tsconfig.json's compilerOptions by hand"
	}
	var missing rewrite.Object
	for _, o := range opts {
		key := o.Key(data)
		raw := data[o.ValStart:o.ValEnd]
		if strings.ContainsAny(key, "\\.") {
			return nil, nil, "compilerOptions key `" + key + "` cannot be carried as it is written: carry it by hand"
		}
		if r, ok := tsconfigNotCarried[key]; ok {
			return nil, nil, "compilerOptions `" + key + "` cannot be carried to `typescript.tsConfig.compilerOptions`: " + r + "; move it by hand (a per-context option such as `typescript.appTsConfig`, or nothing)"
		}
		var plain any
		if !json.Valid(raw) || json.Unmarshal(raw, &plain) != nil {
			return nil, nil, "compilerOptions `" + key + "` is not a plain JSON value (a comment or a trailing comma inside it): carry it by hand"
		}
		keys = append(keys, key)
		path := append(append(ast.Path(nil), tsCompilerOptions...), key)
		have, st := pass.Config.Value(path.String())
		switch {
		case st == compat.Dynamic:
			return nil, nil, "`" + path.String() + "` may be set at run time: carry tsconfig.json's `" + key + "` by hand"
		case st == compat.Static && !reflect.DeepEqual(have, plain):
			return nil, nil, "`" + path.String() + "` is set to another value than tsconfig.json's `" + key + "`: decide which one holds, by hand"
		case st == compat.Static:
			continue // the same value: it is only removed from tsconfig.json
		}
		ordered, err := orderedJSON(raw)
		if err != nil {
			return nil, nil, "compilerOptions `" + key + "` is not a plain JSON value: carry it by hand"
		}
		missing = append(missing, rewrite.KV{Key: key, Value: ordered})
	}
	if len(missing) == 0 {
		return keys, nil, ""
	}
	if st == compat.Absent {
		return keys, []rewrite.Op{{Kind: rewrite.OpSet, Path: tsCompilerOptions, Value: missing}}, ""
	}
	for _, kv := range missing {
		path := append(append(ast.Path(nil), tsCompilerOptions...), kv.Key)
		ops = append(ops, rewrite.Op{Kind: rewrite.OpSet, Path: path, Value: kv.Value})
	}
	return keys, ops, ""
}

// orderedJSON decodes a JSON value into OpSet's values, objects keeping
// the order of their keys.
func orderedJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var value func() (any, error)
	value = func() (any, error) {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '[' {
				list := []any{}
				for dec.More() {
					v, err := value()
					if err != nil {
						return nil, err
					}
					list = append(list, v)
				}
				_, err := dec.Token()
				return list, err
			}
			obj := rewrite.Object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := value()
				if err != nil {
					return nil, err
				}
				obj = append(obj, rewrite.KV{Key: k.(string), Value: v})
			}
			_, err := dec.Token()
			return obj, err
		}
		return tok, nil // string, float64, bool or nil
	}
	return value()
}

// referencesEdit replaces the extends member ext (or its element which of
// elems, when the list has others) by "files": [] and the references, in
// the member's indentation.
func (tc *tsconfig) referencesEdit(ext jsonc.Item, elems []jsonc.Item, which int, value string) []rewrite.Op {
	data := tc.data
	dir := strings.TrimSuffix(strings.TrimSuffix(value, ".json"), "tsconfig")
	lineStart := bytes.LastIndexByte(data[:ext.Start], '\n') + 1
	indent := string(data[lineStart:ext.Start])
	inline := strings.TrimLeft(indent, " \t") != ""
	unit := indent
	if unit == "" || inline {
		unit = "  "
	}
	nl := "\n"
	if lineStart >= 2 && data[lineStart-2] == '\r' {
		nl = "\r\n"
	}
	var b strings.Builder
	b.WriteString(`"files": [],`)
	if inline {
		b.WriteString(` "references": [`)
	} else {
		b.WriteString(nl + indent + `"references": [`)
	}
	for i, n := range tsconfigContexts {
		switch {
		case inline && i > 0:
			b.WriteString(", ")
		case !inline && i > 0:
			b.WriteString("," + nl + indent + unit)
		case !inline:
			b.WriteString(nl + indent + unit)
		}
		b.WriteString(`{ "path": "` + dir + `tsconfig.` + n + `.json" }`)
	}
	if !inline {
		b.WriteString(nl + indent)
	}
	b.WriteString("]")
	if which < 0 || len(elems) == 1 {
		return []rewrite.Op{edit(ast.Span{Start: ext.Start, End: ext.ValEnd}, b.String())}
	}
	// Drop the legacy element with its comma; add the members after the
	// extends member.
	var ops []rewrite.Op
	el := elems[which]
	if which < len(elems)-1 {
		ops = append(ops, edit(ast.Span{Start: el.Start, End: elems[which+1].Start}, ""))
	} else {
		ops = append(ops, edit(ast.Span{Start: elems[which-1].End, End: el.End}, ""))
	}
	sep := "," + nl + indent
	if inline {
		sep = ", "
	}
	return append(ops, edit(ast.Span{Start: ext.ValEnd, End: ext.ValEnd}, sep+b.String()))
}

// deleteMember deletes member i with its comma: with its whole line (and a
// comment that ends it) when it stands on lines of its own, else with the
// comma before it when it is the last member.
func (tc *tsconfig) deleteMember(i int) rewrite.Op {
	data, m := tc.data, tc.members[i]
	start, end := m.Start, m.End
	after := jsonc.Skip(data, end)
	hasComma := after < len(data) && data[after] == ','
	if hasComma {
		end = after + 1
	}
	ls := bytes.LastIndexByte(data[:start], '\n') + 1
	rest := end
	for rest < len(data) && (data[rest] == ' ' || data[rest] == '\t') {
		rest++
	}
	if rest+1 < len(data) && data[rest] == '/' && data[rest+1] == '/' {
		for rest < len(data) && data[rest] != '\n' {
			rest++
		}
	}
	ownLines := len(bytes.TrimSpace(data[ls:start])) == 0 && (rest == len(data) || data[rest] == '\n' || data[rest] == '\r')
	if !hasComma && i > 0 {
		// The last member: the comma before it goes, when only white
		// space and that comma lie between the two.
		prev := tc.members[i-1].End
		if gap := bytes.TrimSpace(data[prev:start]); string(gap) == "," {
			return edit(ast.Span{Start: prev, End: end}, "")
		}
	}
	if ownLines {
		if rest < len(data) && data[rest] == '\r' {
			rest++
		}
		if rest < len(data) && data[rest] == '\n' {
			rest++
		}
		return edit(ast.Span{Start: ls, End: rest}, "")
	}
	for hasComma && end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++ // the space after the comma, before the next member
	}
	return edit(ast.Span{Start: start, End: end}, "")
}

// mergeEdits sorts byte edits of src and joins those that touch (an
// insertion where a deletion starts), which rewrite.EditCode takes for an
// overlap.
func mergeEdits(ops []rewrite.Op) []rewrite.Op {
	sort.SliceStable(ops, func(i, j int) bool {
		a, b := ops[i].Span, ops[j].Span
		return a.Start < b.Start || a.Start == b.Start && a.Len() == 0 && b.Len() > 0
	})
	var out []rewrite.Op
	for _, op := range ops {
		if n := len(out); n > 0 && op.Span.Start == out[n-1].Span.End {
			last := &out[n-1]
			last.Text += op.Text
			last.Span.End = op.Span.End
			continue
		}
		out = append(out, op)
	}
	return out
}
