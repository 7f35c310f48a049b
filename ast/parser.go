package ast

import (
	"math/big"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds every kind of nesting the parser recurses or stacks on:
// objects, arrays, brackets, expressions, types and statements. It keeps
// any input far from the Go stack limit and gives a clear error instead.
const maxDepth = 1000

// level is an operator precedence level, as in esbuild's js_ast.L.
type level uint8

const (
	lLowest level = iota
	lComma
	lSpread
	lYield
	lAssign
	lConditional
	lNullish
	lLogicalOr
	lLogicalAnd
	lBitOr
	lBitXor
	lBitAnd
	lEquals
	lCompare
	lShift
	lAdd
	lMultiply
	lExponent
	lPrefix
	lPostfix
	lNew
	lCall
	lMember
)

// fnInfo describes an arrow or function expression of the config view, for
// config functions (`defineFwConfig(() => ({...}))`).
type fnInfo struct {
	node  *JSNode // the JSFunction or JSArrow
	block bool    // the body is a block (node.Y)
	expr  Node    // the expression body of an arrow
}

type binding struct {
	init Node
	stmt int // index in parser.stmts
}

type stmt struct {
	span Span
	decl bool    // a declaration that runs nothing where it stands (function, class, type)
	node *JSNode // the statement in the code tree
}

type skipEntry struct {
	tok  token // tOpenParen, tOpenBracket, tOpenBrace or tTemplateHead
	flag bool  // "(": head of if/while/for/with; "{": a block rather than an object literal
}

// parser reads JavaScript and TypeScript into the code tree (codeparse.go)
// and, for a config, derives the config's view of it (view.go, resolve.go).
type parser struct {
	l    lexer
	f    *File
	text string
	ts   bool

	comments []*Comment
	stats    lexStats

	depth int
	fatal bool // the error is the depth limit, which backtracking must not hide

	skipStack []skipEntry

	// The config view (view.go): fns are the function expressions it
	// made, outer the syntax around expressions (from code.wraps).
	fns        map[*Expr]*fnInfo
	outer      map[*JSNode][]wrap
	noComments bool // the view attaches no comments (see plainValue)

	trailingYes, trailingNo int
	semiYes, semiNo         int

	stmts      []stmt
	bindings   map[string]binding
	imports    map[string]string // local name -> module
	exportVal  Node
	exportKind ExportKind
	exportStmt int
	exportDecl string // "an interface": `export default <declaration>` with no value

	// Reading the config (resolve.go): aliases are the variables the config
	// was found through, assigns the plain assignments to it (by the
	// write's Loc).
	inResult bool // resolving what a config function returns
	aliases  []alias
	assigns  map[Span]assignment

	code codeState // the code reader's state (codeparse.go)
}

func newParser(f *File, ts bool) *parser {
	p := &parser{f: f, text: f.text, ts: ts, exportStmt: -1}
	p.l = newLexer(f.Src, p.text, &p.comments, &p.stats)
	return p
}

// ---- errors and tokens ----

func (p *parser) failed() bool { return p.l.errPos >= 0 }

func (p *parser) fail(pos int, msg string) { p.l.fail(pos, msg) }

func (p *parser) next() { p.l.next() }

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		if !p.failed() {
			p.fatal = true
			p.fail(p.l.start, "Too deeply nested: more than 1000 levels of objects, arrays, brackets or expressions")
		}
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

func (p *parser) tokenDesc() string {
	switch p.l.tok {
	case tEOF:
		return "end of file"
	case tTemplateHead, tTemplateMiddle, tTemplateTail, tNoSubTemplate, tString:
		return "string"
	}
	raw := p.l.raw()
	if len(raw) > 40 {
		raw = raw[:40] + "..."
	}
	return `"` + raw + `"`
}

func (p *parser) unexpected() {
	if p.l.tok == tEOF {
		p.fail(p.l.start, "Unexpected end of file")
		return
	}
	p.fail(p.l.start, "Unexpected "+p.tokenDesc())
}

var tokenTexts = map[token]string{
	tOpenParen: "(", tCloseParen: ")", tOpenBracket: "[", tCloseBracket: "]",
	tOpenBrace: "{", tCloseBrace: "}", tColon: ":", tSemicolon: ";", tComma: ",",
	tArrow: "=>", tEquals: "=", tGreaterThan: ">", tLessThan: "<", tIdent: "identifier",
	tString: "string", tNumber: "number", tQuestion: "?", tWhile: "while", tDot: ".",
}

func (p *parser) expect(t token) bool {
	if p.l.tok == t {
		p.next()
		return true
	}
	if !p.failed() {
		p.fail(p.l.start, "Expected \""+tokenTexts[t]+"\" but found "+p.tokenDesc())
	}
	return false
}

func (p *parser) expectGreaterThan() {
	switch p.l.tok {
	case tGreaterThan:
		p.next()
	case tGreaterThanEquals, tGreaterThanGreaterThan, tGreaterThanGreaterThanEquals,
		tGreaterThanGreaterThanGreaterThan, tGreaterThanGreaterThanGreaterThanEquals:
		p.l.splitFirst()
	default:
		p.expect(tGreaterThan)
	}
}

// state is the parser state that backtracking restores.
type state struct {
	l     lexer
	depth int
}

func (p *parser) save() state { return state{p.l, p.depth} }

func (p *parser) restore(s state) { p.l, p.depth = s.l, s.depth }

// try runs fn speculatively: on failure (fn returns false or an error was
// raised) the parser is put back where it was. A depth-limit error stands.
func (p *parser) try(fn func() bool) bool {
	s := p.save()
	if fn() && !p.failed() {
		return true
	}
	if !p.fatal {
		p.restore(s)
	}
	return false
}

// startsExpression reports whether the current token can begin an
// expression: after `await`, it decides between the operator and an
// identifier named await.
func (p *parser) startsExpression() bool {
	switch p.l.tok {
	case tIdent, tPrivate, tString, tNoSubTemplate, tTemplateHead, tNumber, tBigInt,
		tOpenParen, tOpenBracket, tOpenBrace, tSlash, tSlashEquals, tExclamation, tTilde,
		tPlus, tMinus, tPlusPlus, tMinusMinus, tTypeof, tVoid, tDelete, tNew, tFunction,
		tClass, tThis, tSuper, tNull, tTrue, tFalse, tImport, tAt:
		return true
	case tLessThan:
		return p.ts
	}
	return false
}

func (p *parser) stringValue() string {
	body := p.text[p.l.start+1 : p.l.end-1]
	if !p.l.esc && (!p.l.hi || utf8.ValidString(body)) {
		return body
	}
	v, _ := decodeText(body, false)
	return v
}

// templateValue is the cooked value of template text [start, end).
func (p *parser) templateValue(start, end int) (string, bool) {
	body := p.text[start:end]
	if !p.l.esc && !p.l.hi && strings.IndexByte(body, '\r') < 0 {
		return body, true
	}
	return decodeText(body, true)
}

func (p *parser) voteTrailing(lastEnd, closeStart int, comma bool) {
	if !p.hasNewline(lastEnd, closeStart) {
		return
	}
	if comma {
		p.trailingYes++
	} else {
		p.trailingNo++
	}
}

func (p *parser) hasNewline(a, b int) bool {
	if a < 0 || b > len(p.text) || a >= b {
		return false
	}
	s := p.text[a:b]
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}

func bigIntKey(raw string) string {
	s := strings.ReplaceAll(strings.TrimSuffix(raw, "n"), "_", "")
	var n big.Int
	if len(s) > 1 && s[0] == '0' && (s[1]|0x20 == 'x' || s[1]|0x20 == 'o' || s[1]|0x20 == 'b') {
		if _, ok := n.SetString(s, 0); ok {
			return n.String()
		}
		return s
	}
	if _, ok := n.SetString(s, 10); ok {
		return n.String()
	}
	return s
}
