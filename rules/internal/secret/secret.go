// Package secret holds the secret checks shared by the security rules
// (FW501 public secret, FW502 hardcoded secret, FW506 committed .env
// secret): which key names say secret (Looking), which values are
// stand-ins (Placeholder), tokens of known formats (FindToken), URLs with
// passwords (CredentialURL), how random a value looks (HighEntropy), and
// what a .env file's comments hold (EnvComments). Every check is one pass
// over its text, whatever the input. It reads no disk: the rules hand it
// what project loaded.
package secret

import (
	"math"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

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
	// nodemailer's auth: { user, pass }, SMTP_PASS; not passThrough
	"pass": true,
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

// Words that mark a value as meant for the browser anywhere in the key path,
// whatever the key's own name: public (runtimeConfig.public, publicKey),
// publishable (Stripe), anon (Supabase), sitekey (reCAPTCHA, Turnstile).
var publicWords = map[string]bool{
	"public": true, "publishable": true, "anon": true, "sitekey": true,
}

// Words that mark a value as meant for the browser unless the key's own
// name says private: siteKey (reCAPTCHA, Turnstile), searchApiKey and
// algolia/docsearch (search-only keys), firebase (the web apiKey identifies
// the project), maps/mapbox (browser map tokens, restricted by referrer),
// analytics, tracking and scripts (tokens of third-party scripts that run in
// the browser: corpus 036). Their admin, private, secret or service keys are
// secrets all the same (ALGOLIA_ADMIN_KEY, FIREBASE_PRIVATE_KEY,
// recaptcha.siteSecret): a word of privateWords in the key's own name
// overrides them.
var contextPublicWords = map[string]bool{
	"site": true, "search": true, "algolia": true, "docsearch": true, "firebase": true,
	"maps": true, "map": true, "mapbox": true, "measurement": true,
	"analytics": true, "tracking": true, "scripts": true,
}

var privateWords = map[string]bool{
	"admin": true, "private": true, "secret": true, "secrets": true, "service": true,
	"master": true, "write": true, "password": true, "credential": true, "credentials": true,
	"signing": true,
}

// Last words that make a key name a secret's name, place or setting rather
// than the secret: secretName (a secret manager's entry), passwordResetUrl,
// tokenHeader, apiKeyFile (Docker's _FILE convention), passwordMinLength,
// tokenExpiry.
var namingWords = map[string]bool{
	"name": true, "names": true, "id": true, "ids": true, "url": true, "urls": true, "uri": true,
	"path": true, "file": true, "dir": true, "header": true, "headers": true, "field": true,
	"param": true, "prefix": true, "suffix": true, "length": true, "len": true, "min": true,
	"max": true, "policy": true, "type": true, "mode": true, "endpoint": true, "ttl": true,
	"age": true, "expiry": true, "expires": true, "expiration": true, "enabled": true,
	"required": true, "rotation": true, "format": true, "provider": true, "strategy": true,
	"algorithm": true, "alg": true, "cookie": true, "hint": true, "label": true,
	"location": true, "arn": true, "env": true, "var": true, "version": true, "size": true,
	"count": true, "pattern": true, "regex": true, "rules": true, "strength": true,
}

// keyWords splits a key into its lower-case words the way the engine splits
// it for variable names (apiKey -> api, key; API_KEY -> api, key).
func keyWords(key string) []string {
	return strings.Split(strings.ToLower(compat.EnvKey(key)), "_")
}

// Looking reports whether the key at rel (a runtimeConfig path) names a
// secret, the word that says so, and whether it is certain (secret,
// password, privateKey) or ambiguous (token, apiKey). siblings is the object
// that holds the key, for context: an apiKey next to authDomain is a
// Firebase web config, next to indexName an Algolia search key, both public
// by design.
func Looking(rel ast.Path, siblings *ast.Object) (word string, certain, ok bool) {
	if len(rel) == 0 {
		return "", false, false
	}
	key := rel
	if rel[0] == "public" || rel[0] == "app" {
		key = rel[1:] // the section itself, not a word of the key
	}
	if publicByDesign(key, siblings) {
		return "", false, false
	}
	words := keyWords(rel[len(rel)-1])
	if namingWords[words[len(words)-1]] {
		return "", false, false
	}
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

// MayHold reports whether a value can be a secret: strings, templates,
// computed values; not booleans, numbers, arrays, objects (their keys are
// judged one by one), functions or regular expressions.
func MayHold(n ast.Node) bool {
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

// Placeholder reports whether a literal secret value is a stand-in rather
// than a real secret: empty or shorter than 8 characters, text with spaces
// ('your token here'), a template or a variable (<API_KEY>, ${SECRET},
// {{ secrets.X }}, %SECRET%, $SECRET), dots (sk_live_..., sk-…), one
// character repeated (xxxxxxxx, ********), a word such as changeme, your,
// example, placeholder or null, characters typed in order (abcdef,
// 123456), words rather than generated characters (development,
// my-super-secret-key, API_CLIENT_SECRET), or a documentation example.
// Real secrets are single generated tokens of some length.
func Placeholder(s string) bool {
	t := strings.TrimSpace(s)
	if len(t) < 8 || strings.ContainsAny(t, " \t\n") {
		return true
	}
	if strings.Contains(t, "<") && strings.Contains(t, ">") || strings.Contains(t, "${") || strings.Contains(t, "{{") ||
		strings.HasPrefix(t, "%") && strings.HasSuffix(t, "%") || t[0] == '$' && len(t) > 1 && (isAlnum(t[1]) || t[1] == '_') {
		return true
	}
	if strings.Contains(t, "...") || strings.Contains(t, "…") || strings.Trim(t, t[:1]) == "" {
		return true
	}
	l := strings.ToLower(t)
	for _, w := range []string{"placeholder", "changeme", "change-me", "change_me", "your", "example", "dummy", "replace", "todo", "fixme", "xxx", "undefined", "null", "redacted"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return sequenceRun(l) >= 6 || humanWords(t) || documentedValue(t)
}

// documentedValue reports whether s holds a documentation example: an
// example token (documented) or an example JSON Web Token.
func documentedValue(s string) bool {
	if documented(s) {
		return true
	}
	claims, ok := firstJWT(s)
	return ok && documentedJWT(claims)
}

// humanWords reports whether s is words a person typed rather than
// generated characters: letters of one case, alone or joined by -, _ or .
// with short numbers (development, my-super-secret-key, API_CLIENT_SECRET,
// password-with-at-least-32-characters), with vowels as words have them.
// One run of letters longer than 16 counts only when it holds a word of a
// secret's name (mysupersecretpassword): a generator that uses only
// lower-case letters makes long runs without vowels' rhythm.
func humanWords(s string) bool {
	segs := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	letters, vowels, lower, upper := 0, 0, false, false
	for _, seg := range segs {
		digits := 0
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			switch {
			case isDigit(c):
				digits++
			case 'a' <= c && c <= 'z':
				lower = true
			case 'A' <= c && c <= 'Z':
				upper = true
			default:
				return false
			}
			if strings.IndexByte("aeiouyAEIOUY", c) >= 0 {
				vowels++
			}
		}
		if digits > 0 && (digits != len(seg) || digits > 4) {
			return false // letters and digits mixed, or a long number
		}
		letters += len(seg) - digits
	}
	if letters == 0 || lower && upper || vowels*4 < letters {
		return false
	}
	if len(segs) == 1 && letters > 16 {
		l := strings.ToLower(s)
		return strings.Contains(l, "secret") || strings.Contains(l, "password") || strings.Contains(l, "token") || strings.Contains(l, "key")
	}
	return true
}

// secretValue reports whether a literal under a secret-looking key may be
// the secret itself: not a placeholder, not a credential made public
// (publishable and test keys, anon JWTs).
func secretValue(s string) bool {
	return !Placeholder(s) && !publicToken(s)
}

// looksLikePath reports whether s is a file path or a URL path rather than
// a generated value: it starts with /, ./, ../ or ~/, and its segments are
// lower-case names (/run/secrets/db, ./certs/key.pem). A base64 secret
// that happens to start with / has segments of mixed case.
func looksLikePath(s string) bool {
	rest, ok := "", false
	for _, p := range []string{"/", "./", "../", "~/"} {
		if r, cut := strings.CutPrefix(s, p); cut {
			rest, ok = r, true
			break
		}
	}
	if !ok {
		return strings.HasPrefix(s, ".") // .env.local, .output
	}
	for _, seg := range strings.Split(rest, "/") {
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; !('a' <= c && c <= 'z' || isDigit(c) || c == '.' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// Finding is what the secret checks found in a literal: a token of
// a known format, or a value under a key that says secret (word).
type Finding struct {
	Token Token  // by format, when Found
	Found bool   // by format
	Word  string // by key
}

// Judge judges a literal s written at site. It finds tokens of known
// formats whatever the key; when byKey is set, it also reports a value that
// may be a secret (secretValue) under a key that says secret (key, judged
// by Looking); with generated set, such a value must also look
// generated (HighEntropy), not be a URL or a path: outside runtimeConfig
// and in .env files, where keys such as password: 'admin' for a local tool
// are common.
func Judge(s string, site Site, key ast.Path, byKey, generated bool) (Finding, bool) {
	if tok, ok := FindToken(s, site); ok {
		return Finding{Token: tok, Found: true}, true
	}
	if !byKey || !secretValue(s) {
		return Finding{}, false
	}
	if generated && (!HighEntropy(s) || strings.Contains(s, "://") || looksLikePath(s)) {
		return Finding{}, false
	}
	word, _, ok := Looking(key, site.Siblings)
	if !ok {
		return Finding{}, false
	}
	return Finding{Word: word}, true
}

// publicByDesign reports whether a value at path is meant for the browser:
// a word of publicWords in any segment of the path (runtimeConfig.public,
// publishableKey), a word of contextPublicWords (googleMapsKey,
// firebase.apiKey) unless the key's own name says private
// (algoliaAdminKey), or a sibling of a Firebase web config or a search-only
// key.
func publicByDesign(path ast.Path, siblings *ast.Object) bool {
	private := false
	if len(path) > 0 {
		for _, w := range keyWords(path[len(path)-1]) {
			private = private || privateWords[w]
		}
	}
	for _, seg := range path {
		for _, w := range keyWords(seg) {
			if publicWords[w] || contextPublicWords[w] && !private {
				return true
			}
		}
	}
	return !private && siblings != nil && (siblings.Get("authDomain") != nil || siblings.Get("indexName") != nil)
}

// HighEntropy reports whether s looks random enough to be a generated
// secret: 16 characters or more, one token (no spaces), and a Shannon
// entropy of at least 3.5 bits per character, or 3.0 when s is all
// hexadecimal digits (whose alphabet has 16 symbols, so 4 bits at most).
// These are gitleaks' generic-secret and detect-secrets' hex thresholds.
func HighEntropy(s string) bool {
	if len(s) < 16 || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	var counts [256]int
	hex := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		counts[c]++
		hex = hex && ('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
	}
	h := 0.0
	n := float64(len(s))
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	if hex {
		return h >= 3.0
	}
	return h >= 3.5
}
