package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/props"
)

// SplitEnvPrefix splits an option path into the environment override it is
// written in (see compat.EnvOverrideLen) and the option path proper. For a
// path outside any override, prefix is empty.
func SplitEnvPrefix(path ast.Path) (prefix, rest ast.Path) { return props.SplitEnvPrefix(path) }

// join appends segments to a prefix without aliasing it.
func join(prefix ast.Path, segs ...string) ast.Path {
	out := make(ast.Path, 0, len(prefix)+len(segs))
	out = append(out, prefix...)
	return append(out, segs...)
}

// OptionProps calls fn for every property whose option path (environment
// override prefix removed) equals option, in source order: the option at the
// top level and inside $production, $development, $test and $env.<name>.
// The paths are shared with other passes: fn may keep them but must not
// modify them.
func (p *Pass) OptionProps(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	p.Index.optionProps(option, fn)
}
