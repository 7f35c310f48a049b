package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/secret"
)

var ruleCommittedEnvSecret = &Rule{
	Secret:   true,
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
live keys, GitHub, GitLab, npm, AWS, Slack, AI providers' keys such as
sk-ant-, sk-proj- and hf_, webhook URLs, a password in a database URL,
private keys: errors; Google API keys and JWTs: warnings, not under a name
made for browsers such as FW_PUBLIC_MAPS_KEY), or a generated-looking value
(16 characters or more, Shannon entropy of at least 3.5 bits a character, 3.0
for hexadecimal) under a secret-looking name (API_SECRET, DB_PASSWORD,
GITHUB_TOKEN). Placeholders and the documentation's examples stay silent
(placeholder, changeme, <your-key>, xxxx, sk_live_..., jwt.io's token, ...).
A 40-character base64 value is an AWS secret access key when the file also
holds an AWS access key ID. A value that refers to another variable
(postgres://app:${DB_PASSWORD}@db/app) is judged as written, not expanded:
the secret is reported where it is written, once.
Comment lines are read too: a commented-out assignment (# STRIPE_KEY=...) is
judged as the assignment would be, and a token in any other comment is
reported; commenting a line out does not take the secret out of the file, nor
out of the history. The lines of a quoted value that spans lines are not
comments, whatever they start with.`,
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
		comments := secret.EnvComments(ef.Src)
		// An AWS access key ID anywhere in the file makes a 40-character
		// base64 value an AWS secret access key, whatever its name.
		aws := false
		for _, v := range ef.Vars {
			aws = aws || secret.HoldsAWSKeyID(v.Value)
		}
		for _, c := range comments {
			aws = aws || secret.HoldsAWSKeyID(c.Value)
		}
		gitNotes := []string{
			"add " + ef.Name + " to .gitignore (and `git rm --cached " + ef.Name + "` if it is committed), keep the secret where the app runs, and rotate it: it stays in the repository's history",
			"commit a .env.example with placeholder values instead, to show which variables the app needs",
		}
		for _, v := range ef.Vars {
			name := ast.Path{v.Name}
			f, ok := secret.Judge(secret.EnvCheckedValue(ef.Src, v), secret.Site{Path: name, AWSID: aws}, name, true, true)
			if !ok {
				continue
			}
			var d *Diagnostic
			if f.Found {
				d = pass.ReportEnv(ef, v, "`%s` in %s holds %s, and git does not ignore %s: it is committed with the source", v.Name, ef.Name, f.Token.What, ef.Name)
			} else {
				d = pass.ReportEnv(ef, v, "`%s` in %s looks like a secret (%s), and git does not ignore %s: it is committed with the source", v.Name, ef.Name, f.Word, ef.Name)
			}
			envSecretSeverity(d, f)
			d.Notes = append(d.Notes, gitNotes...)
		}
		// A line commented out is still in the file, and in the history.
		for _, c := range comments {
			var name ast.Path
			if c.Name != "" {
				name = ast.Path{c.Name}
			}
			f, ok := secret.Judge(c.Value, secret.Site{Path: name, AWSID: aws}, name, c.Name != "", true)
			if !ok {
				continue
			}
			at := &project.EnvVar{Name: c.Name, Value: c.Value, Span: c.Span}
			var d *Diagnostic
			switch {
			case c.Name == "":
				d = pass.ReportEnv(ef, at, "a comment in %s holds %s, and git does not ignore %s: it is committed with the source", ef.Name, f.Token.What, ef.Name)
			case f.Found:
				d = pass.ReportEnv(ef, at, "`%s` on a commented-out line of %s holds %s, and git does not ignore %s: it is committed with the source", c.Name, ef.Name, f.Token.What, ef.Name)
			default:
				d = pass.ReportEnv(ef, at, "`%s` on a commented-out line of %s looks like a secret (%s), and git does not ignore %s: it is committed with the source", c.Name, ef.Name, f.Word, ef.Name)
			}
			envSecretSeverity(d, f)
			d.Notes = append(d.Notes, "commenting a line out leaves it in the file: delete the line")
			d.Notes = append(d.Notes, gitNotes...)
		}
	}
}

// envSecretSeverity makes a finding of a certain format an error, and says
// of an ambiguous one (a Google API key, a JWT) how to mark it public.
func envSecretSeverity(d *Diagnostic, f secret.Finding) {
	switch {
	case f.Found && f.Token.Certain:
		d.Severity = Error
	case f.Found:
		d.Notes = append(d.Notes, "keys and tokens of this format are also made for browsers: if this one is, a name that says so (FW_PUBLIC_...) keeps it quiet")
	}
}
