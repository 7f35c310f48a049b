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

type exprFlags uint8

const (
	flagAfterQuestion exprFlags = 1 << iota // between "?" and ":" of a conditional
	flagNewTarget                           // the target of "new"
	flagDecorator
)

// fnInfo describes an arrow or function expression, for config functions
// (`defineFwConfig(() => ({...}))`).
type fnInfo struct {
	async bool
	block bool // the body is a block: body is its span
	body  Span
	expr  Node // the expression body of an arrow
}

type binding struct {
	init Node
	stmt int // index in parser.stmts
}

type stmt struct {
	span Span
	decl bool // a declaration that runs nothing where it stands (function, class, type)
}

type skipEntry struct {
	tok  token // tOpenParen, tOpenBracket, tOpenBrace or tTemplateHead
	flag bool  // "(": head of if/while/for/with; "{": a block rather than an object literal
}

type parser struct {
	l    lexer
	f    *File
	text string
	ts   bool

	comments []*Comment
	stats    lexStats

	depth int
	fatal bool // the error is the depth limit, which backtracking must not hide

	afterArrowBody int // start of the token right after an arrow's block body
	forbidAfterAs  int // start of a token that may not continue an `as` cast
	latestArrowArg int // start of the latest parenthesized item

	fns       map[*Expr]*fnInfo
	skipStack []skipEntry
	propSlab  []Property
	propStack []*Property // properties of the objects being parsed
	nodeStack []Node      // elements of the arrays being parsed

	// discard > 0 while parsing an expression whose nodes nobody keeps (an
	// operand of a binary operator, a conditional's branches, an arrow body
	// inside a literal...): constructors then return sink instead of
	// allocating. literal counts the object and array literals open.
	discard  int
	literal  int
	sink     *Expr
	sinkProp Property

	trailingYes, trailingNo int
	semiYes, semiNo         int

	stmts      []stmt
	bindings   map[string]binding
	imports    map[string]string // local name -> module
	exportVal  Node
	exportKind ExportKind
	exportStmt int
	exportDecl string // "an interface": `export default <declaration>` with no value

	// Reading the config (resolve.go): inBody while the statements of a
	// config function's body are parsed (its `return` is then the export),
	// aliases are the variables the config was found through, assigns the
	// plain assignments to it (by the write's Loc).
	inBody   bool
	inResult bool // resolving what a config function returns
	aliases  []alias
	assigns  map[Span]assignment

	code codeState // the code reader's state (codeparse.go)
}

func newParser(f *File, ts bool) *parser {
	p := &parser{f: f, text: f.text, ts: ts, afterArrowBody: -1, forbidAfterAs: -1, latestArrowArg: -1, exportStmt: -1,
		sink: &Expr{Hint: HintOther}}
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
	l                                       lexer
	afterArrowBody, forbidAfterAs, latestAA int
	depth                                   int
}

func (p *parser) save() state {
	return state{p.l, p.afterArrowBody, p.forbidAfterAs, p.latestArrowArg, p.depth}
}

func (p *parser) restore(s state) {
	p.l = s.l
	p.afterArrowBody, p.forbidAfterAs, p.latestArrowArg, p.depth = s.afterArrowBody, s.forbidAfterAs, s.latestAA, s.depth
}

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

func (p *parser) newProp() *Property {
	if p.discard > 0 {
		p.sinkProp = Property{}
		return &p.sinkProp
	}
	if len(p.propSlab) == 0 {
		p.propSlab = make([]Property, 32)
	}
	pr := &p.propSlab[0]
	p.propSlab = p.propSlab[1:]
	return pr
}

func (p *parser) expr(start int, hint string) *Expr {
	if p.discard > 0 {
		return p.sink
	}
	return &Expr{Loc: Span{start, p.l.prevEnd}, Hint: hint}
}

// errNode stands in for a node when parsing failed.
func (p *parser) errNode() Node {
	return &Expr{Loc: Span{p.l.start, p.l.start}, Hint: HintOther}
}

// ---- expressions ----

func (p *parser) parseExpr(lv level) Node { return p.parseExprFlags(lv, 0) }

// skipExpr parses an expression whose nodes are not kept.
func (p *parser) skipExpr(lv level) { p.skipExprFlags(lv, 0) }

func (p *parser) skipExprFlags(lv level, flags exprFlags) {
	p.discard++
	p.parseExprFlags(lv, flags)
	p.discard--
}

func (p *parser) parseExprFlags(lv level, flags exprFlags) Node {
	if !p.enter() {
		p.leave()
		return p.errNode()
	}
	start := p.l.start
	left := p.parsePrefix(lv, flags)
	left = p.parseSuffix(left, lv, start, flags)
	p.leave()
	return left
}

func (p *parser) parsePrefix(lv level, flags exprFlags) Node {
	start := p.l.start
	switch p.l.tok {
	case tSuper, tThis:
		p.next()
		return p.expr(start, HintOther)

	case tOpenParen:
		p.next()
		if lv > lAssign {
			inner := p.parseExpr(lLowest)
			p.expect(tCloseParen)
			e := p.expr(start, HintParen)
			e.Inner = inner
			return e
		}
		return p.parseParenExpr(start, lv, false, flags&flagAfterQuestion != 0, false)

	case tFalse, tTrue:
		v := p.l.tok == tTrue
		p.next()
		if p.discard > 0 {
			return p.sink
		}
		return &Boolean{Loc: Span{start, p.l.prevEnd}, Value: v}

	case tNull:
		p.next()
		if p.discard > 0 {
			return p.sink
		}
		return &Null{Loc: Span{start, p.l.prevEnd}}

	case tPrivate:
		// `#x in obj`
		p.next()
		if p.l.tok != tIn {
			p.unexpected()
		}
		return p.expr(start, HintOther)

	case tIdent:
		raw := p.l.raw()
		esc := p.l.esc
		p.next()
		if !esc {
			switch raw {
			case "async":
				return p.parseAsyncPrefix(start, lv)
			case "await":
				if p.startsExpression() && !(p.l.tok == tOpenParen && p.l.nl) {
					p.skipExpr(lPrefix)
					return p.expr(start, HintUnary)
				}
			}
		}
		if p.l.tok == tArrow && lv <= lAssign {
			return p.parseArrowBody(start, false)
		}
		if p.discard > 0 {
			return p.sink
		}
		name := raw
		if esc {
			name = decodeIdent(raw)
		}
		return &Ident{Loc: Span{start, p.l.prevEnd}, Name: name}

	case tString:
		if p.discard > 0 {
			p.next()
			return p.sink
		}
		n := &String{Loc: Span{start, p.l.end}, Value: p.stringValue()}
		if p.text[start] == '"' {
			n.Quote = QuoteDouble
		}
		p.next()
		return n

	case tNoSubTemplate:
		if p.discard > 0 {
			p.next()
			return p.sink
		}
		v, ok := p.templateValue(p.l.start+1, p.l.end-1)
		p.next()
		return &Template{Loc: Span{start, p.l.prevEnd}, Static: ok, Value: v}

	case tTemplateHead:
		p.parseTemplateParts()
		if p.discard > 0 {
			return p.sink
		}
		return &Template{Loc: Span{start, p.l.prevEnd}}

	case tNumber, tBigInt:
		if p.discard > 0 {
			p.next()
			return p.sink
		}
		raw := p.l.raw()
		n := &Number{Loc: Span{start, p.l.end}, Raw: raw, Value: parseNumber(raw), IsBigInt: p.l.tok == tBigInt}
		p.next()
		return n

	case tSlash, tSlashEquals:
		p.l.rescanRegExp()
		if p.failed() {
			return p.errNode()
		}
		if p.discard > 0 {
			p.next()
			return p.sink
		}
		raw := p.l.raw()
		i := strings.LastIndexByte(raw, '/')
		n := &RegExp{Loc: Span{start, p.l.end}, Pattern: raw[1:i], Flags: raw[i+1:]}
		p.next()
		return n

	case tVoid, tTypeof, tDelete, tExclamation, tTilde, tPlusPlus, tMinusMinus:
		p.next()
		p.skipExpr(lPrefix)
		return p.expr(start, HintUnary)

	case tPlus, tMinus:
		op := p.text[start]
		p.next()
		v := p.parseExpr(lPrefix)
		if p.discard > 0 {
			return p.sink
		}
		return &Unary{Loc: Span{start, p.l.prevEnd}, Op: op, Operand: v}

	case tFunction:
		return p.parseFnExpr(start, false)

	case tClass:
		return p.parseClassExpr(start)

	case tAt:
		p.skipDecorators()
		if p.l.tok != tClass {
			p.expect(tClass)
			return p.errNode()
		}
		return p.parseClassExpr(start)

	case tNew:
		p.next()
		if p.l.tok == tDot {
			p.next()
			if !p.l.is("target") {
				p.unexpected()
			}
			p.next()
			return p.expr(start, HintOther)
		}
		target := p.parseExprFlags(lMember, flags|flagNewTarget)
		var args []Node
		if p.l.tok == tOpenParen {
			args = p.parseCallArgs()
		}
		e := p.expr(start, HintNew)
		e.Callee = target.Span()
		e.Args = args
		return e

	case tOpenBracket:
		return p.parseArray()

	case tOpenBrace:
		return p.parseObject()

	case tLessThan:
		if !p.ts {
			p.unexpected()
			return p.errNode()
		}
		// "<T>(x) => {}" or "<T>(x)"
		if res := p.trySkipTypeParamsThenParen(); res != noTypeParams {
			p.expect(tOpenParen)
			return p.parseParenExpr(start, lv, false, false, res == definitelyTypeParams)
		}
		// "<T>x"
		if !p.enter() {
			p.leave()
			return p.errNode()
		}
		p.next()
		p.skipType(lLowest)
		p.expectGreaterThan()
		inner := p.parsePrefix(lv, flags)
		p.leave()
		e := p.expr(start, HintTypeAssert)
		e.Inner = inner
		return e

	case tImport:
		p.next()
		if p.l.tok == tDot {
			p.next()
			if p.l.is("meta") {
				p.next()
				return p.expr(start, HintOther)
			}
			if !p.l.is("defer") && !p.l.is("source") {
				p.unexpected()
				return p.errNode()
			}
			p.next()
		}
		callee := Span{start, p.l.prevEnd}
		if !p.expect(tOpenParen) {
			return p.errNode()
		}
		arg := p.parseExpr(lComma)
		args := []Node{arg}
		if p.l.tok == tComma {
			p.next()
			if p.l.tok != tCloseParen {
				args = append(args, p.parseExpr(lComma))
				if p.l.tok == tComma {
					p.next()
				}
			}
		}
		p.expect(tCloseParen)
		e := p.expr(start, HintCall)
		e.Callee = callee
		e.Args = args
		return e
	}
	p.unexpected()
	return p.errNode()
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

// parseTemplateParts parses the substitutions of a template whose head is
// the current token, through its tail.
func (p *parser) parseTemplateParts() {
	for {
		p.next()
		p.skipExpr(lLowest)
		if p.l.tok != tCloseBrace {
			p.expect(tCloseBrace)
			return
		}
		p.l.rescanTemplate()
		if p.l.tok == tTemplateTail {
			p.next()
			return
		}
		if p.l.tok != tTemplateMiddle {
			p.unexpected()
			return
		}
	}
}

func (p *parser) parseCallArgs() []Node {
	p.next() // (
	base := len(p.nodeStack)
	for p.l.tok != tCloseParen && !p.failed() {
		if p.l.tok == tDotDotDot {
			start := p.l.start
			p.next()
			v := p.parseExpr(lComma)
			e := p.expr(start, HintSpread)
			e.Inner = v
			p.nodeStack = append(p.nodeStack, e)
		} else {
			a := p.parseExpr(lComma)
			p.nodeStack = append(p.nodeStack, a)
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.expect(tCloseParen)
	var args []Node
	if n := len(p.nodeStack) - base; n > 0 && p.discard == 0 {
		args = make([]Node, n)
		copy(args, p.nodeStack[base:])
	}
	p.nodeStack = p.nodeStack[:base]
	return args
}

func (p *parser) parseAsyncPrefix(start int, lv level) Node {
	// "async function() {}"
	if !p.l.nl && p.l.tok == tFunction {
		return p.parseFnExpr(start, true)
	}
	if !p.l.nl && lv < lMember {
		switch p.l.tok {
		case tArrow: // "async => {}"
			if lv <= lAssign {
				return p.parseArrowBody(start, false)
			}
		case tIdent: // "async x => {}"
			if lv <= lAssign {
				isArrow := true
				if p.ts {
					s := p.save()
					p.next()
					isArrow = p.l.tok == tArrow
					p.restore(s)
				}
				if isArrow {
					p.next()
					return p.parseArrowBody(start, true)
				}
			}
		case tOpenParen: // "async()" or "async () => {}"
			p.next()
			return p.parseParenExpr(start, lv, true, false, false)
		case tLessThan: // "async <T>() => {}"
			if p.ts {
				if res := p.trySkipTypeParamsThenParen(); res != noTypeParams {
					p.next()
					return p.parseParenExpr(start, lv, true, false, res == definitelyTypeParams)
				}
			}
		}
	}
	return &Ident{Loc: Span{start, start + 5}, Name: "async"}
}

// parseParenExpr parses what follows "(": a parenthesized expression, the
// parameters of an arrow function, or the arguments of a call to a function
// named async.
func (p *parser) parseParenExpr(start int, lv level, async, afterQuestion, forceArrow bool) Node {
	var items []Node
	typeColon := -1
	spread := -1
	for p.l.tok != tCloseParen && !p.failed() {
		itemStart := p.l.start
		if p.l.tok == tDotDotDot {
			spread = itemStart
			p.next()
		}
		p.latestArrowArg = p.l.start
		item := p.parseExpr(lComma)
		if spread == itemStart {
			e := p.expr(itemStart, HintSpread)
			e.Inner = item
			item = e
		}
		if p.ts && p.l.tok == tColon {
			typeColon = p.l.start
			p.next()
			p.skipType(lLowest)
		}
		if p.ts && p.l.tok == tEquals && p.l.start != p.forbidAfterAs {
			p.next()
			p.skipExpr(lComma)
			item = p.expr(itemStart, HintAssign)
		}
		items = append(items, item)
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	callee := Span{start, start + 5}
	if !p.expect(tCloseParen) {
		return p.errNode()
	}

	isArrow := p.l.tok == tArrow
	if isArrow || forceArrow || p.ts && p.l.tok == tColon {
		if lv > lAssign && (isArrow || forceArrow) {
			p.unexpected()
			return p.errNode()
		}
		if p.ts && p.l.tok == tColon && lv <= lAssign && bindable(items) {
			if afterQuestion {
				isArrow = p.arrowReturnTypeBeforeColon(start)
				if isArrow {
					p.next()
					p.skipReturnType()
				}
			} else {
				isArrow = p.try(func() bool {
					p.next()
					p.skipReturnType()
					return p.l.tok == tArrow
				})
			}
		}
		if isArrow || forceArrow {
			return p.parseArrowBody(start, async)
		}
	}
	if typeColon >= 0 {
		p.fail(typeColon, `Unexpected ":"`)
		return p.errNode()
	}
	if async {
		e := p.expr(start, HintCall)
		e.Callee = callee
		e.Args = items
		return e
	}
	if len(items) == 0 {
		p.fail(p.l.start, `Expected "=>" but found `+p.tokenDesc())
		return p.errNode()
	}
	if spread >= 0 {
		p.fail(spread, `Unexpected "..."`)
		return p.errNode()
	}
	inner := items[0]
	if len(items) > 1 {
		inner = &Expr{Loc: Span{items[0].Span().Start, items[len(items)-1].Span().End}, Hint: HintSequence}
	}
	e := p.expr(start, HintParen)
	e.Inner = inner
	return e
}

// bindable reports whether parenthesized items could be arrow parameters, so
// that `a ? (1 + 2) : x` is not taken for a return type.
func bindable(items []Node) bool {
	for _, it := range items {
		switch n := it.(type) {
		case *Ident, *Object, *Array:
		case *Expr:
			// The sink of a discarded parse could be anything.
			if n.Hint != HintAssign && n.Hint != HintSpread && n.Hint != HintOther {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// arrowReturnTypeBeforeColon decides `a ? (b) : c => d : e` (an arrow with a
// return type) against `a ? (b) : c => d` (the arrow is the "no" branch), as
// TypeScript does: the arrow reading wins only if a ":" follows its body.
func (p *parser) arrowReturnTypeBeforeColon(start int) bool {
	s := p.save()
	p.next()
	p.skipReturnType()
	p.parseArrowBody(start, false)
	ok := !p.failed() && p.l.tok == tColon
	if !p.fatal {
		p.restore(s)
	}
	return ok
}

func (p *parser) parseArrowBody(start int, async bool) Node {
	if p.l.nl {
		p.fail(p.l.start, `Unexpected newline before "=>"`)
		return p.errNode()
	}
	if !p.expect(tArrow) {
		return p.errNode()
	}
	info := &fnInfo{async: async}
	if p.l.tok == tOpenBrace {
		bodyStart := p.l.start
		p.skipBalanced(true)
		info.block = true
		info.body = Span{bodyStart, p.l.prevEnd}
		p.afterArrowBody = p.l.start
	} else if p.literal > 0 || p.discard > 0 {
		// Inside a literal, an arrow cannot be the config function.
		p.skipExpr(lComma)
	} else {
		info.expr = p.parseExpr(lComma)
	}
	e := p.expr(start, HintArrow)
	if p.discard == 0 {
		p.setFn(e, info)
	}
	return e
}

func (p *parser) setFn(e *Expr, info *fnInfo) {
	if p.fns == nil {
		p.fns = make(map[*Expr]*fnInfo)
	}
	p.fns[e] = info
}

// parseCall parses the argument list of a call whose callee spans callee
// and returns the call, from start through the closing parenthesis.
func (p *parser) parseCall(start int, callee Span) Node {
	args := p.parseCallArgs()
	e := p.expr(start, HintCall)
	e.Callee, e.Args = callee, args
	return e
}

// skipFnHead skips `function`, an optional `*`, the name and type
// parameters, and reports whether the parameter list follows (when not, the
// error is recorded).
func (p *parser) skipFnHead() bool {
	p.next() // function
	if p.l.tok == tAsterisk {
		p.next()
	}
	if p.l.tok == tIdent {
		p.next()
	}
	if p.ts {
		p.skipTypeParams()
	}
	if p.l.tok != tOpenParen {
		p.expect(tOpenParen)
		return false
	}
	return true
}

func (p *parser) parseFnExpr(start int, async bool) Node {
	if !p.skipFnHead() {
		return p.errNode()
	}
	p.skipBalanced(false)
	if p.ts && p.l.tok == tColon {
		p.next()
		p.skipReturnType()
	}
	if p.l.tok != tOpenBrace {
		p.expect(tOpenBrace)
		return p.errNode()
	}
	bodyStart := p.l.start
	p.skipBalanced(true)
	e := p.expr(start, HintFunction)
	if p.discard == 0 {
		p.setFn(e, &fnInfo{async: async, block: true, body: Span{bodyStart, p.l.prevEnd}})
	}
	return e
}

func (p *parser) parseClassExpr(start int) Node {
	p.next() // class
	if p.l.tok == tIdent && !p.l.is("implements") {
		p.next()
	}
	p.skipClassTail()
	return p.expr(start, HintClass)
}

// skipClassTail skips type parameters, heritage clauses and the body of a
// class whose name has been read.
func (p *parser) skipClassTail() {
	if p.ts {
		p.skipTypeParams()
	}
	if p.l.tok == tExtends {
		p.next()
		p.skipExpr(lNew)
		if p.ts {
			p.skipTypeArgs(false)
		}
	}
	if p.ts && p.l.is("implements") {
		p.next()
		for !p.failed() {
			p.skipType(lLowest)
			if p.l.tok != tComma {
				break
			}
			p.next()
		}
	}
	if p.l.tok != tOpenBrace {
		p.expect(tOpenBrace)
		return
	}
	p.skipBalanced(true)
}

// skipDecorators skips `@a.b(c) @(d)` before a class.
func (p *parser) skipDecorators() {
	for p.l.tok == tAt && !p.failed() {
		p.next()
		if p.l.tok == tOpenParen {
			p.skipBalanced(false)
		} else {
			p.skipExprFlags(lNew, flagDecorator)
		}
	}
}

func (p *parser) parseSuffix(left Node, lv level, start int, flags exprFlags) Node {
	for !p.failed() {
		if p.l.start == p.afterArrowBody {
			// Only a comma may follow an arrow function with a block body.
			if p.l.tok == tComma && lv < lComma {
				p.next()
				p.skipExpr(lComma)
				left = p.grow(left, start, HintSequence)
				continue
			}
			return left
		}
		if p.l.start == p.forbidAfterAs {
			return left
		}
		switch p.l.tok {
		case tDot:
			p.next()
			if p.l.tok != tPrivate && !p.l.isIdentOrKeyword() {
				p.expect(tIdent)
				return left
			}
			p.next()
			left = p.grow(left, start, HintMember)

		case tQuestionDot:
			if flags&flagNewTarget != 0 {
				p.fail(p.l.start, `Cannot use an unparenthesized optional chain inside the target of "new"`)
				return left
			}
			p.next()
			switch p.l.tok {
			case tOpenBracket:
				p.next()
				p.skipExpr(lLowest)
				p.expect(tCloseBracket)
				left = p.grow(left, start, HintMember)
			case tOpenParen:
				if lv >= lCall {
					return left
				}
				left = p.parseCall(start, left.Span())
			case tLessThan, tLessThanLessThan:
				if !p.ts {
					p.expect(tIdent)
					return left
				}
				callee := left.Span()
				p.skipTypeArgs(false)
				if p.l.tok != tOpenParen {
					p.expect(tOpenParen)
					return left
				}
				if lv >= lCall {
					return left
				}
				left = p.parseCall(start, callee)
			default:
				if p.l.tok != tPrivate && !p.l.isIdentOrKeyword() {
					p.expect(tIdent)
					return left
				}
				p.next()
				left = p.grow(left, start, HintMember)
			}

		case tNoSubTemplate, tTemplateHead:
			tag := left.Span()
			if p.l.tok == tTemplateHead {
				p.parseTemplateParts()
			} else {
				p.next()
			}
			left = &Template{Loc: Span{start, p.l.prevEnd}, Tag: tag}

		case tOpenBracket:
			if flags&flagDecorator != 0 {
				return left
			}
			p.next()
			p.skipExpr(lLowest)
			p.expect(tCloseBracket)
			left = p.grow(left, start, HintMember)

		case tOpenParen:
			if lv >= lCall {
				return left
			}
			left = p.parseCall(start, left.Span())

		case tQuestion:
			if lv >= lConditional {
				return left
			}
			p.next()
			// "(a?) => {}", "(a?: b) => {}", "(a?, b?) => {}"
			if p.ts && start == p.latestArrowArg && (p.l.tok == tColon || p.l.tok == tCloseParen || p.l.tok == tComma) {
				return left
			}
			p.skipExprFlags(lComma, flagAfterQuestion)
			p.expect(tColon)
			p.skipExprFlags(lComma, flags&flagAfterQuestion)
			left = p.expr(start, HintConditional)

		case tExclamation:
			if p.l.nl {
				return left
			}
			if !p.ts {
				p.unexpected()
				return left
			}
			p.next()
			e := p.expr(start, HintNonNull)
			e.Inner = left
			left = e

		case tPlusPlus, tMinusMinus:
			if p.l.nl || lv >= lPostfix {
				return left
			}
			p.next()
			left = p.expr(start, HintUnary)

		case tComma:
			if lv >= lComma {
				return left
			}
			p.next()
			p.skipExpr(lComma)
			left = p.grow(left, start, HintSequence)

		case tLessThan, tLessThanLessThan:
			// Type arguments: f<T>(x), new Foo<T>(), f<T> alone.
			if p.ts && p.trySkipTypeArgsInExpr() {
				if p.l.tok != tOpenParen && p.l.tok != tNoSubTemplate && p.l.tok != tTemplateHead {
					left = p.expr(start, HintOther)
				}
				continue
			}
			if !p.binary(lv) {
				return left
			}
			left = p.grow(left, start, HintBinary)

		case tIdent:
			if p.ts && lv < lCompare && !p.l.nl && (p.l.is("as") || p.l.is("satisfies")) {
				hint := HintAs
				if p.l.is("satisfies") {
					hint = HintSatisfies
				}
				p.next()
				p.skipType(lLowest)
				e := p.expr(start, hint)
				e.Inner = left
				left = e
				switch p.l.tok {
				case tPlusPlus, tMinusMinus, tNoSubTemplate, tTemplateHead, tOpenParen, tOpenBracket, tQuestionDot:
					p.forbidAfterAs = p.l.start
					return left
				}
				if p.l.tok.isAssign() {
					p.forbidAfterAs = p.l.start
					return left
				}
				continue
			}
			return left

		default:
			if p.l.tok.isAssign() {
				if lv >= lAssign {
					return left
				}
				p.next()
				p.skipExpr(lAssign - 1)
				left = p.grow(left, start, HintAssign)
				continue
			}
			if !p.binary(lv) {
				return left
			}
			left = p.grow(left, start, HintBinary)
		}
	}
	return left
}

// binary parses the right side of a binary operator at the current token
// when its precedence allows, and reports whether it did.
func (p *parser) binary(lv level) bool {
	var opLevel level
	switch p.l.tok {
	case tQuestionQuestion:
		opLevel = lNullish
	case tBarBar:
		opLevel = lLogicalOr
	case tAmpersandAmpersand:
		opLevel = lLogicalAnd
	case tBar:
		opLevel = lBitOr
	case tCaret:
		opLevel = lBitXor
	case tAmpersand:
		opLevel = lBitAnd
	case tEqualsEquals, tExclamationEquals, tEqualsEqualsEquals, tExclamationEqualsEquals:
		opLevel = lEquals
	case tLessThan, tLessThanEquals, tGreaterThan, tGreaterThanEquals, tIn, tInstanceof:
		opLevel = lCompare
	case tLessThanLessThan, tGreaterThanGreaterThan, tGreaterThanGreaterThanGreaterThan:
		opLevel = lShift
	case tPlus, tMinus:
		opLevel = lAdd
	case tAsterisk, tSlash, tPercent:
		opLevel = lMultiply
	case tAsteriskAsterisk:
		opLevel = lExponent
	default:
		return false
	}
	if lv >= opLevel {
		return false
	}
	right := opLevel
	if p.l.tok == tAsteriskAsterisk {
		right = lExponent - 1 // right-associative
	}
	p.next()
	p.skipExpr(right)
	return true
}

// grow returns an Expr with the given hint spanning [start, prevEnd). A left
// operand that is already such an Expr built by this suffix loop is reused:
// `a.b.c.d` and `a + b + c` allocate one node, not one per operator.
func (p *parser) grow(left Node, start int, hint string) Node {
	if e, ok := left.(*Expr); ok && e.Hint == hint && e.Inner == nil && e.Args == nil && e.Loc.Start == start {
		e.Loc.End = p.l.prevEnd
		return e
	}
	return p.expr(start, hint)
}

// ---- objects and arrays ----

func (p *parser) parseObject() Node {
	if p.discard > 0 {
		return p.skipObject()
	}
	obj := &Object{Loc: Span{Start: p.l.start}}
	p.next() // {
	// Properties gather on a shared stack and are copied out at "}" into a
	// slice of the exact size.
	base := len(p.propStack)
	p.literal++
	defer func() {
		if n := len(p.propStack) - base; n > 0 {
			obj.Props = make([]*Property, n)
			copy(obj.Props, p.propStack[base:])
		}
		p.propStack = p.propStack[:base]
		p.literal--
	}()
	lo := p.l.cBefore
	var prev *Property
	sawComma := false
	for p.l.tok != tCloseBrace && !p.failed() {
		leading := p.attach(obj, prev, lo, p.l.start)
		pr := p.parseProperty()
		pr.Parent = obj
		pr.Leading = leading
		p.propStack = append(p.propStack, pr)
		prev = pr
		lo = p.l.cBefore
		sawComma = false
		if p.l.tok != tComma {
			break
		}
		pr.Comma = p.l.start
		sawComma = true
		p.next()
	}
	p.attach(obj, prev, lo, -1)
	closeStart := p.l.start
	if !p.expect(tCloseBrace) {
		return obj
	}
	obj.Loc.End = p.l.prevEnd
	obj.TrailingComma = sawComma
	if prev != nil {
		end := prev.Loc.End
		if prev.Comma >= 0 {
			end = prev.Comma
		}
		p.voteTrailing(end, closeStart, sawComma)
	}
	return obj
}

// skipObject parses an object literal whose nodes are not kept.
func (p *parser) skipObject() Node {
	p.next() // {
	lastEnd, comma := -1, false
	for p.l.tok != tCloseBrace && !p.failed() {
		p.parseProperty()
		lastEnd, comma = p.l.prevEnd, false
		if p.l.tok != tComma {
			break
		}
		lastEnd, comma = p.l.start, true
		p.next()
	}
	closeStart := p.l.start
	if p.expect(tCloseBrace) && lastEnd >= 0 {
		p.voteTrailing(lastEnd, closeStart, comma)
	}
	return p.sink
}

// skipArray parses an array literal whose nodes are not kept.
func (p *parser) skipArray() Node {
	p.next() // [
	lastEnd, comma := -1, false
	for p.l.tok != tCloseBracket && !p.failed() {
		if p.l.tok == tComma {
			comma = false
			p.next()
			continue
		}
		if p.l.tok == tDotDotDot {
			p.next()
		}
		p.parseExpr(lComma)
		lastEnd, comma = p.l.prevEnd, false
		if p.l.tok != tComma {
			break
		}
		lastEnd, comma = p.l.start, true
		p.next()
	}
	closeStart := p.l.start
	if p.expect(tCloseBracket) && lastEnd >= 0 {
		p.voteTrailing(lastEnd, closeStart, comma)
	}
	return p.sink
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

// attach distributes the comments lexed since index lo, which lie between
// prev (or "{") and the token at next (or "}" when next < 0): a comment on
// prev's line that is not followed on its own line by the next property is
// prev's Trailing; the others lead the next property, or dangle in obj.
func (p *parser) attach(obj *Object, prev *Property, lo, next int) []*Comment {
	hi := p.l.nComments
	if lo >= hi {
		return nil
	}
	var leading []*Comment
	for _, c := range p.comments[lo:hi] {
		if prev != nil && prev.Trailing == nil && !p.hasNewline(prev.Loc.End, c.Loc.Start) &&
			(next < 0 || p.hasNewline(c.Loc.End, next)) {
			prev.Trailing = c
			continue
		}
		if next >= 0 {
			leading = append(leading, c)
		} else {
			obj.Dangling = append(obj.Dangling, c)
		}
	}
	return leading
}

func (p *parser) parseProperty() *Property {
	pr := p.newProp()
	pr.Comma = -1
	start := p.l.start
	pr.Loc.Start = start
	if p.l.tok == tDotDotDot {
		p.next()
		pr.Kind = PropSpread
		pr.KeyKind = KeyNone
		pr.Value = p.parseExpr(lComma)
		pr.Loc.End = p.l.prevEnd
		return pr
	}

	kind := PropInit
	async, gen := false, false
	for !p.failed() {
		if p.l.tok == tAsterisk && !gen {
			gen = true
			p.next()
			continue
		}
		if !gen && p.l.tok == tIdent && !p.l.esc {
			word := p.l.raw()
			if word == "get" || word == "set" || word == "async" {
				s := p.save()
				p.next()
				could := p.l.isIdentOrKeyword()
				switch p.l.tok {
				case tOpenBracket, tNumber, tString, tBigInt, tPrivate:
					could = true
				case tAsterisk:
					could = word == "async"
				}
				if could {
					switch {
					case word == "get" && kind == PropInit && !async:
						kind = PropGetter
						continue
					case word == "set" && kind == PropInit && !async:
						kind = PropSetter
						continue
					case word == "async" && !p.l.nl && !async && kind == PropInit:
						async = true
						continue
					}
				}
				p.restore(s)
			}
		}
		break
	}

	keyTok := p.l.tok
	keyStart := p.l.start
	switch p.l.tok {
	case tString:
		pr.KeyKind = KeyString
		pr.Key = p.stringValue()
		p.next()
	case tNumber:
		pr.KeyKind = KeyNumber
		pr.Key = formatNumber(parseNumber(p.l.raw()))
		p.next()
	case tBigInt:
		pr.KeyKind = KeyNumber
		pr.Key = bigIntKey(p.l.raw())
		p.next()
	case tOpenBracket:
		pr.KeyKind = KeyComputed
		p.next()
		p.skipExpr(lComma)
		p.expect(tCloseBracket)
	default:
		if !p.l.isIdentOrKeyword() {
			p.unexpected()
			return pr
		}
		pr.KeyKind = KeyIdent
		pr.Key = p.l.raw()
		if p.l.esc {
			pr.Key = decodeIdent(pr.Key)
		}
		p.next()
	}
	pr.KeySpan = Span{keyStart, p.l.prevEnd}

	// Shorthand: `{ a }`, and `{ a = 1 }` in a destructuring pattern.
	if kind == PropInit && !async && !gen && keyTok == tIdent && p.l.tok != tColon && p.l.tok != tOpenParen && p.l.tok != tLessThan {
		pr.Kind = PropShorthand
		if p.discard > 0 {
			pr.Value = p.sink
		} else {
			pr.Value = &Ident{Loc: pr.KeySpan, Name: pr.Key}
		}
		if p.l.tok == tEquals {
			p.next()
			p.skipExpr(lComma)
		}
		pr.Loc.End = p.l.prevEnd
		return pr
	}

	if kind != PropInit || async || gen || p.l.tok == tOpenParen || p.l.tok == tLessThan {
		if kind == PropInit {
			kind = PropMethod
		}
		pr.Kind = kind
		if p.ts {
			p.skipTypeParams()
		}
		if p.l.tok != tOpenParen {
			p.expect(tOpenParen)
			return pr
		}
		p.skipBalanced(false)
		if p.ts && p.l.tok == tColon {
			p.next()
			p.skipReturnType()
		}
		if p.l.tok != tOpenBrace {
			p.expect(tOpenBrace)
			return pr
		}
		p.skipBalanced(true)
		pr.Loc.End = p.l.prevEnd
		return pr
	}

	pr.Kind = PropInit
	p.expect(tColon)
	pr.Value = p.parseExpr(lComma)
	pr.Loc.End = p.l.prevEnd
	return pr
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

func (p *parser) parseArray() Node {
	if p.discard > 0 {
		return p.skipArray()
	}
	arr := &Array{Loc: Span{Start: p.l.start}}
	p.next() // [
	base := len(p.nodeStack)
	p.literal++
	defer func() {
		if n := len(p.nodeStack) - base; n > 0 {
			arr.Elements = make([]Node, n)
			copy(arr.Elements, p.nodeStack[base:])
		}
		p.nodeStack = p.nodeStack[:base]
		p.literal--
	}()
	elemComma := false
	lastEnd := -1
	for p.l.tok != tCloseBracket && !p.failed() {
		if p.l.tok == tComma {
			p.nodeStack = append(p.nodeStack, nil)
			elemComma = false
			p.next()
			continue
		}
		if p.l.tok == tDotDotDot {
			p.next()
			arr.Spreads = append(arr.Spreads, len(p.nodeStack)-base)
		}
		el := p.parseExpr(lComma)
		p.nodeStack = append(p.nodeStack, el)
		lastEnd = p.l.prevEnd
		elemComma = false
		if p.l.tok != tComma {
			break
		}
		lastEnd = p.l.start
		elemComma = true
		p.next()
	}
	closeStart := p.l.start
	if !p.expect(tCloseBracket) {
		return arr
	}
	arr.Loc.End = p.l.prevEnd
	arr.TrailingComma = elemComma
	if lastEnd >= 0 {
		p.voteTrailing(lastEnd, closeStart, elemComma)
	}
	return arr
}
