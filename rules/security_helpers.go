package rules

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
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
	key := rel
	if rel[0] == "public" || rel[0] == "app" {
		key = rel[1:] // the section itself, not a word of the key
	}
	if publicByDesign(key, siblings) {
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

// A token found by its format, as secret scanners find them (gitleaks'
// rules): provider prefixes and shapes that are secrets wherever they are
// written, whatever the key that holds them.
type token struct {
	What string // "a Stripe live secret key"
	// Certain: the format is a secret by itself (Stripe, GitHub, AWS, Slack,
	// private keys). Google API keys and JWTs are also made for browsers
	// (Maps and Firebase keys, Supabase's anon key): those are judged by
	// where they are written, and reported as warnings.
	Certain bool
}

// tokenFormat is one format: a prefix that starts it, the alphabet of its
// body and the body's length range. Matches are checked at the boundaries
// (no token character right before or after), so that a longer run of the
// alphabet is not taken for a token.
type tokenFormat struct {
	what     string
	prefixes []string
	alphabet func(c byte) bool
	min, max int // body length
	certain  bool
	// shape, when set, also judges the body.
	shape func(body string) bool
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isBase32Upper(c byte) bool { return 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' }

func isURLBase64(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isSlackByte(c byte) bool { return isAlnum(c) || c == '-' }

var tokenFormats = []tokenFormat{
	{what: "a Stripe live secret key", prefixes: []string{"sk_live_"}, alphabet: isAlnum, min: 16, max: 247, certain: true},
	{what: "a Stripe live restricted key", prefixes: []string{"rk_live_"}, alphabet: isAlnum, min: 16, max: 247, certain: true},
	{what: "a GitHub token", prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, alphabet: isAlnum, min: 36, max: 36, certain: true},
	{what: "a GitHub fine-grained token", prefixes: []string{"github_pat_"}, alphabet: isWordByte, min: 82, max: 82, certain: true},
	{what: "an AWS access key ID", prefixes: []string{"AKIA", "ASIA"}, alphabet: isBase32Upper, min: 16, max: 16, certain: true},
	{what: "a Slack token", prefixes: []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-"}, alphabet: isSlackByte, min: 20, max: 250, certain: true, shape: slackShape},
	{what: "a Google API key", prefixes: []string{"AIza"}, alphabet: isURLBase64, min: 35, max: 35},
}

// findToken returns the token format s holds, if any. path and siblings are
// where s is written (the key path, the object that holds it), for the
// formats that are also made for browsers.
func findToken(s string, path ast.Path, siblings *ast.Object) (token, bool) {
	for _, f := range tokenFormats {
		for _, p := range f.prefixes {
			for i := 0; ; {
				j := strings.Index(s[i:], p)
				if j < 0 {
					break
				}
				start := i + j
				i = start + len(p)
				if start > 0 && (f.alphabet(s[start-1]) || isAlnum(s[start-1])) {
					continue
				}
				end := i
				for end < len(s) && f.alphabet(s[end]) {
					end++
				}
				if n := end - i; n < f.min || n > f.max || placeholderToken(s[i:end]) {
					continue
				}
				if f.shape != nil && !f.shape(s[i:end]) {
					continue
				}
				if !f.certain && publicByDesign(path, siblings) {
					continue
				}
				return token{What: f.what, Certain: f.certain}, true
			}
		}
	}
	if privateKeyBlock(s) {
		return token{What: "a private key", Certain: true}, true
	}
	if role, ok := jwtRole(s); ok && role != "anon" && !publicByDesign(path, siblings) {
		// Supabase's anon key is a JWT with role anon, made for browsers.
		what := "a JSON Web Token"
		if role != "" {
			what += " with role " + strconv.Quote(role)
		}
		return token{What: what, Certain: role == "service_role"}, true
	}
	return token{}, false
}

// slackShape reports whether the body of a Slack token (after xoxb-) is
// one or more numeric ids followed by a secret part of 8 characters or more
// (xoxb-123456-7890-AbCd...).
func slackShape(body string) bool {
	parts := strings.Split(body, "-")
	if len(parts) < 2 || len(parts[len(parts)-1]) < 8 {
		return false
	}
	for _, p := range parts[:len(parts)-1] {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// placeholderToken reports whether a token's body is a stand-in: a run of
// one character (xxxx, 0000, ****), or a word such as example or your
// (AWS's documented AKIAIOSFODNN7EXAMPLE).
func placeholderToken(body string) bool {
	l := strings.ToLower(body)
	if l == "" || strings.Trim(l, l[:1]) == "" {
		return true
	}
	for _, w := range []string{"xxxx", "0000", "example", "your", "placeholder", "dummy", "fake", "sample", "redacted", "changeme", "replace"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// privateKeyBlock reports whether s holds a PEM private key with a body: a
// "-----BEGIN ... PRIVATE KEY-----" line followed by at least 64 base64
// characters before its END line (a header alone, or one around "..." or
// "<key>", is a placeholder).
func privateKeyBlock(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], "-----BEGIN ")
		if j < 0 {
			return false
		}
		start := i + j + len("-----BEGIN ")
		i = start
		end := strings.Index(s[start:], "-----")
		if end < 0 {
			return false
		}
		label := s[start : start+end]
		if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
			continue
		}
		body := s[start+end+5:]
		if k := strings.Index(body, "-----END"); k >= 0 {
			body = body[:k]
		}
		n := 0
		for k := 0; k < len(body); k++ {
			c := body[k]
			if isAlnum(c) || c == '+' || c == '/' || c == '=' {
				n++
			}
		}
		if n >= 64 && !placeholderToken(strings.Join(strings.Fields(body), "")) {
			return true
		}
	}
}

// jwtRole returns the role claim of a JSON Web Token that s holds
// ("" when it has none); ok is false when s holds none: three base64url
// parts whose first two decode to JSON objects. The example token of the
// JWT documentation (subject 1234567890, John Doe) is not one.
func jwtRole(s string) (role string, ok bool) {
	i := strings.Index(s, "eyJ")
	if i < 0 {
		return "", false
	}
	end := i
	for end < len(s) && (isURLBase64(s[end]) || s[end] == '.') {
		end++
	}
	parts := strings.Split(s[i:end], ".")
	if len(parts) != 3 || len(parts[1]) < 8 || len(parts[2]) < 16 {
		return "", false
	}
	var header, claims map[string]any
	for k, dst := range []*map[string]any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[k], "="))
		if err != nil || json.Unmarshal(b, dst) != nil {
			return "", false
		}
	}
	if claims["sub"] == "1234567890" && claims["name"] == "John Doe" {
		return "", false
	}
	role, _ = claims["role"].(string)
	return role, true
}

// publicByDesign reports whether a value at path is meant for the browser:
// a word of publicWords in any segment of the path (runtimeConfig.public,
// googleMapsKey, firebase.apiKey), or a sibling of a Firebase web config or
// a search-only key.
func publicByDesign(path ast.Path, siblings *ast.Object) bool {
	for _, seg := range path {
		for _, w := range keyWords(seg) {
			if publicWords[w] {
				return true
			}
		}
	}
	return siblings != nil && (siblings.Get("authDomain") != nil || siblings.Get("indexName") != nil)
}

// highEntropy reports whether s looks random enough to be a generated
// secret: 16 characters or more, one token (no spaces), and a Shannon
// entropy of at least 3.5 bits per character, or 3.0 when s is all
// hexadecimal digits (whose alphabet has 16 symbols, so 4 bits at most).
// These are gitleaks' generic-secret and detect-secrets' hex thresholds.
func highEntropy(s string) bool {
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
