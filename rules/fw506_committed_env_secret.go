package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

var ruleCommittedEnvSecret = &Rule{
	Code:     "FW506",
	Name:     "committed-env-secret",
	Category: Security,
	Severity: Warning,
	Doc: Doc{
		Summary: "a secret in a .env file that git does not ignore",
		Why: `A .env file that the repository's .gitignore does not exclude is committed
(or will be with the next git add): everyone who can read the repository reads
its secrets, and they stay in its history. .env files that .gitignore excludes
are where secrets belong: the framework's CLI reads them in dev, build,
generate and preview, and they are never reported.
Whether git ignores a file is decided from the repository's .gitignore files,
from its top (the nearest directory with a .git entry) down to the file, as
git matches them; fwmigrate does not run git, so a file force-added despite
.gitignore, and the rules of .git/info/exclude and of the global excludes
file, are not seen. Outside a git repository nothing is reported.
What counts as a secret is FW502's: a value of a known token format (Stripe
live keys, GitHub, AWS, Slack tokens, private keys: errors; Google API keys
and JWTs: warnings, not under a name made for browsers such as
FW_PUBLIC_MAPS_KEY), or a generated-looking value (16 characters or more,
Shannon entropy of at least 3.5 bits a character, 3.0 for hexadecimal) under
a secret-looking name (API_SECRET, DB_PASSWORD, GITHUB_TOKEN). Placeholders
stay silent (placeholder, changeme, <your-key>, xxxx, ...).`,
		Example: `.gitignore   <- node_modules only
.env         <- STRIPE_SECRET_KEY=sk_live_51H8aBcDeFgHiJkLmNoPqRsT`,
		Fix: "",
	},
	Run: runCommittedEnvSecret,
}

func init() { Register(ruleCommittedEnvSecret) }

func runCommittedEnvSecret(pass *Pass) {
	for _, ef := range pass.Project.Env {
		if !ef.InRepo || ef.GitIgnored {
			continue
		}
		for _, v := range ef.Vars {
			name := ast.Path{v.Name}
			tok, found := findToken(v.Value, name, nil)
			var d *Diagnostic
			switch {
			case found:
				d = pass.ReportEnv(ef, v, "`%s` in %s holds %s, and git does not ignore %s: it is committed with the source", v.Name, ef.Name, tok.What, ef.Name)
				if tok.Certain {
					d.Severity = Error
				} else {
					d.Notes = append(d.Notes, "keys and tokens of this format are also made for browsers: if this one is, a name that says so (FW_PUBLIC_...) keeps it quiet")
				}
			case !placeholder(v.Value) && highEntropy(v.Value):
				word, _, ok := secretLooking(name, nil)
				if !ok {
					continue
				}
				d = pass.ReportEnv(ef, v, "`%s` in %s looks like a secret (%s), and git does not ignore %s: it is committed with the source", v.Name, ef.Name, word, ef.Name)
			default:
				continue
			}
			d.Notes = append(d.Notes,
				"add "+ef.Name+" to .gitignore (and `git rm --cached "+ef.Name+"` if it is committed), keep the secret where the app runs, and rotate it: it stays in the repository's history",
				"commit a .env.example with placeholder values instead, to show which variables the app needs")
		}
	}
}
