package move

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
	"github.com/fwmigrate/fwmigrate/txn"
)

// addEdit records the edits of one file (none: nothing recorded).
func (p *Plan) addEdit(path string, data []byte, mode fs.FileMode, edits []udiff.Edit, why []string) {
	if len(edits) == 0 {
		return
	}
	out, err := udiff.ApplyBytes(data, edits)
	if err != nil {
		// Overlapping edits mean two constructs claimed the same bytes: a
		// bug here, never a reason to write a guess.
		p.conflict(path, "internal error: %v", err)
		return
	}
	p.appendEdit(FileEdit{
		Edit:  txn.Edit{Path: path, NewPath: p.Paths.Map(path), Old: data, New: out, Mode: mode},
		Edits: edits, Why: why,
	})
}

// planEdits rewrites the specifiers whose meaning the moves change, and
// the globs and paths of the tool configs at the root (planToolStrings).
// Strings in other staying scripts that name moved paths (test setup,
// fixtures) are noted: they are not imports, so they are not rewritten.
func (p *Plan) planEdits(files []*srcFile) {
	m := p.Paths
	for _, f := range files {
		newPath := m.Map(f.path)
		fromDir, toDir := filepath.Dir(f.path), filepath.Dir(newPath)
		var edits []udiff.Edit
		var why []string
		isRef := map[int]bool{}
		lines := ast.NewLines(f.data)
		for _, r := range f.refs {
			// A glob's ref starts after its "!": its literal is a ref too.
			isRef[r.Start], isRef[r.Start-1] = true, true
			s := r.Value(f.data)
			out, changed, note := m.RewriteSpecifier(s, fromDir, toDir, r.Style, r.Prefix, f.foreign)
			line := lines.Line(r.Start)
			if rest := globRest(&r, f.data); rest != "" && p.globReachesMoved(filepath.Join(fromDir, filepath.FromSlash(s)), rest) {
				// @source '../{components,server}/**' or
				// import.meta.glob('../*/*.vue'): the part after the prefix
				// reaches into folders that move and folders that stay.
				// From the root it is rewritten as a tool config's glob is
				// ({app/components,server}/**); else reported.
				if dir := filepath.Join(fromDir, filepath.FromSlash(s)); dir == p.Root && !r.Esc {
					if glob, ok, gnote := p.RewriteGlob(rest); ok && gnote == "" {
						edits = append(edits, udiff.Edit{Start: r.Start, End: r.End + len(rest), New: out + glob})
						why = append(why, lineWhy(line, s+rest, out+glob))
						continue
					}
				}
				pos := lines.Position(r.Start)
				p.note("%s:%d:%d: the glob %q reaches into moved folders from a folder that stays; not rewritten: change it by hand", p.rel(f.path), pos.Line, pos.Column, s+rest)
				continue
			}
			if note != "" {
				p.note("%s:%d: %s: %s; left as it is", p.rel(f.path), line, s, note)
			}
			if changed {
				edits = append(edits, udiff.Edit{Start: r.Start, End: r.End, New: respell(&r, f.data, out)})
				why = append(why, lineWhy(line, s, out))
			}
		}
		switch {
		case f.foreign || newPath != f.path || compat.IsConfigName(filepath.Base(f.path)):
		case fromDir == p.Root && isToolConfig(filepath.Base(f.path)):
			strEdits, strWhy := p.planToolStrings(f, isRef, lines)
			if p.validEdits(f, edits, strEdits, lines) {
				edits, why = append(edits, strEdits...), append(why, strWhy...)
			}
		default:
			for _, sr := range f.strs {
				if isRef[sr.Start] || sr.End <= sr.Start || sr.Subst {
					continue
				}
				s := string(f.data[sr.Start:sr.End])
				if q := p.namesMoved(s, fromDir); q != "" {
					pos := lines.Position(sr.Start)
					p.note("%s:%d:%d: the string %q names a moved path (now %s); not an import, not changed", p.rel(f.path), pos.Line, pos.Column, s, q)
				}
			}
		}
		p.addEdit(f.path, f.data, f.mode, edits, why)
	}
}

// namesMoved returns the new place of the path the string s names, relative
// to dir, when it is a relative path (or glob) into a moved entry; else "".
func (p *Plan) namesMoved(s, dir string) string {
	if strings.ContainsAny(s, "\n :") || len(s) > 300 {
		return ""
	}
	lit := s
	if i := strings.IndexAny(lit, "*?[{"); i >= 0 {
		lit = lit[:i]
	}
	if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
		first, _, ok := strings.Cut(lit, "/")
		if !ok || first == "" || !p.Paths.moved(filepath.Join(dir, first)) {
			return ""
		}
	}
	lit = strings.TrimSuffix(lit, "/")
	if lit == "" || lit == "." || lit == ".." {
		return ""
	}
	abs := filepath.Join(dir, filepath.FromSlash(lit))
	if !p.Paths.moved(abs) {
		if f := p.Paths.probe(abs, false); f == "" || !p.Paths.moved(f) {
			return ""
		}
	}
	return p.rel(p.Paths.mapSpec(abs, false)) + s[len(strings.TrimSuffix(lit, "/")):]
}

// respell returns the text to write inside r's delimiters for the new
// value out, in the literal's own spelling: the escapes of the part that
// does not change are kept as written ('../components/q\'uote.vue' becomes
// '../app/components/q\'uote.vue'), the new part is escaped for the
// literal's quote where it must be.
func respell(r *specs.Ref, src []byte, out string) string {
	if r.Quote == 0 {
		return out // CSS: written as it is found
	}
	if !r.Esc {
		return rewrite.EscapeString(out, r.Quote)
	}
	return rewrite.Respell(string(src[r.Start:r.End]), r.Quote, r.Val, out)
}

func (e FileEdit) String() string {
	return fmt.Sprintf("%s (%d edits)", e.Path, len(e.Edits))
}

// globRest returns the pattern after the literal prefix of a glob ref (of
// @source or import.meta.glob), up to its closing quote; "" for other refs.
func globRest(r *specs.Ref, src []byte) string {
	if !r.Prefix || r.Kind != specs.CSSSource && r.Kind != specs.Glob {
		return ""
	}
	return string(src[r.End : r.End+lineEnd(src[r.End:])])
}

// globReachesMoved reports a glob whose directory prefix dir stays while
// its first pattern segment (of rest) matches a moved entry below it:
// '{components,server}/**' from the root. A leading ** matches at any
// depth, so it keeps matching what moved.
func (p *Plan) globReachesMoved(dir, rest string) bool {
	seg, _, _ := strings.Cut(rest, "/")
	if p.Paths.moved(dir) || strings.HasPrefix(seg, "**") {
		return false
	}
	for _, mv := range p.Moves {
		r, err := filepath.Rel(dir, mv.From)
		if err != nil || !within(mv.From, dir) || mv.From == dir {
			continue
		}
		first, _, _ := strings.Cut(filepath.ToSlash(r), "/")
		if ok, _ := doublestar.Match(seg, first); ok {
			return true
		}
	}
	return false
}

// lineEnd returns the length of b's first line, quotes and ; excluded
// from its end.
func lineEnd(b []byte) int {
	n := 0
	for n < len(b) && b[n] != '\n' && b[n] != '\r' && b[n] != '"' && b[n] != '\'' && b[n] != ';' {
		n++
	}
	return n
}
