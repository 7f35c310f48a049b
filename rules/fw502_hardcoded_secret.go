package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleHardcodedSecret = &Rule{
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
as secret scanners such as gitleaks find them: Stripe live keys (sk_live_,
rk_live_), GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), AWS
access key IDs (AKIA, ASIA), Slack tokens (xoxb-, xoxa-, xoxp-, xoxr- with
their numeric ids), PEM private keys with a body, reported as errors; Google
API keys (AIza) and JSON Web Tokens, reported as warnings and not at all where
they are made for browsers (a public, maps, firebase... key path, a Firebase
web config, a Supabase anon key, whose JWT role is anon). Stripe test keys
are not reported: they cannot move money.
Found by key: under runtimeConfig, a literal under a secret-looking key of
FW501; elsewhere, a literal under such a key only when it looks generated (16
characters or more, one word, Shannon entropy of at least 3.5 bits a
character, 3.0 for hexadecimal), so that module options such as
password: 'admin' for a local tool stay quiet.
Placeholders are not reported: values shorter than 8 characters, with spaces,
<API_KEY>, xxxx, ..., or words such as placeholder, changeme, your, example,
dummy, null; tokens whose body is one repeated character or holds such a word
(AWS's documented AKIAIOSFODNN7EXAMPLE); the documentation's example JWT.`,
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
	if set := collectRCKeys(pass); set != nil {
		prefix, _ := envPrefixOf(pass)
		for _, k := range set.Keys {
			seen[k.Prop] = true
			lit, ok := staticString(k.Prop.Value)
			if !ok {
				continue
			}
			tok, found := findToken(lit, k.Path, k.Prop.Parent)
			word := ""
			if !found {
				if placeholder(lit) {
					continue
				}
				if word, _, ok = secretLooking(k.Rel, k.Prop.Parent); !ok {
					continue
				}
			}
			d := reportSecret(pass, k.Prop.Value, k.Path, "`runtimeConfig."+k.Dotted()+"`", tok, found, word)
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
		if w.prop.Value == nil {
			return true
		}
		_, isArr := ast.Unwrap(w.prop.Value).(*ast.Array)
		if !seen[w.prop] || isArr {
			s := secretSite{option: w.path, display: w.path.String(), keys: w.rest, siblings: w.prop.Parent, byKey: !seen[w.prop]}
			s.scan(pass, w.prop.Value)
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
	lit, ok := staticString(n)
	if !ok {
		return
	}
	tok, found := findToken(lit, s.keys, s.siblings)
	word := ""
	if !found {
		if !s.byKey || placeholder(lit) || strings.Contains(lit, "://") || strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, ".") || !highEntropy(lit) {
			return
		}
		if word, _, ok = secretLooking(s.keys, s.siblings); !ok {
			return
		}
	}
	d := reportSecret(pass, n, s.option, "`"+s.display+"`", tok, found, word)
	d.Notes = append(d.Notes, "read it from the environment instead (process.env when the app is built), or, for the server at run time, from a runtimeConfig key set by its FW_ variable; rotate it: it stays in the repository's history")
}

// reportSecret reports a secret written at n: a token of a known format when
// found, else a value under a key that says secret (word).
func reportSecret(pass *Pass, n ast.Node, path ast.Path, what string, tok token, found bool, word string) *Diagnostic {
	if !found {
		return pass.Report(n.Span(), path.String(), "%s looks like a secret (%s) written in the config: it is committed with the source and built into the server bundle", what, word)
	}
	d := pass.Report(n.Span(), path.String(), "%s holds %s written in the config: it is committed with the source and built into the server bundle", what, tok.What)
	if tok.Certain {
		d.Severity = Error
	} else {
		d.Notes = append(d.Notes, "keys and tokens of this format are also made for browsers: if this one is, move it under `runtimeConfig.public` (or a key that says public) to say so")
	}
	return d
}
