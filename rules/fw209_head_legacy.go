package rules

import (
	"fmt"

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
ignored there. Head entries have no fix: rewrite them for head manager v2, or
set headmgr.legacy: true while on compatibility version 4.`,
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
	pass.optionProps("headmgr.legacy", func(prefix, path ast.Path, prop *ast.Property) {
		v, ok := staticValue(prop)
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
	pass.optionProps("app.head", func(_, path ast.Path, prop *ast.Property) {
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
				}
			}
		}
	})
}
