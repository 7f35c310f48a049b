package rules

import (
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// What several rules derive from the same config, computed once instead of
// once per pass: the config's properties in walk order, indexed by option
// path, and the entries apply moves into app/. Check runs some fifty passes
// over each project; without this, each walked the config again, and the
// layout rules ran compat.Detect again for moved. It is kept with the
// ast.File (File.Memo), so that it goes when the file goes.

// fileCache is what the rules derive from one parsed config. Each part is
// computed on first use and read-only afterwards.
type fileCache struct {
	file *ast.File

	walkOnce sync.Once
	walk     []walked
	options  map[string][]*walked // option path (Path.String, prefix removed) -> occurrences
}

// walked is one property of the config, in the order ast.File.Walk visits
// them. The slices are shared by every pass and capped (len == cap), so that
// appending to them copies.
type walked struct {
	path ast.Path
	// prefix and rest are SplitEnvPrefix(path).
	prefix, rest ast.Path
	// option is rest.String(): the option path, as compat takes it.
	option string
	prop   *ast.Property
	// next is the index of the first entry after the property's subtree.
	next int
}

type fileCacheKey struct{}

// cache returns the cache of the pass's config.
func (p *Pass) cache() *fileCache {
	f := p.File
	if f == nil {
		return &fileCache{}
	}
	return f.Memo(fileCacheKey{}, func() any { return &fileCache{file: f} }).(*fileCache)
}

// movedKey keys layoutView.moved's result in the file's memo: it follows
// from the project's Detection and the disk, and the file goes with the
// project.
type movedKey struct{ d *compat.Detection }

// walked returns the config's properties at every depth in ast.File.Walk's
// order, nil when there is no literal config.
func (c *fileCache) walked() []walked {
	c.walkOnce.Do(c.buildWalk)
	return c.walk
}

func (c *fileCache) buildWalk() {
	c.options = map[string][]*walked{}
	f := c.file
	if f == nil || f.Config == nil {
		return
	}
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		path = path[:len(path):len(path)]
		prefix, rest := SplitEnvPrefix(path)
		c.walk = append(c.walk, walked{path: path, prefix: prefix[:len(prefix):len(prefix)], rest: rest, prop: prop})
		return true
	})
	// Preorder: a property's subtree is the run of deeper entries after it.
	var open []int
	for i := range c.walk {
		for len(open) > 0 && len(c.walk[open[len(open)-1]].path) >= len(c.walk[i].path) {
			c.walk[open[len(open)-1]].next = i
			open = open[:len(open)-1]
		}
		open = append(open, i)
	}
	for _, i := range open {
		c.walk[i].next = len(c.walk)
	}
	for i := range c.walk {
		w := &c.walk[i]
		w.option = w.rest.String()
		if len(w.path) == 1 && w.path[0] == "$env" {
			continue // $env.<name> holds options, $env itself is none
		}
		c.options[w.option] = append(c.options[w.option], w)
	}
}

// walkCached is Pass.Walk over the cached properties: fn sees the same
// paths in the same order, and a false result skips the property's subtree.
// The paths are shared: fn may keep them but must not modify them.
func (p *Pass) walkCached(fn func(w *walked) bool) {
	ws := p.cache().walked()
	for i := 0; i < len(ws); {
		if fn(&ws[i]) {
			i++
		} else {
			i = ws[i].next
		}
	}
}

// optionOccurrences returns the properties whose option path (environment
// override prefix removed) equals option, in source order: the option at the
// top level and inside $production, $development, $test and $env.<name>.
func (p *Pass) optionOccurrences(option string) []*walked {
	return p.cache().occurrences(option)
}

// occurrences is Pass.optionOccurrences; rules that look up many options
// take the cache once and ask it.
func (c *fileCache) occurrences(option string) []*walked {
	c.walked()
	if !plainPath(option) {
		option = ast.ParsePath(option).String()
	}
	return c.options[option]
}

// optionProps is Pass.optionProps.
func (c *fileCache) optionProps(option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	for _, w := range c.occurrences(option) {
		fn(w.prefix, w.path, w.prop)
	}
}

// plainPath reports whether s is a dotted path of ASCII identifier names,
// which ast.Path.String writes as it is: the options index is keyed by that
// form.
func plainPath(s string) bool {
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
