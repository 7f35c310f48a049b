package rules

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// Helpers of the rules that read and edit tsconfig.json (FW211, FW8xx):
// the members of a tsconfig as jsonc reads them, byte edits that keep its
// comments and layout, and the carrying of its compilerOptions into the
// config's typescript.tsConfig.compilerOptions.

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
