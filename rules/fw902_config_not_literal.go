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
		Why: `fwmigrate reads the config statically: it never runs it. It follows
variables, defineFwConfig, a config function (async or not) that returns
once, directly in its body, and the plain assignments to the config's
properties that follow its declaration (config.ssr = false). When the default
export is the result of a call (withMatrix({...})), an imported value, a
conditional, or a function with several returns, a return in a loop or a
branch, the options are only known when the config runs, so no option rule
can judge them and apply edits nothing. Layout and .env checks still run.`,
		Example: "export default withMatrix({ ssr: false })",
		Fix:     "",
	},
}

func init() { Register(ruleNotLiteral) }
