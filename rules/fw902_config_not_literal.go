package rules

// CodeNotLiteral is reported by the engine when the exported config is not
// an object literal that fwmigrate can read.
const CodeNotLiteral = "FW902"

var ruleNotLiteral = &Rule{
	Code:     CodeNotLiteral,
	Name:     "config-not-literal",
	Category: Tool,
	Severity: Info,
	Doc: Doc{
		Summary: "the exported config is not an object literal, so its options cannot be checked",
		Why: `fwmigrate reads the config statically: it never runs it. When the default
export is the result of a call (withMatrix({...})), an imported value, a
conditional or an async function, the options are only known when the config
runs, so no option rule can judge them. Layout and .env checks still run.`,
		Example: "export default withMatrix({ ssr: false })",
		Fix:     "",
	},
}

func init() { Register(ruleNotLiteral) }
