package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
	"github.com/fwmigrate/fwmigrate/rules/internal/secret"
)

var rulePublicSecret = &Rule{
	Secret:   true,
	Code:     "FW501",
	Name:     "public-secret",
	Category: Security,
	Severity: Error,
	Doc: Doc{
		Summary: "a secret-looking key under `runtimeConfig.public`: it is sent to every browser",
		Why: `Everything under runtimeConfig.public is serialised into every page's
payload (the configuration reference's Authentication section: secrets
belong outside public and app). A secret declared there, even
empty in the config and filled by FW_PUBLIC_* at run time, is readable by any
visitor. The framework has no check of its own.

Secret-looking, reported as errors: a key with the word secret, password,
passwd, passphrase, pwd or credentials; one ending in jwt or pass
(nodemailer's auth.pass); one ending in key
after secret, private, access, admin, service, master, signing, encryption,
webhook or session (privateKey). Ambiguous, reported as warnings because
browser SDKs take publishable ones: keys ending in token, or in key after api,
auth or license (apiKey). Not secret: keys with the words public,
publishable, anon or siteKey; keys with the words site, search, maps, mapbox,
analytics, tracking or scripts, keys under firebase, algolia or docsearch and
keys next to authDomain or indexName (Firebase web configs, search-only keys
and third-party browser scripts are public by design) unless their own name
says admin, private, service, master, write, secret or password
(algoliaAdminKey, recaptcha.siteSecret); a bare key; keys whose last word
names the secret or a setting of it rather than holds it (secretName,
passwordResetUrl, tokenUrl, tokenHeader, apiKeyFile, passwordMinLength,
sessionMaxAge). Only values that can hold a secret count (strings, templates,
computed values; not booleans or numbers).`,
		Example: `export default defineFwConfig({
  runtimeConfig: { public: { stripeSecretKey: '' } },
})`,
		Fix: `Unsafe. Moves the key out of public to the same path at the top level of
runtimeConfig (server only), when nothing is there yet. Its variable loses
PUBLIC_ (FW_PUBLIC_STRIPE_SECRET_KEY becomes FW_STRIPE_SECRET_KEY): update it.
The code that runs in the browser and reads the key (config.public.<key> of
useRuntimeConfig(), $config.public.<key> in a template, a destructuring of
useRuntimeConfig().public; not server/ nor *.server.* files) is named in a
note; while there is some, the move is withheld, since those reads would get
undefined: move them to a server route first, or ask for the move anyway
with ` + "`fwmigrate apply --unsafe=FW501`" + `.`,
	},
	Run: runPublicSecret,
}

func init() { Register(rulePublicSecret) }

func runPublicSecret(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	prefix, _ := envPrefixOf(pass)
	for _, k := range set.Keys {
		if len(k.Rel) < 2 || k.Rel[0] != "public" || !secret.MayHold(k.Prop.Value) {
			continue
		}
		word, certain, ok := secret.Looking(k.Rel, k.Prop.Parent)
		if !ok {
			continue
		}
		d := pass.ReportProperty(k.Prop, k.Path, "`runtimeConfig.%s` looks like a secret (%s): everything under `runtimeConfig.public` is sent to every browser", k.Dotted(), word)
		if !certain {
			d.Severity = Warning
			d.Notes = append(d.Notes, "browser SDKs also take publishable API keys and tokens: if this one is meant for the browser, it is fine here")
		}
		private := project.RCKey{Rel: k.Rel[1:]}
		to := join(k.Prefix, append([]string{"runtimeConfig"}, k.Rel[1:]...)...)
		d.Notes = append(d.Notes, "declare it outside `public` to keep it on the server: `runtimeConfig."+private.Dotted()+"`")
		if prefix != "" {
			d.Notes = append(d.Notes, "its variable then becomes `"+envKeyName(prefix, private)+"` instead of `"+envKeyName(prefix, k)+"`")
		}
		reads := clientReads(pass, k.Rel)
		if len(reads) > 0 {
			d.Notes = append(d.Notes, clientReadsNote(k, reads))
		}
		if k.Prop.KeyKind == ast.KeyComputed || isAccessor(k.Prop) || pass.Lookup(to.String()) != nil {
			continue
		}
		if _, st := pass.Config.Value(to.String()); st != compat.Absent {
			continue
		}
		fix := &Fix{
			Description:   "move it to `" + to.String() + "` (server only): client code that reads it breaks, and its variable changes",
			Applicability: Unsafe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpMove, Path: k.Path, To: to}},
		}
		if len(reads) > 0 {
			// The move would break those pages silently (the key reads as
			// undefined in the browser): the fix comes back once no
			// browser code reads the key, or when the user names the rule
			// (apply --unsafe=FW501: Options.Release).
			d.Withheld = "the code above reads it in the browser and would get undefined after the move"
			d.Notes = append(d.Notes, "no automatic fix: "+d.Withheld+": move what needs the secret to a server route first (then `fwmigrate apply --unsafe` makes the move), or move the key by hand (`fwmigrate apply --unsafe=FW501` makes the move now, breaking those reads)")
			held := *fix
			held.Description = "move it to `" + to.String() + "` (server only), as --unsafe=FW501 asks, although client code reads it: " + readPlaces(reads) + " (those reads get undefined in the browser); its variable changes"
			d.Held = &held
			continue
		}
		d.Fix = fix
	}
}

// clientReads returns the reads of the runtime config key at rel
// (["public", ...]) in the code that runs in the browser.
func clientReads(pass *Pass, rel []string) []code.RuntimeRead {
	ci := pass.Index.code()
	if ci == nil || ci.Index == nil {
		return nil
	}
	return code.RuntimeReads(ci.Index, rel)
}

// clientReadsNote names the code that reads a public key (the first few
// reads).
func clientReadsNote(k project.RCKey, reads []code.RuntimeRead) string {
	return "client code reads `runtimeConfig." + k.Dotted() + "`: " + readPlaces(reads)
}

// readPlaces names the first few reads, by position and text.
func readPlaces(reads []code.RuntimeRead) string {
	const most = 3
	var at []string
	for i, r := range reads {
		if i == most {
			at = append(at, fmt.Sprintf("and %d more", len(reads)-most))
			break
		}
		at = append(at, fmt.Sprintf("%s:%d:%d `%s`", r.File.Rel, r.Line, r.Column, r.Text))
	}
	return strings.Join(at, ", ")
}
