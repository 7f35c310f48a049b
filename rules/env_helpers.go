package rules

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Helpers shared by the runtimeConfig and environment rules (FW4xx) and the
// security rules that read runtimeConfig (FW5xx).

// rcKey is one key the config declares under runtimeConfig, at any depth,
// at the top level or inside an environment override.
type rcKey struct {
	Rel    ast.Path // below runtimeConfig: {"public", "apiBase"}
	Prefix ast.Path // the environment override it is written in, or nil
	Path   ast.Path // the full option path
	Prop   *ast.Property
}

// dotted is the key path as compat's env functions take it. Segments are
// joined with "." even when they contain one: the engine splits on "." like
// on "_", so 'a.b' and a: { b } read the same variable.
func (k rcKey) dotted() string { return strings.Join(k.Rel, ".") }

// rcKeySet is what collectRCKeys finds.
type rcKeySet struct {
	Keys []rcKey
	// Complete reports that Keys are all the keys the config itself
	// declares: no spread or computed key in runtimeConfig, at the top level
	// or in an override, no runtimeConfig (or override) that is not an
	// object literal, no later statement that names runtimeConfig.
	Complete bool
	// Opaque are keys whose value is computed (an identifier, a call): it
	// may be an object with keys of its own, so variables below them cannot
	// be judged.
	Opaque []rcKey
}

// collectRCKeys collects the runtimeConfig keys of the config, in source
// order. It returns nil when the config is not a literal.
func collectRCKeys(pass *Pass) *rcKeySet {
	f := pass.File
	if f == nil || f.Config == nil {
		return nil
	}
	out := &rcKeySet{Complete: true}
	if f.Config.HasSpread() || hasComputedKey(f.Config) {
		out.Complete = false
	}
	for _, m := range f.Mutations {
		if strings.Contains(f.Text(m), "runtimeConfig") {
			out.Complete = false
		}
	}
	pass.walkCached(func(w *walked) bool {
		path, prop := w.path, w.prop
		if prop.Kind == ast.PropSpread || prop.KeyKind == ast.KeyComputed {
			if inRuntimeConfig(path) {
				out.Complete = false
			}
			return false
		}
		switch {
		case len(path) == 1 && envKeys[path[0]], len(path) <= 2 && path[0] == "$env":
			// An override, or $env itself: descend; one that is not an
			// object could hold a runtimeConfig.
			if _, ok := ast.Unwrap(prop.Value).(*ast.Object); !ok {
				out.Complete = false
				return false
			}
			if o := ast.Unwrap(prop.Value).(*ast.Object); o.HasSpread() || hasComputedKey(o) {
				out.Complete = false
			}
			return true
		}
		prefix, rest := SplitEnvPrefix(path)
		if len(rest) == 0 || rest[0] != "runtimeConfig" {
			return false
		}
		obj, isObj := ast.Unwrap(prop.Value).(*ast.Object)
		if len(rest) == 1 {
			if !isObj {
				out.Complete = false
				return false
			}
			if obj.HasSpread() || hasComputedKey(obj) {
				out.Complete = false
			}
			return true
		}
		k := rcKey{Rel: rest[1:], Prefix: prefix, Path: path, Prop: prop}
		out.Keys = append(out.Keys, k)
		if isObj {
			return true
		}
		if opaqueValue(f, prop) {
			out.Opaque = append(out.Opaque, k)
		}
		return false
	})
	return out
}

func inRuntimeConfig(path ast.Path) bool {
	_, rest := SplitEnvPrefix(path)
	return len(rest) > 1 && rest[0] == "runtimeConfig"
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
	hasModules := declaresModules(pass.File, pass.Project.Root)
	for _, ly := range pass.Project.Layers {
		if ly != nil && declaresModules(ly.File, ly.Root) {
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
func declaresModules(f *ast.File, root string) bool {
	if root != "" {
		if fi, err := os.Stat(filepath.Join(root, "modules")); err == nil && fi.IsDir() {
			return true
		}
	}
	if f == nil || f.Config == nil {
		return f != nil // a config that is not a literal may list any
	}
	found := false
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		_, rest := SplitEnvPrefix(path)
		if len(rest) == 1 && rest[0] == "modules" {
			if v, ok := staticValue(prop); !ok || !emptyValue(v) {
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
	src := pass.File.Text(ast.Span{End: len(pass.File.Src)}) // no copy
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isIdentByte(src[j-1])) && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = end
	}
}

// envKeyName returns the variable (with prefix) that overrides a declared
// key.
func envKeyName(prefix string, k rcKey) string { return prefix + compat.EnvKey(k.dotted()) }

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

// isIdentByte reports whether c can continue a JavaScript identifier (ASCII).
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
