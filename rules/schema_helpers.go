package rules

import (
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules/internal/node"
)

// Helpers shared by the schema rules (FW3xx).

// schemaWalk calls fn for every property of the config whose key is known
// (no spread, no computed key), with the environment override it is written
// in (prefix) and its option path proper (rest). It descends through the
// override blocks ($production, $development, $test, $env.<name>) by itself;
// below them, fn's result decides whether the property's object value is
// descended into.
func schemaWalk(pass *Pass, fn func(w *walked) bool) {
	pass.walkCached(func(w *walked) bool {
		if w.Prop.Kind == ast.PropSpread || w.Prop.KeyKind == ast.KeyComputed {
			return false
		}
		if len(w.Rest) == 0 || len(w.Path) == 1 && w.Path[0] == "$env" {
			return true
		}
		return fn(w)
	})
}

// envBlocks returns the environment overrides the config has: the paths
// $production, $development, $test and $env.<name> that are set. dynamic
// reports that something the parser cannot see may add one ($env not an
// object literal, a spread at the top level or in $env).
func envBlocks(pass *Pass) (blocks []ast.Path, dynamic bool) {
	f := pass.File
	if f == nil || f.Config == nil {
		return nil, true
	}
	if f.Config.HasSpread() || f.Config.HasComputedKey() {
		dynamic = true
	}
	for _, pr := range f.Config.Props {
		if pr.Kind == ast.PropSpread || pr.KeyKind == ast.KeyComputed {
			continue
		}
		switch {
		case compat.IsEnvOverride(pr.Key):
			blocks = append(blocks, ast.Path{pr.Key})
		case pr.Key == "$env":
			obj, ok := ast.Unwrap(pr.Value).(*ast.Object)
			if !ok {
				dynamic = true
				continue
			}
			if obj.HasSpread() || obj.HasComputedKey() {
				dynamic = true
			}
			for _, e := range obj.Props {
				if e.Kind != ast.PropSpread && e.KeyKind != ast.KeyComputed {
					blocks = append(blocks, ast.Path{"$env", e.Key})
				}
			}
		}
	}
	return blocks, dynamic
}

// envVal is the value an option has in one environment.
type envVal struct {
	// block is the override block the value comes from ($production,
	// $env.staging), empty for the top-level value.
	block ast.Path
	v     any
	st    compat.ValueState
}

// envValues returns the values option takes in the environments where an
// occurrence of the option self, written under prefix, applies. Inside an
// override block, that is one value: the block's own, else the top-level
// one. At the top level, it is the top-level value (unless $production,
// $development and $test all override it, so that it never applies) plus
// the value of each override block that sets option without overriding
// self too (where self is overridden, the top-level occurrence does not
// apply). When something the parser cannot see could add an override
// block, the result is one Dynamic value.
func envValues(pass *Pass, prefix ast.Path, self, option string) []envVal {
	if len(prefix) > 0 {
		v, st := pass.Config.Value(join(prefix, ast.ParsePath(option)...).String())
		if st != compat.Absent {
			return []envVal{{block: prefix, v: v, st: st}}
		}
		v, st = pass.Config.Value(option)
		return []envVal{{v: v, st: st}}
	}
	blocks, dynamic := envBlocks(pass)
	if dynamic {
		return []envVal{{st: compat.Dynamic}}
	}
	var out []envVal
	modes := 0
	for _, b := range blocks {
		if _, st := pass.Config.Value(join(b, ast.ParsePath(self)...).String()); st != compat.Absent {
			continue
		}
		v, st := pass.Config.Value(join(b, ast.ParsePath(option)...).String())
		if st == compat.Absent {
			continue
		}
		if compat.IsEnvOverride(b[0]) {
			modes++
		}
		out = append(out, envVal{block: b, v: v, st: st})
	}
	if modes < len(compat.EnvOverrides) {
		v, st := pass.Config.Value(option)
		out = append([]envVal{{v: v, st: st}}, out...)
	}
	return out
}

// where names the environment of an envVal for a note: "in `$production`".
func (e envVal) where() string {
	if len(e.block) == 0 {
		return "at the top level"
	}
	return "in `" + e.block.String() + "`"
}

// typeProblem is a static value that does not fit its option's type.
type typeProblem struct {
	prefix, path ast.Path // the occurrence's override prefix and full path
	prop         *ast.Property
	opt          *compat.Option
	node         ast.Node    // the offending node: the value, or an element or field inside it
	where        string      // where node lies inside the value: "", "[2]", ".method", "[0].mode"
	typ          compat.Type // the type node must fit
	value        any         // node's static value
	// enum reports that the value has the kind of one of the type's
	// literals (a string where the type lists strings) but is none of
	// them: an invalid enum value (FW304) rather than a wrong type (FW303).
	enum bool
}

// typeSkip are options whose value another rule judges better than a type
// check: the compatibility version (FW206) and the CDN URL, whose only
// failure mode for a string is not being absolute (FW307).
var typeSkip = map[string]bool{
	"future.compatibilityVersion": true,
	"app.cdnURL":                  true,
	"runtimeConfig.app.cdnURL":    true,
}

// typeProblems calls fn for every option value of the config that is known
// not to fit the option's type. Options that are removed or have no effect
// are left to the version rules, which delete them; null values are left
// alone, since the framework's resolvers treat a null like an unset option.
func typeProblems(pass *Pass, fn func(tp typeProblem)) {
	schemaWalk(pass, func(w *walked) bool {
		prefix, path, prop := w.Prefix, w.Path, w.Prop
		o := compat.Find(w.Option)
		if o == nil {
			return false
		}
		// Known keys are checked even under open objects (router.options,
		// runtimeConfig): open only means other keys are allowed.
		descend := len(compat.Siblings(o.Path)) > 0
		if prop.Value == nil || o.Status.Removed() || o.Status == compat.NoEffect || typeSkip[o.Path] {
			return descend
		}
		if _, isObj := ast.Unwrap(prop.Value).(*ast.Object); descend && isObj {
			// The keys are options of their own, checked when visited:
			// here only that an object is allowed at all.
			if !o.Type.Check(map[string]any{}) {
				fn(typeProblem{prefix: prefix, path: path, prop: prop, opt: o, node: prop.Value, typ: o.Type, value: map[string]any{}})
				return false
			}
			return true
		}
		v := node.PartialValue(prop.Value)
		if v == nil || o.Type.Check(v) {
			return descend
		}
		at, where, t := narrow(o.Type, prop.Value, "")
		nv := node.PartialValue(at)
		if nv == nil {
			return false
		}
		fn(typeProblem{prefix: prefix, path: path, prop: prop, opt: o, node: at, where: where, typ: t, value: nv, enum: isEnumMiss(t, nv)})
		return false
	})
}

// narrow finds the part of value n that makes it fail type t: an array
// element or an object field when t allows one array or one object shape,
// recursively; else n itself.
func narrow(t compat.Type, n ast.Node, where string) (ast.Node, string, compat.Type) {
	alts := []compat.Type{t}
	if t.Kind == compat.KindUnion {
		alts = t.Alts
	}
	switch u := ast.Unwrap(n).(type) {
	case *ast.Array:
		var arr []compat.Type
		for _, a := range alts {
			if a.Kind == compat.KindArray {
				arr = append(arr, a)
			}
		}
		if len(arr) != 1 || arr[0].Elem == nil {
			break
		}
		elem := *arr[0].Elem
		k := 0
		for i, e := range u.Elements {
			if u.IsSpread(i) {
				continue
			}
			k++
			if e == nil {
				continue
			}
			if v := node.PartialValue(e); v != nil && !elem.Check(v) {
				return narrow(elem, e, where+"["+strconv.Itoa(k-1)+"]")
			}
		}
	case *ast.Object:
		var shapes []compat.Type
		for _, a := range alts {
			if a.Kind == compat.KindShape || a.Kind == compat.KindRecord {
				shapes = append(shapes, a)
			}
		}
		if len(shapes) != 1 || u.HasSpread() || u.HasComputedKey() {
			break
		}
		s := shapes[0]
		for _, pr := range u.Props {
			if pr.Kind != ast.PropInit {
				continue
			}
			var ft compat.Type
			found := false
			if s.Kind == compat.KindRecord && s.Elem != nil {
				ft, found = *s.Elem, true
			}
			for _, f := range s.Fields {
				if f.Name == pr.Key {
					ft, found = f.Type, true
				}
			}
			if !found {
				continue
			}
			if v := node.PartialValue(pr.Value); v != nil && !ft.Check(v) {
				return narrow(ft, pr.Value, where+"."+pr.Key)
			}
		}
	}
	return n, where, t
}

// isEnumMiss reports whether v fails t only as an enum value: no
// alternative of t other than literals accepts v's kind, and a literal of
// the same Go type exists.
func isEnumMiss(t compat.Type, v any) bool {
	lits := t.Literals()
	if len(lits) == 0 {
		return false
	}
	for _, l := range lits {
		if sameKind(l, v) {
			return true
		}
	}
	return false
}

// sameKind reports whether a and b are both strings, both numbers or both
// booleans.
func sameKind(a, b any) bool {
	switch a.(type) {
	case string:
		_, ok := b.(string)
		return ok
	case float64:
		_, ok := b.(float64)
		return ok
	case bool:
		_, ok := b.(bool)
		return ok
	}
	return false
}

// stringLiterals returns the string literals a type lists.
func stringLiterals(t compat.Type) []string {
	var out []string
	for _, l := range t.Literals() {
		if s, ok := l.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// humanType renders a type for people: the knowledge base's string kinds
// (path, glob, url, date) are strings to the user.
func humanType(t compat.Type) string {
	switch t.Kind {
	case compat.KindPath, compat.KindGlob, compat.KindURL, compat.KindDate:
		return "string"
	case compat.KindArray:
		if t.Elem == nil {
			return "array"
		}
		return "array<" + humanType(*t.Elem) + ">"
	case compat.KindRecord:
		if t.Elem == nil {
			return "object"
		}
		return "record<" + humanType(*t.Elem) + ">"
	case compat.KindUnion:
		var parts []string
		seen := map[string]bool{}
		for _, a := range t.Alts {
			if h := humanType(a); !seen[h] {
				seen[h] = true
				parts = append(parts, h)
			}
		}
		return strings.Join(parts, " | ")
	case compat.KindShape:
		var parts []string
		for _, f := range t.Fields {
			parts = append(parts, f.Name+": "+humanType(f.Type))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return t.String()
}
