package rules

import (
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleEngineDeprecated = &Rule{
	Code:     "FW210",
	Name:     "engine-deprecated-option",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "an `engine` option that recent 4.x deprecates in favour of a top-level one",
		Why: `Recent 4.x moves these options out of the engine's object:
engine.routeRules to routeRules, engine.prerender.routes, .ignore and
.crawlLinks to prerender.*, engine.tracingChannel to tracingChannel, and
engine.typescript.tsConfig to typescript.serverTsConfig (which extends the
generated .fw/tsconfig.server.json that the root tsconfig.json references).
They still work: engine.routeRules and engine.prerender are merged over the
top-level values. An info, not a warning. engine.runtimeConfig, whose values
are lost, is FW207's.
routeRules exists on every major, so engine.routeRules is reported whatever
the project runs. The other replacements exist only on framework major 4 (the
top-level prerender and tracingChannel only on the recent 4.x releases that
deprecate the engine's), so they are reported only when package.json (or
--framework) says major 4: before that, the move cannot be made.`,
		Example: `export default defineFwConfig({
  engine: {
    routeRules: { '/api/**': { cors: true } },
    prerender: { routes: ['/'], crawlLinks: true },
  },
})`,
		Fix: `Moves the option to its replacement, merging into an existing object
(when no key is set in both with different values) or appending to an existing
list of routes or ignore patterns (whose order does not matter). No fix when the option is set in more than
one place (the top level and an environment override): moving one would change
which wins.
engine.routeRules: safe. routeRules exists on every version, the engine's
rules are merged over the top-level ones, and with no route set differently in
both places (arrays in both count as set differently: their order could
change) the merged rules are the same.
The others: unsafe. Behaviour is kept only on a release that has the
top-level option, the recent 4.x that deprecates the engine's; on an earlier
4.x the moved value is ignored, and fwmigrate cannot tell the minor release
from package.json.`,
	},
	Run: runEngineDeprecated,
}

func init() { Register(ruleEngineDeprecated) }

// engineDeprecated are the deprecated engine options with a replacement,
// from the knowledge base; engine.runtimeConfig has FW207. Only the
// engine.* paths are looked up: compat makes an Option at its first lookup,
// and making all 400 (compat.Options) cost a check 5% of its CPU.
var engineDeprecated = sync.OnceValue(func() []*compat.Option {
	var out []*compat.Option
	for _, p := range compat.Paths() {
		if !strings.HasPrefix(p, "engine.") || p == "engine.runtimeConfig" {
			continue
		}
		if o := compat.Find(p); o.Status == compat.Deprecated && o.Replacement != "" {
			out = append(out, o)
		}
	}
	return out
})

func runEngineDeprecated(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	for _, o := range engineDeprecated() {
		repl := compat.Find(o.Replacement)
		everyMajor := repl != nil && repl.Layouts.Has(compat.LayoutB)
		if !everyMajor && pass.Project.Framework < 4 {
			continue
		}
		n := 0
		pass.OptionProps(o.Path, func(_, _ ast.Path, _ *ast.Property) { n++ })
		pass.OptionProps(o.Path, func(prefix, path ast.Path, prop *ast.Property) {
			reportEngineDeprecated(pass, o, everyMajor, n > 1, prefix, path, prop)
		})
	}
}

// reportEngineDeprecated reports one occurrence of o; several tells that
// the config sets it more than once (at the top level and in $production,
// say): moving one of them would change which wins, so none has a fix.
func reportEngineDeprecated(pass *Pass, o *compat.Option, everyMajor, several bool, prefix, path ast.Path, prop *ast.Property) {
	to := join(prefix, ast.ParsePath(o.Replacement)...)
	d := pass.ReportProperty(prop, path, "`%s` is deprecated in recent 4.x: it belongs in `%s`", o.Path, to)
	if strings.HasPrefix(o.Path, "engine.routeRules") || strings.HasPrefix(o.Path, "engine.prerender.") {
		d.Notes = append(d.Notes, "it still works: its value is merged over the top-level `"+o.Replacement+"`")
	}
	if o.Replacement == "typescript.serverTsConfig" {
		d.Notes = append(d.Notes, "`typescript.serverTsConfig` extends the generated `.fw/tsconfig.server.json`, which the root tsconfig.json references")
	}
	if prop.KeyKind == ast.KeyComputed || isAccessor(prop) {
		return
	}
	if several {
		d.Notes = append(d.Notes, "`"+o.Path+"` is set in more than one place (an environment override too): moving one would change which wins, so move them together by hand")
		return
	}
	if why := moveConflict(pass, prop, to); why != "" {
		d.Notes = append(d.Notes, why)
		return
	}
	fix := &Fix{
		Description:   "move `" + path.String() + "` to `" + to.String() + "`",
		Applicability: Safe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpMove, Path: path, To: to}},
	}
	if !everyMajor {
		fix.Applicability = Unsafe
		fix.Description += ": the top-level option exists from the recent 4.x that deprecates this one; an earlier 4.x ignores it"
	}
	d.Fix = fix
}

// moveConflict says why prop cannot be moved to the option at to without
// changing what the framework merges, "" when it can: nothing at to, two
// lists (prerender routes or ignore patterns, whose order does not matter),
// or two objects that merge key by key with no key set differently in both
// and no array in both (the merge could reorder it).
func moveConflict(pass *Pass, prop *ast.Property, to ast.Path) string {
	t := pass.Lookup(to.String())
	if t == nil {
		if _, st := pass.Config.Value(to.String()); st != compat.Absent {
			return "`" + to.String() + "` may be set at run time: move it by hand"
		}
		return ""
	}
	_, sa := ast.Unwrap(prop.Value).(*ast.Array)
	_, ta := ast.Unwrap(t.Value).(*ast.Array)
	if sa && ta {
		return "" // the move appends: the same routes (or patterns) either way
	}
	src, ok1 := ast.Unwrap(prop.Value).(*ast.Object)
	dst, ok2 := ast.Unwrap(t.Value).(*ast.Object)
	if !ok1 || !ok2 {
		return "`" + to.String() + "` is set too: merge them by hand (the engine's value wins today)"
	}
	c := mergeConflict(src, dst)
	if c == "" {
		c = arrayInBoth(src, dst)
	}
	switch c {
	case "":
		return ""
	case "...":
		return "a spread or computed key in one of the objects hides which keys both set: merge them by hand"
	}
	return "`" + c + "` is set in both: merge them by hand (the engine's value wins today)"
}

// arrayInBoth returns the first key path where both objects hold an array,
// "" when there is none.
func arrayInBoth(src, dst *ast.Object) string {
	for _, sp := range src.Props {
		tp := dst.Get(sp.Key)
		if tp == nil || sp.Value == nil || tp.Value == nil {
			continue
		}
		switch s := ast.Unwrap(sp.Value).(type) {
		case *ast.Array:
			if _, ok := ast.Unwrap(tp.Value).(*ast.Array); ok {
				return sp.Key
			}
		case *ast.Object:
			if t, ok := ast.Unwrap(tp.Value).(*ast.Object); ok {
				if c := arrayInBoth(s, t); c != "" {
					return sp.Key + "." + c
				}
			}
		}
	}
	return ""
}
