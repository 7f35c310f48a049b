package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Status is an option's standing.
type Status uint8

const (
	Current    Status = iota
	Deprecated        // still works; a replacement is preferred
	NoEffect          // accepted and ignored
	// RemovedV4 options stop working with compatibility version 4 itself:
	// v3 with future.compatibilityVersion 4 already warns and forces the
	// version-4 behaviour, and framework major 4 removed them.
	RemovedV4
	// RemovedNextMajor options are the reference's "removed in the next
	// major version": v3 honours them even with compatibility version 4,
	// framework major 4 removed or ignores them.
	RemovedNextMajor
	LayoutBOnly // the reference documents it for layout B only
	LayoutAOnly // the reference documents it for layout A only
)

var statusNames = [...]string{"current", "deprecated", "no-effect", "removed-v4", "removed-next-major", "layout-b-only", "layout-a-only"}
var statusWords = [...]string{"current", "deprecated", "no effect", "removed in version 4", "removed in the next major (framework 4)", "layout B only", "layout A only"}

// String returns the status's stable token, as in JSON output.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Words returns the status for people.
func (s Status) Words() string {
	if int(s) < len(statusWords) {
		return statusWords[s]
	}
	return "unknown"
}

func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Removed reports whether s is RemovedV4 or RemovedNextMajor.
func (s Status) Removed() bool { return s == RemovedV4 || s == RemovedNextMajor }

// Layout is a project layout, as Detect classifies it. Options are
// documented for LayoutA and LayoutB.
type Layout uint8

const (
	LayoutUnknown Layout = iota // srcDir is set at run time
	LayoutA                     // srcDir is app/
	LayoutB                     // srcDir is the root
	LayoutMixed                 // srcDir is app/, and layout-B sources at the root are ignored
	LayoutCustom                // an explicit srcDir other than '.' or 'app'
)

var layoutNames = [...]string{"unknown", "A", "B", "mixed", "custom"}

func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return "unknown"
}

func (l Layout) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Layouts is the set of layouts an option is known in: documented there by
// the reference, or listed in that version's options file (options-v4.json
// for A, options-v3.json for B) where the reference does not restrict it.
type Layouts uint8

const (
	InA    Layouts = 1 << iota
	InB            //
	InBoth = InA | InB
)

// Has reports whether l includes layout x (LayoutA or LayoutB).
func (l Layouts) Has(x Layout) bool {
	return x == LayoutA && l&InA != 0 || x == LayoutB && l&InB != 0
}

func (l Layouts) list() []string {
	var out []string
	if l&InA != 0 {
		out = append(out, "A")
	}
	if l&InB != 0 {
		out = append(out, "B")
	}
	return out
}

func (l Layouts) String() string { return strings.Join(l.list(), ", ") }

// Default is an option's default value in one layout.
type Default struct {
	Value any    // JSON value with <rootDir>, <srcDir>, <workspaceDir> placeholders; nil may be a null default
	Set   bool   // false: no default value (Value is nil, Note may describe it)
	Note  string // prose when the default is not a plain value, or a remark on it
}

// Option is one configuration option.
type Option struct {
	Path        string   // dotted path, in the options files' spelling
	Aliases     []string // other spellings of the same option (the reference's, where it differs)
	Type        Type
	DefaultA    Default // layout A, version 4
	DefaultB    Default // layout B, version 3
	Layouts     Layouts
	Status      Status
	Replacement string // the option to use instead, when Status is not Current
	Reason      string // one line: why the status
	Rule        string // the reference's rule text, or facts where it has none
	Doc         string // the options files' description
	Open        bool   // unknown keys under it are never reported
	Ref         bool   // named in the reference's tables
}

// Default returns the default in layout l: DefaultB for LayoutB, DefaultA otherwise.
func (o *Option) Default(l Layout) Default {
	if l == LayoutB {
		return o.DefaultB
	}
	return o.DefaultA
}

// row is the table's compact form of an Option; see table.go.
type row struct {
	path, typ string
	d, a, b   string // JSON defaults: d for both layouts, or a and b; "" is no default
	an, bn    string // default notes for A and B
	lay       Layouts
	status    Status
	repl      string
	reason    string
	rule, doc string
	open, ref bool
	aliases   []string
}

// The table becomes Options on demand: parsing every type and JSON default
// when the process starts took about a millisecond, most of what a check of
// one config does besides esbuild's parse, and a check looks up a few dozen
// of the options. The index of paths is made at the first lookup, each
// Option at the first lookup of its path.
var (
	index = sync.OnceValue(buildIndex)
	built = make([]lazyOption, len(table)) // by table row
)

type optionIndex struct {
	byPath   map[string]int // canonical paths and aliases -> table row
	sorted   []int          // table rows sorted by path
	children map[string][]string
}

type lazyOption struct {
	once sync.Once
	o    *Option
}

func buildIndex() *optionIndex {
	ix := &optionIndex{byPath: make(map[string]int, len(table)+32), sorted: make([]int, len(table)), children: map[string][]string{}}
	for i := range table {
		r := &table[i]
		ix.sorted[i] = i
		for _, p := range append([]string{r.path}, r.aliases...) {
			if _, dup := ix.byPath[p]; dup {
				panic("compat: duplicate option " + p)
			}
			ix.byPath[p] = i
		}
	}
	sort.Slice(ix.sorted, func(i, j int) bool { return table[ix.sorted[i]].path < table[ix.sorted[j]].path })
	for _, i := range ix.sorted {
		parent, name := splitLast(table[i].path)
		ix.children[parent] = append(ix.children[parent], name)
	}
	return ix
}

// option returns the Option of table row i.
func option(i int) *Option {
	l := &built[i]
	l.once.Do(func() { l.o = newOption(&table[i]) })
	return l.o
}

func newOption(r *row) *Option {
	o := &Option{
		Path:        r.path,
		Aliases:     r.aliases,
		Type:        MustParseType(r.typ),
		Layouts:     r.lay,
		Status:      r.status,
		Replacement: r.repl,
		Reason:      r.reason,
		Rule:        r.rule,
		Doc:         r.doc,
		Open:        r.open,
		Ref:         r.ref,
	}
	a, b := r.a, r.b
	if r.d != "" {
		a, b = r.d, r.d
	}
	o.DefaultA = mustDefault(r.path, a, r.an)
	o.DefaultB = mustDefault(r.path, b, r.bn)
	return o
}

func mustDefault(path, js, note string) Default {
	d := Default{Note: note}
	if js == "" {
		return d
	}
	if err := json.Unmarshal([]byte(js), &d.Value); err != nil {
		panic(fmt.Sprintf("compat: default of %s: %v", path, err))
	}
	d.Set = true
	return d
}

func splitLast(path string) (parent, name string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// Options returns every option, sorted by path. The slice is the caller's;
// the Options are shared and must not be modified.
func Options() []*Option {
	ix := index()
	out := make([]*Option, len(ix.sorted))
	for k, i := range ix.sorted {
		out[k] = option(i)
	}
	return out
}

// Paths returns the path of every option, sorted: the paths of Options()
// without making the Options.
func Paths() []string {
	ix := index()
	out := make([]string, len(ix.sorted))
	for k, i := range ix.sorted {
		out[k] = table[i].path
	}
	return out
}

// Find returns the option at path, or nil. Besides the options' own paths
// and aliases it accepts the spellings real configs keep below the top
// level (migration corpus: only top-level keys are neutral), such as
// experimental.viteEnvironmentApi for experimental.bundlerAEnvironmentApi.
func Find(path string) *Option {
	ix := index()
	if i, ok := ix.byPath[path]; ok {
		return option(i)
	}
	if n := neutral(path); n != path {
		if i, ok := ix.byPath[n]; ok {
			return option(i)
		}
	}
	return nil
}

// Known reports whether path is an option, or lies under an Open option.
func Known(path string) bool {
	if Find(path) != nil {
		return true
	}
	return underOpen(path)
}

// underOpen reports whether a proper ancestor of path is an Open option.
func underOpen(path string) bool {
	for p := path; ; {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return false
		}
		p = p[:i]
		if o := Find(p); o != nil && o.Open {
			return true
		}
	}
}

// Siblings returns the known child names of parent ("" for the top level),
// sorted: the candidates for "did you mean".
func Siblings(parent string) []string {
	if parent != "" {
		if o := Find(parent); o != nil {
			parent = o.Path
		}
	}
	return append([]string(nil), index().children[parent]...)
}

// IsFrameworkObject reports whether path is one of the framework's own
// objects (app, dir, experimental, features, future, devServer, router,
// typescript, generate, ...), where an unknown key is a warning. It is false
// for the top level (modules add keys of their own), for Open options and
// everything under them, and for ui, whose key a UI module also uses for its
// options (corpus 002, 039).
func IsFrameworkObject(path string) bool {
	o := Find(path)
	if o == nil || o.Open || o.Path == "ui" || underOpen(path) {
		return false
	}
	return o.Type.Has(KindObject) || o.Type.Has(KindShape) || o.Type.Has(KindRecord)
}

// Unscope strips an environment wrapper from path: "$production.app.baseURL"
// gives ("app.baseURL", true), as does "$env.staging.app.baseURL". Other
// paths come back unchanged with false.
func Unscope(path string) (string, bool) {
	first, rest, ok := strings.Cut(path, ".")
	if !ok {
		return path, false
	}
	switch first {
	case "$production", "$development", "$test":
		return rest, true
	case "$env":
		if _, inner, ok := strings.Cut(rest, "."); ok {
			return inner, true
		}
	}
	return path, false
}

// Suggest returns the known option a mistyped path most likely means, or ""
// when nothing is close: first a sibling within a small edit distance
// (letter case ignored), else a same-named option of app, experimental,
// features or future (experimental.typescriptBundlerResolution ->
// future.typescriptBundlerResolution, head -> app.head).
func Suggest(path string) string {
	if s, ok := suggestions.Load(path); ok {
		return s.(string)
	}
	s := suggest(path)
	if suggestionCount.Add(1) <= maxSuggestions {
		suggestions.Store(path, s)
	}
	return s
}

// suggestions memoizes Suggest, which is pure: the rules ask it for every
// unknown key of every config, and the same module keys (i18n, image,
// content, ...) come back project after project. At most maxSuggestions
// paths are kept, so that inputs full of distinct unknown keys cannot grow it
// without bound.
var (
	suggestions     sync.Map // path -> string
	suggestionCount atomic.Int64
)

const maxSuggestions = 1 << 14

func suggest(path string) string {
	if Known(path) {
		return ""
	}
	parent, name := splitLast(path)
	if s := closest(name, Siblings(parent)); s != "" {
		if parent == "" {
			return s
		}
		if o := Find(parent); o != nil {
			parent = o.Path
		}
		return parent + "." + s
	}
	if isASCII(name) {
		return movedNames()[strings.ToLower(name)]
	}
	return movedOption(name)
}

// movedOption returns the option directly under a movedTo object whose name
// is name, letter case ignored: the shortest path, the first in path order
// among equals.
func movedOption(name string) string {
	best := ""
	for _, i := range index().sorted {
		path := table[i].path
		p, n := splitLast(path)
		if strings.EqualFold(n, name) && movedTo[p] && (best == "" || len(path) < len(best)) {
			best = path
		}
	}
	return best
}

// movedNames maps the lower-cased name of every option directly under a
// movedTo object to movedOption's answer for it. For ASCII names (and the
// options' names are ASCII), looking up the lower-cased name is the same as
// comparing with strings.EqualFold.
var movedNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, i := range index().sorted {
		path := table[i].path
		p, n := splitLast(path)
		if !movedTo[p] {
			continue
		}
		k := strings.ToLower(n)
		if best, ok := m[k]; !ok || len(path) < len(best) {
			m[k] = path
		}
	}
	return m
})

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// movedTo are the objects options have moved into between versions (head
// to app.head, experimental flags to future and features). A same-named
// key anywhere else is too weak a hint: build.plugins is not dir.plugins or
// cssproc.plugins.
var movedTo = map[string]bool{"app": true, "experimental": true, "features": true, "future": true}

// realWords maps the product words that real configs keep in nested keys to
// the neutral words of the reference (its naming table and the corpus
// manifest's translation rules).
var realWords = map[string]string{
	"vite": "bundlerA", "webpack": "bundlerB", "rspack": "bundlerC", "nitro": "engine",
	"vue": "ui", "esbuild": "transpilerA", "oxc": "transpilerB", "postcss": "cssproc",
	"unhead": "headmgr", "chokidar": "watcherA", "parcel": "watcherB", "nuxt": "fw",
}

// neutral rewrites the product words in path's segments after the first
// (top-level keys are already neutral in the configs fwmigrate reads).
func neutral(path string) string {
	if !hasProductWord(path) {
		return path // most paths: no allocation
	}
	return neutralSegments(path)
}

func neutralSegments(path string) string {
	segs := strings.Split(path, ".")
	changed := false
	for i := 1; i < len(segs); i++ {
		if n := neutralWord(segs[i]); n != segs[i] {
			segs[i], changed = n, true
		}
	}
	if !changed {
		return path
	}
	return strings.Join(segs, ".")
}

// hasProductWord reports whether neutral may change path: whether a segment
// after the first has a camel-case part that neutralWord replaces. Paths with
// bytes outside ASCII are left to neutral (Unicode case mapping).
func hasProductWord(path string) bool {
	first := strings.IndexByte(path, '.')
	if first < 0 {
		return false
	}
	var buf [8]byte // the longest product word is 8 letters
	start := first + 1
	for i := start; i <= len(path); i++ {
		if i < len(path) && path[i] >= utf8.RuneSelf {
			return true
		}
		// A part ends at a segment's end and before an upper-case letter
		// that follows a lower-case one (neutralWord's split).
		end := i == len(path) || path[i] == '.'
		if !end && !(i > start && path[i] >= 'A' && path[i] <= 'Z' && path[i-1] >= 'a' && path[i-1] <= 'z') {
			continue
		}
		if part := path[start:i]; len(part) > 0 && len(part) <= len(buf) {
			n, lowerTail := 0, true
			for j := 0; j < len(part); j++ {
				c := part[j]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
					if j > 0 {
						lowerTail = false
					}
				}
				buf[n] = c
				n++
			}
			if _, ok := realWords[string(buf[:n])]; ok && lowerTail {
				return true
			}
		}
		start = i
		if end {
			start = i + 1
		}
	}
	return false
}

// neutralWord maps each camel-case part of s that is a product word.
func neutralWord(s string) string {
	var b strings.Builder
	start := 0
	flush := func(end int) {
		part := s[start:end]
		if n, ok := realWords[strings.ToLower(part)]; ok && (part == strings.ToLower(part) || part[1:] == strings.ToLower(part[1:])) {
			if unicode.IsUpper(rune(part[0])) {
				n = strings.ToUpper(n[:1]) + n[1:]
			}
			part = n
		}
		b.WriteString(part)
		start = end
	}
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			flush(i)
		}
	}
	if s != "" {
		flush(len(s))
	}
	return b.String()
}

// optionJSON is the JSON form of an Option (fwmigrate options --format=json).
type optionJSON struct {
	Path         string           `json:"path"`
	Aliases      []string         `json:"aliases,omitempty"`
	Type         string           `json:"type"`
	DefaultA     *json.RawMessage `json:"defaultA,omitempty"`
	DefaultANote string           `json:"defaultANote,omitempty"`
	DefaultB     *json.RawMessage `json:"defaultB,omitempty"`
	DefaultBNote string           `json:"defaultBNote,omitempty"`
	Layouts      []string         `json:"layouts"`
	Status       string           `json:"status"`
	Replacement  string           `json:"replacement"`
	Reason       string           `json:"reason,omitempty"`
	Doc          string           `json:"doc"`
	Description  string           `json:"description,omitempty"`
	Open         bool             `json:"open,omitempty"`
	Reference    bool             `json:"reference"`
}

// MarshalJSON renders the option with the fields path, type, defaultA,
// defaultB, layouts, status, replacement and doc (the reference's rule, else
// the options files' description), plus aliases, default notes, reason,
// description (when doc is the rule), open and reference. A default that
// does not exist is left out; a null default is null.
func (o *Option) MarshalJSON() ([]byte, error) {
	j := optionJSON{
		Path:         o.Path,
		Aliases:      o.Aliases,
		Type:         o.Type.String(),
		DefaultANote: o.DefaultA.Note,
		DefaultBNote: o.DefaultB.Note,
		Layouts:      o.Layouts.list(),
		Status:       o.Status.String(),
		Replacement:  o.Replacement,
		Reason:       o.Reason,
		Doc:          o.Doc,
		Open:         o.Open,
		Reference:    o.Ref,
	}
	if o.Rule != "" {
		j.Doc, j.Description = o.Rule, o.Doc
	}
	var err error
	if j.DefaultA, err = rawDefault(o.DefaultA); err != nil {
		return nil, err
	}
	if j.DefaultB, err = rawDefault(o.DefaultB); err != nil {
		return nil, err
	}
	return marshal(j)
}

func rawDefault(d Default) (*json.RawMessage, error) {
	if !d.Set {
		return nil, nil
	}
	b, err := marshal(d.Value)
	if err != nil {
		return nil, err
	}
	m := json.RawMessage(b)
	return &m, nil
}

// marshal is json.Marshal without HTML escaping: defaults are full of
// <rootDir> placeholders, and an encoder cannot undo the escapes a
// Marshaler has already made.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
