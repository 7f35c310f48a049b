package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleUnknownHook = &Rule{
	Code:     "FW317",
	Name:     "unknown-hook",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a hooks listener for a mistyped hook, or for a hook that never runs at build time",
		Why: `The hooks option registers build-time listeners, by name ('build:done')
or as a nested object ({build: {done: fn}}). A name the framework never calls
is silently ignored. Two cases are certain: a likely typo of a known hook
('buld:done'), and a known hook that runs only in the app (fwApp.hook in a
plugin: app:mounted) or only in the server engine at run time (render:html),
which the config's hooks never receive. Modules add hooks of their own
(content:file:beforeParse, scripts:registry in real configs), so any other
unknown name is not reported; product-prefixed names that real configs keep
(vite:extendConfig, webpack:config, nitro:config) are the known bundler and
engine hooks.`,
		Example: `export default defineFwConfig({
  hooks: {
    'buld:done': () => {},
    'app:mounted': () => {},
  },
})`,
		Fix: `For a typo, renames the key to the hook meant ('buld:done' to
'build:done'; in the nested form, the last key when the others match). Unsafe:
the listener starts to run.`,
	},
	Run: runUnknownHook,
}

func init() { Register(ruleUnknownHook) }

func runUnknownHook(pass *Pass) {
	pass.OptionProps("hooks", func(prefix, path ast.Path, prop *ast.Property) {
		obj, ok := ast.Unwrap(prop.Value).(*ast.Object)
		if !ok {
			return
		}
		hookListeners(obj, nil, func(segs []string, pr *ast.Property) {
			checkHook(pass, join(path, segs...), segs, pr)
		})
	})
}

// hookListeners calls fn for each listener of a hooks object, with the key
// path naming its hook (one segment for 'build:done', two for the nested
// form {build: {done: fn}}). Spreads and computed keys are skipped.
func hookListeners(obj *ast.Object, segs []string, fn func(segs []string, pr *ast.Property)) {
	for _, pr := range obj.Props {
		if pr.Kind == ast.PropSpread || pr.KeyKind == ast.KeyComputed {
			continue
		}
		s := append(segs[:len(segs):len(segs)], pr.Key)
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok && pr.Kind == ast.PropInit {
			hookListeners(child, s, fn)
			continue
		}
		fn(s, pr)
	}
}

func checkHook(pass *Pass, path ast.Path, segs []string, pr *ast.Property) {
	name := compat.HookName(segs)
	if h := compat.FindHook(name); h != nil {
		if h.Kind&compat.BuildHook != 0 {
			return
		}
		where, how := "in the app", "register it with fwApp.hook in a plugin"
		if h.Kind&compat.AppHook == 0 {
			where, how = "in the server engine", "register it in a server plugin"
		}
		d := pass.ReportProperty(pr, path, "hook '%s' runs %s, not at build time: the config's hooks never receive it", name, where)
		d.Notes = append(d.Notes, how)
		return
	}
	meant := compat.SuggestHook(name)
	if meant == "" {
		meant = compat.Transposed(name, compat.Hooks())
	}
	if meant == "" {
		return // a module's hook, most likely
	}
	d := pass.ReportProperty(pr, path, "'%s' is not a framework hook: the listener never runs; did you mean '%s'?", name, meant)
	// The key to rename to: the whole name in the flat form; in the nested
	// form, the last segment when the others already match.
	key := meant
	if len(segs) > 1 {
		want := strings.Split(meant, ":")
		if len(want) != len(segs) || strings.Join(want[:len(want)-1], ":") != strings.Join(segs[:len(segs)-1], ":") {
			return
		}
		key = want[len(want)-1]
	}
	to := join(path[:len(path)-1], key)
	if parent := pr.Parent; parent != nil && parent.Get(key) != nil {
		d.Notes = append(d.Notes, "'"+meant+"' has a listener already: merge them by hand")
		return
	}
	d.Fix = &Fix{
		Description:   "rename the listener to '" + meant + "': it starts to run",
		Applicability: Unsafe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpRename, Path: path, To: to}},
	}
}
