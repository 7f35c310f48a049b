package rules

// CodeSyntax is reported by the engine when a config does not parse.
const CodeSyntax = "FW901"

var ruleSyntax = &Rule{
	Code:           CodeSyntax,
	Name:           "syntax-error",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "the config file has a syntax error",
		Why: `fwmigrate validates every config with esbuild before reading it; a file that
esbuild rejects would also fail to load in the framework. The message and
position are esbuild's. Nothing else is checked in that file, and the run
exits with status 2.`,
		Example: "export default defineFwConfig({ ssr: false,, })",
		Fix:     "",
	},
}

func init() { Register(ruleSyntax) }
