package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleHeadV1Keys = &Rule{
	Code:     "FW615",
	Name:     "head-v1-keys",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "hid, vmid, children or body in the entries of useHead, useServerHead or useSeoMeta, which head manager v2 no longer reads",
		Why: `Version 4 renders the head with head manager v2, which dropped the keys of v1:
hid and vmid (the deduplication key, now key), children (the tag's content, now
innerHTML) and body (a tag at the end of the body, now tagPosition: 'bodyClose').
An entry that still uses them is no longer deduplicated, loses its content or
moves to the head. Found in the tag entries (script, meta, link, style,
noscript, base; arrays and single objects) of the arguments of useHead,
useServerHead, useHeadSafe, useServerHeadSafe and useSeoMeta, also inside a
function or computed argument. headmgr.legacy: true keeps v1's keys on
compatibility version 4: the rule is then silent, but for a project on
compatibility version 5, which ignores legacy (the framework's warning B5013).
The config's app.head is FW209's.`,
		Example: `useHead({
  meta: [{ hid: 'description', name: 'description', content: 'Posts' }],
  script: [{ children: 'window.a = 1', body: true }],
})`,
		Fix: `Safe: hid or vmid equal to the entry's name or property is deleted (v2
deduplicates meta by them); children becomes innerHTML (v1 reads innerHTML
too). Unsafe: another hid or vmid becomes key, the deduplication key of both
versions. body is reported: write tagPosition: 'bodyClose'.`,
	},
	Run: runHeadV1Keys,
}

func init() {
	ruleHeadV1Keys.scan = scanHeadV1Keys
	Register(ruleHeadV1Keys)
}

// runHeadV1Keys is runCodeRule but for a project that keeps head manager
// v1 (headmgr.legacy: true) below compatibility version 5.
func runHeadV1Keys(pass *Pass) {
	v, st := pass.Config.Value("headmgr.legacy")
	if st == compat.Static && v == true && targetCompat(pass) < 5 {
		return
	}
	n := len(pass.diags)
	runCodeRule(pass)
	if st == compat.Static && v == true {
		for _, d := range pass.diags[n:] {
			d.Notes = append(d.Notes, "headmgr.legacy: true does not keep them: compatibility version 5 ignores it (the framework's warning B5013)")
		}
	}
}

// headCalls are the composables whose arguments hold head entries.
var headCalls = []string{"useHead", "useServerHead", "useHeadSafe", "useServerHeadSafe", "useSeoMeta"}

// headTags are the keys whose values are tag entries.
var headTags = map[string]bool{"script": true, "meta": true, "link": true, "style": true, "noscript": true, "base": true}

func scanHeadV1Keys(ci *codeIndex) *fileScan {
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || f.Config {
			return nil
		}
		return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			if n.Kind != ast.JSCall || !code.ImportedAs(n.X, headCalls...) {
				return true
			}
			callee := code.ImportName(n.X)
			for _, arg := range n.List {
				ast.WalkJS(arg, func(e *ast.JSNode, eup []*ast.JSNode) bool {
					if e.Kind == ast.JSObject && isHeadEntry(e, eup) {
						*out = append(*out, headEntrySites(f, callee, e)...)
					}
					return true
				})
			}
			return false
		}}
	}, nil)
}

// isHeadEntry reports whether an object (with its ancestors up) is a tag
// entry: the value of a tag key, or an element of an array that is.
func isHeadEntry(obj *ast.JSNode, up []*ast.JSNode) bool {
	i := len(up) - 1
	if i >= 0 && up[i].Kind == ast.JSArray {
		obj, i = up[i], i-1
	}
	return i >= 0 && up[i].Kind == ast.JSProperty && up[i].Y == obj && headTags[up[i].Name] && !up[i].Has(ast.FlagComputed)
}

func headEntrySites(f *code.File, callee string, obj *ast.JSNode) []*site {
	var out []*site
	for _, p := range obj.List {
		if p.Kind != ast.JSProperty || p.Has(ast.FlagComputed) {
			continue
		}
		s := &site{file: f, span: p.Loc}
		switch p.Name {
		case "hid", "vmid":
			s.msg = "`" + p.Name + "` in an entry of `" + callee + "` is head manager v1's deduplication key: v2 (version 4) ignores it"
			v, ok := code.StringValue(p.Y)
			same := ""
			for _, k := range []string{"name", "property"} {
				if q := code.ObjProp(obj, k); ok && q != nil {
					if w, ok := code.StringValue(q.Y); ok && w == v {
						same = k
					}
				}
			}
			switch {
			case same != "":
				s.msg += ", and the entry is deduplicated by its " + same + " anyway"
				s.fix = codeFix(f, "delete `"+p.Name+"`, which repeats the entry's "+same, Safe, edit(propDeleteSpan(obj, p), ""))
			case code.ObjProp(obj, "key") == nil && p.Op != "shorthand":
				s.fix = codeFix(f, "write `key`, the deduplication key of both head managers", Unsafe, edit(p.NameLoc, "key"))
			case code.ObjProp(obj, "key") != nil:
				s.notes = []string{"the entry sets `key`, the deduplication key of v2, already: delete `" + p.Name + "`"}
			default:
				s.notes = []string{"deduplicate with `key: " + f.Code.Text(p.Y.Loc) + "`"}
			}
		case "children":
			s.msg = "`children` in an entry of `" + callee + "` is head manager v1's tag content: v2 (version 4) ignores it, and the tag renders empty"
			switch {
			case code.ObjProp(obj, "innerHTML") != nil:
				s.notes = []string{"the entry sets innerHTML too: keep one"}
			case p.Op == "shorthand":
				s.fix = codeFix(f, "write `innerHTML`, which both head managers read", Safe, edit(p.Loc, "innerHTML: "+f.Code.Text(p.Loc)))
			default:
				s.fix = codeFix(f, "write `innerHTML`, which both head managers read", Safe, edit(p.NameLoc, "innerHTML"))
			}
		case "body":
			s.msg = "`body` in an entry of `" + callee + "` put the tag at the end of the body on head manager v1: v2 (version 4) ignores it, and the tag goes to the head"
			s.notes = []string{"write `tagPosition: 'bodyClose'`"}
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// propDeleteSpan is the span that deleting property p of object obj
// removes: p with the comma and space after it (before it, for the last
// property), so that the rest keeps its layout.
func propDeleteSpan(obj, p *ast.JSNode) ast.Span {
	for i, q := range obj.List {
		if q != p {
			continue
		}
		if i+1 < len(obj.List) {
			return ast.Span{Start: p.Loc.Start, End: obj.List[i+1].Loc.Start}
		}
		if i > 0 {
			return ast.Span{Start: obj.List[i-1].Loc.End, End: p.Loc.End}
		}
	}
	return p.Loc
}
