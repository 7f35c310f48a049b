package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

// envKeys are the top-level keys whose value is a config merged only in one
// environment (migration-facts §12): an option inside them is the same
// option as at the top level.
var envKeys = map[string]bool{"$production": true, "$development": true, "$test": true}

// isEnvKey is envKeys[key], without hashing: SplitEnvPrefix runs for every
// property.
func isEnvKey(key string) bool {
	switch key {
	case "$production", "$development", "$test":
		return true
	}
	return false
}

// SplitEnvPrefix splits an option path into the environment override it is
// written in ($production, $development, $test: one segment; $env.<name>:
// two) and the option path proper. For a path outside any override, prefix
// is empty.
func SplitEnvPrefix(path ast.Path) (prefix, rest ast.Path) {
	if len(path) >= 1 && isEnvKey(path[0]) {
		return path[:1], path[1:]
	}
	if len(path) >= 2 && path[0] == "$env" {
		return path[:2], path[2:]
	}
	return nil, path
}

// join appends segments to a prefix without aliasing it.
func join(prefix ast.Path, segs ...string) ast.Path {
	out := make(ast.Path, 0, len(prefix)+len(segs))
	out = append(out, prefix...)
	return append(out, segs...)
}

// optionProps calls fn for every property whose option path (environment
// override prefix removed) equals option, in source order: the option at the
// top level and inside $production, $development, $test and $env.<name>.
// The paths are shared with other passes: fn may keep them but must not
// modify them.
func (p *Pass) optionProps(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	p.cache().optionProps(option, fn)
}

// staticValue returns the static Go value of a property's value.
func staticValue(prop *ast.Property) (any, bool) {
	if prop == nil || prop.Value == nil {
		return nil, false
	}
	v, bad := ast.Static(prop.Value)
	return v, bad == nil
}
