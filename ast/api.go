package ast

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
)

// SyntaxError is a syntax error in a config file: esbuild's, when the gate
// rejected the file, or the parser's own (the depth limit, or input that
// ParseUnchecked cannot read).
type SyntaxError struct {
	File   string
	Line   int // 1-based
	Column int // 1-based, in bytes, a BOM not counted
	Offset int // byte offset into the source
	Text   string
	// Messages are esbuild's messages when the gate failed, nil for the
	// parser's own errors.
	Messages []api.Message

	location *api.Location // the code frame of the parser's own errors
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Text)
}

// Format renders the error with a code frame, as esbuild prints it.
func (e *SyntaxError) Format(color bool) string {
	msgs := e.Messages
	if msgs == nil {
		msgs = []api.Message{{Text: e.Text, Location: e.location}}
		if e.location == nil {
			msgs[0].Location = &api.Location{File: e.File, Line: e.Line, Column: e.Column - 1}
		}
	}
	return strings.Join(api.FormatMessages(msgs, api.FormatMessagesOptions{Kind: api.ErrorMessage, Color: color}), "")
}

// isTS reports whether filename gets the TypeScript loader: .js, .mjs and
// .cjs are JavaScript, everything else TypeScript.
func isTS(filename string) bool {
	switch path.Ext(filename) {
	case ".js", ".mjs", ".cjs":
		return false
	}
	return true
}

// Parse validates src with esbuild, then parses it. A syntax error is a
// *SyntaxError. The File keeps src, which must not be modified afterwards
// (see NewFile). When the exported config is not an object literal, Parse
// still succeeds: File.Config is nil and File.Reason says why.
func Parse(filename string, src []byte) (*File, error) {
	if err := Validate(filename, src); err != nil {
		return nil, err
	}
	return ParseUnchecked(filename, src)
}

// Validate runs esbuild's parser on src (the TS loader for .ts, .mts and
// .cts, the JS loader for .js, .mjs and .cjs) and returns its first error as
// a *SyntaxError carrying all of its messages.
func Validate(filename string, src []byte) error {
	if err := CheckDepth(filename, src); err != nil {
		return err // esbuild would recurse past its stack (depth.go)
	}
	loader := api.LoaderTS
	if !isTS(filename) {
		loader = api.LoaderJS
	}
	res := api.Transform(string(src), api.TransformOptions{
		Loader:     loader,
		Sourcefile: filename,
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) == 0 {
		return nil
	}
	f := NewFile(filename, src)
	e := &SyntaxError{File: filename, Text: res.Errors[0].Text, Messages: res.Errors}
	if loc := res.Errors[0].Location; loc != nil {
		e.Offset = esbuildOffset(src, loc.Line, loc.Column)
	}
	pos := f.Position(e.Offset)
	e.Line, e.Column = pos.Line, pos.Column
	return e
}

// esbuildOffset converts esbuild's line (1-based) and byte column (0-based,
// counting a BOM) to an offset. esbuild also ends lines at U+2028 and U+2029.
func esbuildOffset(src []byte, line, col int) int {
	i := 0
	for l := 1; l < line && i < len(src); i++ {
		switch src[i] {
		case '\n':
			l++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			l++
		case 0xE2:
			if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
				i += 2
				l++
			}
		}
	}
	if i+col > len(src) {
		return len(src)
	}
	return i + col
}

// NewFile is the File of src, not parsed: its name, text and line table,
// for what reads a text without its tree (MultilineLiterals, Text,
// Position) when the text need not parse. Its text is src itself, not a
// copy: every string a tree hands out (a name, a literal's value, a node's
// text) is a slice of the caller's bytes, so a finding or fact kept after
// the tree is released holds that one text, not a second copy of every
// file read (on the dense 20,000-file app the copies were 33.5 MB of a dry
// run's live heap). The price is the contract ParseUnchecked, Parse and
// ReadCode state: src is not modified while anything read from it lives.
// Every caller reads a file or builds a new text per edit and never
// writes into it afterwards.
func NewFile(filename string, src []byte) *File {
	return &File{Name: filename, Src: src, text: unsafe.String(unsafe.SliceData(src), len(src)), Lines: NewLines(src)}
}

// ParseUnchecked parses src without the esbuild gate. On input esbuild
// accepts it agrees with Parse; on other input it returns a *SyntaxError or
// a best effort, never a panic.
//
// The module is read once, by the code reader: File's nodes are a view of
// that tree (view.go), and File.Code hands the tree out.
func ParseUnchecked(filename string, src []byte) (*File, error) {
	if len(src) > math.MaxInt32 {
		return nil, &SyntaxError{File: filename, Line: 1, Column: 1, Text: "The file is too large (more than 2 GiB)"}
	}
	f := NewFile(filename, src)
	ts := isTS(filename)
	p := newParser(f, ts)
	p.code.cfg = true
	start := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		start = 3
	}
	p.next()
	prog := p.cProgram(start, len(src))
	if p.failed() {
		return nil, p.syntaxError()
	}
	f.Comments = p.comments[:p.l.nComments:p.l.nComments]
	p.readConfig(prog)
	p.resolve()
	f.Style = p.style()
	f.code = &Code{Name: filename, Src: src, f: f, Module: &Scope{Kind: ScopeModule}}
	f.code.Scripts = []*Script{{TS: ts, Program: prog}}
	f.codeOnce = new(sync.Once)
	return f, nil
}

// Code returns the module read as code: the tree File's nodes are a view
// of, as ReadCode reads the file (its Scripts, Module and Refs). Its names
// are resolved on the first call, as most parses of a config never ask.
func (f *File) Code() *Code {
	if f.code == nil {
		return nil
	}
	f.codeOnce.Do(func() {
		r := resolver{code: f.code}
		r.resolve(f.code.Scripts[0].Program, f.code.Module, true)
	})
	return f.code
}

func (p *parser) syntaxError() *SyntaxError {
	f := p.f
	off := p.l.errPos
	pos := f.Position(off)
	e := &SyntaxError{File: f.Name, Line: pos.Line, Column: pos.Column, Offset: off, Text: p.l.errMsg}
	ls := f.LineStart(off)
	le := ls
	for le < len(f.Src) && f.Src[le] != '\n' && f.Src[le] != '\r' {
		le++
	}
	e.location = &api.Location{File: f.Name, Line: pos.Line, Column: pos.Column - 1, LineText: f.text[ls:le]}
	return e
}

func (p *parser) style() Style {
	s := Style{Indent: "  ", Quote: '\'', EOL: "\n"}
	src := p.f.Src
	s.BOM = len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF
	s.FinalNewline = len(src) > 0 && (src[len(src)-1] == '\n' || src[len(src)-1] == '\r')
	crlf, lf := 0, 0
	for i, c := range src {
		if c == '\n' {
			if i > 0 && src[i-1] == '\r' {
				crlf++
			} else {
				lf++
			}
		}
	}
	if crlf > lf {
		s.EOL = "\r\n"
	}
	if p.stats.double > p.stats.single {
		s.Quote = '"'
	}
	s.TrailingCommas = p.trailingYes > p.trailingNo
	s.Semicolons = p.semiYes > p.semiNo
	best := 0
	for d := 1; d < len(p.stats.spaceDeltas); d++ {
		if p.stats.spaceDeltas[d] > p.stats.spaceDeltas[best] {
			best = d
		}
	}
	switch {
	case p.stats.tabDeltas > p.stats.spaceDeltas[best]:
		s.Indent = "\t"
	case best == 4 || best == 8:
		s.Indent = "    "
	}
	return s
}

// ---- positions ----

// Text returns the source text of s.
func (f *File) Text(s Span) string {
	start, end := f.clamp(s.Start), f.clamp(s.End)
	if start >= end {
		return ""
	}
	return f.text[start:end]
}

// LineIndent returns the leading spaces and tabs of offset's line.
func (f *File) LineIndent(offset int) string {
	ls := f.LineStart(offset)
	i := ls
	for i < len(f.Src) && (f.Src[i] == ' ' || f.Src[i] == '\t') {
		i++
	}
	return f.text[ls:i]
}

// ---- lookups ----

// Path is an option path: one key per level.
type Path []string

// String writes p dotted (`app.head.meta`). A segment that is not an
// identifier name (empty, or holding `.`, `[`, `/`, `:`, `-`, a space...) is
// written in brackets with JSON quoting: `routeRules["/api/**"]`.
func (p Path) String() string {
	if len(p) == 1 && isIdentName(p[0]) {
		return p[0] // no copy
	}
	var b strings.Builder
	n := len(p)
	for _, seg := range p {
		n += len(seg)
	}
	b.Grow(n) // enough when the segments are identifiers
	for i, seg := range p {
		if isIdentName(seg) {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
			continue
		}
		b.WriteByte('[')
		b.WriteString(jsonQuote(seg))
		b.WriteByte(']')
	}
	return b.String()
}

func isIdentName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 && !isIDStart(r) || i > 0 && !isIDContinue(r) {
			return false
		}
	}
	return true
}

func jsonQuote(s string) string {
	plain := utf8.ValidString(s)
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] != '"' && s[i] != '\\'
	}
	if plain {
		return `"` + s + `"` // most keys: nothing to escape
	}
	return jsonQuoteEscaped(s)
}

func jsonQuoteEscaped(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r) // invalid UTF-8 comes out as U+FFFD
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ParsePath is the inverse of Path.String. It also reads bare segments that
// String would have bracketed (`hooks.pages:extend`): only `.` and `[`
// delimit them.
func ParsePath(s string) Path {
	if s == "" {
		return nil
	}
	// At most one segment per delimiter, plus one: a single allocation.
	n := 1
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == '[' {
			n++
		}
	}
	p := make(Path, 0, n)
	for i := 0; i < len(s); {
		if s[i] == '.' {
			i++
			continue
		}
		if s[i] == '[' && i+1 < len(s) && s[i+1] == '"' {
			// Find the closing quote, then "]".
			j := i + 2
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(s) && j+1 < len(s) && s[j+1] == ']' {
				var seg string
				if json.Unmarshal([]byte(s[i+1:j+1]), &seg) == nil {
					p = append(p, seg)
					i = j + 2
					continue
				}
			}
		}
		j := i + 1
		for j < len(s) && s[j] != '.' && s[j] != '[' {
			j++
		}
		p = append(p, s[i:j])
		i = j
	}
	if len(p) == 0 {
		return nil // "." and the like, as before
	}
	return p
}

// Get returns the last property of o whose key is key (the one that wins at
// run time, spreads aside), or nil.
func (o *Object) Get(key string) *Property {
	for i := len(o.Props) - 1; i >= 0; i-- {
		pr := o.Props[i]
		if pr.Key == key && pr.Kind != PropSpread && pr.KeyKind != KeyComputed {
			return pr
		}
	}
	return nil
}

// WriteTo returns the first write of File.Writes that may change the
// config's top-level key: it writes below key (`config.key = ...`,
// `Object.assign(config, {key})`), or writes a key it does not tell
// (`config[k] = ...`, `Object.assign(config, x)`).
func (f *File) WriteTo(key string) (Mutation, bool) {
	for _, w := range f.Writes {
		if len(w.Path) == 0 && w.Dynamic || len(w.Path) > 0 && w.Path[0] == key {
			return w, true
		}
	}
	return Mutation{}, false
}

// Assigned returns the statement that sets p after the config is declared
// (`config.ssr = false`, `Object.assign(config, {...})`), empty for a
// property written in the object literal. Such a property is in Config but
// not in Literal: its Loc is the assignment (or the property in the literal
// Object.assign copies), its KeySpan the member name, and an edit of the
// literal cannot reach it.
func (f *File) Assigned(p *Property) Span { return f.assigned[p] }

// UnreadWriteTo is WriteTo among the writes whose result is not in Config
// (Mutation.Read false): a statement that may change the key in a way
// fwmigrate does not know.
func (f *File) UnreadWriteTo(key string) (Mutation, bool) {
	for _, w := range f.Writes {
		if !w.Read && (len(w.Path) == 0 && w.Dynamic || len(w.Path) > 0 && w.Path[0] == key) {
			return w, true
		}
	}
	return Mutation{}, false
}

// HasSpread reports whether o has a `...spread` property, whose keys are
// only known at run time.
func (o *Object) HasSpread() bool {
	for _, pr := range o.Props {
		if pr.Kind == PropSpread {
			return true
		}
	}
	return false
}

// HasComputedKey reports whether o has a `[computed]: value` property,
// whose key is only known at run time.
func (o *Object) HasComputedKey() bool {
	for _, pr := range o.Props {
		if pr.KeyKind == KeyComputed {
			return true
		}
	}
	return false
}

// Lookup returns the property at a dotted path (see ParsePath) in the
// config, descending through object values seen through Unwrap, or nil.
func (f *File) Lookup(path string) *Property {
	segs := ParsePath(path)
	obj := f.Config
	for i, seg := range segs {
		if obj == nil {
			return nil
		}
		pr := obj.Get(seg)
		if pr == nil || i == len(segs)-1 {
			return pr
		}
		obj, _ = Unwrap(pr.Value).(*Object)
	}
	return nil
}

// Segment is the path segment Walk gives a property: its key; for a
// computed key, its source text in brackets; "..." for a spread.
func (f *File) Segment(pr *Property) string {
	switch {
	case pr.Kind == PropSpread:
		return "..."
	case pr.KeyKind == KeyComputed:
		return f.Text(pr.KeySpan)
	}
	return pr.Key
}

// Walk calls fn for every property of the config at every depth, in source
// order, with its path (a fresh slice fn may keep). Object values (seen
// through Unwrap) are descended into unless fn returns false; arrays and
// other values are leaves.
func (f *File) Walk(fn func(path Path, p *Property) bool) {
	if f.Config != nil {
		f.walk(f.Config, nil, fn)
	}
}

func (f *File) walk(o *Object, prefix Path, fn func(Path, *Property) bool) {
	for _, pr := range o.Props {
		path := append(prefix[:len(prefix):len(prefix)], f.Segment(pr))
		if !fn(path, pr) {
			continue
		}
		if child, ok := Unwrap(pr.Value).(*Object); ok {
			f.walk(child, path, fn)
		}
	}
}

// Unwrap returns n without the parentheses, `as`, `satisfies`, `!` and
// `<T>` casts around it.
func Unwrap(n Node) Node {
	for {
		e, ok := n.(*Expr)
		if !ok || e.Inner == nil {
			return n
		}
		switch e.Hint {
		case HintParen, HintAs, HintSatisfies, HintNonNull, HintTypeAssert:
			n = e.Inner
		default:
			return n
		}
	}
}

// StaticValue returns the static value of a property's value (Static);
// prop or its value may be nil (a method, a shorthand): then it has none.
func StaticValue(prop *Property) (any, bool) {
	if prop == nil || prop.Value == nil {
		return nil, false
	}
	v, bad := Static(prop.Value)
	return v, bad == nil
}

// StaticString returns n's value when it is a static string (Static gives a
// string); n may be nil.
func StaticString(n Node) (string, bool) {
	if n == nil {
		return "", false
	}
	v, bad := Static(n)
	s, ok := v.(string)
	return s, bad == nil && ok
}

// Static evaluates a literal subtree to a Go value: string, float64, bool,
// nil (for null), []any or map[string]any (never an infinite number). When the subtree is not static,
// bad is its first node that is not: a spread, a computed key, a method, an
// identifier (undefined included), a regular expression, a hole, any other
// expression. A property without a node of its own (a method, a computed
// key) reports its object.
func Static(n Node) (v any, bad Node) {
	n = Unwrap(n)
	switch n := n.(type) {
	case *String:
		return n.Value, nil
	case *Template:
		if n.Static && n.Tag.Len() == 0 {
			return n.Value, nil
		}
	case *Number:
		// BigInts and numbers too large for a float64 have no exact value.
		if !n.IsBigInt && !math.IsInf(n.Value, 0) {
			return n.Value, nil
		}
	case *Boolean:
		return n.Value, nil
	case *Null:
		return nil, nil
	case *Unary:
		v, bad := Static(n.Operand)
		if bad != nil {
			return nil, bad
		}
		if f, ok := v.(float64); ok {
			if n.Op == '-' {
				return -f, nil
			}
			return f, nil
		}
	case *Array:
		out := make([]any, len(n.Elements))
		spread := 0
		for i, e := range n.Elements {
			if e == nil {
				return nil, n
			}
			if spread < len(n.Spreads) && n.Spreads[spread] == i {
				return nil, e
			}
			v, bad := Static(e)
			if bad != nil {
				return nil, bad
			}
			out[i] = v
		}
		return out, nil
	case *Object:
		out := make(map[string]any, len(n.Props))
		for _, pr := range n.Props {
			switch {
			case pr.Kind == PropSpread || pr.Kind == PropShorthand:
				return nil, pr.Value
			case pr.Kind != PropInit || pr.KeyKind == KeyComputed:
				return nil, n
			}
			v, bad := Static(pr.Value)
			if bad != nil {
				return nil, bad
			}
			out[pr.Key] = v
		}
		return out, nil
	}
	return nil, n
}

// Extent returns what deleting p removes: its Leading comments, p, its
// comma and its Trailing comment, and the whitespace around them such that
// no blank line, no stray comma and no empty line is left. A property on
// lines of its own takes those lines; the last property of an object
// without a trailing comma takes the comma before it instead, unless a
// comment follows that comma.
func (p *Property) Extent(f *File) Span {
	src := f.text
	start := p.Loc.Start
	if len(p.Leading) > 0 && p.Leading[0].Loc.Start < start {
		start = p.Leading[0].Loc.Start
	}
	end := p.Loc.End
	if p.Comma >= 0 && p.Comma+1 > end {
		end = p.Comma + 1
	}
	if p.Trailing != nil && p.Trailing.Loc.End > end {
		end = p.Trailing.Loc.End
	}
	obj := p.Parent
	idx := -1
	if obj != nil {
		for i, q := range obj.Props {
			if q == p {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		return Span{start, end}
	}
	ls := f.LineStart(start)
	le := lineEnd(src, end)
	ownBefore := blank(src[ls:start])
	ownAfter := blank(src[end:le])

	// The last property takes the comma before it, so that an object
	// without a trailing comma does not get one.
	if idx > 0 && idx == len(obj.Props)-1 && p.Comma < 0 {
		prev := obj.Props[idx-1]
		if prev.Comma >= 0 && (prev.Trailing == nil || prev.Trailing.Loc.End <= prev.Comma) {
			return Span{prev.Comma, end}
		}
	}
	if ownBefore && ownAfter {
		s, e := ls, skipEOL(src, le)
		// Do not leave a blank line right after "{" or right before "}", nor
		// two blank lines where one was.
		afterOpen := prevNonSpace(src, s) == '{'
		beforeClose := nextNonSpace(src, e) == '}'
		switch {
		case beforeClose:
			for s > 0 {
				ps := f.LineStart(s - 1)
				if ps >= s || !blank(src[ps:s]) || prevNonSpace(src, ps) == 0 {
					break
				}
				s = ps
			}
		case afterOpen || blankLineBefore(f, s):
			for e < len(src) {
				ne := skipEOL(src, lineEnd(src, e))
				if ne <= e || !blank(src[e:ne]) {
					break
				}
				e = ne
			}
		}
		return Span{s, e}
	}
	if len(obj.Props) == 1 && len(obj.Dangling) == 0 {
		return Span{obj.Loc.Start + 1, obj.Loc.End - 1}
	}
	if ownAfter {
		s := start
		for s > ls && (src[s-1] == ' ' || src[s-1] == '\t') {
			s--
		}
		return Span{s, end}
	}
	e := end
	for e < le && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return Span{start, e}
}

func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// lineEnd returns the offset of the line terminator at or after i.
func lineEnd(src string, i int) int {
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	return i
}

func skipEOL(src string, i int) int {
	if i < len(src) && src[i] == '\r' {
		i++
	}
	if i < len(src) && src[i] == '\n' {
		i++
	}
	return i
}

func prevNonSpace(src string, i int) byte {
	for i > 0 {
		i--
		if c := src[i]; !(c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			return c
		}
	}
	return 0
}

func nextNonSpace(src string, i int) byte {
	for ; i < len(src); i++ {
		if c := src[i]; !(c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			return c
		}
	}
	return 0
}

// blankLineBefore reports whether the line before the one starting at s is
// blank.
func blankLineBefore(f *File, s int) bool {
	if s == 0 {
		return false
	}
	ps := f.LineStart(s - 1)
	return ps < s && blank(f.text[ps:s])
}
