package project

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// ConfigValues reads the options of a parsed config through compat's
// interface, as rules see them.
func ConfigValues(f *ast.File) compat.Config { return astConfig{f} }

// astConfig adapts a parsed file to compat.Config.
type astConfig struct{ f *ast.File }

// Value implements compat.Config. A path is Dynamic, not Absent, whenever
// something Parse cannot see could set it: a config that is not a literal,
// a spread or computed key in an object on the way, or a later statement
// that mutates the config and names the path's first key.
func (c astConfig) Value(path string) (any, compat.ValueState) {
	f := c.f
	if f == nil || f.Config == nil {
		return nil, compat.Dynamic
	}
	segs := ast.ParsePath(path)
	if len(segs) == 0 {
		return nil, compat.Absent
	}
	obj := f.Config
	for i, seg := range segs {
		prop := obj.Get(seg)
		if prop == nil {
			if obj.HasSpread() || obj.HasComputedKey() || (i == 0 && c.mutated(seg)) {
				return nil, compat.Dynamic
			}
			return nil, compat.Absent
		}
		if prop.Value == nil { // method, getter, setter
			return nil, compat.Dynamic
		}
		if i == len(segs)-1 {
			v, bad := ast.Static(prop.Value)
			if bad != nil {
				return nil, compat.Dynamic
			}
			return v, compat.Static
		}
		next, ok := ast.Unwrap(prop.Value).(*ast.Object)
		if !ok {
			return nil, compat.Dynamic
		}
		obj = next
	}
	return nil, compat.Absent
}

func (c astConfig) mutated(key string) bool { return Mutates(c.f, key) }

// Mutates reports whether a statement after the config's declaration may
// change the config's top-level key in a way Parse did not read into the
// config (`if (x) config.key = ...`, `config[k] = ...`): what the config
// ends up holding there is then more than it shows.
func Mutates(f *ast.File, key string) bool {
	_, ok := f.UnreadWriteTo(key)
	return ok
}

// RuntimeConfigKeys returns the runtimeConfig key paths (dotted, relative to
// runtimeConfig, objects and leaves, in declaration order: the project's,
// then each layer's in priority order) that the project and its layers
// declare, at the top level and in $production, $development, $test and
// $env.<name>. An FW_ variable that overrides any of them is valid.
//
// complete is false when a config may declare keys that cannot be read
// statically: a config that is not a literal or did not load, a spread or
// computed key on the way, a runtimeConfig mutated after its declaration,
// or a layer that is not loaded (remote, a package, set at run time, not
// found). Modules may add keys when the app builds; they are never known.
func (p *Project) RuntimeConfigKeys() (keys []string, complete bool) {
	seen := map[string]bool{}
	complete = true
	add := func(ly *Layer) {
		if ly == nil || ly.ConfigPath != "" && (ly.rc == nil || !ly.rc.Complete) {
			complete = false
		}
		if ly == nil {
			return
		}
		if ly.rc != nil {
			for _, k := range ly.rc.Keys {
				if d := k.Dotted(); !seen[d] {
					seen[d] = true
					keys = append(keys, d)
				}
			}
		}
		for _, r := range ly.Extends {
			if r.Layer == nil {
				complete = false
			}
		}
	}
	add(p.Layer)
	for _, r := range p.Extends {
		if r.Layer == nil || r.Cut != "" {
			complete = false
		}
	}
	for _, ly := range p.Layers {
		add(ly)
	}
	return keys, complete
}

// RCKey is one key a config declares under runtimeConfig, at any depth, at
// the top level or inside an environment override.
type RCKey struct {
	Rel    ast.Path // below runtimeConfig: {"public", "apiBase"}
	Prefix ast.Path // the environment override it is written in, or nil
	Path   ast.Path // the full option path
	Prop   *ast.Property
}

// Dotted is the key path as compat's env functions take it. Segments are
// joined with "." even when they contain one: the engine splits on "." like
// on "_", so 'a.b' and a: { b } read the same variable.
func (k RCKey) Dotted() string { return strings.Join(k.Rel, ".") }

// RuntimeConfig is what a config declares under runtimeConfig.
type RuntimeConfig struct {
	// Keys are the keys at every depth (objects and leaves), in source
	// order, at the top level and in $production, $development, $test and
	// $env.<name>.
	Keys []RCKey
	// Complete reports that Keys are all the keys the config itself
	// declares: no spread or computed key in runtimeConfig, at the top level
	// or in an override, no runtimeConfig (or override) that is not an
	// object literal, no later statement that names runtimeConfig.
	Complete bool
}

// DeclaredRuntimeConfig returns the runtimeConfig keys f declares; nil when
// its config is not a literal.
func DeclaredRuntimeConfig(f *ast.File) *RuntimeConfig {
	if f == nil || f.Config == nil {
		return nil
	}
	out := &RuntimeConfig{Complete: !Mutates(f, "runtimeConfig")}
	if f.Config.HasSpread() || f.Config.HasComputedKey() {
		out.Complete = false
	}
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		n := compat.EnvOverrideLen(path)
		if prop.Kind == ast.PropSpread || prop.KeyKind == ast.KeyComputed {
			if len(path) > n+1 && path[n] == "runtimeConfig" {
				out.Complete = false
			}
			return false
		}
		if len(path) == n || len(path) == 1 && path[0] == "$env" {
			// An override, or $env itself: descend; one that is not an
			// object could hold a runtimeConfig.
			o, ok := ast.Unwrap(prop.Value).(*ast.Object)
			if !ok {
				out.Complete = false
				return false
			}
			if o.HasSpread() || o.HasComputedKey() {
				out.Complete = false
			}
			return true
		}
		rest := path[n:]
		if rest[0] != "runtimeConfig" {
			return false
		}
		obj, isObj := ast.Unwrap(prop.Value).(*ast.Object)
		if len(rest) == 1 {
			if !isObj {
				out.Complete = false
				return false
			}
			if obj.HasSpread() || obj.HasComputedKey() {
				out.Complete = false
			}
			return true
		}
		var prefix ast.Path
		if n > 0 {
			prefix = path[:n:n]
		}
		out.Keys = append(out.Keys, RCKey{Rel: rest[1:], Prefix: prefix, Path: path, Prop: prop})
		return isObj
	})
	return out
}
