package compat

import (
	"slices"
	"testing"
)

// The examples table of migration facts §10, both directions.
var envExamples = []struct{ path, name string }{
	{"apiSecret", "FW_API_SECRET"},
	{"public.apiBase", "FW_PUBLIC_API_BASE"},
	{"apiURL", "FW_API_URL"},
	{"myAPIKey", "FW_MY_API_KEY"},
	{"oauth2ClientId", "FW_OAUTH2_CLIENT_ID"},
	{"api1Base", "FW_API1_BASE"},
	{"HTMLParser", "FW_HTML_PARSER"},
	{"API_KEY", "FW_API_KEY"},
	{"api-key", "FW_API_KEY"},
	{"auth.github.clientId", "FW_AUTH_GITHUB_CLIENT_ID"},
	{"myKey_", "FW_MY_KEY_"},
	{"ab1C", "FW_AB1C"},
	{"app.baseURL", "FW_APP_BASE_URL"},
	{"app.cdnURL", "FW_APP_CDN_URL"},
}

func TestEnvName(t *testing.T) {
	for _, c := range envExamples {
		if got := EnvName(c.path); got != c.name {
			t.Errorf("EnvName(%q) = %q, want %q", c.path, got, c.name)
		}
	}
	// The rules of the case-splitting helper, one by one.
	for _, c := range []struct{ path, name string }{
		{"apiKey", "FW_API_KEY"},
		{"a__b", "FW_A__B"},
		{"_x", "FW__X"},
		{"foo1Bar", "FW_FOO1_BAR"},
		{"a/b.c-d_e", "FW_A_B_C_D_E"},
		{"ABC", "FW_ABC"},
		{"Abc", "FW_ABC"},
		{"aBC", "FW_A_BC"},
		{"a$b", "FW_A$B"},
		{"x$Y", "FW_X$_Y"}, // other non-letters count as lower
		{"appSecret", "FW_APP_SECRET"},
		{"engine.envPrefix", "FW_ENGINE_ENV_PREFIX"},
		{"", "FW_"},
		{"éTé", "FW_É_TÉ"},
	} {
		if got := EnvName(c.path); got != c.name {
			t.Errorf("EnvName(%q) = %q, want %q", c.path, got, c.name)
		}
	}
}

// envTarget is EnvTarget, checked against NewEnvTargets' answer.
func envTarget(t *testing.T, name string, keys []string) (string, bool) {
	t.Helper()
	got, ok := EnvTarget(name, keys)
	if idx, iok := NewEnvTargets(keys).Target(name); idx != got || iok != ok {
		t.Errorf("NewEnvTargets(%q).Target(%q) = %q, %v; EnvTarget gives %q, %v", keys, name, idx, iok, got, ok)
	}
	return got, ok
}

func TestEnvTarget(t *testing.T) {
	for _, c := range envExamples {
		if c.path == "api-key" {
			continue // collides with API_KEY, checked below
		}
		keys := []string{"unrelated", c.path, "other.key"}
		if got, ok := envTarget(t, c.name, keys); !ok || got != c.path {
			t.Errorf("EnvTarget(%q) = %q, %v; want %q", c.name, got, ok, c.path)
		}
		engine := EngineEnvPrefix + c.name[len(EnvPrefix):]
		if got, ok := envTarget(t, engine, keys); !ok || got != c.path {
			t.Errorf("EnvTarget(%q) = %q, %v; want %q", engine, got, ok, c.path)
		}
	}
	keys := []string{"apiSecret", "public.apiBase", "auth.github.clientId", "apiKey", "api_key"}
	for _, c := range []struct {
		name, want string
		ok         bool
	}{
		{"FW_PUBLIC", "public", true}, // a parent object: a JSON value replaces it
		{"FW_AUTH_GITHUB", "auth.github", true},
		{"FW_PUBLIC_API_BASE", "public.apiBase", true},
		{"FW_API_BASE", "", false}, // declared under public only
		{"FW_APISECRET", "", false},
		{"API_SECRET", "", false}, // no prefix
		{"FW_", "", false},
		{"NUXT_API_SECRET", "", false},
		{"FW_API_KEY", "apiKey", true}, // the first of the keys that collide
	} {
		got, ok := envTarget(t, c.name, keys)
		if got != c.want || ok != c.ok {
			t.Errorf("EnvTarget(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestEnvCollisions(t *testing.T) {
	got := EnvCollisions([]string{"apiKey", "public.apiBase", "api_key", "api-key", "API_KEY", "a.b", "aB", "other"})
	want := []EnvCollision{
		{Name: "FW_API_KEY", Keys: []string{"apiKey", "api_key", "api-key", "API_KEY"}},
		{Name: "FW_A_B", Keys: []string{"a.b", "aB"}},
	}
	if !slices.EqualFunc(got, want, func(a, b EnvCollision) bool { return a.Name == b.Name && slices.Equal(a.Keys, b.Keys) }) {
		t.Errorf("EnvCollisions = %+v\nwant %+v", got, want)
	}
	if got := EnvCollisions([]string{"apiSecret", "public.apiBase"}); got != nil {
		t.Errorf("EnvCollisions(distinct) = %+v", got)
	}
}

func FuzzEnvName(f *testing.F) {
	for _, c := range envExamples {
		f.Add(c.path)
	}
	f.Fuzz(func(t *testing.T, path string) {
		name := EnvName(path)
		if got, ok := envTarget(t, name, []string{path}); !ok || EnvName(got) != name {
			t.Fatalf("EnvTarget(EnvName(%q) = %q) = %q, %v", path, name, got, ok)
		}
	})
}

func BenchmarkEnvTargets(b *testing.B) {
	keys := []string{"apiSecret", "public.apiBase", "auth.github.clientId", "auth.github.clientSecret", "stripe.key", "public.siteUrl"}
	t := NewEnvTargets(keys)
	for b.Loop() {
		t.Target("FW_AUTH_GITHUB_CLIENT_SECRET")
	}
}

func BenchmarkEnvTarget(b *testing.B) {
	keys := []string{"apiSecret", "public.apiBase", "auth.github.clientId", "auth.github.clientSecret", "stripe.key", "public.siteUrl"}
	for b.Loop() {
		EnvTarget("FW_AUTH_GITHUB_CLIENT_SECRET", keys)
	}
}
