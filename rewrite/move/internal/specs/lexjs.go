// Package specs finds the module specifiers a source file depends on:
// the imports, requires, URLs, globs and mocks of JavaScript and
// TypeScript, the @import and url() of style sheets, and the blocks and
// asset URLs of .vue files (Lexer.Scan, Lexer.ScanVue, ScanCSS), each as a
// Ref: its span, its kind and how it is spelled. The layout move
// (rewrite/move) plans its rewrites of specifiers on them.
package specs

import (
	"bytes"

	"github.com/fwmigrate/fwmigrate/ast"
)

// A lexer for JavaScript and TypeScript (with JSX when asked) that finds the
// module specifiers a file depends on. It tokenizes just enough to tell code
// from strings, comments, template literals, regular expressions and JSX
// text, so that "import" inside a comment or a string is never an import and
// an apostrophe in JSX text never starts a string. It never fails: input it
// cannot make sense of ends a construct where a compiler would report an
// error, and the specifiers found so far are kept.
//
// It is the tolerant mode of package ast's reader: strings, templates and
// regular expressions are scanned by ast's scanner, and which words take an
// operand comes from ast's keyword table.

type tokKind uint8

const (
	tIdent    tokKind = iota // identifiers, keywords, #private names
	tPunct                   // one punctuator; see punct below
	tString                  // '...' or "..."
	tTemplate                // a whole template literal; its substitutions' tokens follow it
	tRegex
	tNumber
	tJSX // a whole JSX element; tokens of its {expressions} follow it
)

type token struct {
	kind       tokKind
	start, end int // byte range, quotes and backticks included
	// inner counts the tokens that belong to a template's substitutions or
	// to a JSX element's expressions; they follow this token in the slice.
	inner int
	// headEnd is, for a template with substitutions, the end of its text
	// before the first "${"; for other templates the position of the
	// closing backtick.
	headEnd int
	subst   bool
}

// Kind says which construct a specifier was found in.
type Kind uint8

const (
	Import     Kind = iota // import ... from 'x', import 'x', export ... from 'x'
	Dynamic                // import('x')
	Require                // require('x'), require.resolve('x')
	URL                    // new URL('x', import.meta.url)
	Glob                   // import.meta.glob('x')
	Mock                   // vi.mock('x'), jest.mock('x') and friends
	TypeRef                // /// <reference path="x" />
	SrcAttr                // <script src="x"> / <style src="x"> in a .vue file
	CSSImport              // @import, @use, @forward
	CSSURL                 // url(x)
	TypeImport             // import type ... from 'x' (JS kinds above otherwise)
	AssetURL               // <img src="x"> and the other asset URLs of a .vue <template>
	CSSSource              // Tailwind's @source 'x' (a path or a glob)
)

// Ref is one specifier: src[Start:End] is its text without quotes.
type Ref struct {
	Start, End int
	Kind       Kind
	// Prefix is set for a template literal with substitutions or a glob:
	// only the directory part src[Start:End] (ending in "/") is a path.
	Prefix bool
	// Style is set for specifiers in CSS, where bare paths are relative.
	Style bool
	// Quote is the delimiter of a JavaScript string or template literal
	// (0 elsewhere); Val is its value when the literal holds escapes (Esc),
	// so that src[Start:End] is not the value itself.
	Quote byte
	Esc   bool
	Val   string
}

// Value returns the specifier r names in src: its decoded value.
func (r *Ref) Value(src []byte) string {
	if r.Esc {
		return r.Val
	}
	return string(src[r.Start:r.End])
}

// maxDepth bounds the nesting of templates, braces and JSX elements the lexer
// follows; deeper input ends the scan (Go cannot recover from a blown stack).
const maxDepth = 500

// Lexer is the JavaScript and TypeScript scanner; its zero value is ready,
// and it keeps its buffers from one scan to the next.
type Lexer struct {
	src      []byte
	pos      int
	jsx      bool
	toks     []token
	refs     []Ref
	depth    int
	jsxFails int
	stopped  bool // maxDepth reached: the rest of the file was not scanned
}

// Scan appends to refs the specifiers of the JavaScript or TypeScript
// source src, whose offsets are shifted by base (the position of a <script>
// block inside a .vue file). It reuses l's buffers. ok is false when the
// nesting went past the lexer's limit and the rest of src was not scanned.
func (l *Lexer) Scan(src []byte, base int, jsx bool, refs []Ref) ([]Ref, bool) {
	l.src, l.pos, l.jsx, l.toks, l.refs, l.depth, l.jsxFails, l.stopped = src, 0, jsx, l.toks[:0], refs, 0, 0, false
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
	}
	first := len(refs)
	l.lexTokens(false)
	for k := first; k < len(l.refs); k++ { // triple-slash references
		l.refs[k].Start += base
		l.refs[k].End += base
	}
	l.findRefs(base)
	return l.refs, !l.stopped
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '\\' || c >= 0x80
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// skipSpaceAndComments skips white space and comments, recording
// triple-slash reference paths on the way.
func (l *Lexer) skipSpaceAndComments() {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == 0xE2 && l.pos+2 < len(src) && src[l.pos+1] == 0x80 && (src[l.pos+2] == 0xA8 || src[l.pos+2] == 0xA9):
			l.pos += 3 // U+2028, U+2029
		case c == 0xC2 && l.pos+1 < len(src) && src[l.pos+1] == 0xA0:
			l.pos += 2 // no-break space
		case c == 0xEF && l.pos+2 < len(src) && src[l.pos+1] == 0xBB && src[l.pos+2] == 0xBF:
			l.pos += 3 // byte order mark
		case c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '/':
			start := l.pos
			for l.pos < len(src) && src[l.pos] != '\n' && src[l.pos] != '\r' {
				l.pos++
			}
			if l.pos-start > 3 && src[start+2] == '/' {
				l.tripleSlash(start+3, l.pos)
			}
		case c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '*':
			end := indexFrom(src, l.pos+2, "*/")
			if end < 0 {
				l.pos = len(src)
			} else {
				l.pos = end + 2
			}
		default:
			return
		}
	}
}

// tripleSlash records the path of a `/// <reference path="..." />` directive
// in the comment text src[start:end]: it is a file dependency that tsc
// resolves relative to the file, unlike any other comment.
func (l *Lexer) tripleSlash(start, end int) {
	s := l.src[start:end]
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if !hasPrefixAt(s, i, "<reference") {
		return
	}
	i += len("<reference")
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		nameStart := i
		for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] == '-') {
			i++
		}
		name := string(s[nameStart:i])
		if name == "" || i >= len(s) || s[i] != '=' {
			return
		}
		i++
		if i >= len(s) || s[i] != '"' && s[i] != '\'' {
			return
		}
		q := s[i]
		i++
		vStart := i
		for i < len(s) && s[i] != q {
			i++
		}
		if i >= len(s) {
			return
		}
		if name == "path" {
			l.refs = append(l.refs, Ref{Start: start + vStart, End: start + i, Kind: TypeRef})
			return
		}
		i++
	}
}

func hasPrefixAt(s []byte, i int, p string) bool {
	return len(s)-i >= len(p) && string(s[i:i+len(p)]) == p
}

func indexFrom(s []byte, from int, sub string) int {
	if from > len(s) {
		return -1
	}
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && string(s[i:i+len(sub)]) == sub {
			return i
		}
	}
	return -1
}

// regexAllowed reports whether a "/" at this point starts a regular
// expression (and a "<" a JSX element) rather than being an operator, from
// the previous significant token. It is the classic heuristic: ")" ends an
// expression (if (x) /re/ is rare), "}" ends a block more often than an
// object literal followed by a division.
func (l *Lexer) regexAllowed(last int) bool {
	if last < 0 {
		return true
	}
	t := l.toks[last]
	switch t.kind {
	case tNumber, tString, tTemplate, tRegex, tJSX:
		return false
	case tIdent:
		if last > 0 && l.isPunct(last-1, '.') {
			return false // a property name: a.return / 2
		}
		return ast.OperandFollows(string(l.src[t.start:t.end]))
	}
	switch l.src[t.start] {
	case ')', ']':
		return false
	case '+', '-':
		return t.end-t.start == 1 // a++ / b, but a + /re/
	}
	return true
}

// lexTokens appends tokens until the end of input or, when inBraces, until
// the "}" that closes the substitution or JSX expression being lexed (which
// it consumes without appending).
func (l *Lexer) lexTokens(inBraces bool) {
	if l.depth >= maxDepth {
		l.stopped = true
		l.pos = len(l.src)
		return
	}
	l.depth++
	defer func() { l.depth-- }()
	src := l.src
	braces := 0
	last := len(l.toks) - 1
	if inBraces {
		last = -1 // an expression starts here
	}
	for {
		l.skipSpaceAndComments()
		if l.pos >= len(src) {
			return
		}
		start := l.pos
		idx := len(l.toks)
		c := src[start]
		switch {
		case isIdentStart(c) || c == '#' && start+1 < len(src) && isIdentStart(src[start+1]):
			l.pos++
			for l.pos < len(src) && isIdentPart(src[l.pos]) {
				if src[l.pos] == '\\' { // \uXXXX escape in an identifier
					l.pos++
				}
				l.pos++
			}
			l.pos = min(l.pos, len(src))
			l.toks = append(l.toks, token{kind: tIdent, start: start, end: l.pos})
		case c >= '0' && c <= '9' || c == '.' && start+1 < len(src) && src[start+1] >= '0' && src[start+1] <= '9':
			l.pos++
			for l.pos < len(src) {
				d := src[l.pos]
				if isIdentPart(d) || d == '.' {
					l.pos++
				} else if (d == '+' || d == '-') && (src[l.pos-1] == 'e' || src[l.pos-1] == 'E') && src[start] != '0' {
					l.pos++
				} else {
					break
				}
			}
			l.toks = append(l.toks, token{kind: tNumber, start: start, end: l.pos})
		case c == '"' || c == '\'':
			l.lexString()
			l.toks = append(l.toks, token{kind: tString, start: start, end: l.pos})
		case c == '`':
			l.lexTemplate()
		case c == '/' && l.regexAllowed(last):
			if !l.lexRegex() {
				l.pos = start + 1
				l.toks = append(l.toks, token{kind: tPunct, start: start, end: l.pos})
			}
		case c == '<' && l.jsx && l.jsxFails < 32 && l.regexAllowed(last):
			if !l.lexJSX() {
				l.jsxFails++
				l.pos = start + 1
				l.toks = append(l.toks, token{kind: tPunct, start: start, end: l.pos})
			}
		default:
			n := 1
			if (c == '+' || c == '-') && start+1 < len(src) && src[start+1] == c {
				n = 2
			} else if c == '.' && start+2 < len(src) && src[start+1] == '.' && src[start+2] == '.' {
				n = 3
			}
			l.pos += n
			if inBraces {
				if c == '{' {
					braces++
				} else if c == '}' {
					if braces == 0 {
						return
					}
					braces--
				}
			}
			l.toks = append(l.toks, token{kind: tPunct, start: start, end: l.pos})
		}
		// A template or JSX element is followed by the tokens of its
		// expressions; what counts for the next "/" is the element itself.
		last = idx
	}
}

// lexString consumes the string literal whose quote is at l.pos. A
// newline ends an unterminated string, as it ends the literal for a parser.
func (l *Lexer) lexString() {
	l.pos, _ = ast.ScanString(l.src, l.pos)
}

// lexTemplate consumes a template literal at l.pos and appends its token
// before the tokens of its substitutions.
func (l *Lexer) lexTemplate() {
	idx := len(l.toks)
	l.toks = append(l.toks, token{kind: tTemplate, start: l.pos, headEnd: -1})
	l.pos++
	for {
		end, sub, ok := ast.ScanTemplate(l.src, l.pos)
		l.pos = end
		if l.toks[idx].headEnd < 0 {
			switch {
			case !ok:
				l.toks[idx].headEnd = end
			case sub:
				l.toks[idx].headEnd = end - 2
			default:
				l.toks[idx].headEnd = end - 1
			}
		}
		if !sub {
			break
		}
		l.toks[idx].subst = true
		l.lexTokens(true)
	}
	l.pos = min(l.pos, len(l.src))
	l.toks[idx].end = l.pos
	l.toks[idx].inner = len(l.toks) - idx - 1
}

// lexRegex consumes a regular expression literal at l.pos; it reports false
// (consuming nothing) when the line ends first, which means the "/" was a
// division after all.
func (l *Lexer) lexRegex() bool {
	start := l.pos
	end, ok := ast.ScanRegExp(l.src, start)
	if !ok {
		return false
	}
	l.pos = end
	l.toks = append(l.toks, token{kind: tRegex, start: start, end: end})
	return true
}

// lexJSX consumes a JSX element or fragment at l.pos. On anything that is
// not JSX (a TSX generic arrow such as <T,>(x: T) => x, a comparison the
// heuristic misjudged) it restores the lexer and reports false.
func (l *Lexer) lexJSX() bool {
	savePos, saveToks, saveRefs := l.pos, len(l.toks), len(l.refs)
	idx := len(l.toks)
	l.toks = append(l.toks, token{kind: tJSX, start: l.pos})
	if !l.jsxElement() || l.stopped {
		l.pos, l.toks, l.refs = savePos, l.toks[:saveToks], l.refs[:saveRefs]
		return false
	}
	l.toks[idx].end = l.pos
	l.toks[idx].inner = len(l.toks) - idx - 1
	return true
}

func (l *Lexer) jsxSpace() {
	for l.pos < len(l.src) && isSpace(l.src[l.pos]) {
		l.pos++
	}
}

func (l *Lexer) jsxName() bool {
	start := l.pos
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if isIdentPart(c) || c == '.' || c == ':' || c == '-' {
			l.pos++
			continue
		}
		break
	}
	return l.pos > start && !(l.src[start] >= '0' && l.src[start] <= '9')
}

// jsxExpr consumes a {...} container whose "{" is at l.pos.
func (l *Lexer) jsxExpr() bool {
	l.pos++
	l.lexTokens(true)
	return !l.stopped && l.pos <= len(l.src) && l.src[l.pos-1] == '}'
}

func (l *Lexer) jsxElement() bool {
	if l.depth >= maxDepth {
		l.stopped = true
		return false
	}
	l.depth++
	defer func() { l.depth-- }()
	src := l.src
	l.pos++ // <
	l.jsxSpace()
	if l.pos >= len(src) {
		return false
	}
	if src[l.pos] != '>' {
		if !l.jsxName() {
			return false
		}
		for {
			l.jsxSpace()
			if l.pos >= len(src) {
				return false
			}
			c := src[l.pos]
			if c == '/' {
				l.pos++
				if l.pos < len(src) && src[l.pos] == '>' {
					l.pos++
					return true
				}
				return false
			}
			if c == '>' {
				break
			}
			if c == '{' {
				if !l.jsxExpr() {
					return false
				}
				continue
			}
			if !l.jsxName() {
				return false
			}
			l.jsxSpace()
			if l.pos < len(src) && src[l.pos] == '=' {
				l.pos++
				l.jsxSpace()
				if l.pos >= len(src) {
					return false
				}
				switch v := src[l.pos]; v {
				case '"', '\'':
					end := indexFrom(src, l.pos+1, string(v))
					if end < 0 {
						return false
					}
					l.pos = end + 1
				case '{':
					if !l.jsxExpr() {
						return false
					}
				case '<':
					if !l.jsxElement() {
						return false
					}
				default:
					return false
				}
			}
		}
	}
	l.pos++ // >
	// Children: text, {expressions}, elements, up to the closing tag.
	for l.pos < len(src) {
		switch src[l.pos] {
		case '{':
			if !l.jsxExpr() {
				return false
			}
		case '<':
			if l.pos+1 < len(src) && src[l.pos+1] == '/' {
				l.pos += 2
				l.jsxSpace()
				if l.pos < len(src) && src[l.pos] != '>' && !l.jsxName() {
					return false
				}
				l.jsxSpace()
				if l.pos >= len(src) || src[l.pos] != '>' {
					return false
				}
				l.pos++
				return true
			}
			if !l.jsxElement() {
				return false
			}
		default:
			l.pos++
		}
	}
	return false
}

func (l *Lexer) text(i int) string {
	t := l.toks[i]
	return string(l.src[t.start:t.end])
}

func (l *Lexer) isPunct(i int, c byte) bool {
	if i < 0 || i >= len(l.toks) {
		return false
	}
	t := l.toks[i]
	return t.kind == tPunct && t.end-t.start == 1 && l.src[t.start] == c
}

func (l *Lexer) isIdent(i int, name string) bool {
	if i < 0 || i >= len(l.toks) {
		return false
	}
	t := l.toks[i]
	return t.kind == tIdent && string(l.src[t.start:t.end]) == name
}

// next returns the index of the token after token i and its inner tokens.
func (l *Lexer) next(i int) int {
	if i < 0 || i >= len(l.toks) {
		return len(l.toks)
	}
	return i + 1 + l.toks[i].inner
}

// literal returns the ref of the string or template token i (offsets not
// yet shifted): the byte range inside its delimiters and, for a literal
// with escapes, its decoded value; for a template with substitutions only
// its directory prefix, which must be free of escapes. ok is false for
// anything else, for unterminated literals and invalid escapes.
func (l *Lexer) literal(i int) (r Ref, ok bool) {
	if i < 0 || i >= len(l.toks) {
		return r, false
	}
	t := l.toks[i]
	switch t.kind {
	case tString:
		if t.end-t.start < 2 || l.src[t.end-1] != l.src[t.start] {
			return r, false
		}
		r.Start, r.End = t.start+1, t.end-1
	case tTemplate:
		r.Start, r.End = t.start+1, t.headEnd
		if t.subst {
			j := r.End - 1
			for j >= r.Start && l.src[j] != '/' {
				j--
			}
			if j < r.Start {
				return r, false
			}
			r.End, r.Prefix = j+1, true
		} else if t.end-t.start < 2 || l.src[t.end-1] != '`' {
			return r, false
		}
	default:
		return r, false
	}
	r.Quote = l.src[t.start]
	raw := l.src[r.Start:r.End]
	if bytes.IndexByte(raw, '\\') < 0 {
		return r, bytes.IndexByte(raw, '\n') < 0
	}
	if r.Prefix {
		return r, false
	}
	// Escapes: the specifier is the value ('q\'uote', '\u002e/x'), as the
	// bundler reads it.
	r.Val, ok = ast.Decode(string(raw), r.Quote == '`')
	r.Esc = true
	return r, ok
}

func (l *Lexer) add(base, i int, kind Kind) {
	if r, ok := l.literal(i); ok {
		r.Start += base
		r.End += base
		r.Kind = kind
		l.refs = append(l.refs, r)
	}
}

// findRefs walks the tokens for the constructs that name modules.
func (l *Lexer) findRefs(base int) {
	n := len(l.toks)
	pendingFrom, typeOnly := false, false
	for i := 0; i < n; i++ {
		t := l.toks[i]
		if t.kind == tPunct && l.src[t.start] == ';' {
			pendingFrom = false
			continue
		}
		if t.kind != tIdent {
			continue
		}
		member := l.isPunct(i-1, '.')
		switch string(l.src[t.start:t.end]) {
		case "import":
			if member {
				continue
			}
			j := i + 1
			switch {
			case l.isPunct(j, '('):
				arg := j + 1
				if after := l.next(arg); l.isPunct(after, ')') || l.isPunct(after, ',') {
					l.add(base, arg, Dynamic)
				}
			case l.isPunct(j, '.'):
				// import.meta.glob('./x/*.ts') / import.meta.glob(['a', 'b'])
				if l.isIdent(j+1, "meta") && l.isPunct(j+2, '.') &&
					(l.isIdent(j+3, "glob") || l.isIdent(j+3, "globEager")) && l.isPunct(j+4, '(') {
					arg := j + 5
					if l.isPunct(arg, '[') {
						for k := arg + 1; k < n && !l.isPunct(k, ']'); k = l.next(k) {
							l.addGlob(base, k)
						}
					} else {
						l.addGlob(base, arg)
					}
				}
			case j < n && l.toks[j].kind == tString:
				l.add(base, j, Import) // import 'x'
			default:
				pendingFrom = true
				// import type X from / import type {X} from, but not
				// import type from './x' (a default import named type).
				typeOnly = l.isIdent(j, "type") && !l.isIdent(j+1, "from") && !l.isPunct(j+1, ',') && !l.isPunct(j+1, '=')
			}
		case "export":
			if !member {
				pendingFrom = true
				typeOnly = l.isIdent(i+1, "type") && (l.isPunct(i+2, '{') || l.isPunct(i+2, '*'))
			}
		case "from":
			if pendingFrom && i+1 < n && l.toks[i+1].kind == tString {
				kind := Import
				if typeOnly {
					kind = TypeImport
				}
				l.add(base, i+1, kind)
				pendingFrom, typeOnly = false, false
			}
		case "require":
			if member {
				continue
			}
			j := i + 1
			if l.isPunct(j, '.') && l.isIdent(j+1, "resolve") {
				j += 2
			}
			if l.isPunct(j, '(') && l.isPunct(l.next(j+1), ')') && j+1 < n && l.toks[j+1].kind == tString {
				l.add(base, j+1, Require)
			}
		case "URL":
			// new URL('./x', import.meta.url)
			if l.isIdent(i-1, "new") && l.isPunct(i+1, '(') {
				arg := i + 2
				k := l.next(arg)
				if l.isPunct(k, ',') && l.isIdent(k+1, "import") && l.isPunct(k+2, '.') &&
					l.isIdent(k+3, "meta") && l.isPunct(k+4, '.') && l.isIdent(k+5, "url") {
					l.add(base, arg, URL)
				}
			}
		case "vi", "jest":
			if member || !l.isPunct(i+1, '.') || !l.isPunct(i+3, '(') {
				continue
			}
			switch l.text(i + 2) {
			case "mock", "doMock", "unmock", "doUnmock", "importActual", "importMock", "requireActual", "requireMock", "createMockFromModule":
				if k := l.next(i + 4); l.isPunct(k, ')') || l.isPunct(k, ',') {
					l.add(base, i+4, Mock)
				}
			}
		}
	}
}

// addGlob records the static directory prefix of a glob pattern.
func (l *Lexer) addGlob(base, i int) {
	r, ok := l.literal(i)
	if !ok || r.Esc {
		return
	}
	start := r.Start
	s := l.src[start:r.End]
	if len(s) > 0 && s[0] == '!' {
		start++
		s = s[1:]
	}
	cut := len(s)
	for k, c := range s {
		if c == '*' || c == '?' || c == '[' || c == '{' {
			cut = k
			break
		}
	}
	for cut > 0 && s[cut-1] != '/' {
		cut--
	}
	if cut == 0 {
		return
	}
	l.refs = append(l.refs, Ref{Start: base + start, End: base + start + cut, Kind: Glob, Prefix: true})
}
