package rules

import (
	"reflect"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Helpers shared by the version rules (FW2xx) and, for layerSources, by the
// runtimeConfig rules.

// projectCompat returns the compatibility version the project runs with
// (3, 4 or 5), 0 when it cannot be known before the config runs. It is
// computed from the config being checked, not taken from the Detection, so
// that it follows a config that fwmigrate apply has just rewritten.
func projectCompat(pass *Pass) int {
	v, st := pass.Config.Value("future.compatibilityVersion")
	c, _ := compat.EffectiveCompat(pass.Project.Framework, v, st)
	return c
}

// targetCompat returns the compatibility version the project's code runs
// under once migrated to pass.Target: the project's own when it is higher
// (framework major 4 with future.compatibilityVersion: 5 runs under 5).
func targetCompat(pass *Pass) int {
	return max(pass.Target, projectCompat(pass))
}

// isPathFlip reports whether a flipped default is a directory (srcDir,
// serverDir, dir.*): the layout rules (FW1xx) own those, since what changes
// depends on the tree on disk, not on the option alone.
func isPathFlip(f compat.Flip) bool {
	return f.Path == "srcDir" || f.Path == "serverDir" || strings.HasPrefix(f.Path, "dir.")
}

// removedOptions and flippedDefaults are compat.Removed() and
// compat.Flips(), taken once: both copy their table on every call, and the
// rules read them for every project. Read-only.
var (
	removedOptions   = sync.OnceValue(compat.Removed)
	flippedDefaults  = sync.OnceValue(compat.Flips)
	flippedDefaults5 = sync.OnceValue(func() []compat.Flip { return compat.FlipsTo(5) })
)

// removedPath reports whether path is one of compat.Removed's options.
func removedPath(path string) bool {
	for _, r := range removedOptions() {
		if r.Path == path {
			return true
		}
	}
	return false
}

// layerSources says what besides this config can set options: "extends"
// when the config extends other configs, "layers/" when local layers are
// auto-registered; "" when neither. Values set there are merged under the
// project's own, so deleting a project value can let a layer's show through.
func layerSources(pass *Pass) string {
	var what []string
	if p := pass.Lookup("extends"); p != nil {
		if v, ok := ast.StaticValue(p); !ok || !emptyValue(v) {
			what = append(what, "`extends`")
		}
	}
	if dirs, err := pass.Project.LayerDirs(); err != nil || len(dirs) > 0 {
		what = append(what, "layers/")
	}
	return strings.Join(what, " and ")
}

// emptyValue reports whether a static value is nil, an empty string, [] or {}.
func emptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// sameValue compares a static config value with a knowledge-base default.
func sameValue(v, def any) bool {
	return reflect.DeepEqual(v, def)
}

// nearestProp returns the deepest property that exists on the way to the
// option at path (the option itself when set), or nil: where a diagnostic
// about an unset option reads best.
func nearestProp(pass *Pass, path string) *ast.Property {
	segs := ast.ParsePath(path)
	for i := len(segs); i > 0; i-- {
		if p := pass.Lookup(ast.Path(segs[:i]).String()); p != nil {
			return p
		}
	}
	return nil
}

// isAccessor reports whether a property is a method, getter or setter: it
// has no value node to move or compare.
func isAccessor(p *ast.Property) bool {
	return p.Kind == ast.PropMethod || p.Kind == ast.PropGetter || p.Kind == ast.PropSetter
}

// mergeConflict returns the first key path (relative to the objects) where
// moving src into dst would meet a different value, "" when the move merges
// cleanly: objects merge key by key, arrays concatenate, equal static values
// are dropped. It mirrors what rewrite's OpMove accepts, so that a rule
// offers a move only when it can be made. A spread or computed key in either
// object is a conflict ("...").
func mergeConflict(src, dst *ast.Object) string {
	if src.HasSpread() || dst.HasSpread() || src.HasComputedKey() || dst.HasComputedKey() {
		return "..."
	}
	for _, sp := range src.Props {
		tp := dst.Get(sp.Key)
		if tp == nil {
			continue
		}
		if sp.Value == nil || tp.Value == nil {
			return sp.Key
		}
		so, sok := ast.Unwrap(sp.Value).(*ast.Object)
		to, tok := ast.Unwrap(tp.Value).(*ast.Object)
		if sok && tok {
			if c := mergeConflict(so, to); c != "" {
				return sp.Key + "." + c
			}
			continue
		}
		_, sa := ast.Unwrap(sp.Value).(*ast.Array)
		_, ta := ast.Unwrap(tp.Value).(*ast.Array)
		if sa && ta {
			continue
		}
		a, ok1 := ast.StaticValue(sp)
		b, ok2 := ast.StaticValue(tp)
		if !ok1 || !ok2 || !reflect.DeepEqual(a, b) {
			return sp.Key
		}
	}
	return ""
}

// flipSet reports whether the config sets the option, at the top level or
// in an environment override: its value is then the author's.
func flipSet(pass *Pass, path string) bool {
	if _, st := pass.Config.Value(path); st != compat.Absent {
		return true
	}
	set := false
	pass.Index.optionProps(path, func(ast.Path, ast.Path, *ast.Property) { set = true })
	return set
}
