package ast

// This file skips code the parser builds no nodes for: TypeScript types,
// and bracketed regions (namespace bodies, decorator arguments, import
// attributes; and the token scans of resolve.go). Types are skipped by a
// port of esbuild's type skipper, because where a type ends decides where an
// expression ends (`x as A | B ?? c`).

// regexState decides whether a "/" starts a regular expression or is a
// division, from the previous significant token, when no parser is there to
// know whether an operand is expected.
type regexState struct {
	prev     token
	prevFlag bool // ")" closed the head of if/while/for/with; "}" closed a block
	prevText string
	start    bool // no token yet
}

func (r *regexState) allowsRegex() bool {
	if r.start {
		return true
	}
	switch r.prev {
	case tIdent:
		// Contextual keywords that take an operand.
		return OperandFollows(r.prevText)
	case tPrivate, tString, tNoSubTemplate, tTemplateTail, tNumber, tBigInt, tRegExp,
		tCloseBracket, tThis, tSuper, tNull, tTrue, tFalse, tPlusPlus, tMinusMinus:
		return false
	case tCloseParen, tCloseBrace:
		return r.prevFlag
	}
	if r.prev.isReserved() {
		return true // return, typeof, case, in, else, ...
	}
	return true // any other punctuator
}

// braceIsBlock guesses whether a "{" opens a block (or class, function or
// namespace body) rather than an object literal, from the token before it.
func (r *regexState) braceIsBlock() bool {
	if r.start {
		return true
	}
	switch r.prev {
	case tCloseParen, tArrow, tSemicolon, tOpenBrace, tCloseBrace, tElse, tDo, tTry,
		tFinally, tCatch, tString, tGreaterThan, tCloseBracket:
		return true
	case tIdent:
		switch r.prevText {
		case "await", "yield", "of":
			return false
		}
		return true
	}
	return false
}

// skipBalanced skips from the current token, an opening bracket, through
// its matching closer and lexes the token after it. block says whether a
// "{" at the start opens a block. Strings, templates (with nested
// substitutions), comments and regular expressions are lexed on the way, so
// a "}" inside any of them does not count.
func (p *parser) skipBalanced(block bool) {
	p.skipRegion(block, nil)
}

// returnsInfo collects the return statements of a function body for
// skipRegion: those directly in the body (by bracket depth, as the tokens
// show it), and a count of those nested deeper (in blocks or inner
// functions). at holds the body's return statements by offset.
type returnsInfo struct {
	at     map[int]*JSNode
	direct []*JSNode // the values of the direct returns
	bare   int       // `return` without a value directly in the body
	nested int
}

func (p *parser) skipRegion(block bool, rets *returnsInfo) {
	base := len(p.skipStack)
	defer func() { p.skipStack = p.skipStack[:base] }()
	if p.l.tok != tOpenParen && p.l.tok != tOpenBracket && p.l.tok != tOpenBrace {
		p.unexpected()
		return
	}
	rs := regexState{start: true}
	p.scanStep(base, &rs)
	if p.failed() {
		return
	}
	p.skipStack[len(p.skipStack)-1].flag = p.l.tok == tOpenBrace && block
	p.next()
	for !p.failed() {
		switch p.l.tok {
		case tEOF:
			p.unexpected()
			return
		case tReturn:
			if rets == nil {
				break
			}
			if len(p.skipStack)-base != 1 {
				rets.nested++
				break
			}
			r := rets.at[p.l.start]
			p.next()
			switch {
			case p.l.tok == tSemicolon || p.l.tok == tCloseBrace || p.l.nl || p.l.tok == tEOF:
				rets.bare++
				rs.prev, rs.prevFlag = tReturn, false
			case r == nil || r.X == nil:
				// A `return` token that is no return statement (`x.return`):
				// the body is not one fwmigrate reads.
				rets.nested++
			default:
				// The value is read from the tree; the scan goes on after it.
				rets.direct = append(rets.direct, r.X)
				p.l = p.lexerAt(p.outerSpan(r.X).End)
				rs.prev, rs.prevFlag = tCloseParen, false // an operand just ended
			}
			continue
		}
		if _, ok := p.scanStep(base, &rs); !ok {
			p.unexpected()
			return
		}
		if len(p.skipStack) == base {
			p.next()
			return
		}
		p.next()
	}
}

// scanStep handles the current token of code that is skipped rather than
// parsed: it rescans "/" as a regular expression and "}" as a template
// continuation where needed, and keeps the bracket stack above base. It
// returns the token as finally lexed, and false for a closing bracket that
// does not match (or the depth limit).
func (p *parser) scanStep(base int, rs *regexState) (token, bool) {
	tok := p.l.tok
	flag := false
	push := func(e skipEntry) bool {
		if len(p.skipStack)-base >= maxDepth || p.depth+len(p.skipStack)-base >= maxDepth {
			if !p.failed() {
				p.fatal = true
				p.fail(p.l.start, "Too deeply nested: more than 1000 levels of objects, arrays, brackets or expressions")
			}
			return false
		}
		p.skipStack = append(p.skipStack, e)
		return true
	}
	switch tok {
	case tOpenParen:
		ctrl := !rs.start && (rs.prev == tIf || rs.prev == tWhile || rs.prev == tFor || rs.prev == tWith ||
			rs.prev == tIdent && rs.prevText == "await") // for await (
		if !push(skipEntry{tok: tOpenParen, flag: ctrl}) {
			return tok, false
		}
	case tOpenBracket:
		if !push(skipEntry{tok: tOpenBracket}) {
			return tok, false
		}
	case tOpenBrace:
		if !push(skipEntry{tok: tOpenBrace, flag: rs.braceIsBlock()}) {
			return tok, false
		}
	case tTemplateHead:
		if !push(skipEntry{tok: tTemplateHead}) {
			return tok, false
		}
	case tCloseParen, tCloseBracket:
		if len(p.skipStack) == base {
			return tok, false
		}
		top := p.skipStack[len(p.skipStack)-1]
		if top.tok != tok-1 { // tOpenParen+1 == tCloseParen, tOpenBracket+1 == tCloseBracket
			return tok, false
		}
		flag = top.flag
		p.skipStack = p.skipStack[:len(p.skipStack)-1]
	case tCloseBrace:
		if len(p.skipStack) == base {
			return tok, false
		}
		top := p.skipStack[len(p.skipStack)-1]
		switch top.tok {
		case tTemplateHead:
			p.l.rescanTemplate()
			tok = p.l.tok
			if tok == tTemplateTail {
				p.skipStack = p.skipStack[:len(p.skipStack)-1]
			}
		case tOpenBrace:
			flag = top.flag
			p.skipStack = p.skipStack[:len(p.skipStack)-1]
		default:
			return tok, false
		}
	case tSlash, tSlashEquals:
		if rs.allowsRegex() {
			p.l.rescanRegExp()
			tok = p.l.tok
		}
	}
	rs.prev, rs.prevFlag, rs.start = tok, flag, false
	if tok == tIdent {
		rs.prevText = p.l.raw()
	}
	return tok, true
}

// ---- TypeScript types (ported from esbuild's ts_parser.go) ----

type typeFlags uint8

const (
	typeReturn typeFlags = 1 << iota
	typeIndexSignature
	typeTupleLabels
	typeNoConditional
)

type typeParamsResult uint8

const (
	noTypeParams typeParamsResult = iota
	couldBeTypeCast
	definitelyTypeParams
)

func (p *parser) skipType(lv level) { p.skipTypeFlags(lv, 0) }

func (p *parser) skipReturnType() { p.skipTypeFlags(lLowest, typeReturn) }

// skipTypeList skips `A, B<C>, ...`: an interface's extends, a class's
// implements.
func (p *parser) skipTypeList() {
	for !p.failed() {
		p.skipType(lLowest)
		if p.l.tok != tComma {
			return
		}
		p.next()
	}
}

func (p *parser) skipTypeFlags(lv level, flags typeFlags) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
loop:
	for !p.failed() {
		switch p.l.tok {
		case tNumber, tBigInt, tString, tNoSubTemplate, tTrue, tFalse, tNull, tVoid, tConst:
			p.next()

		case tThis:
			p.next()
			// "function check(): this is boolean"
			if p.l.is("is") && !p.l.nl {
				p.next()
				p.skipType(lLowest)
				return
			}

		case tMinus:
			// "-123", "-123n"
			p.next()
			if p.l.tok == tBigInt {
				p.next()
			} else {
				p.expect(tNumber)
			}

		case tAmpersand, tBar:
			// "type Foo = | A | B"
			p.next()
			continue

		case tImport:
			// "import('fs')"
			p.next()
			if flags&typeTupleLabels != 0 && (p.l.tok == tColon || p.l.tok == tQuestion) {
				return
			}
			p.expect(tOpenParen)
			p.expect(tString)
			if p.l.tok == tComma {
				p.next()
				p.skipObjectType()
				if p.l.tok == tComma {
					p.next()
				}
			}
			p.expect(tCloseParen)

		case tNew:
			// "new () => Foo"
			p.next()
			if flags&typeTupleLabels != 0 && (p.l.tok == tColon || p.l.tok == tQuestion) {
				return
			}
			p.skipTypeParams()
			p.skipParenOrFnType()

		case tLessThan:
			// "<T>() => Foo<T>"
			p.skipTypeParams()
			p.skipParenOrFnType()

		case tOpenParen:
			// "(number | string)" or "(x: T) => U"
			p.skipParenOrFnType()

		case tIdent:
			checkTypeArgs := true
			switch p.l.raw() {
			case "keyof", "readonly":
				p.next()
				if p.l.tok != tColon && p.l.tok != tQuestion && p.l.tok != tIn ||
					flags&(typeIndexSignature|typeTupleLabels) == 0 {
					p.skipType(lPrefix)
				}
				break loop
			case "infer":
				p.next()
				if p.l.tok != tColon && p.l.tok != tQuestion && p.l.tok != tIn ||
					flags&(typeIndexSignature|typeTupleLabels) == 0 {
					p.expect(tIdent)
					if p.l.tok == tExtends {
						p.try(func() bool {
							p.next()
							p.skipTypeFlags(lPrefix, typeNoConditional)
							return flags&typeNoConditional != 0 || p.l.tok != tQuestion
						})
					}
				}
				break loop
			case "unique":
				p.next()
				if p.l.is("symbol") {
					p.next()
					break loop
				}
			case "abstract":
				p.next()
				if p.l.tok == tNew {
					continue
				}
			case "asserts":
				p.next()
				if flags&typeReturn != 0 && !p.l.nl && (p.l.tok == tIdent || p.l.tok == tThis) {
					p.next()
				}
			case "any", "never", "unknown", "undefined", "object", "number", "string", "boolean", "bigint", "symbol":
				p.next()
				checkTypeArgs = false
			default:
				p.next()
			}
			// "function assert(x: any): x is boolean"
			if p.l.is("is") && !p.l.nl {
				p.next()
				p.skipType(lLowest)
				return
			}
			if checkTypeArgs && !p.l.nl {
				p.skipTypeArgs(false)
			}

		case tTypeof:
			p.next()
			if flags&typeTupleLabels != 0 && (p.l.tok == tColon || p.l.tok == tQuestion) {
				return
			}
			if p.l.tok == tImport {
				// "typeof import('fs')"
				continue
			}
			if !p.l.isIdentOrKeyword() {
				p.expect(tIdent)
				return
			}
			p.next()
			for p.l.tok == tDot && !p.failed() {
				p.next()
				if !p.l.isIdentOrKeyword() && p.l.tok != tPrivate {
					p.expect(tIdent)
					return
				}
				p.next()
			}
			if !p.l.nl {
				p.skipTypeArgs(false)
			}

		case tOpenBracket:
			// "[number, string]", "[first: number, second?: string]"
			p.next()
			for p.l.tok != tCloseBracket && !p.failed() {
				if p.l.tok == tDotDotDot {
					p.next()
				}
				p.skipTypeFlags(lLowest, typeTupleLabels)
				if p.l.tok == tQuestion {
					p.next()
				}
				if p.l.tok == tColon {
					p.next()
					p.skipType(lLowest)
				}
				if p.l.tok != tComma {
					break
				}
				p.next()
			}
			p.expect(tCloseBracket)

		case tOpenBrace:
			p.skipObjectType()

		case tTemplateHead:
			// "`${'a' | 'b'}-${'c' | 'd'}`"
			for !p.failed() {
				p.next()
				p.skipType(lLowest)
				if p.l.tok != tCloseBrace {
					p.expect(tCloseBrace)
					return
				}
				p.l.rescanTemplate()
				if p.l.tok == tTemplateTail {
					p.next()
					break
				}
			}

		default:
			// "[function: number]"
			if flags&typeTupleLabels != 0 && p.l.isIdentOrKeyword() {
				p.next()
				if p.l.tok != tColon && p.l.tok != tQuestion {
					p.expect(tColon)
				}
				return
			}
			p.unexpected()
			return
		}
		break
	}

	for !p.failed() {
		switch p.l.tok {
		case tBar:
			if lv >= lBitOr {
				return
			}
			p.next()
			p.skipTypeFlags(lBitOr, flags)
		case tAmpersand:
			if lv >= lBitAnd {
				return
			}
			p.next()
			p.skipTypeFlags(lBitAnd, flags)
		case tExclamation:
			// A postfix "!" from JSDoc types
			if p.l.nl {
				return
			}
			p.next()
		case tDot:
			p.next()
			if !p.l.isIdentOrKeyword() {
				p.expect(tIdent)
				return
			}
			p.next()
			if !p.l.nl {
				p.skipTypeArgs(false)
			}
		case tOpenBracket:
			// "{ ['x']: string \n ['y']: string }" must not become one type
			if p.l.nl {
				return
			}
			p.next()
			if p.l.tok != tCloseBracket {
				p.skipType(lLowest)
			}
			p.expect(tCloseBracket)
		case tExtends:
			if p.l.nl || flags&typeNoConditional != 0 {
				return
			}
			p.next()
			p.skipTypeFlags(lLowest, typeNoConditional)
			p.expect(tQuestion)
			p.skipType(lLowest)
			p.expect(tColon)
			p.skipType(lLowest)
		default:
			return
		}
	}
}

func (p *parser) skipObjectType() {
	if !p.expect(tOpenBrace) {
		return
	}
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	for p.l.tok != tCloseBrace && !p.failed() {
		// "{ -readonly [K in keyof T]: T[K] }"
		if p.l.tok == tPlus || p.l.tok == tMinus {
			p.next()
		}
		foundKey := false
		for p.l.isIdentOrKeyword() || p.l.tok == tString || p.l.tok == tNumber {
			p.next()
			foundKey = true
		}
		if p.l.tok == tOpenBracket {
			// Index signature or computed property
			p.next()
			p.skipTypeFlags(lLowest, typeIndexSignature)
			if p.l.tok == tColon {
				p.next()
				p.skipType(lLowest)
			} else if p.l.tok == tIn {
				p.next()
				p.skipType(lLowest)
				if p.l.is("as") {
					p.next()
					p.skipType(lLowest)
				}
			}
			p.expect(tCloseBracket)
			if p.l.tok == tPlus || p.l.tok == tMinus {
				p.next()
			}
			foundKey = true
		}
		if foundKey && (p.l.tok == tQuestion || p.l.tok == tExclamation) {
			p.next()
		}
		p.skipTypeParams()
		switch p.l.tok {
		case tColon:
			if !foundKey {
				p.expect(tIdent)
				return
			}
			p.next()
			p.skipType(lLowest)
		case tOpenParen:
			p.skipFnArgs()
			if p.l.tok == tColon {
				p.next()
				p.skipReturnType()
			}
		default:
			if !foundKey {
				p.unexpected()
				return
			}
		}
		switch p.l.tok {
		case tCloseBrace:
		case tComma, tSemicolon:
			p.next()
		default:
			if !p.l.nl {
				p.unexpected()
				return
			}
		}
	}
	p.expect(tCloseBrace)
}

func (p *parser) skipTypeParams() typeParamsResult {
	if p.l.tok != tLessThan {
		return noTypeParams
	}
	p.next()
	result := couldBeTypeCast
	for !p.failed() {
		expectIdent := true
		for !p.failed() {
			if p.l.tok == tConst {
				result = definitelyTypeParams
				p.next()
				expectIdent = true
				continue
			}
			if p.l.tok == tIn {
				p.next()
				expectIdent = true
				continue
			}
			if p.l.is("out") {
				p.next()
				expectIdent = false
				continue
			}
			break
		}
		if expectIdent || p.l.tok == tIdent {
			p.expect(tIdent)
		}
		// "class Foo<T extends number> {}"
		if p.l.tok == tExtends {
			result = definitelyTypeParams
			p.next()
			p.skipType(lLowest)
		}
		// "class Foo<T = void> {}"
		if p.l.tok == tEquals {
			result = definitelyTypeParams
			p.next()
			p.skipType(lLowest)
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
		if p.l.tok == tGreaterThan {
			result = definitelyTypeParams
			break
		}
	}
	p.expectGreaterThan()
	return result
}

// skipTypeArgs skips "<...>" type arguments and reports whether there were
// any. In an expression only a plain ">" may close them (`x < y >= z` is
// not a type argument list).
func (p *parser) skipTypeArgs(inExpr bool) bool {
	switch p.l.tok {
	case tLessThan:
		p.next()
	case tLessThanEquals, tLessThanLessThan, tLessThanLessThanEquals:
		p.l.splitFirst()
	default:
		return false
	}
	if !p.enter() {
		p.leave()
		return true
	}
	for !p.failed() {
		p.skipType(lLowest)
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.leave()
	if inExpr {
		p.expect(tGreaterThan)
	} else {
		p.expectGreaterThan()
	}
	return true
}

func (p *parser) trySkipTypeArgsInExpr() bool {
	return p.try(func() bool {
		return p.skipTypeArgs(true) && p.canFollowTypeArgs()
	})
}

func (p *parser) skipParenOrFnType() {
	if p.try(func() bool {
		p.skipFnArgs()
		return p.expect(tArrow)
	}) {
		p.skipReturnType()
		return
	}
	p.expect(tOpenParen)
	p.skipType(lLowest)
	p.expect(tCloseParen)
}

func (p *parser) skipFnArgs() {
	if !p.expect(tOpenParen) {
		return
	}
	for p.l.tok != tCloseParen && !p.failed() {
		if p.l.tok == tDotDotDot {
			p.next()
		}
		p.skipBinding()
		if p.l.tok == tQuestion {
			p.next()
		}
		if p.l.tok == tColon {
			p.next()
			p.skipType(lLowest)
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.expect(tCloseParen)
}

func (p *parser) skipBinding() {
	switch p.l.tok {
	case tIdent, tThis:
		p.next()
	case tOpenBracket, tOpenBrace:
		// Patterns in function types: their contents do not matter here.
		p.skipBalanced(false)
	default:
		p.unexpected()
	}
}

// canFollowTypeArgs is TypeScript's rule for "f<T>" in an expression.
func (p *parser) canFollowTypeArgs() bool {
	switch p.l.tok {
	case tOpenParen, tNoSubTemplate, tTemplateHead:
		return true
	case tLessThan, tGreaterThan, tPlus, tMinus, tGreaterThanEquals, tGreaterThanGreaterThan,
		tGreaterThanGreaterThanEquals, tGreaterThanGreaterThanGreaterThan, tGreaterThanGreaterThanGreaterThanEquals:
		return false
	}
	return p.l.nl || p.isBinaryOperator() || !p.tsStartsExpression()
}

func (p *parser) isBinaryOperator() bool {
	switch p.l.tok {
	case tIn, tQuestionQuestion, tBarBar, tAmpersandAmpersand, tBar, tCaret, tAmpersand,
		tEqualsEquals, tExclamationEquals, tEqualsEqualsEquals, tExclamationEqualsEquals,
		tLessThan, tGreaterThan, tLessThanEquals, tGreaterThanEquals, tInstanceof,
		tLessThanLessThan, tGreaterThanGreaterThan, tGreaterThanGreaterThanGreaterThan,
		tPlus, tMinus, tAsterisk, tSlash, tPercent, tAsteriskAsterisk:
		return true
	case tIdent:
		return p.l.is("as") || p.l.is("satisfies")
	}
	return false
}

func (p *parser) tsStartsExpression() bool {
	switch p.l.tok {
	case tThis, tSuper, tNull, tTrue, tFalse, tNumber, tBigInt, tString, tNoSubTemplate,
		tTemplateHead, tOpenParen, tOpenBracket, tOpenBrace, tFunction, tClass, tNew,
		tSlash, tSlashEquals, tIdent, tPlus, tMinus, tTilde, tExclamation, tDelete,
		tTypeof, tVoid, tPlusPlus, tMinusMinus, tLessThan, tPrivate, tAt:
		return true
	case tImport:
		s := p.save()
		p.next()
		ok := p.l.tok == tOpenParen || p.l.tok == tLessThan || p.l.tok == tDot
		p.restore(s)
		return ok
	}
	return p.isBinaryOperator()
}
