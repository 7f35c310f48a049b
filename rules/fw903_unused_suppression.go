package rules

// CodeUnusedSuppression is reported for a fwmigrate-ignore comment that
// suppressed nothing.
const CodeUnusedSuppression = "FW903"

var ruleUnusedSuppression = &Rule{
	Code:     CodeUnusedSuppression,
	Name:     "unused-suppression",
	Category: Tool,
	Severity: Warning,
	Doc: Doc{
		Summary: "a fwmigrate-ignore comment suppresses nothing",
		Why: `A suppression comment silences the named rules on its own line (when it ends a
line of code) or on the next line (when it stands alone). One that matches no
diagnostic is stale, or names the wrong code or line, and would hide a future
finding nobody meant to hide. In .env files the comment starts with #.`,
		Example: `export default defineFwConfig({
  // fwmigrate-ignore FW201: generate.routes was already moved
  ssr: true,
})`,
		Fix: "",
	},
}

func init() { Register(ruleUnusedSuppression) }
