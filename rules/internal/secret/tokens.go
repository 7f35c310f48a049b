package secret

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Tokens found by their format, as secret scanners find them (gitleaks'
// rules): provider prefixes and shapes that are secrets wherever they are
// written, whatever the key that holds them. Every check here is one pass
// over the text (or a few, one per format): no backtracking, no quadratic
// rescans, whatever the input.

// A Token is a token found by its format.
type Token struct {
	What string // "a Stripe live restricted key"
	// Certain: the format is a secret by itself (Stripe, GitHub, AWS, Slack,
	// private keys, passwords in URLs). Google API keys and JWTs are also
	// made for browsers (Maps and Firebase keys, Supabase's anon key): those
	// are judged by where they are written, and reported as warnings.
	Certain bool
}

// Site is where a value is written, for the formats whose meaning
// depends on it: the key path (a runtimeConfig or option path, or a .env
// variable's name), the object that holds the value (nil in .env files),
// and whether an AWS access key ID is written beside it (in the same
// object, or the same .env file), which makes a 40-character base64 run an
// AWS secret access key.
type Site struct {
	Path     ast.Path
	Siblings *ast.Object
	AWSID    bool
	// AWSObjects (optional) caches, per object, whether it holds an AWS access key ID
	// (siblingAWSKeyID), so that an object of many properties is read once.
	AWSObjects map[*ast.Object]bool
}

// besideAWSKeyID reports whether the site says AWS: an AWS access key ID
// beside the value, or the word aws in its key path.
func (site Site) besideAWSKeyID() bool {
	if site.AWSID || pathSays(site.Path, "aws") {
		return true
	}
	if site.Siblings == nil {
		return false
	}
	if v, ok := site.AWSObjects[site.Siblings]; ok {
		return v
	}
	v := siblingAWSKeyID(site.Siblings)
	if site.AWSObjects != nil {
		site.AWSObjects[site.Siblings] = v
	}
	return v
}

// tokenFormat is one format: the prefixes that start it, the alphabet of
// its body and the body's length range. Matches are checked at the
// boundaries (no token character right before the prefix or after the
// body), so that a longer run of the alphabet is not taken for a token.
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

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLowerHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

func isBase32Upper(c byte) bool { return 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' }

func isURLBase64(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

func isBase64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

func isBase64Pad(c byte) bool { return isBase64(c) || c == '=' }

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isSlackByte(c byte) bool { return isAlnum(c) || c == '-' }

func isDotted(c byte) bool { return isURLBase64(c) || c == '.' }

var tokenFormats = []tokenFormat{
	// Payments. Stripe's test keys (sk_test_) are not here: they move no
	// money. Clerk's secret keys share sk_live_.
	{what: "a Stripe or Clerk live secret key", prefixes: []string{"sk_live_"}, alphabet: isAlnum, min: 16, max: 247, certain: true},
	{what: "a Stripe live restricted key", prefixes: []string{"rk_live_"}, alphabet: isAlnum, min: 16, max: 247, certain: true},
	{what: "a webhook signing secret (whsec_)", prefixes: []string{"whsec_"}, alphabet: isBase64Pad, min: 24, max: 100, certain: true, shape: mixedToken},
	{what: "a Shopify access token", prefixes: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, alphabet: isAlnum, min: 32, max: 32, certain: true},

	// Code hosting and packages.
	{what: "a GitHub token", prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, alphabet: isAlnum, min: 36, max: 36, certain: true},
	{what: "a GitHub fine-grained token", prefixes: []string{"github_pat_"}, alphabet: isWordByte, min: 82, max: 82, certain: true},
	{what: "a GitLab token", prefixes: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "gloas-"}, alphabet: isDotted, min: 20, max: 320, certain: true, shape: mixedToken},
	{what: "an npm access token", prefixes: []string{"npm_"}, alphabet: isAlnum, min: 36, max: 36, certain: true},
	{what: "a PyPI upload token", prefixes: []string{"pypi-AgEIcHlwaS5vcmc"}, alphabet: isURLBase64, min: 50, max: 1000, certain: true},
	{what: "an Atlassian API token", prefixes: []string{"ATATT3"}, alphabet: isBase64Pad, min: 150, max: 250, certain: true, shape: mixedToken},

	// Cloud and hosting.
	{what: "an AWS access key ID", prefixes: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, alphabet: isBase32Upper, min: 16, max: 16, certain: true},
	{what: "a DigitalOcean token", prefixes: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, alphabet: isLowerHex, min: 64, max: 64, certain: true},
	{what: "a Heroku API key", prefixes: []string{"HRKU-"}, alphabet: isURLBase64, min: 60, max: 60, certain: true},
	{what: "a Netlify access token", prefixes: []string{"nfp_"}, alphabet: isAlnum, min: 36, max: 40, certain: true, shape: mixedToken},
	{what: "a Databricks access token", prefixes: []string{"dapi"}, alphabet: isLowerHex, min: 32, max: 32, certain: true, shape: mixedToken},
	{what: "a Doppler token", prefixes: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."}, alphabet: isAlnum, min: 40, max: 44, certain: true},
	{what: "an Azure storage account key", prefixes: []string{"AccountKey="}, alphabet: isBase64Pad, min: 86, max: 88, certain: true},
	{what: "an Azure shared access key", prefixes: []string{"SharedAccessKey="}, alphabet: isBase64Pad, min: 43, max: 44, certain: true},
	// Laravel's APP_KEY (and other frameworks' keys written the same way):
	// base64: and 32 random bytes.
	{what: "an application key (base64:...)", prefixes: []string{"base64:"}, alphabet: isBase64Pad, min: 43, max: 88, certain: true, shape: mixedToken},

	// AI providers.
	{what: "an Anthropic API key", prefixes: []string{"sk-ant-"}, alphabet: isURLBase64, min: 32, max: 200, certain: true, shape: mixedToken},
	{what: "an OpenAI API key", prefixes: []string{"sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"}, alphabet: isURLBase64, min: 40, max: 300, certain: true, shape: mixedToken},
	{what: "an OpenRouter API key", prefixes: []string{"sk-or-v1-"}, alphabet: isLowerHex, min: 64, max: 64, certain: true},
	// sk- and 32 to 64 letters and digits: OpenAI's user keys (with the
	// T3BlbkFJ marker) and the many APIs that copy its format (DeepSeek,
	// Moonshot...). A word such as sk-learn is too short and too plain.
	{what: "a secret API key (sk-)", prefixes: []string{"sk-"}, alphabet: isAlnum, min: 32, max: 64, certain: true, shape: mixedToken},
	{what: "a Google API key", prefixes: []string{"AIza"}, alphabet: isURLBase64, min: 35, max: 35},
	{what: "a Google OAuth client secret", prefixes: []string{"GOCSPX-"}, alphabet: isURLBase64, min: 28, max: 28, certain: true, shape: mixedToken},
	{what: "a Hugging Face token", prefixes: []string{"hf_", "api_org_"}, alphabet: isAlnum, min: 34, max: 34, certain: true, shape: mixedToken},
	{what: "a Groq API key", prefixes: []string{"gsk_"}, alphabet: isAlnum, min: 52, max: 52, certain: true},
	{what: "a Replicate API token", prefixes: []string{"r8_"}, alphabet: isAlnum, min: 37, max: 37, certain: true, shape: mixedToken},
	{what: "a Perplexity API key", prefixes: []string{"pplx-"}, alphabet: isAlnum, min: 48, max: 48, certain: true},
	{what: "an xAI API key", prefixes: []string{"xai-"}, alphabet: isAlnum, min: 80, max: 80, certain: true},

	// Messaging, mail, productivity.
	{what: "a Slack token", prefixes: []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"}, alphabet: isSlackByte, min: 20, max: 250, certain: true, shape: slackShape},
	{what: "a Slack app token", prefixes: []string{"xapp-"}, alphabet: isSlackByte, min: 40, max: 250, certain: true, shape: slackAppShape},
	{what: "a SendGrid API key", prefixes: []string{"SG."}, alphabet: isDotted, min: 66, max: 66, certain: true, shape: sendgridShape},
	{what: "a Brevo API key", prefixes: []string{"xkeysib-"}, alphabet: isSlackByte, min: 70, max: 90, certain: true, shape: mixedToken},
	{what: "a Resend API key", prefixes: []string{"re_"}, alphabet: isWordByte, min: 30, max: 40, certain: true, shape: resendShape},
	{what: "a Linear API key", prefixes: []string{"lin_api_"}, alphabet: isAlnum, min: 40, max: 40, certain: true},
	{what: "a Notion integration token", prefixes: []string{"ntn_"}, alphabet: isAlnum, min: 46, max: 46, certain: true, shape: mixedToken},
	{what: "a Notion integration token", prefixes: []string{"secret_"}, alphabet: isAlnum, min: 43, max: 43, certain: true, shape: mixedToken},
	{what: "a Postman API key", prefixes: []string{"PMAK-"}, alphabet: isSlackByte, min: 59, max: 59, certain: true},
	{what: "a Sentry auth token", prefixes: []string{"sntryu_"}, alphabet: isLowerHex, min: 64, max: 64, certain: true},
	{what: "a Sentry auth token", prefixes: []string{"sntrys_"}, alphabet: isBase64Pad, min: 50, max: 400, certain: true, shape: mixedToken},
	{what: "a Mapbox secret token", prefixes: []string{"sk.eyJ"}, alphabet: isDotted, min: 50, max: 300, certain: true, shape: mixedToken},
}

// formatsByByte indexes the formats by the first byte of their prefixes, so
// that a text is read once, each position looked up in the table.
var formatsByByte = func() (t [256][]formatPrefix) {
	for i := range tokenFormats {
		f := &tokenFormats[i]
		for _, p := range f.prefixes {
			t[p[0]] = append(t[p[0]], formatPrefix{f, p})
		}
	}
	return t
}()

type formatPrefix struct {
	f      *tokenFormat
	prefix string
}

// FindToken returns the token s holds, if any: a format of tokenFormats,
// a private key, a JSON Web Token, a URL or connection string with a
// password, a webhook URL, a Telegram bot token, and, where the site says
// AWS, a secret access key. Documented examples and placeholders are not
// tokens.
func FindToken(s string, site Site) (Token, bool) {
	if tok, ok := findPrefixed(s, site); ok {
		return tok, true
	}
	if privateKeyBlock(s) {
		return Token{What: "a private key", Certain: true}, true
	}
	if role, ok := jwtRole(s); ok && role != "anon" && !publicByDesign(site.Path, site.Siblings) {
		// Supabase's anon key is a JWT with role anon, made for browsers.
		what := "a JSON Web Token"
		if role != "" {
			what += " with role " + strconv.Quote(role)
		}
		return Token{What: what, Certain: role == "service_role"}, true
	}
	if what, ok := webhookURL(s); ok {
		return Token{What: what, Certain: true}, true
	}
	if what, ok := CredentialURL(s); ok {
		return Token{What: what, Certain: true}, true
	}
	if telegramToken(s) {
		return Token{What: "a Telegram bot token", Certain: true}, true
	}
	if awsSecretKey(s) && site.besideAWSKeyID() {
		return Token{What: "an AWS secret access key", Certain: true}, true
	}
	return Token{}, false
}

// findPrefixed finds a token of tokenFormats in s, reading s once.
func findPrefixed(s string, site Site) (Token, bool) {
	for start := 0; start < len(s); start++ {
		cands := formatsByByte[s[start]]
		if len(cands) == 0 || start > 0 && isAlnum(s[start-1]) {
			continue
		}
		for _, c := range cands {
			f, p := c.f, c.prefix
			if !strings.HasPrefix(s[start:], p) || start > 0 && f.alphabet(s[start-1]) {
				continue
			}
			i := start + len(p)
			end := i
			for end < len(s) && f.alphabet(s[end]) && end-i <= f.max {
				end++
			}
			body := s[i:end]
			if n := len(body); n < f.min || n > f.max {
				continue
			}
			if f.shape != nil && !f.shape(body) || PlaceholderToken(body) || documented(s[start:end]) {
				continue
			}
			if !f.certain && publicByDesign(site.Path, site.Siblings) {
				continue
			}
			return Token{What: f.what, Certain: f.certain}, true
		}
	}
	return Token{}, false
}

// mixedToken reports whether a token's body looks generated: letters and
// digits both, or letters of both cases.
func mixedToken(body string) bool {
	var lower, upper, digit bool
	for i := 0; i < len(body); i++ {
		c := body[i]
		lower = lower || 'a' <= c && c <= 'z'
		upper = upper || 'A' <= c && c <= 'Z'
		digit = digit || isDigit(c)
	}
	return (lower || upper) && digit || lower && upper
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
	return !PlaceholderToken(parts[len(parts)-1])
}

// slackAppShape: an app-level token, xapp-1-A0123ABCD-1234567890-<hex>.
func slackAppShape(body string) bool {
	parts := strings.Split(body, "-")
	return len(parts) == 4 && parts[0] != "" && strings.Trim(parts[0], "0123456789") == "" &&
		len(parts[1]) >= 8 && parts[2] != "" && strings.Trim(parts[2], "0123456789") == "" &&
		len(parts[3]) >= 32 && !PlaceholderToken(parts[3])
}

// sendgridShape: SG.<22 characters>.<43 characters>.
func sendgridShape(body string) bool {
	a, b, ok := strings.Cut(body, ".")
	return ok && len(a) == 22 && len(b) == 43 && !strings.Contains(b, ".") && mixedToken(b)
}

// resendShape: re_<8 characters>_<24 characters or so>, generated.
func resendShape(body string) bool {
	a, b, ok := strings.Cut(body, "_")
	return ok && len(a) == 8 && len(b) >= 20 && !strings.Contains(b, "_") && mixedToken(a+b)
}

// PlaceholderToken reports whether a token's body is a stand-in: a run of
// one character (xxxx, 0000, ****), a word such as example or your (AWS's
// documented AKIAIOSFODNN7EXAMPLE), or six characters or more in
// alphabetical or numerical order (abcdef, 123456: typed, not generated).
func PlaceholderToken(body string) bool {
	l := strings.ToLower(body)
	if l == "" || strings.Trim(l, l[:1]) == "" {
		return true
	}
	for _, w := range placeholderTokenWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return sequenceRun(l) >= 6
}

var placeholderTokenWords = []string{"xxxx", "0000", "example", "your", "placeholder", "dummy", "fake", "sample", "redacted", "changeme", "replace", "..."}

// sequenceRun returns the longest run of s (lower-cased) whose bytes go up
// one by one (abcdef, 3456789).
func sequenceRun(l string) int {
	best, run := 0, 0
	for i := 0; i < len(l); i++ {
		if i > 0 && isAlnum(l[i]) && l[i] == l[i-1]+1 {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// privateKeyBlock reports whether s holds a PEM private key with a body: a
// "-----BEGIN ... PRIVATE KEY-----" line followed by at least 64 base64
// characters before the next dashes (its END line); a header alone, or one
// around "..." or "<key>", is a placeholder. Each BEGIN is read up to the
// next run of dashes only, so that the text is read once.
func privateKeyBlock(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], "-----BEGIN ")
		if j < 0 {
			return false
		}
		start := i + j + len("-----BEGIN ")
		end := strings.Index(s[start:], "-----")
		if end < 0 {
			return false
		}
		label := s[start : start+end]
		bodyStart := start + end + 5
		k := strings.Index(s[bodyStart:], "-----")
		if k < 0 {
			k = len(s) - bodyStart
		}
		body := s[bodyStart : bodyStart+k]
		i = bodyStart + k
		if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
			continue
		}
		var b strings.Builder
		for k := 0; k < len(body); k++ {
			if c := body[k]; isBase64Pad(c) {
				b.WriteByte(c)
			}
		}
		if b.Len() >= 64 && !PlaceholderToken(b.String()) {
			return true
		}
	}
}

// jwtRole returns the role claim of the first JSON Web Token that s holds
// ("" when it has none); ok is false when s holds none: three base64url
// parts whose first two decode to JSON objects. Documented examples
// (jwt.io's, Supabase's local demo keys) are not tokens.
func jwtRole(s string) (role string, ok bool) {
	claims, ok := firstJWT(s)
	if !ok || documentedJWT(claims) {
		return "", false
	}
	role, _ = claims["role"].(string)
	return role, true
}

// firstJWT returns the claims of the first JSON Web Token in s. Each
// candidate is read up to the end of its run of token characters, and the
// next one searched after it, so that s is read once.
func firstJWT(s string) (map[string]any, bool) {
	for i := 0; ; {
		j := strings.Index(s[i:], "eyJ")
		if j < 0 {
			return nil, false
		}
		start := i + j
		end := start
		for end < len(s) && isDotted(s[end]) {
			end++
		}
		i = end
		if claims, ok := jwtClaims(s[start:end]); ok {
			return claims, true
		}
	}
}

// jwtClaims decodes a token of three base64url parts whose first two are
// JSON objects and returns the second, the claims.
func jwtClaims(t string) (map[string]any, bool) {
	parts := strings.Split(t, ".")
	if len(parts) != 3 || len(parts[1]) < 8 || len(parts[2]) < 16 {
		return nil, false
	}
	var header, claims map[string]any
	for k, dst := range []*map[string]any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[k], "="))
		if err != nil || json.Unmarshal(b, dst) != nil || *dst == nil {
			return nil, false
		}
	}
	return claims, true
}

// telegramToken reports whether s holds a Telegram bot token: the bot's
// numeric id, a colon, and 35 characters starting with AA
// (123456789:AAE...).
func telegramToken(s string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], ":AA")
		if j < 0 {
			return false
		}
		colon := i + j
		i = colon + 1
		d := colon
		for d > 0 && colon-d < 11 && isDigit(s[d-1]) {
			d--
		}
		if n := colon - d; n < 8 || n > 10 || d > 0 && isWordByte(s[d-1]) {
			continue
		}
		end := colon + 1
		for end < len(s) && isURLBase64(s[end]) && end-colon <= 36 {
			end++
		}
		if body := s[colon+1 : end]; len(body) == 35 && mixedToken(body) && !PlaceholderToken(body[2:]) {
			return true
		}
	}
}

// awsSecretKey reports whether s holds a run of exactly 40 base64
// characters that looks generated: an AWS secret access key, when the site
// says AWS (the run alone is too common: hashes, ids).
func awsSecretKey(s string) bool {
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64(s[j]) {
			j++
		}
		run := s[i:j]
		i = j
		if j < len(s) && s[j] == '=' {
			continue
		}
		if len(run) == 40 && mixedToken(run) && HighEntropy(run) && !PlaceholderToken(run) && !documented(run) {
			return true
		}
	}
	return false
}

// pathSays reports whether a word of any segment of a key path is w.
func pathSays(path ast.Path, w string) bool {
	for _, seg := range path {
		for _, x := range keyWords(seg) {
			if x == w {
				return true
			}
		}
	}
	return false
}

// HoldsAWSKeyID reports whether s holds an AWS access key ID.
func HoldsAWSKeyID(s string) bool {
	tok, ok := findPrefixed(s, Site{})
	return ok && tok.What == "an AWS access key ID"
}

// siblingAWSKeyID reports whether an object holds an AWS access key ID in
// one of its string properties.
func siblingAWSKeyID(o *ast.Object) bool {
	if o == nil {
		return false
	}
	for _, pr := range o.Props {
		if s, ok := ast.StaticString(pr.Value); ok && HoldsAWSKeyID(s) {
			return true
		}
	}
	return false
}
