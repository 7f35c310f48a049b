package rules

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleNodeBehind = &Rule{
	Code:     "FW702",
	Name:     "node-behind",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "a place that writes the project's Node version names one the latest release of the target major does not run on",
		Why: `Node decides which framework version a project really gets, silently: the
framework's own upgrade command installed 4.4.5 instead of 4.5.2 on Node 20,
because 4.4.6 and later need Node ^22.12 and 4.5 needs ^22.19, and said it
had upgraded. A project writes its Node in several places: engines.node and
volta.node in package.json, .nvmrc, .node-version, .tool-versions, the
node-version of its CI workflows (each value of a matrix list) and the
FROM node:<tag> of its Dockerfiles. Each place whose Node the latest release
of the target major (from the ecosystem table) does not support is reported
on its own: a warning when an older release of the major still runs on it,
an error when none does.
A version written as a line ("22", "22.19", "22.x": nvm, setup-node and the
image tags take the newest of the line) is judged by the newest of the line;
an exact version by itself; a range (engines ">=18") by every version it
admits. Aliases ("lts/*", "node", an expression) are not judged.`,
		Example: `// .nvmrc
20
// .github/workflows/ci.yml
    strategy:
      matrix:
        node: [18, 20]`,
		Fix: `Where the place is a plain version ("20", "20.11.1", "v20", "20.x"), writes
the lowest Node version the latest release supports at or above it, in the
place's precision ("22", "22.19.0", "v22", "22.x"). In a workflow's matrix
list (flow or block), an entry whose new version the list already names (or
another entry of it moves to) is removed instead, so that the matrix keeps
one job per Node: [18, 20, 22] becomes [22], [18, 20, 24] becomes [22, 24].
Ranges (an engines.node such as ">=18.0.0"), aliases and expressions are
left to edit by hand.
Unsafe: the project's Node changes for development, CI and deployment alike.`,
	},
	Run: runNodeBehind,
}

func init() { Register(ruleNodeBehind) }

// nodeFull is an exact Node version: "22.19.0", "v22.19.0".
var nodeFull = lazyregexp.New(`^(v?)(\d+)\.(\d+)\.(\d+)$`)

// nodeLine is a Node version written as a line: "22", "22.19", "22.x".
var nodeLine = lazyregexp.New(`^(v?)(\d+)(?:\.(\d+))?(\.x)?$`)

func runNodeBehind(pass *Pass) {
	major := depsMajor(pass)
	if major == 0 || pass.File == nil {
		return
	}
	p := pass.Project
	ps := p.Packages()
	if ps.Manifest == nil || ps.Err != nil || ps.Dep(compat.FrameworkPackage) == nil {
		return // not an app with the framework among its dependencies
	}
	eco := compat.Eco()
	latest := eco.HighestRelease(major, nil)
	if latest == nil || !latest.NodeOK {
		return
	}
	need := latest.Node
	needFloor, _ := need.Floor()
	fixes := map[*project.NodePlace]*Diagnostic{} // the places given a new version
	for _, np := range p.NodePlaces() {
		if !np.Known {
			continue
		}
		_, isLine := lineTop(np)
		_, perr := semver.Parse(np.Text)
		single := isLine || perr == nil // one Node version: the line's newest, or the exact one
		var d *Diagnostic
		what := fmt.Sprintf("Node `%s` (%s)", np.Text, placeName(np))
		if single {
			if nodeRuns(np, need) {
				continue
			}
			best := eco.HighestRelease(major, func(r *compat.FwRelease) bool { return r.NodeOK && nodeRuns(np, r.Node) })
			d = pass.reportIn(np.Display, placeSrc(p, np), np.Span, "")
			if best == nil {
				d.Severity = Error
				d.Message = fmt.Sprintf("%s runs no release of framework major %d: %s, the latest, needs Node %s", what, major, latest.Version, latest.EnginesNode)
				if first := eco.ReleasesOf(major); len(first) > 0 {
					d.Notes = append(d.Notes, fmt.Sprintf("%s, the first, needed Node %s", first[0].Version, first[0].EnginesNode))
				}
			} else {
				d.Message = fmt.Sprintf("%s keeps the project at framework %s at most: %s, the latest %d.x, needs Node %s", what, best.Version, latest.Version, major, latest.EnginesNode)
			}
		} else {
			// A range (engines ">=18"): behind when it admits Node versions
			// below the lowest the latest release runs on.
			lo, ok := np.Range.Floor()
			if !ok || np.Range.Subset(need) || !lo.Less(needFloor) {
				continue
			}
			any := eco.HighestRelease(major, func(r *compat.FwRelease) bool { return r.NodeOK && r.Node.Intersects(np.Range) })
			d = pass.reportIn(np.Display, placeSrc(p, np), np.Span, "")
			d.Message = fmt.Sprintf("%s admits Node versions below those %s, the latest %d.x, runs on (%s)", what, latest.Version, major, latest.EnginesNode)
			if any == nil {
				d.Severity = Error
				d.Message = fmt.Sprintf("%s admits no Node version that a release of framework major %d runs on: %s, the latest, needs Node %s", what, major, latest.Version, latest.EnginesNode)
			}
			if np.Kind == project.NodeEngines {
				d.Notes = append(d.Notes, "engines.node is the range of Node versions the project says it supports")
			}
		}
		d.Path = relPath(p, np.Path)
		text, ok := nodeFixText(np, need)
		if !ok {
			if single {
				d.Notes = append(d.Notes, fmt.Sprintf("no fix: `%s` is not a plain version; write a Node version that %s admits by hand", np.Text, latest.EnginesNode))
			} else {
				d.Notes = append(d.Notes, fmt.Sprintf("no fix: `%s` is a range; write the Node versions the framework runs on, `%s`, or a part of them, by hand", np.Text, latest.EnginesNode))
			}
			continue
		}
		d.Fix = &Fix{
			Description:   fmt.Sprintf("write Node `%s` in %s", text, placeName(np)),
			Applicability: Unsafe,
			File:          np.Path,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: np.Span, Text: text}},
		}
		fixes[np] = d
	}
	matrixFixes(p, fixes)
}

// placeSrc is the text of the file a Node place is in.
func placeSrc(p *project.Project, np *project.NodePlace) []byte {
	ps := p.Packages()
	if ps.Manifest != nil && ps.Manifest.Path == np.Path {
		return ps.Manifest.Src
	}
	for _, f := range append(append([]*project.TextFile(nil), p.CI().Workflows...), p.CI().Dockerfiles...) {
		if f.Path == np.Path {
			return f.Src
		}
	}
	if f, err := p.ReadText(np.Path); err == nil {
		return f.Src
	}
	return nil
}

// relPath is path relative to the project's root, slash-separated.
func relPath(p *project.Project, path string) string {
	if rel, ok := strings.CutPrefix(path, p.Root+"/"); ok {
		return rel
	}
	return path
}

// nodeRuns reports whether the Node a place names is one need admits: the
// newest of a line ("22", "22.19", "22.x", an LTS name), an exact version
// itself, every version of another range.
func nodeRuns(np *project.NodePlace, need semver.Range) bool {
	if top, ok := lineTop(np); ok {
		return need.Satisfies(top)
	}
	if v, err := semver.Parse(np.Text); err == nil {
		return need.Satisfies(v)
	}
	return np.Range.Subset(need)
}

// lineTop is the newest version of a place written as a line.
func lineTop(np *project.NodePlace) (semver.Version, bool) {
	const top = 1<<53 - 1
	text := np.Text
	if strings.HasPrefix(strings.ToLower(text), "lts/") && np.Known {
		lo, _ := np.Range.Floor()
		return semver.Version{Major: lo.Major, Minor: top, Patch: top}, true
	}
	m := nodeLine().FindStringSubmatch(text)
	if m == nil {
		return semver.Version{}, false
	}
	M, _ := strconv.ParseUint(m[2], 10, 64)
	if m[3] == "" {
		return semver.Version{Major: M, Minor: top, Patch: top}, true
	}
	mi, _ := strconv.ParseUint(m[3], 10, 64)
	return semver.Version{Major: M, Minor: mi, Patch: top}, true
}

// nodeFixText is the version to write at a plain place: the lowest that
// need admits at or above the place's, in its precision.
func nodeFixText(np *project.NodePlace, need semver.Range) (string, bool) {
	full := nodeFull().FindStringSubmatch(np.Text)
	line := nodeLine().FindStringSubmatch(np.Text)
	if full == nil && line == nil {
		return "", false
	}
	cur := semver.Version{}
	if full != nil {
		cur = semver.MustParse(np.Text)
	} else {
		M, _ := strconv.ParseUint(line[2], 10, 64)
		cur.Major = M
		if line[3] != "" {
			cur.Minor, _ = strconv.ParseUint(line[3], 10, 64)
		}
	}
	// The floors of need's sets, lowest first, at or above the place.
	var best *semver.Version
	for _, alt := range strings.Split(need.String(), "||") {
		r, err := semver.ParseRange(alt)
		if err != nil {
			return "", false
		}
		lo, ok := r.Floor()
		if !ok || lo.Less(cur) {
			continue
		}
		if best == nil || lo.Less(*best) {
			l := lo
			best = &l
		}
	}
	if best == nil {
		return "", false
	}
	switch {
	case full != nil:
		return full[1] + best.String(), true
	case line[4] != "": // "20.x", "20.11.x" is not matched
		return line[1] + strconv.FormatUint(best.Major, 10) + ".x", true
	case line[3] != "":
		return line[1] + fmt.Sprintf("%d.%d", best.Major, best.Minor), true
	}
	return line[1] + strconv.FormatUint(best.Major, 10), true
}

// A workflow's matrix list names one job per Node version: bumped one by
// one, [18, 20] would become [22, 22], two jobs on the same Node. The fixes
// of a list's entries are made for the list as a whole: an entry whose new
// version the list names already (an entry that runs, or one fixed before
// it) is removed, separator and all, instead of repeated. Each fix stays
// right alone (the editor's quickfix): removing an entry, or moving one
// to a version the list does not name, leaves a valid list.

// matrixEntry is one entry of a matrix list: its place (nil for an entry
// that is no Node place), its text with any quotes [start, end), and the
// line it is on [lineStart, lineEnd) (the newline included).
type matrixEntry struct {
	np                 *project.NodePlace
	start, end         int
	lineStart, lineEnd int
}

// matrixList is a flow list ([18, 20]) or a block list (- 18 lines) of a
// workflow's matrix.
type matrixList struct {
	block   bool
	entries []matrixEntry
}

// matrixFixes turns the fixes (by place) of the entries of the workflows'
// matrix lists into removals where they would repeat a version. Each list
// is read once, by its first place (a list of 100,000 entries is read in
// linear time).
func matrixFixes(p *project.Project, fixes map[*project.NodePlace]*Diagnostic) {
	type entryRef struct {
		l *matrixList
		i int
	}
	at := map[string]map[int]entryRef{} // by file, the lists' entries by where their text starts
	var lists []*matrixList
	for _, np := range p.NodePlaces() {
		if np.Kind != project.NodeWorkflow || !strings.HasPrefix(np.Note, "matrix.") {
			continue
		}
		byStart := at[np.Path]
		if byStart == nil {
			byStart = map[int]entryRef{}
			at[np.Path] = byStart
		}
		ref, ok := byStart[np.Span.Start]
		if !ok {
			src := placeSrc(p, np)
			if src == nil {
				continue
			}
			l := matrixListAt(src, np.Span.Start, np.Span.End)
			if l == nil {
				continue // a scalar, an include entry: one job, nothing repeats
			}
			lists = append(lists, l)
			for i, e := range l.entries {
				byStart[e.start] = entryRef{l, i}
				if c := src[e.start]; c == '\'' || c == '"' {
					byStart[e.start+1] = entryRef{l, i} // the place's text is within the quotes
				}
			}
			if ref, ok = byStart[np.Span.Start]; !ok {
				continue
			}
		}
		ref.l.entries[ref.i].np = np
	}
	for _, l := range lists {
		dedupeList(l, fixes)
	}
}

// dedupeList removes, in l, the fixed entries whose new version is named by
// another entry: one left as it is, or one fixed before it.
func dedupeList(l *matrixList, fixes map[*project.NodePlace]*Diagnostic) {
	newText := func(e matrixEntry) (string, bool) {
		if d := fixes[e.np]; e.np != nil && d != nil && d.Fix != nil {
			return d.Fix.Ops[0].Text, true
		}
		return "", false
	}
	// The entries that name each Node (by nodeKey): those left as they
	// are first, then those fixed, in order.
	named := map[string]string{}
	for _, e := range l.entries {
		if _, fixed := newText(e); !fixed && e.np != nil {
			if k := nodeKey(e.np.Text); named[k] == "" {
				named[k] = "is in it already as `" + e.np.Text + "`"
			}
		}
	}
	removed := make([]bool, len(l.entries))
	why := make([]string, len(l.entries))
	for i, e := range l.entries {
		text, fixed := newText(e)
		if !fixed {
			continue
		}
		k := nodeKey(text)
		if named[k] != "" {
			removed[i], why[i] = true, named[k]
			continue
		}
		named[k] = "is what `" + e.np.Text + "` moves to"
	}
	for i, e := range l.entries {
		if !removed[i] {
			continue
		}
		var span ast.Span
		switch {
		case l.block:
			span = ast.Span{Start: e.lineStart, End: e.lineEnd}
		case tailRemoved(removed, i):
			// The last entries go with the separator before them.
			span = ast.Span{Start: l.entries[i-1].end, End: e.end}
		default:
			span = ast.Span{Start: e.start, End: l.entries[i+1].start}
		}
		d := fixes[e.np]
		text := d.Fix.Ops[0].Text
		d.Fix.Description = fmt.Sprintf("remove Node `%s` from the matrix list (%s): the version to write in its place, `%s`, %s", e.np.Text, placeName(e.np), text, why[i])
		d.Fix.Ops = []rewrite.Op{{Kind: rewrite.OpReplace, Span: span, Text: ""}}
	}
}

// tailRemoved reports whether the entries from i to the end of the list
// are all removed.
func tailRemoved(removed []bool, i int) bool {
	for ; i < len(removed); i++ {
		if !removed[i] {
			return false
		}
	}
	return true
}

// nodeKey is the Node a version text names, for comparing list entries:
// "22", "v22" and "22.x" name one line.
func nodeKey(text string) string {
	t := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(text)), "v")
	return strings.TrimSuffix(t, ".x")
}

// matrixListAt returns the matrix list whose entry holds [start, end) in src
// (the entries read as project's workflowNodeSpans reads them: a flow list
// on one line, a block list of "- value" lines); nil for a value that is in
// no list.
func matrixListAt(src []byte, start, end int) *matrixList {
	ls := bytes.LastIndexByte(src[:start], '\n') + 1
	le := len(src)
	if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
		le = end + i + 1
	}
	line := src[ls:le]
	// A flow list: the [ before the value and the ] after it, on its line.
	if open := bytes.LastIndexByte(src[ls:start], '['); open >= 0 && bytes.IndexByte(src[ls+open:start], ']') < 0 {
		if cl := bytes.IndexByte(src[end:le], ']'); cl >= 0 {
			open += ls
			cl += end
			l := &matrixList{}
			pos := open + 1
			for _, el := range bytes.Split(src[open+1:cl], []byte(",")) {
				t := bytes.TrimSpace(el)
				if len(t) > 0 {
					st := pos + bytes.Index(el, t)
					l.entries = append(l.entries, matrixEntry{start: st, end: st + len(t), lineStart: ls, lineEnd: le})
				}
				pos += len(el) + 1
			}
			return l
		}
		return nil
	}
	// A block list: "- value" lines of one indent around this one.
	indent, ok := blockItem(line, start-ls)
	if !ok {
		return nil
	}
	first := ls
	for first > 0 {
		prev := bytes.LastIndexByte(src[:first-1], '\n') + 1
		if in, ok := blockItem(src[prev:first], -1); !ok || in != indent {
			break
		}
		first = prev
	}
	l := &matrixList{block: true}
	for off := first; off < len(src); {
		next := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		in, ok := blockItem(src[off:next], -1)
		if !ok || in != indent {
			break
		}
		t := bytes.TrimSpace(src[off:next])
		st := off + bytes.Index(src[off:next], t) + 2
		for st < next && (src[st] == ' ' || src[st] == '\t') {
			st++
		}
		en := st + len(stripYAMLComment(src[st:next]))
		l.entries = append(l.entries, matrixEntry{start: st, end: en, lineStart: off, lineEnd: next})
		off = next
	}
	return l
}

// blockItem reports whether line is a block list's plain item ("  - 18",
// not "- node: 18", an include entry) and its indent; at, when not -1, is
// where the value must start (after the dash and its spaces, and a quote).
func blockItem(line []byte, at int) (int, bool) {
	t := bytes.TrimLeft(line, " ")
	indent := len(line) - len(t)
	rest, ok := bytes.CutPrefix(t, []byte("- "))
	if !ok {
		return 0, false
	}
	v := bytes.TrimLeft(rest, " \t")
	if len(bytes.TrimSpace(v)) == 0 || yamlKey().Match(v) {
		return 0, false
	}
	if pos := len(line) - len(v); at >= 0 && at != pos && (at != pos+1 || v[0] != '\'' && v[0] != '"') {
		return 0, false
	}
	return indent, true
}

// yamlKey is the start of a mapping entry ("node: 18").
var yamlKey = lazyregexp.New(`^[A-Za-z0-9_.-]+\s*:(\s|$)`)

// stripYAMLComment is v without a trailing comment (" # ...") and the
// spaces around it; a # inside quotes stays.
func stripYAMLComment(v []byte) []byte {
	q := byte(0)
	for i, c := range v {
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '#' && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t'):
			return bytes.TrimSpace(v[:i])
		}
	}
	return bytes.TrimSpace(v)
}
