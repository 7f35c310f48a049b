package secret_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/secret"
)

// FuzzFindToken: the token, private-key, JWT and entropy checks take any
// text (a config's string, a .env value) without panicking, and a found
// token names its format.
func FuzzFindToken(f *testing.F) {
	for _, s := range []string{
		"sk_live_9DoV8gz4FkQ1okTBGzvAmwuf",
		"Bearer ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d",
		"xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		"xoxb--",
		"-----BEGIN RSA PRIVATE KEY-----\n" + "GBLEPH1qhT61qtc4xatws8phP9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUsGr" + "\n-----END RSA PRIVATE KEY-----",
		"-----BEGIN ",
		"eyJ.eyJ.x",
		"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNzAwMDAwMDAwfQ.CnD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3yBd",
		"AKIAUVW75EFR6EDT4SYW", "AIza", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tok, ok := secret.FindToken(s, secret.Site{Path: ast.Path{"runtimeConfig", "x"}, AWSID: true}); ok && tok.What == "" {
			t.Errorf("secret.FindToken(%q): a token without a name", s)
		}
		secret.HighEntropy(s)
		secret.PlaceholderToken(s)
		secret.Placeholder(s)
		secret.EnvComments([]byte(s))
	})
}

func TestCredentialURL(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string // "" when none
	}{
		{"postgres://app:Vq8Lz2Tm4Kx9Rw3N@db.acme-corp.io:5432/app", "a PostgreSQL URL with a password"},
		{"mongodb+srv://app:Vq8Lz2Tm4Kx9Rw3N@cluster0.ab1cd.mongodb.net/x?retryWrites=true", "a MongoDB URL with a password"},
		{"redis://:Vq8Lz2Tm4Kx9Rw3N@cache.acme.internal:6379/0", "a Redis URL with a password"},
		{"url=jdbc:mysql://db.acme.io/app?user=app&password=Vq8Lz2Tm4Kx9Rw3N", "a MySQL URL with a password"},
		{"Server=tcp:acme.database.windows.net;Database=app;Password=Vq8Lz2Tm4Kx9Rw3N;", "a connection string with a password"},
		{"Server=localhost;Database=app;Password=Vq8Lz2Tm4Kx9Rw3N;", ""},
		{"postgres://app:Vq8Lz2Tm4Kx9Rw3N@localhost:5432/app", ""},
		{"postgres://app:Vq8Lz2Tm4Kx9Rw3N@[::1]:5432/app", ""},
		{"postgres://app:Vq8Lz2Tm4Kx9Rw3N@db.example.com/app", ""},
		{"postgres://postgres:postgres@db.acme.io/app", ""},
		{"postgres://app:${DB_PASSWORD}@db.acme.io/app", ""},
		{"postgres://app:<password>@db.acme.io/app", ""},
		{"postgres://USER:PASSWORD@HOST/DB", ""},
		{"postgres://app@db.acme.io/app", ""},
		{"https://9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a40@o1.ingest.sentry.io/2", ""},
		{"https://acme.io/reset?next=/x", ""},
		{"ftp://", ""},
		{"://:@", ""},
	} {
		got, _ := secret.CredentialURL(c.s)
		if got != c.want {
			t.Errorf("CredentialURL(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestEnvComments(t *testing.T) {
	src := "# settings\n" +
		"#STRIPE_KEY=sk_live_x # old\n" +
		"  ## export TOKEN = \"a b\\\"c\"\n" +
		"CERT=\"-----BEGIN CERTIFICATE-----\n" +
		"# API_SECRET=inside the value\n" +
		"-----END CERTIFICATE-----\"\n" +
		"ONE='single # not a comment'\n" +
		"#\n" +
		"# Note: prose with a colon\n"
	got := secret.EnvComments([]byte(src))
	want := []secret.EnvComment{
		{Value: "settings"},
		{Name: "STRIPE_KEY", Value: "sk_live_x"},
		{Name: "TOKEN", Value: `a b"c`},
		{Value: "Note: prose with a colon"},
	}
	if len(got) != len(want) {
		t.Fatalf("EnvComments: got %d comments %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Value != w.Value {
			t.Errorf("comment %d: got %q=%q, want %q=%q", i, g.Name, g.Value, w.Name, w.Value)
		}
		at := g.Name
		if at == "" {
			at = g.Value
		}
		if span := src[g.Span.Start:g.Span.End]; span != at {
			t.Errorf("comment %d: its span holds %q, want %q", i, span, at)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"sk_live_...":                          true,
		"sk-…":                                 true,
		"password-with-at-least-32-characters": true,
		"my-super-secret-key":                  true,
		"development":                          true,
		"API_CLIENT_SECRET":                    true,
		"mysupersecretpassword":                true,
		"{{ secrets.API_SECRET }}":             true,
		"%API_SECRET%":                         true,
		"$API_SECRET":                          true,
		"abcdefghijklmnop1234":                 true,
		"Tr0ub4dor&3x!":                        false,
		"k7Qz2vXp9Lm4tR8wYc3NbF6hJd0sG5aE":     false,
		"qhxvtrmzkwplbfgdnjcsqhxvtrmzkwpl":     false, // lower-case letters without words' vowels
		"9f86d081884c7d659a2feaa0c55ad015":     false,
	} {
		if got := secret.Placeholder(s); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSecretLookingNames(t *testing.T) {
	for key, want := range map[string]bool{
		"apiSecret": true, "dbPassword": true, "ALGOLIA_ADMIN_KEY": true, "FIREBASE_PRIVATE_KEY": true,
		"secretName": false, "passwordResetUrl": false, "tokenHeader": false, "API_KEY_FILE": false,
		"ALGOLIA_SEARCH_KEY": false, "firebaseApiKey": false, "cacheKey": false,
	} {
		if _, _, got := secret.Looking(ast.Path{key}, nil); got != want {
			t.Errorf("Looking(%s) = %v, want %v", key, got, want)
		}
	}
	for _, c := range []struct {
		path ast.Path
		want bool
	}{
		{ast.Path{"recaptcha", "siteKey"}, false},
		{ast.Path{"recaptcha", "siteSecret"}, true},
		{ast.Path{"site", "adminPassword"}, true},
		{ast.Path{"scripts", "posthog", "apiKey"}, false},
		{ast.Path{"public", "apiSecret"}, true}, // the section is not a word of the key: FW501's case
		{ast.Path{"publicKeys", "apiSecret"}, false},
	} {
		if _, _, got := secret.Looking(c.path, nil); got != c.want {
			t.Errorf("Looking(%s) = %v, want %v", c.path, got, c.want)
		}
	}
}

// TestSecretChecksLinear feeds the secret checks texts built to make a
// quadratic scan show (a prefix, a PEM header, a JWT start, a URL
// separator repeated 20,000 times, up to half a megabyte): a linear pass
// reads each in milliseconds, a quadratic one would take minutes. (It
// asserts nothing but finishing: timing a test on a shared machine would be
// flaky; BenchmarkSecretChecks measures.)
func TestSecretChecksLinear(t *testing.T) {
	const n = 20_000
	for _, unit := range []string{
		"sk-ant-", "ghp_", "github_pat_", "AKIA", "xoxb-1-", "sk-", "dp.pt.",
		"-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN ", "eyJ.", "eyJhbGciOiJIUzI1NiJ9.",
		"://", "postgres://a:b@", "password=", ";Password=x", "hooks.slack.com/services/T",
		"discord.com/api/webhooks/", ":AA", "1:AA", "a/", "#\n", "# K=\"\n", "K=\"\n",
		"https://api.acme.io/v1 ", "https://h/?next=://", "password=password=",
	} {
		s := strings.Repeat(unit, n)
		site := secret.Site{Path: ast.Path{"aws", "x"}, AWSID: true}
		secret.FindToken(s, site)
		secret.Placeholder(s)
		secret.HighEntropy(s)
		secret.EnvComments([]byte(s))
		secret.Judge(s, site, ast.Path{"apiSecret"}, true, true)
	}
}

// BenchmarkSecretChecks measures the secret checks on a .env-sized value
// of mixed text and on one of the hostile texts above.
func BenchmarkSecretChecks(b *testing.B) {
	for name, s := range map[string]string{
		"mixed":   strings.Repeat("FW_API_BASE=https://api.acme.io/v1 sk_live_x eyJ.x ://a:b@ ", 20_000),
		"prefix":  strings.Repeat("github_pat_", 100_000),
		"pem":     strings.Repeat("-----BEGIN RSA PRIVATE KEY-----", 100_000),
		"webhook": strings.Repeat("hooks.slack.com/services/T", 100_000),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			site := secret.Site{Path: ast.Path{"aws", "x"}, AWSID: true}
			for i := 0; i < b.N; i++ {
				secret.Judge(s, site, ast.Path{"apiSecret"}, true, true)
				secret.EnvComments([]byte(s))
			}
		})
	}
}
