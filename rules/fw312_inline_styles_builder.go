package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleInlineStylesBuilder = &Rule{
	Code:     "FW312",
	Name:     "inline-styles-builder",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "features.inlineStyles with a builder other than the default bundler",
		Why: `The reference: features.inlineStyles inlines styles into the HTML with the
default bundler only. With builder set to another bundler ('bundlerB',
'bundlerC') or a custom builder (a package name or a {bundle} object), the
setting does nothing and the pages load their styles as before. false (inlining
off) is not reported. The builder is read in each environment the setting
applies to (see FW309); a builder name that is a likely typo of a known one is
FW316's, not this rule's.`,
		Example: `export default defineFwConfig({
  builder: 'bundlerB',
  features: { inlineStyles: true },
})`,
		Fix: "",
	},
	Run: runInlineStylesBuilder,
}

func init() { Register(ruleInlineStylesBuilder) }

func runInlineStylesBuilder(pass *Pass) {
	opt := compat.Find("builder")
	if opt == nil {
		return
	}
	pass.OptionProps("features.inlineStyles", func(prefix, path ast.Path, prop *ast.Property) {
		if v, ok := ast.StaticValue(prop); ok && (v == false || v == nil) {
			return
		}
		vals := envValues(pass, prefix, "features.inlineStyles", "builder")
		var notes []string
		for _, e := range vals {
			what := otherBuilder(pass, opt, e)
			if what == "" {
				return // the default bundler in some environment: it works there
			}
			notes = append(notes, "`builder` is "+what+" "+e.where())
		}
		if len(notes) == 0 {
			return
		}
		d := pass.ReportProperty(prop, path, "`features.inlineStyles` has no effect: only the default bundler inlines styles")
		d.Notes = notes
	})
}

// otherBuilder describes the builder of one environment when it is
// certainly not the default bundler: a known other bundler, a custom package
// or a {bundle} object. It returns "" for the default bundler, for a value
// only known at run time and for a likely typo of a known name.
func otherBuilder(pass *Pass, opt *compat.Option, e envVal) string {
	switch e.st {
	case compat.Absent:
		return ""
	case compat.Dynamic:
		// A {bundle: fn} object is not static, but it is a custom builder.
		if prop := pass.Lookup(join(e.block, "builder").String()); prop != nil {
			if obj, ok := ast.Unwrap(prop.Value).(*ast.Object); ok && obj.Get("bundle") != nil {
				return "a custom builder object"
			}
		}
		return ""
	}
	s, ok := e.v.(string)
	if !ok {
		return ""
	}
	names := stringLiterals(opt.Type)
	def, _ := opt.DefaultA.Value.(string)
	if s == def {
		return ""
	}
	for _, n := range names {
		if s == n {
			if strings.Contains(def, n) {
				return "" // the shorthand of the default package
			}
			return "'" + s + "'"
		}
	}
	if compat.SuggestWord(s, append(names, def)) != "" || strings.EqualFold(s, def) {
		return "" // FW316's
	}
	return "the custom builder '" + s + "'"
}
