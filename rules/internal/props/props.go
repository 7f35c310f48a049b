// Package props indexes the properties of a config once for all the
// rules of a check: every property at every depth in ast.File.Walk's order
// with its path split at the environment override (Walk), and the
// occurrences of each option path, at the top level and in the overrides
// (Each). A check runs some fifty passes over a config; without the index
// each walked it again.
package props

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Index is the index of one config's properties; read-only once built.
type Index struct {
	file *ast.File
	walk []Prop
	// options maps an option path (Path.String, environment prefix
	// removed) to 1 + the index in walk of its first occurrence.
	options map[string]int32
}

// SplitEnvPrefix splits an option path into the environment override it is
// written in (see compat.EnvOverrideLen) and the option path proper. For a
// path outside any override, prefix is empty.
func SplitEnvPrefix(path ast.Path) (prefix, rest ast.Path) {
	n := compat.EnvOverrideLen(path)
	if n == 0 {
		return nil, path
	}
	return path[:n], path[n:]
}

// A Prop is one property of the config, in the order ast.File.Walk visits
// them. The slices are shared by every reader of the index and capped
// (len == cap), so that appending to them copies.
type Prop struct {
	Path ast.Path
	// Prefix and Rest are SplitEnvPrefix(Path).
	Prefix, Rest ast.Path
	// Option is Rest.String(): the option path, as compat takes it.
	Option string
	Prop   *ast.Property
	// next is the index of the first entry after the property's subtree.
	next int
	// same is 1 + the index of the next occurrence of the same option, 0
	// for none.
	same int32
}

// New indexes the properties of f's config (none when f has no literal
// config).
func New(f *ast.File) *Index {
	c := &Index{file: f}
	c.build()
	return c
}

func (c *Index) build() {
	f := c.file
	if f == nil || f.Config == nil {
		return
	}
	// Sized up front: one array for all the entries, one for all the paths.
	n, segs := countProps(f.Config, 1)
	c.walk = make([]Prop, 0, n)
	c.addProps(f.Config, nil, -1, make([]string, 0, segs))
	// Chain the occurrences of each option, last first, so that each chain
	// runs in source order.
	c.options = make(map[string]int32, n)
	for i := len(c.walk) - 1; i >= 0; i-- {
		w := &c.walk[i]
		if len(w.Path) == 1 && w.Path[0] == "$env" {
			continue // $env.<name> holds options, $env itself is none
		}
		w.same = c.options[w.Option]
		c.options[w.Option] = int32(i + 1)
	}
}

// addProps appends the properties of o, whose path is prefix (the entry at
// index parent, -1 for the config), as ast.File.Walk visits them. Paths are
// cut from arena, whose capacity countProps computed: appending within it
// keeps the earlier paths where they are.
func (c *Index) addProps(o *ast.Object, prefix ast.Path, parent int, arena []string) []string {
	for _, pr := range o.Props {
		start := len(arena)
		arena = append(append(arena, prefix...), c.file.Segment(pr))
		path := arena[start:len(arena):len(arena)]
		envPrefix, rest := SplitEnvPrefix(path)
		i := len(c.walk)
		c.walk = append(c.walk, Prop{Path: path, Prefix: envPrefix[:len(envPrefix):len(envPrefix)], Rest: rest, Prop: pr})
		w := &c.walk[i]
		// rest.String(), built on the parent's: a rest of two segments or
		// more is the parent's rest plus the last segment (the environment
		// prefix is the same), and Path.String writes segment by segment.
		switch len(rest) {
		case 0:
		case 1:
			w.Option = rest.String()
		default:
			if seg := (ast.Path{rest[len(rest)-1]}).String(); seg[0] == '[' {
				w.Option = c.walk[parent].Option + seg
			} else {
				w.Option = c.walk[parent].Option + "." + seg
			}
		}
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
			arena = c.addProps(child, path, i, arena)
		}
		c.walk[i].next = len(c.walk)
	}
	return arena
}

// countProps returns the number of properties ast.File.Walk visits in o,
// whose properties are at depth, and the sum of their paths' lengths.
func countProps(o *ast.Object, depth int) (n, segs int) {
	n, segs = len(o.Props), len(o.Props)*depth
	for _, pr := range o.Props {
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
			cn, cs := countProps(child, depth+1)
			n, segs = n+cn, segs+cs
		}
	}
	return n, segs
}

// Walk is ast.File.Walk over the indexed properties: fn sees the same
// paths in the same order, and a false result skips the property's
// subtree. The paths are shared: fn may keep them but must not modify them.
func (c *Index) Walk(fn func(w *Prop) bool) {
	ws := c.walk
	for i := 0; i < len(ws); {
		if fn(&ws[i]) {
			i++
		} else {
			i = ws[i].next
		}
	}
}

// first returns 1 + the index of option's first occurrence, 0 for none.
func (c *Index) first(option string) int32 {
	if !PlainPath(option) {
		option = ast.ParsePath(option).String()
	}
	return c.options[option]
}

// Has reports whether the config sets option anywhere Each looks.
func (c *Index) Has(option string) bool { return c.first(option) > 0 }

// Each calls fn for every property whose option path (environment
// override prefix removed) equals option, in source order: the option at
// the top level and inside $production, $development, $test and
// $env.<name>. The paths are shared: fn may keep them but must not modify
// them.
func (c *Index) Each(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	for i := c.first(option); i > 0; {
		w := &c.walk[i-1]
		fn(w.Prefix, w.Path, w.Prop)
		i = w.same
	}
}

// PlainPath reports whether s is a dotted path of ASCII identifier names,
// which ast.Path.String writes as it is: the options index is keyed by that
// form.
func PlainPath(s string) bool {
	start := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if start {
				return false
			}
			start = true
		case c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			start = false
		case '0' <= c && c <= '9':
			if start {
				return false
			}
		default:
			return false
		}
	}
	return !start
}
