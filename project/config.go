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

func (c astConfig) mutated(key string) bool {
	for _, m := range c.f.Mutations {
		if strings.Contains(c.f.Text(m), key) {
			return true
		}
	}
	return false
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
		if ly == nil || ly.ConfigPath != "" && ly.File == nil || !ly.rcStatic {
			complete = false
		}
		if ly == nil {
			return
		}
		for _, k := range ly.rcKeys {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
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
		if r.Layer == nil {
			complete = false
		}
	}
	for _, ly := range p.Layers {
		add(ly)
	}
	return keys, complete
}

// runtimeConfigKeys returns the key paths of f's runtimeConfig objects, and
// whether they are all of them.
func runtimeConfigKeys(f *ast.File) ([]string, bool) {
	if f.Config == nil {
		return nil, false
	}
	c := astConfig{f}
	static := !c.mutated("runtimeConfig")
	var keys []string
	var visit func(o *ast.Object, prefix string)
	visit = func(o *ast.Object, prefix string) {
		for _, pr := range o.Props {
			if pr.Kind == ast.PropSpread || pr.KeyKind == ast.KeyComputed {
				static = false
				continue
			}
			k := prefix + pr.Key
			keys = append(keys, k)
			if pr.Value == nil {
				continue
			}
			if sub, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
				visit(sub, k+".")
			}
		}
	}
	// top finds runtimeConfig in one object that holds options: the config,
	// or an environment override in it.
	top := func(o *ast.Object) {
		if o.HasSpread() || o.HasComputedKey() {
			static = false
		}
		pr := o.Get("runtimeConfig")
		if pr == nil {
			return
		}
		if pr.Value != nil {
			if obj, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
				visit(obj, "")
				return
			}
		}
		static = false
	}
	top(f.Config)
	for _, pr := range f.Config.Props {
		if pr.Value == nil {
			continue
		}
		obj, ok := ast.Unwrap(pr.Value).(*ast.Object)
		if !ok {
			continue
		}
		switch {
		case compat.IsEnvOverride(pr.Key):
			top(obj)
		case pr.Key == "$env":
			for _, env := range obj.Props {
				if env.Value == nil {
					continue
				}
				if o, ok := ast.Unwrap(env.Value).(*ast.Object); ok {
					top(o)
				} else {
					static = false
				}
			}
		}
	}
	return keys, static
}
