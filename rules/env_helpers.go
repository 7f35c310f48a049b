package rules

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

// Helpers shared by the runtimeConfig and environment rules (FW4xx) and the
// security rules that read runtimeConfig (FW5xx).

// rcKeySet is the runtimeConfig keys of the pass's config
// (project.DeclaredRuntimeConfig), with the keys whose value is computed.
type rcKeySet struct {
	*project.RuntimeConfig
	// Opaque are keys whose value is computed (an identifier, a call): it
	// may be an object with keys of its own, so variables below them cannot
	// be judged.
	Opaque []project.RCKey
}

// collectRCKeys returns the runtimeConfig keys of the config, in source
// order, computed once per check. It returns nil when the config is not a
// literal.
func collectRCKeys(pass *Pass) *rcKeySet {
	x := pass.Index
	x.rcOnce.Do(func() {
		rc := project.DeclaredRuntimeConfig(x.file)
		if rc == nil {
			return
		}
		x.rc = &rcKeySet{RuntimeConfig: rc}
		for _, k := range rc.Keys {
			if _, isObj := ast.Unwrap(k.Prop.Value).(*ast.Object); !isObj && opaqueValue(x.file, k.Prop) {
				x.rc.Opaque = append(x.rc.Opaque, k)
			}
		}
	})
	return x.rc
}

// opaqueValue reports whether a property's value could be an object the
// parser cannot see into: an identifier other than undefined, a call, a
// member expression, a method.
func opaqueValue(f *ast.File, prop *ast.Property) bool {
	switch n := ast.Unwrap(prop.Value).(type) {
	case nil:
		return true
	case *ast.Ident:
		return n.Name != "undefined"
	case *ast.Expr:
		switch n.Hint {
		case ast.HintTemplate, ast.HintArrow, ast.HintFunction, ast.HintClass:
			return false
		case ast.HintBinary, ast.HintConditional:
			// process.env.X || '' is a string; a || b of two objects is not.
			return f.EnvReads(n) == nil
		}
		return true
	}
	return false
}

// envPrefixOf returns the prefix of the variables that override
// runtimeConfig in this project: runtimeConfig.engine.envPrefix when set
// statically, else compat.EnvPrefix. ok is false when it is set at run time.
func envPrefixOf(pass *Pass) (string, bool) {
	v, st := pass.Config.Value("runtimeConfig.engine.envPrefix")
	switch st {
	case compat.Absent:
		return compat.EnvPrefix, true
	case compat.Static:
		s, ok := v.(string)
		return s, ok && s != ""
	}
	return "", false
}

// frameworkKeys are the runtimeConfig keys the framework declares itself
// (app.baseURL, appSecret, engine.envPrefix, ...): variables that override
// them are valid in every project. They come from compat's option table.
var frameworkKeys = sync.OnceValue(func() []string {
	var out []string
	for _, p := range compat.Paths() {
		rel, ok := strings.CutPrefix(p, "runtimeConfig.")
		if ok {
			out = append(out, rel)
		}
	}
	return out
})

// othersMayDeclare says what may declare runtimeConfig keys that the
// project's and its layers' configs do not show: modules (the modules option
// of the config or of a layer, a modules/ directory), which add keys when the
// app builds, and layers that could not be read (complete false). "" when
// nothing may.
func othersMayDeclare(pass *Pass, complete bool) string {
	var what []string
	hasModules := declaresModules(pass.Project, pass.File, pass.Project.Root)
	for _, ly := range pass.Project.Layers {
		if ly != nil && declaresModules(pass.Project, ly.File, ly.Root) {
			hasModules = true
		}
	}
	if hasModules {
		what = append(what, "modules")
	}
	if !complete {
		what = append(what, "layers or extended configs that cannot be read")
	}
	return strings.Join(what, " and ")
}

// declaresModules reports whether a config lists modules (at the top level
// or in an override) or its root has a modules/ directory.
func declaresModules(pr *project.Project, f *ast.File, root string) bool {
	if root != "" && pr.IsDir(filepath.Join(root, "modules")) {
		return true
	}
	if f == nil || f.Config == nil {
		return f != nil // a config that is not a literal may list any
	}
	found := false
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		_, rest := SplitEnvPrefix(path)
		if len(rest) == 1 && rest[0] == "modules" {
			if v, ok := ast.StaticValue(prop); !ok || !emptyValue(v) {
				found = true
			}
		}
		return len(rest) == 0 || len(path) <= 2 && path[0] == "$env"
	})
	return found
}

// envMentioned reports whether the config's source names the variable
// (process.env.NAME in a computed value): the config reads it itself, at
// build time, so it is in use even when no runtimeConfig key matches.
func envMentioned(pass *Pass, name string) bool {
	text := pass.File.Text(ast.Span{End: len(pass.File.Src)}) // Text: no copy
	if strings.ContainsAny(name, ".-") {
		return ast.HasIdent(text, name) // not one identifier: searched for
	}
	// A name of identifier bytes occurs as an identifier exactly when it is
	// one of the text's maximal runs of them: the set of runs is built once
	// per check, not a search of the config per variable of a .env.
	x := pass.Index
	x.identOnce.Do(func() {
		x.idents = map[string]bool{}
		for i := 0; i < len(text); {
			if !identByte(text[i]) {
				i++
				continue
			}
			j := i
			for j < len(text) && identByte(text[j]) {
				j++
			}
			x.idents[text[i:j]] = true
			i = j
		}
	})
	return x.idents[name]
}

// identByte is ast.HasIdent's test of a byte that continues an identifier.
func identByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// envKeyName returns the variable (with prefix) that overrides a declared
// key.
func envKeyName(prefix string, k project.RCKey) string { return prefix + compat.EnvKey(k.Dotted()) }

// suggestKeyPath turns a variable name into the runtimeConfig key path its
// author most likely meant to declare: FW_PUBLIC_SITE_URL -> public.siteUrl.
// It is only an example for messages: several spellings map to one name.
func suggestKeyPath(rest string) string {
	parts := strings.Split(strings.ToLower(rest), "_")
	if len(parts) > 1 && (parts[0] == "public" || parts[0] == "app") {
		return parts[0] + "." + camel(parts[1:])
	}
	return camel(parts)
}

func camel(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 && p != "" {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		b.WriteString(p)
	}
	return b.String()
}

// envCheck holds what FW403 and FW404 judge variables against.
type envCheck struct {
	pass   *Pass
	prefix string
	keys   []string           // declared and framework key paths, dotted
	target *compat.EnvTargets // keys indexed by variable
	names  []string           // their variables
	byName map[string]string  // variable -> key path
	opaque []string           // variable stems whose value is computed
	others string             // what else may declare keys
}

// newEnvCheck returns nil when variables cannot be judged: no literal config,
// a runtimeConfig that is not fully literal, or an envPrefix other than FW_.
func newEnvCheck(pass *Pass) *envCheck {
	if len(pass.Project.Env) == 0 {
		return nil
	}
	set := collectRCKeys(pass)
	if set == nil || !set.Complete {
		return nil
	}
	prefix, ok := envPrefixOf(pass)
	if !ok || prefix != compat.EnvPrefix {
		return nil
	}
	layerKeys, complete := pass.Project.RuntimeConfigKeys()
	c := &envCheck{pass: pass, prefix: prefix, byName: map[string]string{}, others: othersMayDeclare(pass, complete)}
	seen := map[string]bool{}
	add := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		c.keys = append(c.keys, k)
		n := prefix + compat.EnvKey(k)
		if _, dup := c.byName[n]; !dup {
			c.byName[n] = k
			c.names = append(c.names, n)
		}
	}
	for _, k := range set.Keys {
		add(k.Dotted())
	}
	for _, k := range layerKeys { // the project's own and its layers'
		add(k)
	}
	for _, k := range frameworkKeys() {
		add(k)
	}
	for _, k := range set.Opaque {
		c.opaque = append(c.opaque, prefix+compat.EnvKey(k.Dotted())+"_")
	}
	c.target = compat.NewEnvTargets(c.keys)
	return c
}

// candidate reports whether a variable is one to judge: it carries the
// prefix, overrides no key, is not read by the config itself, and is not
// below a key whose value is computed.
func (c *envCheck) candidate(name string) bool {
	if !strings.HasPrefix(name, c.prefix) || len(name) == len(c.prefix) {
		return false
	}
	if _, ok := c.target.Target(name); ok {
		return false
	}
	for _, o := range c.opaque {
		if strings.HasPrefix(name, o) {
			return false
		}
	}
	return !envMentioned(c.pass, name)
}

// sectionMiss is a variable written for the wrong section.
type sectionMiss struct {
	Key  string // the declared key it was meant for
	Want string // that key's variable
}

// wrongSection returns the declared key a variable would override if it
// named the key's section (public, app) correctly, or nil.
func (c *envCheck) wrongSection(name string) *sectionMiss {
	rest := strings.TrimPrefix(name, c.prefix)
	var tries []string
	for _, sec := range []string{"PUBLIC_", "APP_"} {
		if r, ok := strings.CutPrefix(rest, sec); ok {
			tries = append(tries, r) // FW_PUBLIC_SECRET for the private secret
			for _, other := range []string{"PUBLIC_", "APP_"} {
				if other != sec {
					tries = append(tries, other+r)
				}
			}
		} else {
			tries = append(tries, sec+rest) // FW_API_BASE for public.apiBase
		}
	}
	for _, t := range tries {
		if k, ok := c.byName[c.prefix+t]; ok {
			return &sectionMiss{Key: k, Want: c.prefix + t}
		}
	}
	return nil
}
