package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/secret"
)

var ruleHardcodedSecret = &Rule{
	Secret:   true,
	Code:     "FW502",
	Name:     "hardcoded-secret",
	Category: Security,
	Severity: Warning,
	Doc: Doc{
		Summary: "a secret written as a literal in the config: a known token format anywhere, or a secret-looking key's value",
		Why: `A secret written in fw.config is committed with the source, visible to anyone
who can read the repository, and built into the server bundle. runtimeConfig
exists so that secrets come from the environment instead: declare the key with
an empty value and set its FW_ variable where the app runs (the configuration
reference's Authentication section).
Found by value, anywhere in the config (module options and arrays included),
whatever the key, as secret scanners such as gitleaks find them, reported as
errors: Stripe and Clerk live keys (sk_live_, rk_live_), webhook signing
secrets (whsec_), GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), GitLab
(glpat-...), npm (npm_) and PyPI tokens, AWS access key IDs (AKIA, ASIA) and,
beside one or under an aws key, 40-character secret access keys; AI
providers: Anthropic (sk-ant-), OpenAI (sk-proj-, sk-svcacct-, sk-admin-),
other sk- keys of 32 to 64 letters and digits (OpenAI's legacy keys,
DeepSeek...), OpenRouter (sk-or-v1-), Hugging Face (hf_), Groq (gsk_),
Replicate (r8_), Perplexity (pplx-), xAI (xai-); Slack tokens (xoxb-, xoxp-...,
xapp-) and webhook URLs (hooks.slack.com/services/T.../B.../...), Discord
webhook URLs, SendGrid, Brevo, Resend, Linear, Notion, Postman, Sentry,
Doppler, DigitalOcean, Heroku, Netlify, Databricks, Shopify, Atlassian,
Mapbox secret (sk.) tokens, Azure storage account keys, Google OAuth client
secrets (GOCSPX-), application keys written base64:... (Laravel's APP_KEY),
Telegram bot tokens, PEM private keys with a body, JSON Web Tokens with role
service_role, and a password in a URL or connection string
(postgres://user:password@host/db, and mysql, mongodb, mongodb+srv, redis,
rediss, amqp, smtp, cloudinary, https...; Password= in SQL Server's). Google API keys (AIza) and other JSON Web Tokens
are reported as warnings, and not at all where they are made for browsers (a
public, maps, firebase... key path, a Firebase web config, a Supabase anon
key, whose JWT role is anon).
Not secrets: Stripe test and publishable keys (test mode moves no money),
Clerk publishable keys, Mapbox public (pk.) tokens, PostHog project keys;
Sentry DSNs (a user without a password); a password for a loopback host
(localhost, 127.0.0.1, ::1, host.docker.internal: a local development
database's throwaway password) or a documentation host (example.com, .test),
one taken from a variable (${DB_PASSWORD}), or a placeholder (password,
changeme, <password>, PASSWORD, the user's own name as in
postgres:postgres).
Found by key: under runtimeConfig, a literal under a secret-looking key of
FW501; elsewhere, a literal under such a key only when it looks generated (16
characters or more, one word, Shannon entropy of at least 3.5 bits a
character, 3.0 for hexadecimal), so that module options such as
password: 'admin' for a local tool stay quiet. A key whose last word names
the secret rather than holds it is not secret-looking (secretName,
passwordResetUrl, tokenHeader, apiKeyFile).
Placeholders and documented examples are not reported: values shorter than 8
characters, with spaces, <API_KEY>, ${VAR}, {{ var }}, %VAR%, dots
(sk_live_..., sk-...), one character repeated (xxxx, ****), characters typed
in order (abcdef, 123456), words rather than generated characters
(development, my-super-secret-key, password-with-at-least-32-characters,
API_CLIENT_SECRET), or words such as placeholder, changeme, your, example,
dummy, null; tokens whose body holds such a word (AWS's documented
AKIAIOSFODNN7EXAMPLE); the example tokens of vendors' documentation (jwt.io's
tokens, Supabase's local demo keys, Stripe's test keys, GitHub's, Slack's,
Firebase's and Google Maps' examples).
Messages name the format or the key's word, never the value.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { stripeKey: 'sk_live_51H8aBcDeFgHiJkLmNoPqRsT' },
})`,
		Fix: `Unsafe, under runtimeConfig only. Replaces the literal with '' (its comments
kept). The value is then empty until the key's FW_ variable is set where the
app runs; and the secret stays in the repository's history: rotate it.
Elsewhere there is no fix: read the value from the environment.`,
	},
	Run: runHardcodedSecret,
}

func init() { Register(ruleHardcodedSecret) }

func runHardcodedSecret(pass *Pass) {
	seen := map[*ast.Property]bool{}
	awsObjects := map[*ast.Object]bool{}
	if set := collectRCKeys(pass); set != nil {
		prefix, _ := envPrefixOf(pass)
		for _, k := range set.Keys {
			seen[k.Prop] = true
			lit, ok := ast.StaticString(k.Prop.Value)
			if !ok {
				continue
			}
			f, ok := secret.Judge(lit, secret.Site{Path: k.Path, Siblings: k.Prop.Parent, AWSObjects: awsObjects}, k.Rel, true, false)
			if !ok {
				continue
			}
			d := reportSecret(pass, k.Prop.Value, k.Path, "`runtimeConfig."+k.Dotted()+"`", f)
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
	// Everywhere else: module options, arrays (module tuples), and the
	// entries of arrays under runtimeConfig.
	pass.walkCached(func(w *walked) bool {
		if w.Prop.Value == nil {
			return true
		}
		_, isArr := ast.Unwrap(w.Prop.Value).(*ast.Array)
		if !seen[w.Prop] || isArr {
			s := secretSite{option: w.Path, display: w.Path.String(), keys: w.Rest, siblings: w.Prop.Parent, byKey: !seen[w.Prop], awsObjects: awsObjects}
			s.scan(pass, w.Prop.Value)
		}
		return true
	})
}

// secretSite is where a value is written, for the secret checks: the
// option path reported (the property walked), the path shown
// (modules[1].secretKey), the keys on the way (for the key and public
// checks), the object that holds the value.
type secretSite struct {
	option   ast.Path
	display  string
	keys     ast.Path
	siblings *ast.Object
	byKey    bool // judge a literal by its key too (FW502's own keys are)
	nested   bool // reached through an array: objects are looked into
	// awsObjects is secret.Site's cache, shared by the whole pass.
	awsObjects map[*ast.Object]bool
}

// scan reports a literal n that holds a token, or, when byKey is set, a
// generated-looking literal under a secret-looking key; it looks into the
// entries of arrays, and into the objects among them (module options in a
// [name, options] tuple), which the config walk does not reach.
func (s secretSite) scan(pass *Pass, n ast.Node) {
	switch v := ast.Unwrap(n).(type) {
	case *ast.Array:
		for i, e := range v.Elements {
			if e != nil {
				in := s
				in.display, in.siblings, in.byKey, in.nested = fmt.Sprintf("%s[%d]", s.display, i), nil, false, true
				in.scan(pass, e)
			}
		}
		return
	case *ast.Object:
		if !s.nested {
			return // the config walk visits its properties
		}
		for _, pr := range v.Props {
			if pr.Value == nil || pr.KeyKind == ast.KeyComputed || pr.Kind == ast.PropSpread {
				continue
			}
			in := s
			in.display, in.keys, in.siblings, in.byKey = s.display+"."+pass.File.Segment(pr), join(s.keys, pr.Key), v, true
			in.scan(pass, pr.Value)
		}
		return
	}
	lit, ok := ast.StaticString(n)
	if !ok {
		return
	}
	f, ok := secret.Judge(lit, secret.Site{Path: s.keys, Siblings: s.siblings, AWSObjects: s.awsObjects}, s.keys, s.byKey, true)
	if !ok {
		return
	}
	d := reportSecret(pass, n, s.option, "`"+s.display+"`", f)
	d.Notes = append(d.Notes, "read it from the environment instead (process.env when the app is built), or, for the server at run time, from a runtimeConfig key set by its FW_ variable; rotate it: it stays in the repository's history")
}

// reportSecret reports a secret written at n: a token of a known format
// when found, else a value under a key that says secret. The message names
// the format or the key's word, never the value.
func reportSecret(pass *Pass, n ast.Node, path ast.Path, what string, f secret.Finding) *Diagnostic {
	if !f.Found {
		return pass.Report(n.Span(), path.String(), "%s looks like a secret (%s) written in the config: it is committed with the source and built into the server bundle", what, f.Word)
	}
	d := pass.Report(n.Span(), path.String(), "%s holds %s written in the config: it is committed with the source and built into the server bundle", what, f.Token.What)
	if f.Token.Certain {
		d.Severity = Error
	} else {
		d.Notes = append(d.Notes, "keys and tokens of this format are also made for browsers: if this one is, move it under `runtimeConfig.public` (or a key that says public) to say so")
	}
	return d
}
