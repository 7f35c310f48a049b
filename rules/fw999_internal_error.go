package rules

// CodeInternal is reported when fwmigrate itself fails: a rule panicked, or
// a rewrite did not verify. It is always a bug in fwmigrate.
const CodeInternal = "FW999"

var ruleInternal = &Rule{
	Code:           CodeInternal,
	Name:           "internal-error",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "fwmigrate failed on this input (a bug in fwmigrate)",
		Why: `A rule that panics is stopped and reported here instead of taking the whole run
down, and apply refuses to write a rewritten file that does not parse or does
not hold the intended values. Either way nothing was written, and the run exits
with status 2. Please report it with the config that triggers it.`,
		Example: "",
		Fix:     "",
	},
}

func init() { Register(ruleInternal) }
