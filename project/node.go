package project

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/semver"
)

// Where the project's Node version is written: package.json's engines.node
// and volta.node, .nvmrc, .node-version, .tool-versions, the CI workflows'
// node-version (matrix lists included) and the Dockerfiles' FROM node:<tag>.

// Node place kinds, as NodePlace.Kind says them.
const (
	NodeEngines      = "engines.node"
	NodeVolta        = "volta.node"
	NodeNvmrc        = ".nvmrc"
	NodeNodeVersion  = ".node-version"
	NodeToolVersions = ".tool-versions"
	NodeWorkflow     = "workflow"
	NodeDockerfile   = "Dockerfile"
)

// NodePlace is one place that writes the project's Node version.
type NodePlace struct {
	Kind string
	// Path is the file (absolute), Display as shown to the user.
	Path, Display string
	// Span is the version text in the file, Line its 1-based line; Text is
	// that text ("20", "^20.19.0", "lts/iron", "${{ matrix.node }}").
	Span ast.Span
	Line int
	Text string
	// Plain is true when Text is a plain version ("20", "20.11", "v20.11.1"):
	// a fix may write another in its place.
	Plain bool
	// Range is the Node versions Text stands for ("20" is 20.x, an LTS
	// code name its major, engines its range); Known is false when that
	// cannot be told (an alias such as "lts/*" or "node", an expression).
	Range semver.Range
	Known bool
	// Note says more of where it is: "matrix.node", "ARG NODE_VERSION".
	Note string
}

// NodePlaces returns the places that write the project's Node version, in
// the order package.json, .nvmrc, .node-version, .tool-versions,
// workflows, Dockerfiles; read on first use.
func (p *Project) NodePlaces() []*NodePlace {
	s := &p.files().deps
	s.nodeOnce.Do(func() { s.node = p.loadNodePlaces() })
	return s.node
}

func (p *Project) loadNodePlaces() []*NodePlace {
	var out []*NodePlace
	lines := map[*TextFile]ast.Lines{} // one line table per file: many places stay linear
	add := func(kind string, f *TextFile, start, end int, note string) {
		np := nodePlace(kind, f, start, end)
		tbl, ok := lines[f]
		if !ok {
			tbl = ast.NewLines(f.Src)
			lines[f] = tbl
		}
		np.Line = tbl.Position(start).Line
		np.Note = note
		out = append(out, np)
	}
	ps := p.Packages()
	if m := ps.Manifest; m != nil && ps.members != nil {
		for _, field := range [][2]string{{"engines", NodeEngines}, {"volta", NodeVolta}} {
			if it, ok := nestedString(m.Src, ps.members, field[0], "node"); ok {
				add(field[1], m, it.ValStart+1, it.ValEnd-1, "")
			}
		}
	}
	for _, name := range []string{NodeNvmrc, NodeNodeVersion} {
		f := p.rootText(name)
		if f == nil {
			continue
		}
		// The first line that is not blank or a comment; a trailing
		// comment is not part of the version.
		forLines(f.Src, func(off int, line []byte) bool {
			text := bytes.TrimSpace(line)
			if len(text) == 0 || text[0] == '#' {
				return true
			}
			start := off + bytes.Index(line, text)
			tok := firstToken(text)
			add(name, f, start, start+len(tok), "")
			return false
		})
	}
	if f := p.rootText(NodeToolVersions); f != nil {
		forLines(f.Src, func(off int, line []byte) bool {
			fields := bytes.Fields(line)
			if len(fields) < 2 || string(fields[0]) != "nodejs" && string(fields[0]) != "node" {
				return true
			}
			rest := line[bytes.Index(line, fields[0])+len(fields[0]):]
			start := off + (len(line) - len(rest)) + bytes.Index(rest, fields[1])
			add(NodeToolVersions, f, start, start+len(fields[1]), "")
			return false
		})
	}
	ci := p.CI()
	for _, f := range ci.Workflows {
		for _, s := range workflowNodeSpans(f.Src) {
			add(NodeWorkflow, f, s.start, s.end, s.note)
		}
	}
	for _, f := range ci.Dockerfiles {
		for _, s := range dockerNodeSpans(f.Src) {
			add(NodeDockerfile, f, s.start, s.end, s.note)
		}
	}
	return out
}

// rootText reads a small text file of the root, nil when there is none or
// it cannot be read.
func (p *Project) rootText(name string) *TextFile {
	path := filepath.Join(p.Root, name)
	if !p.IsFile(path) {
		return nil
	}
	src, err := p.readConfined(path, maxCIFile, true)
	if err != nil {
		return nil
	}
	return &TextFile{Path: path, Display: p.display(path), Src: src}
}

// nestedString finds members[outer][inner] when it is a string.
func nestedString(src []byte, members []jsonc.Item, outer, inner string) (jsonc.Item, bool) {
	var found jsonc.Item
	ok := false
	for _, m := range members {
		if m.Key(src) != outer || src[m.ValStart] != '{' {
			continue
		}
		items, iok := jsonc.Items(src, m.ValStart)
		if !iok {
			continue
		}
		for _, it := range items {
			if it.Key(src) == inner && src[it.ValStart] == '"' {
				found, ok = it, true
			}
		}
	}
	return found, ok
}

// forLines calls f with each line of src (without its newline) and the
// line's offset, until f returns false.
func forLines(src []byte, f func(off int, line []byte) bool) {
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := bytes.TrimRight(src[off:off+end], "\r")
		if !f(off, line) {
			return
		}
		off += end + 1
	}
}

func firstToken(b []byte) []byte {
	if i := bytes.IndexAny(b, " \t#"); i >= 0 {
		return b[:i]
	}
	return b
}

// plainNode is a plain Node version: "20", "20.11", "20.11.1", with or
// without a "v".
var plainNode = lazyregexp.New(`^v?\d+(\.\d+){0,2}$`)

// ltsNames are the Node LTS code names (nvm's lts/<name>), with their
// majors.
var ltsNames = map[string]int{
	"argon": 4, "boron": 6, "carbon": 8, "dubnium": 10, "erbium": 12, "fermium": 14,
	"gallium": 16, "hydrogen": 18, "iron": 20, "jod": 22, "krypton": 24,
}

func nodePlace(kind string, f *TextFile, start, end int) *NodePlace {
	text := string(f.Src[start:end])
	np := &NodePlace{Kind: kind, Path: f.Path, Display: f.Display, Span: ast.Span{Start: start, End: end}, Text: text}
	if kind == NodeEngines || kind == NodeVolta {
		// The JSON value: its escapes decoded.
		var s string
		if json.Unmarshal([]byte(`"`+text+`"`), &s) == nil {
			text = s
		}
	}
	np.Plain = plainNode().MatchString(text)
	if name, ok := strings.CutPrefix(strings.ToLower(text), "lts/"); ok {
		if m, ok := ltsNames[name]; ok {
			np.Range, np.Known = semver.MustParseRange(strconv.Itoa(m)), true
		}
		return np
	}
	if r, err := semver.ParseRange(text); err == nil && strings.TrimSpace(text) != "" && !strings.ContainsAny(text, "$*") {
		np.Range, np.Known = r, true
	}
	return np
}

// span is a byte range of a file with a note.
type span struct {
	start, end int
	note       string
}

var (
	yamlKeyLine = lazyregexp.New(`^(\s*)(?:-\s+)?([A-Za-z0-9_.-]+)\s*:(?:\s+|$)`)
	matrixRef   = lazyregexp.New(`^\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}$`)
)

// workflowNodeSpans finds the Node versions of a GitHub Actions workflow:
// each node-version value, and, for a value that is ${{ matrix.KEY }},
// the values KEY takes in the matrix blocks (a flow list, a block list, a
// scalar, include entries). A value that cannot be told stays a place of
// its own (an expression).
func workflowNodeSpans(src []byte) []span {
	type keyVal struct {
		key      string
		spans    []span
		inMatrix bool
	}
	var vals []keyVal
	matrixIndent := -1
	var listOf *keyVal // the key whose block list is being read
	listIndent := -1
	forLines(src, func(off int, line []byte) bool {
		s := string(line)
		trimmed := strings.TrimSpace(s)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			return true
		}
		indent := len(s) - len(strings.TrimLeft(s, " "))
		if matrixIndent >= 0 && indent <= matrixIndent {
			matrixIndent = -1
		}
		if listOf != nil {
			if rest, ok := strings.CutPrefix(trimmed, "- "); ok && indent >= listIndent && !yamlKeyLine().MatchString(trimmed) {
				start := off + strings.Index(s, rest)
				st, en := scalarSpan(src, start, start+len(stripComment(rest)))
				listOf.spans = append(listOf.spans, span{start: st, end: en})
				return true
			}
			listOf = nil
		}
		m := yamlKeyLine().FindStringSubmatchIndex(s)
		if m == nil {
			return true
		}
		key := s[m[4]:m[5]]
		value := stripComment(s[m[1]:])
		if key == "matrix" && value == "" {
			matrixIndent = indent
			return true
		}
		inMatrix := matrixIndent >= 0
		if key != "node-version" && !inMatrix {
			return true
		}
		kv := keyVal{key: key, inMatrix: inMatrix}
		vstart := off + m[1]
		switch {
		case value == "":
			vals = append(vals, kv)
			listOf, listIndent = &vals[len(vals)-1], indent
			return true
		case strings.HasPrefix(value, "["):
			end := strings.IndexByte(value, ']')
			if end < 0 {
				return true
			}
			pos := vstart + 1
			for _, el := range strings.Split(value[1:end], ",") {
				t := strings.TrimSpace(el)
				if t != "" {
					st := pos + strings.Index(el, t)
					a, b := scalarSpan(src, st, st+len(t))
					kv.spans = append(kv.spans, span{start: a, end: b})
				}
				pos += len(el) + 1
			}
		default:
			a, b := scalarSpan(src, vstart, vstart+len(value))
			kv.spans = append(kv.spans, span{start: a, end: b})
		}
		vals = append(vals, kv)
		return true
	})
	// The matrix keys by name: a file of many keys and references is read
	// in linear time.
	matrix := map[string][]span{}
	for _, mv := range vals {
		if mv.inMatrix {
			matrix[mv.key] = append(matrix[mv.key], mv.spans...)
		}
	}
	var out []span
	seenRef := map[string]bool{}
	for _, kv := range vals {
		if kv.key != "node-version" || kv.inMatrix {
			continue
		}
		for _, s := range kv.spans {
			ref := matrixRef().FindStringSubmatch(string(src[s.start:s.end]))
			if ref == nil {
				out = append(out, s)
				continue
			}
			ms := matrix[ref[1]]
			if len(ms) == 0 {
				out = append(out, s)
				continue
			}
			if seenRef[ref[1]] {
				continue // the same key named again: its places are in already
			}
			seenRef[ref[1]] = true
			for _, m := range ms {
				m.note = "matrix." + ref[1]
				out = append(out, m)
			}
		}
	}
	// One place per span: several steps may name the same matrix key.
	seen := map[int]bool{}
	uniq := out[:0]
	for _, s := range out {
		if !seen[s.start] {
			seen[s.start] = true
			uniq = append(uniq, s)
		}
	}
	return uniq
}

// stripComment removes a YAML comment (" #...") and the spaces around a
// value; a # inside quotes stays.
func stripComment(v string) string {
	inQ := byte(0)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case inQ != 0:
			if c == inQ {
				inQ = 0
			}
		case c == '\'' || c == '"':
			inQ = c
		case c == '#' && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t'):
			return strings.TrimSpace(v[:i])
		}
	}
	return strings.TrimSpace(v)
}

// scalarSpan is the span of a scalar's text without its quotes.
func scalarSpan(src []byte, start, end int) (int, int) {
	if end-start >= 2 && (src[start] == '\'' || src[start] == '"') && src[end-1] == src[start] {
		return start + 1, end - 1
	}
	return start, end
}

// dockerNodeImages are the names of the official Node image.
var dockerNodeImages = map[string]bool{"node": true, "library/node": true, "docker.io/node": true, "docker.io/library/node": true, "index.docker.io/library/node": true}

var dockerArg = lazyregexp.New(`(?i)^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)=("?)([^"\s]*)`)

// dockerNodeSpans finds the version part of each FROM node:<tag> ("20" of
// node:20-alpine); a tag from an ARG (node:${NODE_VERSION}-slim) is the
// ARG's default value; an image without a tag is the tag's absence at the
// image's end.
func dockerNodeSpans(src []byte) []span {
	var out []span
	args := map[string]span{}
	forLines(src, func(off int, line []byte) bool {
		s := string(line)
		if m := dockerArg().FindStringSubmatchIndex(s); m != nil {
			v := s[m[6]:m[7]]
			if i := strings.IndexByte(v, '-'); i >= 0 {
				v = v[:i] // "20-alpine": the version is before the variant
			}
			args[s[m[2]:m[3]]] = span{start: off + m[6], end: off + m[6] + len(v)}
			return true
		}
		fields := strings.Fields(s)
		if len(fields) < 2 || !strings.EqualFold(fields[0], "FROM") {
			return true
		}
		i := 1
		for i < len(fields) && strings.HasPrefix(fields[i], "--") {
			i++
		}
		if i >= len(fields) {
			return true
		}
		image := fields[i]
		at := off + strings.Index(s[len(fields[0]):], image) + len(fields[0])
		name, tag, hasTag := strings.Cut(strings.SplitN(image, "@", 2)[0], ":")
		if !dockerNodeImages[strings.ToLower(name)] {
			return true
		}
		if !hasTag {
			out = append(out, span{start: at, end: at + len(name), note: "no tag: latest"})
			return true
		}
		tstart := at + len(name) + 1
		if ref, ok := strings.CutPrefix(tag, "$"); ok {
			ref = strings.TrimPrefix(ref, "{")
			end := strings.IndexAny(ref, "}-:")
			if end < 0 {
				end = len(ref)
			}
			if a, ok := args[ref[:end]]; ok && a.end > a.start {
				a.note = "ARG " + ref[:end]
				out = append(out, a)
			} else {
				out = append(out, span{start: tstart, end: tstart + len(tag)})
			}
			return true
		}
		// The version is the tag up to its variant ("-alpine").
		vend := strings.IndexByte(tag, '-')
		if vend < 0 {
			vend = len(tag)
		}
		out = append(out, span{start: tstart, end: tstart + vend})
		return true
	})
	return out
}
