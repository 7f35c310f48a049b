package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleInvalidEnum = &Rule{
	Code:     "FW304",
	Name:     "invalid-enum",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a value that is not one of the values an option accepts",
		Why: `Options such as logLevel, experimental.emitRouteChunkError,
experimental.watcher, typescript.typeCheck, typescript.builder,
features.devLogs, features.noScripts, sourcemap,
experimental.spaLoadingTemplateLocation and router.options.scrollBehaviorType
accept a fixed set of values. The framework does not reject another one: it
keeps it (logLevel warns) and behaves as for none of the
documented values. The accepted values come from the knowledge base's types; a
value of another kind altogether is FW303's, and future.compatibilityVersion is
FW206's.`,
		Example: `export default defineFwConfig({
  logLevel: 'debug',
  experimental: { watcher: 'watcherb' },
})`,
		Fix: `When a value differs from an accepted one only in letter case, replaces it
(safe: what was evidently meant). When it is a likely typo of one, replaces it
too, but unsafe: the guess should be reviewed.`,
	},
	Run: runInvalidEnum,
}

func init() { Register(ruleInvalidEnum) }

func runInvalidEnum(pass *Pass) {
	typeProblems(pass, func(tp typeProblem) {
		if !tp.enum {
			return
		}
		name := tp.path[len(tp.prefix):].String() + tp.where
		d := pass.Report(tp.node.Span(), tp.path.String(), "`%s` is %s, which the framework does not recognise: it accepts %s", name, quote(tp.value), acceptedWords(tp.typ))
		s, ok := tp.value.(string)
		if !ok {
			return
		}
		lits := stringLiterals(tp.typ)
		meant := ""
		for _, l := range lits {
			if strings.EqualFold(l, s) {
				meant = l
			}
		}
		app := Safe
		if meant == "" {
			meant, app = compat.SuggestWord(s, lits), Unsafe
		}
		if meant == "" {
			return
		}
		d.Message += "; did you mean '" + meant + "'?"
		lit, isLit := ast.Unwrap(tp.node).(*ast.String)
		if !isLit {
			return
		}
		text := string(pass.File.Src[lit.Loc.Start]) + meant + string(pass.File.Src[lit.Loc.End-1])
		d.Fix = &Fix{
			Description:   "replace '" + s + "' with '" + meant + "'",
			Applicability: app,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Path: tp.path, Span: lit.Loc, Text: text}},
		}
	})
}

// acceptedWords lists what a type accepts: its literals quoted, its other
// alternatives by kind ("a boolean").
func acceptedWords(t compat.Type) string {
	alts := []compat.Type{t}
	if t.Kind == compat.KindUnion {
		alts = t.Alts
	}
	var parts []string
	for _, a := range alts {
		if a.Kind == compat.KindLiteral {
			parts = append(parts, quote(a.Lit))
		} else {
			parts = append(parts, "any "+humanType(a))
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
