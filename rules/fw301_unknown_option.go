package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleUnknownOption = &Rule{
	Code:     "FW301",
	Name:     "unknown-option",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a key that is not an option of the framework's own objects, or a likely typo of a top-level option",
		Why: `The framework does not reject unknown keys: config resolution passes
them through and nothing reads them, so a mistyped or
misplaced option is silently ignored. Inside the framework's own objects (app,
dir, experimental, features, future, devServer, router, typescript, ...) every
key is known, so an unknown one is a mistake: warning. Modules add top-level keys
of their own (i18n, image, content, colorMode, even ui), so an unknown top-level
key is reported only when it is a likely typo of a known one (warning), or, at
info, when the knowledge base knows an option of that name one level down (head:
app.head). Other unknown top-level keys are not reported: in real configs they are
module options (48 different keys in 40 open-source configs, about three per
config), and an info on each
would bury the findings that matter. Keys under open objects (runtimeConfig,
hooks, routeRules, bundlerA, engine, ...) are never reported; neither are
$production, $development, $test, $env, $meta and $schema.`,
		Example: `export default defineFwConfig({
  srr: false,
  experimental: { typescriptBundlerResolution: true },
})`,
		Fix: `When the knowledge base names the option that was meant and it is not
already set, renames (a typo) or moves (a misplaced option) the key. Unsafe: the
option starts to take effect.`,
	},
	Run: runUnknownOption,
}

func init() { Register(ruleUnknownOption) }

func runUnknownOption(pass *Pass) {
	schemaWalk(pass, func(w *walked) bool {
		prefix, rest, path, prop := w.Prefix, w.Rest, w.Path, w.Prop
		name := w.Option
		if o := compat.Find(name); o != nil {
			return !o.Open
		}
		if compat.Known(name) {
			return false
		}
		parent := rest[:len(rest)-1].String()
		key := rest[len(rest)-1]
		meant := compat.Suggest(name)
		if len(rest) == 1 {
			if meant == "" {
				meant = compat.Transposed(key, compat.Siblings(""))
			}
			reportUnknownTop(pass, prefix, path, prop, key, meant)
			return false
		}
		if !compat.IsFrameworkObject(parent) || len(compat.Siblings(parent)) == 0 {
			// An object of unknown content (a module's, or one whose
			// keys the knowledge base does not list): nothing to judge by.
			return false
		}
		d := pass.ReportProperty(prop, path, "`%s` is not an option of `%s`: the framework ignores it", name, parent)
		if meant == "" {
			if s := compat.Transposed(key, compat.Siblings(parent)); s != "" {
				meant = parent + "." + s
			}
		}
		switch {
		case meant != "":
			d.Message += "; did you mean `" + meant + "`?"
			unknownOptionFix(pass, d, prefix, path, meant)
		default:
			// A looser guess: named, but not worth a fix.
			if s := compat.SuggestWord(key, compat.Siblings(parent)); s != "" {
				d.Message += "; did you mean `" + parent + "." + s + "`?"
			}
		}
		return false
	})
}

// reportUnknownTop judges an unknown top-level key: a warning when it is a
// typo of a top-level option, an info when the knowledge base knows an
// option of that name in one of the framework's objects, else nothing (a
// module's options).
func reportUnknownTop(pass *Pass, prefix, path ast.Path, prop *ast.Property, key, meant string) {
	if meant == "" {
		return
	}
	if !strings.Contains(meant, ".") {
		d := pass.ReportProperty(prop, path, "`%s` is not an option: the framework ignores it; did you mean `%s`?", key, meant)
		unknownOptionFix(pass, d, prefix, path, meant)
		return
	}
	d := pass.ReportProperty(prop, path, "`%s` is not a top-level option: the framework ignores it unless a module reads it; did you mean `%s`?", key, meant)
	d.Severity = Info
	unknownOptionFix(pass, d, prefix, path, meant)
}

// unknownOptionFix renames or moves the key to the option meant (in the
// same override block) when nothing is set there yet.
func unknownOptionFix(pass *Pass, d *Diagnostic, prefix, path ast.Path, meant string) {
	to := join(prefix, ast.ParsePath(meant)...)
	if _, st := pass.Config.Value(to.String()); st != compat.Absent {
		d.Notes = append(d.Notes, "`"+to.String()+"` is set too (or may be): merge them by hand")
		return
	}
	kind, verb := rewrite.OpMove, "move"
	if len(to) == len(path) && to[:len(to)-1].String() == path[:len(path)-1].String() {
		kind, verb = rewrite.OpRename, "rename"
	}
	d.Fix = &Fix{
		Description:   verb + " `" + path.String() + "` to `" + to.String() + "`: the option starts to take effect",
		Applicability: Unsafe,
		Ops:           []rewrite.Op{{Kind: kind, Path: path, To: to}},
	}
}
