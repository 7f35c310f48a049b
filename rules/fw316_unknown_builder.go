package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleUnknownBuilder = &Rule{
	Code:     "FW316",
	Name:     "unknown-builder",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a builder or server.builder name that is a likely typo of a known one",
		Why: `builder takes the names 'bundlerA', 'bundlerB' and 'bundlerC' or its
default package, and server.builder its default package or the shorthands
recent 4.x accepts ('engine', 'bundlerA'); any other string is loaded as the
package of a custom builder. So a name is reported only when it is close to a
known one ('bundlera', 'bundlerD', '@fw/engine-sever'): it would be looked up
as a package that does not exist, and the build fails. Other strings are
custom builders and are not judged; neither are values only known at run time.
The names come from the knowledge base (the type's literals, the default, and
the shorthands its rule text quotes).`,
		Example: `export default defineFwConfig({
  builder: 'bundlera',
})`,
		Fix: `Replaces the name with the known one. Safe when they differ only in letter
case; unsafe otherwise (a guess).`,
	},
	Run: runUnknownBuilder,
}

func init() { Register(ruleUnknownBuilder) }

var quotedNameRE = lazyregexp.New(`'([A-Za-z][A-Za-z0-9@/_-]*)'`)

// builderNames returns the names the knowledge base knows for a builder
// option: its type's string literals, its default, and the names its rule
// text quotes ('engine').
func builderNames(o *compat.Option) []string {
	names := stringLiterals(o.Type)
	if def, ok := o.DefaultA.Value.(string); ok {
		names = append(names, def)
	}
	for _, m := range quotedNameRE().FindAllStringSubmatch(o.Rule, -1) {
		names = append(names, m[1])
	}
	return names
}

func runUnknownBuilder(pass *Pass) {
	for _, option := range []string{"builder", "server.builder"} {
		o := compat.Find(option)
		if o == nil || !pass.hasOption(option) {
			continue
		}
		names := builderNames(o)
		pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) {
			s, ok := ast.StaticString(prop.Value)
			if !ok {
				return
			}
			meant, app := "", Unsafe
			for _, n := range names {
				if n == s {
					return
				}
				if strings.EqualFold(n, s) {
					meant, app = n, Safe
				}
			}
			if meant == "" {
				if meant = compat.SuggestWord(s, names); meant == "" {
					meant = compat.Transposed(s, names)
				}
			}
			if meant == "" {
				return // a custom builder package
			}
			d := pass.ReportValue(prop, path, "`%s` is %s, which is not a builder name the framework knows, so it is loaded as a package of that name", option, quote(s))
			lit, isLit := ast.Unwrap(prop.Value).(*ast.String)
			if app == Unsafe {
				if all := compat.Ties(s, meant, names); len(all) > 1 {
					quoted := make([]string, len(all))
					for i, n := range all {
						quoted[i] = quote(n)
					}
					d.Message += "; did you mean one of " + strings.Join(quoted, ", ") + "?"
					return
				}
			}
			d.Message += "; did you mean " + quote(meant) + "?"
			if !isLit {
				return
			}
			q := string(pass.File.Src[lit.Loc.Start])
			d.Fix = &Fix{
				Description:   "replace " + quote(s) + " with " + quote(meant),
				Applicability: app,
				Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Path: path, Span: lit.Loc, Text: q + meant + q}},
			}
		})
	}
}
