package rules

// CodeIO is reported when a file of the project cannot be read.
const CodeIO = "FW904"

var ruleIO = &Rule{
	Code:     CodeIO,
	Name:     "unreadable-file",
	Category: Tool,
	Severity: Error,
	Doc: Doc{
		Summary: "a config, .env file or project directory cannot be read",
		Why: `A config that cannot be read (permission denied, deleted during the run, a
directory where a file was expected) cannot be checked; the run exits with
status 2 and the other projects are still checked. An unreadable .env file or
directory listing is a warning: the checks that need it are skipped.`,
		Example: "chmod 000 fw.config.ts",
		Fix:     "",
	},
}

func init() { Register(ruleIO) }
