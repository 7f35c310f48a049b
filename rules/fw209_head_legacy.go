package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleHeadLegacy = &Rule{
	Code:     "FW209",
	Name:     "head-legacy",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "head entries using keys that head manager v2 removed, and `headmgr.legacy` where it is ignored",
		Why: `Version 4 ships head manager v2, which removed the hid, vmid, children and
body keys of head entries: in app.head they are dropped
silently, so entries meant to be deduplicated by hid appear twice, children
content disappears and body scripts move to <head>. headmgr.legacy: true brings
them back on compatibility version 4 (and also turns off sorting by priority),
but it is ignored, with a warning (B5013), from compatibility version 5.`,
		Example: `export default defineFwConfig({
  app: { head: { meta: [{ hid: 'description', name: 'description', content: 'Docs' }] } },
})`,
		Fix: `For headmgr.legacy under compatibility version 5: deletes it. Safe: it is
ignored there.
In the config's app.head: deletes hid or vmid when the same entry's name or
property has the same value. Safe: the key only named the entry for
deduplication, and head manager v2 deduplicates meta entries by name and
property itself, so the same entries are replaced as before. Renames children
to innerHTML when the entry has no innerHTML. Safe: head manager v1 wrote
children as the tag's raw inner content, which is what v2 calls innerHTML.
Other hid and vmid values (v2 names no key that replaces them)
and body have no fix: rewrite them for head manager v2, or set
headmgr.legacy: true while on compatibility version 4.`,
	},
	Run: runHeadLegacy,
}

func init() { Register(ruleHeadLegacy) }

// headLegacyKeys are the entry keys head manager v2 removed.
var headLegacyKeys = []string{"hid", "vmid", "children", "body"}

func runHeadLegacy(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	cv := projectCompat(pass)
	legacy := false
	pass.OptionProps("headmgr.legacy", func(prefix, path ast.Path, prop *ast.Property) {
		v, ok := ast.StaticValue(prop)
		if !ok || v != true {
			return
		}
		if len(prefix) == 0 {
			legacy = true
		}
		if cv < 5 {
			return
		}
		d := pass.ReportValue(prop, path, "`headmgr.legacy: true` is ignored with compatibility version 5: `hid`, `vmid`, `children` and `body` are not supported there")
		if prop.KeyKind != ast.KeyComputed {
			d.Fix = &Fix{Description: "delete `" + path.String() + "`", Applicability: Safe,
				Ops: []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}}}
		}
	})
	if legacy && cv < 5 {
		return // the legacy keys keep working on compatibility 4
	}
	pass.OptionProps("app.head", func(_, path ast.Path, prop *ast.Property) {
		head, ok := ast.Unwrap(prop.Value).(*ast.Object)
		if !ok {
			return
		}
		for _, list := range head.Props {
			arr, ok := ast.Unwrap(list.Value).(*ast.Array)
			if !ok || list.KeyKind == ast.KeyComputed {
				continue
			}
			for i, el := range arr.Elements {
				entry, ok := ast.Unwrap(el).(*ast.Object)
				if !ok {
					continue
				}
				for _, key := range headLegacyKeys {
					kp := entry.Get(key)
					if kp == nil {
						continue
					}
					at := fmt.Sprintf("app.head.%s[%d].%s", list.Key, i, key)
					d := pass.ReportProperty(kp, join(path, list.Key), "`%s` is not supported by head manager v2 in version 4: the key is dropped", at)
					d.Notes = append(d.Notes, "head manager v2 removed hid, vmid, children and body; `headmgr.legacy: true` brings them back on compatibility version 4, not from 5")
					d.Fix = headLegacyFix(pass, entry, kp, fmt.Sprintf("app.head.%s[%d]", list.Key, i))
				}
			}
		}
	})
}

// headLegacyFix is the fix for the legacy key kp of a head entry (at names
// the entry): hid or vmid deleted when they repeat the entry's name or
// property, children renamed to innerHTML; nil when there is none.
func headLegacyFix(pass *Pass, entry *ast.Object, kp *ast.Property, at string) *Fix {
	if kp.KeyKind == ast.KeyComputed || kp.Kind != ast.PropInit {
		return nil
	}
	switch kp.Key {
	case "hid", "vmid":
		v, ok := ast.StaticValue(kp)
		if _, isString := v.(string); !ok || !isString {
			return nil
		}
		for _, by := range []string{"name", "property"} {
			if w, ok := ast.StaticValue(entry.Get(by)); ok && sameValue(w, v) {
				span, ok := deletionKeepingComments(pass.File, kp)
				if !ok {
					return nil
				}
				return &Fix{
					Description:   fmt.Sprintf("delete `%s` from %s: it repeats `%s`, by which head manager v2 deduplicates the entry itself", kp.Key, at, by),
					Applicability: Safe,
					Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: span, Text: ""}},
				}
			}
		}
	case "children":
		if entry.Get("innerHTML") != nil {
			return nil
		}
		return &Fix{
			Description:   fmt.Sprintf("rename `children` to `innerHTML` in %s: head manager v1 wrote children as the raw inner content, v2 calls it innerHTML", at),
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: kp.KeySpan, Text: "innerHTML"}},
		}
	}
	return nil
}

// deletionKeepingComments is the span that deletes property p with its comma
// and trailing comment but keeps the comments on the lines before it, which
// may be about its object rather than about p (ast.Property.Extent takes
// them). ok is false when p shares its line with what comes before it and
// has such comments: it cannot go alone.
func deletionKeepingComments(f *ast.File, p *ast.Property) (ast.Span, bool) {
	ext := p.Extent(f)
	if len(p.Leading) == 0 {
		return ext, true
	}
	ls := f.LineStart(p.Loc.Start)
	if ls <= ext.Start || strings.TrimSpace(string(f.Src[ls:p.Loc.Start])) != "" {
		return ast.Span{}, false
	}
	return ast.Span{Start: ls, End: ext.End}, true
}
