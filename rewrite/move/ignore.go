package move

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// RewriteIgnorePattern rewrites one `ignore` option entry or .fwignore line
// for the default move (moved entries go into app/). moved holds the
// rootDir-relative, slash-separated paths of the moved entries
// ("components", "app.vue"). Patterns are matched relative to rootDir, so one
// that names a moved path gets the app/ prefix; patterns starting with * match
// anywhere and stay, and negations and a leading / or ./ are kept.
func RewriteIgnorePattern(p string, moved map[string]bool) (string, bool) {
	var rels []string
	for k := range moved {
		rels = append(rels, strings.Trim(k, "/"))
	}
	mapRel := func(rel string) (string, bool) {
		for _, r := range rels {
			if rel == r || strings.HasPrefix(rel, r+"/") {
				return "app/" + rel, true
			}
		}
		return "", false
	}
	out, changed, _ := rewriteIgnore(p, mapRel, rels)
	return out, changed
}

// RewriteIgnore is RewriteIgnorePattern for this plan's moves, whatever the
// target and srcDir. note is set when the pattern names moved and staying
// paths at once (src/** when only some of src/ moves), which no rewrite can
// keep meaning the same.
func (p *Plan) RewriteIgnore(pat string) (out string, changed bool, note string) {
	return rewriteIgnore(pat, p.mapRel, p.movedRels())
}

func (p *Plan) mapRel(rel string) (string, bool) {
	abs := filepath.Join(p.Root, filepath.FromSlash(rel))
	if !within(abs, p.Root) || !p.Paths.moved(abs) {
		return "", false
	}
	r, err := filepath.Rel(p.Root, p.Paths.Map(abs))
	if err != nil {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (p *Plan) movedRels() []string {
	var rels []string
	for _, mv := range p.Moves {
		if r, err := filepath.Rel(p.Root, mv.From); err == nil {
			rels = append(rels, filepath.ToSlash(r))
		}
	}
	return rels
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[{\\") }

func rewriteIgnore(pat string, mapRel func(string) (string, bool), moved []string) (string, bool, string) {
	body := pat
	neg := ""
	if strings.HasPrefix(body, "!") {
		neg, body = "!", body[1:]
	}
	if body == "" || strings.HasPrefix(body, "*") || strings.HasPrefix(body, "#") {
		return pat, false, ""
	}
	lead := ""
	for _, l := range []string{"./", "/"} {
		if strings.HasPrefix(body, l) {
			lead, body = l, body[len(l):]
			break
		}
	}
	segs := strings.Split(body, "/")
	n := 0
	for n < len(segs) && segs[n] != "" && !hasGlob(segs[n]) {
		n++
	}
	if n == 0 {
		if len(segs) > 0 && segs[0] != "" {
			for _, r := range moved {
				first, _, _ := strings.Cut(r, "/")
				if ok, _ := doublestar.Match(segs[0], first); ok {
					return pat, false, "pattern " + pat + " may match moved " + r + "; not rewritten"
				}
			}
		}
		return pat, false, ""
	}
	literal := strings.Join(segs[:n], "/")
	if to, ok := mapRel(literal); ok {
		out := neg + lead + to
		if n < len(segs) {
			out += "/" + strings.Join(segs[n:], "/")
		}
		return out, out != pat, ""
	}
	if n < len(segs) {
		for _, r := range moved {
			if strings.HasPrefix(r, literal+"/") {
				return pat, false, "pattern " + pat + " covers moved " + r + " and paths that stay; not rewritten"
			}
		}
	}
	return pat, false, ""
}

// planIgnore rewrites the root .fwignore, whose patterns are all matched
// from the root, and the tools' ignore files (planToolIgnores).
func (p *Plan) planIgnore() {
	path := filepath.Join(p.Root, ".fwignore")
	data, mode, ok, err := readRegular(path)
	if err != nil {
		p.conflict(path, "%v", err)
	}
	if ok {
		p.rewriteIgnoreFile(path, ".fwignore", data, mode, func(string) bool { return true })
	}
	p.planToolIgnores()
}

func lineWhy(line int, old, new string) string {
	return "line " + itoa(line) + ": " + old + " -> " + new
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// readRegular reads a regular file; ok is false when there is none (a
// symlink is not followed: it counts as none).
func readRegular(path string) (data []byte, mode os.FileMode, ok bool, err error) {
	st, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, false, nil
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, 0, false, err
	}
	return data, st.Mode(), true, nil
}
