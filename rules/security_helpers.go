package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Helpers shared by the security rules (FW5xx).

// Words of a key name that make its value a secret wherever they appear
// (apiSecret, dbPassword, awsCredentials).
var secretWords = map[string]bool{
	"secret": true, "secrets": true, "password": true, "passwd": true, "passphrase": true,
	"pwd": true, "credential": true, "credentials": true,
}

// Words that make a key a secret when they end its name (githubToken, jwt);
// tokenUrl or tokenEndpoint are not secrets. Tokens and API keys are
// ambiguous: many browser SDKs take publishable ones.
var secretLastWords = map[string]bool{
	"token": false, "tokens": false, "jwt": true,
	// one-word spellings of qualified keys
	"apikey": false, "privatekey": true, "secretkey": true, "accesskey": true,
}

// Words that make a final "key" a secret (privateKey, signingKey), and
// whether the secret is certain (private, signing) or ambiguous (api, auth,
// license: browser SDKs take public API keys too). A bare "key" is too often
// a map key or a cache key to judge.
var keyQualifiers = map[string]bool{
	"secret": true, "private": true, "access": true, "admin": true, "service": true,
	"master": true, "signing": true, "encryption": true, "webhook": true, "session": true,
	"api": false, "auth": false, "license": false, "licence": false,
}

// Words that mark a value as meant for the browser anywhere in the key path:
// publicKey, siteKey (reCAPTCHA, Turnstile), publishableKey (Stripe),
// anonKey (Supabase), searchApiKey and algolia/docsearch (search-only keys),
// firebase (the web apiKey identifies the project), maps/mapbox (browser map
// tokens, restricted by referrer), analytics, tracking and scripts (tokens of
// third-party scripts that run in the browser: corpus 036).
var publicWords = map[string]bool{
	"public": true, "publishable": true, "site": true, "sitekey": true, "anon": true,
	"search": true, "algolia": true, "docsearch": true, "firebase": true,
	"maps": true, "map": true, "mapbox": true, "measurement": true,
	"analytics": true, "tracking": true, "scripts": true,
}

// keyWords splits a key into its lower-case words the way the engine splits
// it for variable names (apiKey -> api, key; API_KEY -> api, key).
func keyWords(key string) []string {
	return strings.Split(strings.ToLower(compat.EnvKey(key)), "_")
}

// secretLooking reports whether the key at rel (a runtimeConfig path) names a
// secret, the word that says so, and whether it is certain (secret,
// password, privateKey) or ambiguous (token, apiKey). siblings is the object
// that holds the key, for context: an apiKey next to authDomain is a
// Firebase web config, next to indexName an Algolia search key, both public
// by design.
func secretLooking(rel ast.Path, siblings *ast.Object) (word string, certain, ok bool) {
	if len(rel) == 0 {
		return "", false, false
	}
	for i, seg := range rel {
		if i == 0 && (seg == "public" || seg == "app") {
			continue // the section itself, not a word of the key
		}
		for _, w := range keyWords(seg) {
			if publicWords[w] {
				return "", false, false
			}
		}
	}
	if siblings != nil && (siblings.Get("authDomain") != nil || siblings.Get("indexName") != nil) {
		return "", false, false
	}
	words := keyWords(rel[len(rel)-1])
	for _, w := range words {
		if secretWords[w] {
			return w, true, true
		}
	}
	last := words[len(words)-1]
	if c, found := secretLastWords[last]; found {
		return last, c, true
	}
	if (last == "key" || last == "keys") && len(words) > 1 {
		q := words[len(words)-2]
		if c, found := keyQualifiers[q]; found {
			return q + " " + last, c, true
		}
	}
	return "", false, false
}

// mayHoldSecret reports whether a value can be a secret: strings, templates,
// computed values; not booleans, numbers, arrays, objects (their keys are
// judged one by one), functions or regular expressions.
func mayHoldSecret(n ast.Node) bool {
	switch n := ast.Unwrap(n).(type) {
	case nil, *ast.Boolean, *ast.Number, *ast.Unary, *ast.Array, *ast.Object, *ast.RegExp:
		return false
	case *ast.Expr:
		switch n.Hint {
		case ast.HintArrow, ast.HintFunction, ast.HintClass:
			return false
		}
	}
	return true
}

// placeholder reports whether a literal secret value is a stand-in rather
// than a real secret: empty, a word such as 'null' or 'changeme', <API_KEY>,
// xxxx, or text with spaces ('your token here'). Real secrets are single
// tokens of some length.
func placeholder(s string) bool {
	t := strings.TrimSpace(s)
	if len(t) < 8 || strings.ContainsAny(t, " \t\n") {
		return true
	}
	if strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") || strings.HasPrefix(t, "${") || strings.HasPrefix(t, "{{") {
		return true
	}
	if strings.Trim(t, t[:1]) == "" { // xxxxxxxx, ********
		return true
	}
	l := strings.ToLower(t)
	for _, w := range []string{"placeholder", "changeme", "change-me", "change_me", "your", "example", "dummy", "replace", "todo", "fixme", "xxx", "undefined", "null"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
