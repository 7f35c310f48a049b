package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleOtherLayoutOption = &Rule{
	Code:     "FW302",
	Name:     "other-layout-option",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "an option the reference documents only for the other layout",
		Why: `The reference documents a few options for one layout only: generate
("Layout B only") and typescript.nodeTsConfig, sharedTsConfig and the other
per-context type configurations ("Layout A only"). Layout A is the version-4
layout (its srcDir '.' is the compatibility mode, reference Versioning 1) and
layout B the version-3 one, so what counts is the target version: checking for
version 4, layout-B-only options are reported; checking for version 3
(--to=3), layout-A-only ones. The framework does not reject them: it ignores
them silently. Options that a version rule moves (generate.routes: FW201,
generate.exclude: FW202) are left to that rule; generate itself is reported
when it holds anything else.`,
		Example: `export default defineFwConfig({
  generate: { fallback: true },
})`,
		Fix: `Deletes the option when it is an empty object (safe: nothing is lost).
Otherwise none: the keys inside need a decision.`,
	},
	Run: runOtherLayoutOption,
}

func init() { Register(ruleOtherLayoutOption) }

func runOtherLayoutOption(pass *Pass) {
	other, layout, version := compat.LayoutBOnly, "B", 4
	if pass.Target < 4 {
		other, layout, version = compat.LayoutAOnly, "A", 3
	}
	schemaWalk(pass, func(w *walked) bool {
		rest, path, prop := w.Rest, w.Path, w.Prop
		o := compat.Find(w.Option)
		if o == nil {
			return false
		}
		if o.Status != other {
			return !o.Open
		}
		obj, isObj := ast.Unwrap(prop.Value).(*ast.Object)
		if !isObj && o.Replacement != "" {
			return false // a version rule moves it
		}
		if isObj && len(obj.Props) > 0 && onlyMovedKeys(rest, obj) {
			return false // the version rules move everything it holds
		}
		d := pass.ReportProperty(prop, path, "`%s` is documented for layout %s only: under version %d it is not an option", rest, layout, version)
		if o.Reason != "" {
			d.Notes = append(d.Notes, o.Reason)
		}
		if o.Replacement != "" {
			d.Notes = append(d.Notes, fmt.Sprintf("the replacement is `%s`", o.Replacement))
		}
		if isObj && len(obj.Props) == 0 {
			d.Fix = &Fix{
				Description:   fmt.Sprintf("delete the empty `%s`", path),
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
			}
		}
		return false
	})
}

// onlyMovedKeys reports whether every key of obj is an option that has a
// replacement (one a version rule moves), with no spread or computed key.
func onlyMovedKeys(parent ast.Path, obj *ast.Object) bool {
	for _, pr := range obj.Props {
		if pr.Kind == ast.PropSpread || pr.KeyKind == ast.KeyComputed {
			return false
		}
		o := compat.Find(join(parent, pr.Key).String())
		if o == nil || o.Replacement == "" {
			return false
		}
	}
	return true
}
