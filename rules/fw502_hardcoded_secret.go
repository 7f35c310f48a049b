package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleHardcodedSecret = &Rule{
	Code:     "FW502",
	Name:     "hardcoded-secret",
	Category: Security,
	Severity: Warning,
	Doc: Doc{
		Summary: "a secret written as a literal in runtimeConfig",
		Why: `A secret written in fw.config is committed with the source, visible to anyone
who can read the repository, and built into the server bundle. runtimeConfig
exists so that secrets come from the environment instead: declare the key with
an empty value and set its FW_ variable where the app runs (the configuration
reference's Authentication section). Secret-looking keys are those of FW501.
Placeholders are not reported: values shorter than 8 characters, with spaces,
<API_KEY>, xxxx, or words such as placeholder, changeme, your, example, dummy, null.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { stripeSecretKey: 'sk_live_51H8...' },
})`,
		Fix: `Unsafe. Replaces the literal with '' (its comments kept). The value is then
empty until the key's FW_ variable is set where the app runs; and the secret
stays in the repository's history: rotate it.`,
	},
	Run: runHardcodedSecret,
}

func init() { Register(ruleHardcodedSecret) }

func runHardcodedSecret(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	prefix, _ := envPrefixOf(pass)
	for _, k := range set.Keys {
		if k.Prop.Value == nil {
			continue
		}
		var lit string
		switch n := ast.Unwrap(k.Prop.Value).(type) {
		case *ast.String:
			lit = n.Value
		case *ast.Template:
			if !n.Static {
				continue
			}
			lit = n.Value
		default:
			continue
		}
		if placeholder(lit) {
			continue
		}
		word, _, ok := secretLooking(k.Rel, k.Prop.Parent)
		if !ok {
			continue
		}
		d := pass.ReportValue(k.Prop, k.Path, "`runtimeConfig.%s` looks like a secret (%s) written in the config: it is committed with the source and built into the server bundle", k.Dotted(), word)
		if prefix != "" {
			d.Notes = append(d.Notes, "declare it empty and set `"+envKeyName(prefix, k)+"` where the app runs")
		}
		if k.Prop.KeyKind == ast.KeyComputed {
			continue
		}
		d.Fix = &Fix{
			Description:   "replace the value with '': it is empty until its variable is set where the app runs (rotate the secret: it stays in the repository's history)",
			Applicability: Unsafe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: k.Path, Value: ""}},
		}
	}
}
