package compat

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Environment variable prefixes of runtimeConfig overrides (migration facts
// §10). EnvPrefix is the default of runtimeConfig.engine.envPrefix;
// EngineEnvPrefix always works too and wins over it.
const (
	EnvPrefix       = "FW_"
	EngineEnvPrefix = "ENGINE_"
)

// EnvName returns the FW_ variable that overrides the runtimeConfig key at
// path (dotted, relative to runtimeConfig): "public.apiBase" gives
// FW_PUBLIC_API_BASE, "app.baseURL" FW_APP_BASE_URL.
func EnvName(path string) string { return EnvPrefix + EnvKey(path) }

// EnvKey returns the part of the variable name after the prefix: the key
// path's parts joined by "_", split by case and upper-cased exactly as the
// engine does (migration facts §10). Letters outside ASCII follow Go's
// simple case mapping, which can differ from JavaScript's (ß).
func EnvKey(path string) string {
	if k, ok := envKeyMemo.Load(path); ok {
		return k.(string)
	}
	parts := SplitByCase(path)
	for i, p := range parts {
		parts[i] = strings.ToUpper(strings.ToLower(p))
	}
	k := strings.Join(parts, "_")
	if envKeyCount.Add(1) <= maxEnvKeys {
		envKeyMemo.Store(path, k)
	}
	return k
}

// envKeyMemo memoizes EnvKey, which is pure: every project's env checks
// convert the framework's own runtimeConfig keys and the usual public.*
// keys again. At most maxEnvKeys paths are kept, so that inputs full of
// distinct keys cannot grow it without bound.
var (
	envKeyMemo  sync.Map // path -> key
	envKeyCount atomic.Int64
)

const maxEnvKeys = 1 << 14

// caseOf is a character's case: digits are neutral, other non-letters lower.
type caseOf uint8

const (
	caseNeutral caseOf = iota
	caseUpper
	caseLower
)

func charCase(r rune) caseOf {
	if r >= '0' && r <= '9' {
		return caseNeutral
	}
	if s := string(r); strings.ToLower(s) != s {
		return caseUpper
	}
	return caseLower
}

// SplitByCase splits s at the separators - _ / . (keeping empty parts), before
// an upper letter that follows a lower one, and before the last of a run of
// upper letters that a lower letter follows ("HTMLParser" -> HTML, Parser).
// It is the framework's one case splitter: environment variable names and
// component names (ComponentName) are made with it.
func SplitByCase(s string) []string {
	var parts []string
	buf := make([]rune, 0, len(s))
	prev := caseNeutral // neutral also stands for "no previous character"
	for _, r := range s {
		if r == '-' || r == '_' || r == '/' || r == '.' {
			parts = append(parts, string(buf))
			buf, prev = buf[:0], caseNeutral
			continue
		}
		c := charCase(r)
		switch {
		case prev == caseLower && c == caseUpper:
			parts = append(parts, string(buf))
			buf = append(buf[:0], r)
		case prev == caseUpper && c == caseLower && len(buf) > 1:
			last := buf[len(buf)-1]
			parts = append(parts, string(buf[:len(buf)-1]))
			buf = append(buf[:0], last, r)
		default:
			buf = append(buf, r)
		}
		prev = c
	}
	return append(parts, string(buf))
}

// EnvTarget returns the declared runtimeConfig key that the variable name
// overrides (with the FW_ or the ENGINE_ prefix), or false. keys are the
// declared key paths; their parent objects count as declared too, since a
// variable may replace a whole object. When several keys share the name
// (see EnvCollisions) the first in keys' order is returned.
func EnvTarget(name string, keys []string) (string, bool) {
	rest, ok := envRest(name)
	if !ok {
		return "", false
	}
	for _, k := range withParents(keys) {
		if EnvKey(k) == rest {
			return k, true
		}
	}
	return "", false
}

// envRest is name without its FW_ or ENGINE_ prefix.
func envRest(name string) (string, bool) {
	switch {
	case strings.HasPrefix(name, EngineEnvPrefix):
		return name[len(EngineEnvPrefix):], true
	case strings.HasPrefix(name, EnvPrefix):
		return name[len(EnvPrefix):], true
	}
	return "", false
}

// EnvTargets answers EnvTarget for one set of keys and many variables: it
// converts each key once instead of once per variable.
type EnvTargets struct {
	byKey map[string]string // EnvKey -> the first key (or parent) with it
}

// NewEnvTargets indexes keys as EnvTarget reads them.
func NewEnvTargets(keys []string) *EnvTargets {
	all := withParents(keys)
	t := &EnvTargets{byKey: make(map[string]string, len(all))}
	for _, k := range all {
		e := EnvKey(k)
		if _, dup := t.byKey[e]; !dup {
			t.byKey[e] = k
		}
	}
	return t
}

// Target returns EnvTarget(name, keys) for the keys t was made from.
func (t *EnvTargets) Target(name string) (string, bool) {
	rest, ok := envRest(name)
	if !ok {
		return "", false
	}
	k, ok := t.byKey[rest]
	return k, ok
}

// withParents returns keys with every parent path added before its first
// child, without duplicates.
func withParents(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		for i := 0; i <= len(k); {
			j := strings.IndexByte(k[i:], '.')
			end := len(k)
			if j >= 0 {
				end = i + j
			}
			if p := k[:end]; !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			if j < 0 {
				break
			}
			i = end + 1
		}
	}
	return out
}

// EnvCollision is a variable name that several declared keys map to: one
// variable overrides all of them.
type EnvCollision struct {
	Name string   // FW_...
	Keys []string // in the order given
}

// EnvCollisions returns the variable names that more than one of keys (or
// their parents) map to, sorted by name: apiKey, api_key, api-key and
// API_KEY all read FW_API_KEY.
func EnvCollisions(keys []string) []EnvCollision {
	by := map[string][]string{}
	var names []string
	for _, k := range withParents(keys) {
		n := EnvName(k)
		if by[n] == nil {
			names = append(names, n)
		}
		by[n] = append(by[n], k)
	}
	sort.Strings(names)
	var out []EnvCollision
	for _, n := range names {
		if len(by[n]) > 1 {
			out = append(out, EnvCollision{Name: n, Keys: by[n]})
		}
	}
	return out
}
