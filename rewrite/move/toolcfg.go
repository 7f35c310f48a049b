package move

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

// The tool configs of a project name its sources with globs and paths that
// are not imports: tailwind's content globs, the test runner's include and
// coverage globs, eslint's ignores. After the move they match nothing and
// the tool goes quiet (the app loses its styles, the tests their files)
// without an error, so the move rewrites them in the configs it knows at
// the project root, where their paths are relative to the root. A glob it
// cannot rewrite exactly is reported with its position, never left
// silently.

// toolConfigs are the base names (before the extension) of the tool
// configs whose strings are globs and paths relative to the root.
var toolConfigs = map[string]bool{
	"tailwind.config": true, "uno.config": true, "unocss.config": true, "windi.config": true, "postcss.config": true,
	"vite.config": true, "vitest.config": true, "vitest.workspace": true, "vitest.projects": true,
	"jest.config": true, "playwright.config": true, "eslint.config": true, "stylelint.config": true,
	".eslintrc": true,
}

// jsonToolConfigs are the JSON tool configs read like the others: eslint's
// legacy config and shadcn-vue's components.json (its tailwind.css path).
var jsonToolConfigs = map[string]bool{".eslintrc.json": true, "components.json": true}

func isToolConfig(name string) bool {
	if jsonToolConfigs[name] {
		return true
	}
	switch filepath.Ext(name) {
	case ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts":
		return toolConfigs[strings.TrimSuffix(name, filepath.Ext(name))]
	}
	return false
}

// gitignoreSemantics reports the tool configs whose patterns follow git's
// rules (eslintrc's ignorePatterns and overrides): a pattern whose only
// slash ends it matches at any depth, so it keeps matching after the move.
func gitignoreSemantics(name string) bool {
	return strings.HasPrefix(name, ".eslintrc.")
}

// planToolStrings returns the edits of the strings of the tool config f
// (at the project root) that name moved paths, and notes the ones it
// cannot rewrite. isRef marks the strings that are specifiers (imports,
// new URL): those follow the move as imports do.
func (p *Plan) planToolStrings(f *srcFile, isRef map[int]bool, lines ast.Lines) (edits []udiff.Edit, why []string) {
	where := func(off int) string {
		pos := lines.Position(off)
		return p.rel(f.path) + ":" + itoa(pos.Line) + ":" + itoa(pos.Column)
	}
	for _, sr := range f.strs {
		if isRef[sr.Start] || sr.End <= sr.Start {
			continue
		}
		raw := string(f.data[sr.Start:sr.End])
		if sr.Key && (raw == "~" || raw == "@" || raw == "~/" || raw == "@/") {
			// resolve.alias { '~': ... } written by hand for the tests: it
			// named the root, where the sources were; ~ and @ are app/ in
			// layout A.
			p.note("%s: the alias %s is set by hand here; it is srcDir, which becomes %s/: point it there", where(sr.Start), raw, p.rel(p.Target))
			continue
		}
		if sr.Key {
			continue // a name, not a path
		}
		if sr.Subst || sr.Concat {
			// A computed path: `${root}/components/**` or root + '/components'.
			if at, name := p.computedMoved(sr, raw); at >= 0 {
				p.note("%s: a computed path continues with /%s, which moves to %s; not rewritten: change it by hand", where(sr.Start+at), name, p.rel(p.Paths.Map(filepath.Join(p.Root, name))))
			}
			continue
		}
		if strings.ContainsAny(raw, "\\\n") {
			if q := p.namesMoved(raw, p.Root); q != "" {
				p.note("%s: the string %q names a moved path (now %s); written with escapes: not rewritten", where(sr.Start), raw, q)
			}
			continue
		}
		if gitignoreSemantics(filepath.Base(f.path)) && !anchored(raw) {
			continue // matches at any depth
		}
		out, changed, note := p.RewriteGlob(raw)
		if note != "" {
			p.note("%s: %s", where(sr.Start), note)
		}
		if changed {
			edits = append(edits, udiff.Edit{Start: sr.Start, End: sr.End, New: out})
			why = append(why, lineWhy(lines.Line(sr.Start), raw, out))
		}
	}
	return edits, why
}

// computedMoved finds, in the text of a string that continues a computed
// path (a concatenation's string: at its start; a template literal: right
// after a substitution), a "/" followed by a moved root entry: its offset
// in s and the entry's name; -1 when there is none. What precedes must be
// a directory (__dirname, process.cwd(), a call) or the rest a file glob
// or name (/pages/**/*.vue): baseURL + '/pages' is a route.
func (p *Plan) computedMoved(sr specs.StrLit, s string) (int, string) {
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || !(i == 0 && sr.Concat || sr.Subst && i > 0 && s[i-1] == '}') {
			continue
		}
		name, rest := s[i+1:], ""
		if j := strings.IndexAny(name, "/`'\" $*{"); j >= 0 {
			name, rest = name[:j], name[j:]
		}
		if name == "" || name == "." || name == ".." || !p.Paths.moved(filepath.Join(p.Root, name)) {
			continue
		}
		dirBefore := i == 0 && sr.DirConcat
		if i > 0 {
			sub := s[:i-1]
			sub = strings.TrimSpace(sub[strings.LastIndex(sub, "${")+2:])
			dirBefore = dirExpr(sub)
		}
		if dirBefore || hasGlob(rest) || rest != "" && strings.Contains(path.Base(rest), ".") || strings.Contains(name, ".") {
			return i, name
		}
	}
	return -1, ""
}

// dirExpr reports an expression that names a directory: __dirname,
// import.meta.dirname, or a call (process.cwd(), resolve(...)).
func dirExpr(e string) bool {
	return e == "__dirname" || e == "import.meta.dirname" || strings.HasSuffix(e, ")")
}

// RewriteGlob rewrites a glob or path relative to the project root (a
// tool config's string) to name the same files after the move:
// ./components/**/*.vue becomes ./app/components/**/*.vue,
// {components,pages}/** becomes app/{components,pages}/**, and
// {components,server}/** becomes {app/components,server}/**. A leading !
// and ./ are kept. Globs that keep matching (**/*.vue), absolute paths and
// paths out of the root are left alone, and so are bare words (a string
// "pages" is not known to be a path) but the names of the root files that
// move ("app.vue", "error.vue": a name with an extension). note says why a glob that may
// match moved files is not rewritten (*.vue matches app.vue).
func (p *Plan) RewriteGlob(pat string) (out string, changed bool, note string) {
	if strings.ContainsAny(pat, " :") || len(pat) > 300 {
		return pat, false, "" // a sentence, a URL, a scheme
	}
	body := strings.TrimPrefix(pat, "!")
	neg := pat[:len(pat)-len(body)]
	lead := ""
	if strings.HasPrefix(body, "./") {
		lead, body = "./", body[2:]
	}
	first, _, multi := strings.Cut(body, "/")
	switch {
	case body == "" || body[0] == '/' || first == ".." || first == "." || strings.HasPrefix(first, "**"):
		return pat, false, ""
	case lead == "" && !multi && !hasGlob(body):
		if _, moved := p.mapRel(body); moved && strings.Contains(body, ".") && p.movedFile(body) {
			break // a file name at the root that moves ("app.vue"): a path
		}
		return pat, false, "" // a bare word
	case body[0] == '{':
		return p.rewriteBraces(pat, neg+lead, body)
	case hasGlob(first):
		if name := p.mayMatchMoved(first, multi); name != "" {
			return pat, false, "the glob " + strconv.Quote(pat) + " matches moved " + name + " today, and will not match it in app/; not rewritten: change it by hand"
		}
		return pat, false, ""
	}
	out, changed, note = rewriteIgnore(pat, p.mapRel, p.movedRels())
	if note != "" {
		note = "the glob " + strconv.Quote(pat) + " covers moved and staying paths; not rewritten: change it by hand"
	}
	return out, changed, note
}

// mayMatchMoved returns the moved entry whose root folder (or itself, at
// the root) the glob segment seg matches (a folder only when more segments
// follow), or "".
func (p *Plan) mayMatchMoved(seg string, dirOnly bool) string {
	for _, mv := range p.Moves {
		r, err := filepath.Rel(p.Root, mv.From)
		if err != nil || !within(mv.From, p.Root) {
			continue
		}
		first, _, deeper := strings.Cut(filepath.ToSlash(r), "/")
		if dirOnly && !mv.Dir && !deeper {
			continue
		}
		if ok, _ := doublestar.Match(seg, first); ok {
			return p.rel(mv.From)
		}
	}
	return ""
}

// rewriteBraces rewrites a glob whose first part is a brace list of
// literal alternatives ({components,pages}/**/*.vue), each alternative on
// its own.
func (p *Plan) rewriteBraces(pat, head, body string) (string, bool, string) {
	end := strings.IndexByte(body, '}')
	if end < 0 {
		return pat, false, ""
	}
	inner, rest := body[1:end], body[end+1:]
	if strings.ContainsAny(inner, "{*?[\\") || rest != "" && rest[0] != '/' {
		// Nested or globbed alternatives: report them if one names a
		// moved entry.
		for _, alt := range strings.Split(strings.Trim(body, "{}"), ",") {
			first, _, _ := strings.Cut(strings.TrimPrefix(alt, "{"), "/")
			if first != "" && !hasGlob(first) && p.Paths.moved(filepath.Join(p.Root, first)) {
				return pat, false, "the glob " + strconv.Quote(pat) + " names moved " + first + " in a pattern too complex to rewrite exactly; change it by hand"
			}
		}
		return pat, false, ""
	}
	alts := strings.Split(inner, ",")
	mapped := make([]string, len(alts))
	prefix, common, any := "", true, false
	for i, alt := range alts {
		to, ok := p.mapRel(alt)
		if !ok || alt == "" {
			mapped[i] = alt
			common = false
			for _, r := range p.movedRels() {
				if strings.HasPrefix(r, alt+"/") {
					return pat, false, "the glob " + strconv.Quote(pat) + " covers moved and staying paths; not rewritten: change it by hand"
				}
			}
			continue
		}
		mapped[i], any = to, true
		pre, ok := strings.CutSuffix(to, alt)
		if !ok || i > 0 && pre != prefix {
			common = false
		}
		prefix = pre
	}
	if !any {
		return pat, false, ""
	}
	var out string
	if common {
		out = head + prefix + "{" + inner + "}" + rest
	} else {
		out = head + "{" + strings.Join(mapped, ",") + "}" + rest
	}
	return out, out != pat, ""
}

// planToolIgnores rewrites the ignore files of the tools at the project
// root (.gitignore, .prettierignore, .eslintignore), which share git's
// rules: a pattern without a slash but at its end matches at any depth and
// keeps matching; an anchored one (a leading or inner slash) names a place
// and follows the move.
func (p *Plan) planToolIgnores() {
	for _, name := range []string{".gitignore", ".prettierignore", ".eslintignore", ".stylelintignore"} {
		path := filepath.Join(p.Root, name)
		data, mode, ok, err := readRegular(path)
		if err != nil {
			// Not a reason to refuse the move, which does not depend on it.
			p.note("%s: not read (%v); its patterns are not rewritten: check them by hand", name, err)
		}
		if !ok {
			continue
		}
		p.rewriteIgnoreFile(path, name, data, mode, anchored)
	}
}

// anchored reports a pattern that git matches from the ignore file's
// directory: one with a slash at its start or inside it.
func anchored(pat string) bool {
	return strings.Contains(strings.TrimSuffix(strings.TrimPrefix(pat, "!"), "/"), "/")
}

// rewriteIgnoreFile rewrites the patterns of an ignore file that
// matchedHere says are matched from its directory (the root), and notes
// those that cannot be rewritten with their positions.
func (p *Plan) rewriteIgnoreFile(path, name string, data []byte, mode fs.FileMode, matchedHere func(string) bool) {
	lines := ast.NewLines(data)
	var edits []udiff.Edit
	var why []string
	ignore.Lines(data, func(s, e, line int) {
		pat := string(data[s:e])
		if !matchedHere(pat) {
			return
		}
		out, changed, note := p.RewriteIgnore(pat)
		if note != "" {
			pos := lines.Position(s)
			p.note("%s:%d:%d: %s", name, pos.Line, pos.Column, note)
		}
		if changed {
			edits = append(edits, udiff.Edit{Start: s, End: e, New: out})
			why = append(why, lineWhy(line, pat, out))
		}
	})
	p.addEdit(path, data, mode, edits, why)
}

// validEdits drops the edits of the tool config f's strings when the file
// would no longer read with them (it read before), noting each: a string
// edit cannot break a script, but a written script is always checked.
func (p *Plan) validEdits(f *srcFile, refEdits, strEdits []udiff.Edit, lines ast.Lines) bool {
	return p.validToolEdits(f.path, f.data, f.lang == "json", refEdits, strEdits, lines)
}

// ValidToolEdits reports whether the tool config at path, whose text data
// read before, still reads with refEdits (its specifiers' edits) and
// strEdits (its strings') applied: as JSON when json is set, else as a
// script. When it does not, each of strEdits is noted (Notes, with its
// position) and the plan leaves them out.
func (p *Plan) ValidToolEdits(path string, data []byte, json bool, refEdits, strEdits []udiff.Edit) bool {
	return p.validToolEdits(path, data, json, refEdits, strEdits, ast.NewLines(data))
}

func (p *Plan) validToolEdits(path string, data []byte, isJSON bool, refEdits, strEdits []udiff.Edit, lines ast.Lines) bool {
	f := &srcFile{path: path, data: data}
	if len(strEdits) == 0 {
		return true
	}
	all := append(append([]udiff.Edit(nil), refEdits...), strEdits...)
	out, err := udiff.ApplyBytes(f.data, all)
	if err == nil {
		valid := func(b []byte) error { return rewrite.ValidateCode(f.path, b) }
		if isJSON {
			valid = func(b []byte) error {
				if !json.Valid(b) {
					return errors.New("not valid JSON")
				}
				return nil
			}
		}
		if err = valid(out); err == nil || valid(f.data) != nil {
			return true
		}
	}
	for _, e := range strEdits {
		pos := lines.Position(e.Start)
		p.note("%s:%d:%d: %q names a moved path (now %s); not rewritten: %v", p.rel(f.path), pos.Line, pos.Column, string(f.data[e.Start:e.End]), e.New, err)
	}
	return false
}

// movedFile reports whether name is a file at the root that the plan moves
// (not a folder).
func (p *Plan) movedFile(name string) bool {
	for _, mv := range p.Moves {
		if !mv.Dir && filepath.Dir(mv.From) == filepath.Clean(p.Root) && filepath.Base(mv.From) == name {
			return true
		}
	}
	return false
}
