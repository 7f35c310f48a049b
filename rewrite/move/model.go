package move

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

// within reports whether p is dir or lies inside it; both clean and
// absolute (pathx.WithinClean).
func within(p, dir string) bool { return pathx.WithinClean(p, dir) }

// aliasDef is a path alias with its directory before and after the move.
// after is "" for the aliases version 4 removed (assets, public).
type aliasDef struct {
	name          string
	before, after string
	// fallback lists, in order, the aliases a target outside after is
	// expressed with instead (~/server/x becomes ~~/server/x).
	fallback []string
}

// Paths is the path model of a plan: which paths move where, and what the
// aliases and the source directory resolve to before and after. Everything
// that must follow the move is computed from it, never from the text of
// paths.
type Paths struct {
	Root      string // project root
	SrcBefore string // srcDir before the move
	SrcAfter  string // srcDir after the move (the plan's Target)

	moves   []Move
	aliases []aliasDef
	// known holds the files and directories seen while planning, to find
	// which file an extensionless specifier names.
	known map[string]bool
}

// Map returns where the absolute path p is after the moves.
func (m *Paths) Map(p string) string {
	for _, mv := range m.moves {
		if within(p, mv.From) {
			return mv.To + p[len(mv.From):]
		}
	}
	return p
}

// moved reports whether p lies inside a moved entry.
func (m *Paths) moved(p string) bool {
	for _, mv := range m.moves {
		if within(p, mv.From) {
			return true
		}
	}
	return false
}

// probe returns the file an import of p names, trying extensions (and
// Sass partials in style sheets) the way bundlers do; "" when none exists.
func (m *Paths) probe(p string, style bool) string {
	if m.known[p] {
		return p
	}
	exts := specs.ScriptExts
	if style {
		exts = specs.StyleExts
	}
	for _, e := range exts {
		if m.known[p+e] {
			return p + e
		}
	}
	if style {
		dir, base := filepath.Split(p)
		for _, e := range specs.StyleExts {
			if q := dir + "_" + base + e; m.known[q] {
				return q
			}
		}
	}
	return ""
}

// mapSpec returns where the file or directory an import of p names is
// after the moves, as a path an import can name in the same way (without
// the extension the import left out).
func (m *Paths) mapSpec(p string, style bool) string {
	f := m.probe(p, style)
	if f == "" || f == p {
		return m.Map(p)
	}
	// The moves keep base names, so the import keeps its own.
	return filepath.Join(filepath.Dir(m.Map(f)), filepath.Base(p))
}

func (m *Paths) alias(name string) *aliasDef {
	for i := range m.aliases {
		if m.aliases[i].name == name {
			return &m.aliases[i]
		}
	}
	return nil
}

// splitAlias splits an aliased specifier into its alias and the path after
// it. Only built-in aliases are known; anything else is a package name.
func (m *Paths) splitAlias(s string, style bool) (a *aliasDef, rest string, ok bool) {
	name := s
	if i := strings.IndexByte(s, '/'); i >= 0 {
		name, rest = s[:i], s[i+1:]
	}
	if style && strings.HasPrefix(name, "~") && len(name) > 1 && name != "~~" {
		// In style sheets an alias may be written with a leading ~:
		// ~assets/x.png is the assets alias.
		if a = m.alias(name[1:]); a != nil && a.name != "~" && a.name != "~~" && a.name != "@" && a.name != "@@" {
			return a, rest, true
		}
	}
	switch name {
	case "~", "@", "~~", "@@", "#shared", "#server":
	default:
		// assets/x and public/x are the aliases version 4 removed; a
		// package of that name cannot be told apart, so they are only
		// aliases while the directory exists (see PlanMove).
		if a = m.alias(name); a == nil || a.after != "" || rest == "" {
			return nil, "", false
		}
		return a, rest, true
	}
	a = m.alias(name)
	return a, rest, a != nil
}

// Base says what a relative value in the config is relative to.
type Base uint8

const (
	// FromRoot: the value is relative to rootDir (modules, extends, ...).
	FromRoot Base = iota
	// FromSrc: the value is relative to srcDir (imports.dirs, dir.*, ...).
	FromSrc
)

// RewriteSpecifier returns the specifier s, found in a file that moves from
// fromDir to toDir, rewritten to name the same file after the moves, and
// whether it changed. style is set in style sheets, where a bare path is
// relative; prefix marks a directory prefix (a glob or a template head);
// foreign files belong to another project, whose aliases are not ours.
// note is a reason when the specifier needs a change that cannot be
// expressed.
func (m *Paths) RewriteSpecifier(s, fromDir, toDir string, style, prefix, foreign bool) (out string, changed bool, note string) {
	body, suffix := s, ""
	cut := "?"
	if style {
		cut = "?#"
	}
	if i := strings.IndexAny(s, cut); i >= 0 && !prefix {
		body, suffix = s[:i], s[i:]
	}
	if body == "" {
		return s, false, ""
	}
	trailing := strings.HasSuffix(body, "/")
	relative := body == "." || body == ".." || strings.HasPrefix(body, "./") || strings.HasPrefix(body, "../")
	if !relative && style && specs.IsBarePath(body) {
		// url(img/a.png) is relative in CSS; @import 'vars' in Sass too,
		// unless it is a load-path import, which the existence check
		// tells apart. Otherwise it may be an alias.
		relative = m.probe(filepath.Join(fromDir, filepath.FromSlash(body)), true) != ""
	}
	if relative {
		old := filepath.Join(fromDir, filepath.FromSlash(body))
		var now string
		if prefix {
			now = m.Map(old)
		} else {
			now = m.mapSpec(old, style)
		}
		if now == old && fromDir == toDir {
			return s, false, ""
		}
		r, err := filepath.Rel(toDir, now)
		if err != nil {
			return s, false, "cannot express " + now + " relative to " + toDir
		}
		r = filepath.ToSlash(r)
		// A relative specifier stays relative: "./" unless it climbs. Bare
		// CSS paths (url(img/a.png)) keep their bare style when they can.
		dotted := body == "." || body == ".." || strings.HasPrefix(body, "./") || strings.HasPrefix(body, "../")
		switch {
		case r == ".":
			if body != "." && body != ".." {
				r = "./"
			}
		case r == ".." || strings.HasPrefix(r, "../"):
		case dotted:
			r = "./" + r
		}
		if trailing && !strings.HasSuffix(r, "/") {
			r += "/"
		}
		out = r + suffix
		return out, out != s, ""
	}
	if foreign {
		return s, false, ""
	}
	a, rest, ok := m.splitAlias(body, style)
	if !ok {
		return s, false, ""
	}
	old := filepath.Join(a.before, filepath.FromSlash(rest))
	var now string
	if prefix {
		now = m.Map(old)
	} else {
		now = m.mapSpec(old, style)
	}
	if now == old && a.after == a.before {
		return s, false, ""
	}
	for _, name := range append([]string{a.name}, a.fallback...) {
		b := m.alias(name)
		if b == nil || b.after == "" || !within(now, b.after) {
			continue
		}
		r := filepath.ToSlash(now[len(b.after):])
		r = strings.TrimPrefix(r, "/")
		out = b.name
		if r != "" {
			out += "/" + r
		}
		if trailing && !strings.HasSuffix(out, "/") {
			out += "/"
		}
		out += suffix
		return out, out != s, ""
	}
	return s, false, "no alias reaches " + now
}

// RewriteAliasValue rewrites a path-like string of the config (an alias
// value, a components or imports dir, a css entry, a module path) so that
// it names the same file after the moves of paths, and reports whether it
// changed: ~/server/x becomes ~~/server/x, ~/app/x becomes ~/x, and a
// relative value moves with its base: with base FromSrc, ./app/x becomes ./x;
// with FromRoot, ./components becomes ./app/components. Bare values are
// relative for FromSrc only (for FromRoot they are package names). Values
// the move does not touch come back unchanged.
func RewriteAliasValue(v string, paths *Paths, base Base) (string, bool) {
	if paths == nil || v == "" {
		return v, false
	}
	dirBefore, dirAfter := paths.Root, paths.Root
	if base == FromSrc {
		dirBefore, dirAfter = paths.SrcBefore, paths.SrcAfter
	}
	if filepath.IsAbs(v) && v[0] != '~' && v[0] != '@' && v[0] != '#' {
		now := paths.Map(filepath.Clean(v))
		return now, now != filepath.Clean(v)
	}
	s := v
	bare := specs.IsBarePath(s)
	if bare {
		if base != FromSrc {
			return v, false
		}
		s = "./" + s
	}
	out, changed, _ := paths.RewriteSpecifier(s, dirBefore, dirAfter, false, false, false)
	if !changed {
		return v, false
	}
	if bare && strings.HasPrefix(out, "./") {
		out = out[2:]
	}
	if out == "" {
		out = "."
	}
	return out, changed && out != v
}
