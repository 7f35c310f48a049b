package ast

// The package's one JavaScript grammar: statements and expressions of
// JavaScript, TypeScript and JSX, as JSNodes. ReadCode reads app code with
// it, and ParseUnchecked reads a config with it, then takes the config's
// view of the tree (view.go). Types are skipped (skip.go), as are
// decorators: they are not in the tree.

// exprCtx is what an expression's reading depends on from around it; a
// bracket resets it.
type exprCtx struct {
	noIn      bool // parsing the head of a for: `in` is not an operator
	afterQ    bool // between "?" and ":" of a conditional
	decorator bool // a decorator's expression: `[` ends it (`@dec [key]() {}`)
}

type codeState struct {
	jsx      bool
	inGen    bool
	ctx      exprCtx
	notArrow map[int]bool // "(" offsets that failed to read as arrow parameters
	slab     []JSNode

	// cfg is set when the tree is read for a config (ParseUnchecked): the
	// syntax the tree leaves out around expressions is then recorded in
	// wraps, for the config view (view.go), whose nodes keep it.
	cfg        bool
	wraps      []wrap
	decorators map[*JSNode][]*JSNode // of statements and classes (skipDecorators)
}

// wrap is syntax around the expression n that is not a node of the code
// tree: parentheses, `as`, `satisfies`, `!`, `<T>x`, and type arguments
// without a call (`f<T>`, hint HintOther). loc is the span with it.
type wrap struct {
	n    *JSNode
	hint string
	loc  Span
}

// wrapped records that the expression n is wrapped from start through the
// previous token.
func (p *parser) wrapped(n *JSNode, hint string, start int) {
	if p.code.cfg {
		p.code.wraps = append(p.code.wraps, wrap{n, hint, Span{start, p.l.prevEnd}})
	}
}

func (p *parser) node(k JSKind, start int) *JSNode {
	if len(p.code.slab) == 0 {
		p.code.slab = make([]JSNode, 64)
	}
	n := &p.code.slab[0]
	p.code.slab = p.code.slab[1:]
	n.Kind = k
	n.Loc = Span{start, start}
	return n
}

// fin ends n at the end of the previous token.
func (p *parser) fin(n *JSNode) *JSNode {
	n.Loc.End = p.l.prevEnd
	return n
}

func (p *parser) cErr() *JSNode {
	n := p.node(JSNull, p.l.start)
	return n
}

// seek relexes from offset: the token there becomes the current one.
func (p *parser) seek(offset int) {
	p.l.pos = offset
	p.l.start, p.l.end = offset, offset
	p.next()
}

// cSemi ends a statement: a ";", or automatic semicolon insertion before
// "}", the end, or a line break.
func (p *parser) cSemi() {
	switch {
	case p.l.tok == tSemicolon:
		p.next()
	case p.l.tok == tCloseBrace || p.l.tok == tEOF || p.l.nl:
	default:
		if !p.failed() {
			p.fail(p.l.start, `Expected ";" but found `+p.tokenDesc())
		}
	}
}

// ---- statements ----

func (p *parser) cProgram(start, end int) *JSNode {
	prog := p.node(JSProgram, start)
	for p.l.tok != tEOF && !p.failed() {
		before := p.l.start
		if s := p.cStmt(); s != nil {
			prog.List = append(prog.List, s)
		}
		if p.l.start == before && !p.failed() && p.l.tok != tEOF {
			p.unexpected()
		}
	}
	prog.Loc.End = end
	return prog
}

func (p *parser) cBlock() *JSNode {
	n := p.node(JSBlock, p.l.start)
	if !p.expect(tOpenBrace) {
		return n
	}
	for p.l.tok != tCloseBrace && p.l.tok != tEOF && !p.failed() {
		if s := p.cStmt(); s != nil {
			n.List = append(n.List, s)
		}
	}
	p.expect(tCloseBrace)
	return p.fin(n)
}

// cTypeStmt reads a TypeScript declaration as a span: op is its keyword
// (the current token).
func (p *parser) cTypeStmt(start int, op, name string) *JSNode {
	n := p.node(JSTypeDecl, start)
	n.Op, n.Name = op, name
	switch op {
	case "enum":
		if p.l.tok == tConst {
			p.next()
		}
		p.skipEnum()
	case "type":
		p.next()
		p.next() // the name
		p.skipTypeParams()
		p.expect(tEquals)
		p.skipType(lLowest)
		if p.l.tok == tSemicolon {
			p.next()
		}
	case "interface":
		p.next()
		p.next() // the name
		p.skipTypeParams()
		if p.l.tok == tExtends {
			p.next()
			p.skipTypeList()
		}
		p.skipObjectType()
	case "namespace", "module":
		p.skipNamespace()
	case "global":
		p.next()
		p.skipBlock()
	case "declare":
		// `declare const x: T`, `declare function f(): void`, `declare
		// module 'x' {}`: what follows is read as a statement, and left
		// out of the tree, as it has no run-time value.
		p.next()
		p.cStmt()
	}
	return p.fin(n)
}

// skipEnum skips `enum E {...}` from the enum keyword.
func (p *parser) skipEnum() {
	p.next() // enum
	if p.l.tok == tIdent {
		p.next()
	}
	p.skipBlock()
}

func (p *parser) skipBlock() {
	if p.l.tok != tOpenBrace {
		p.expect(tOpenBrace)
		return
	}
	p.skipBalanced(true)
}

// skipNamespace skips `module 'x' {...}`, `namespace A.B {...}` and
// `declare module 'x';`.
func (p *parser) skipNamespace() {
	p.next() // module / namespace
	if p.l.tok == tString {
		p.next()
	} else {
		for p.l.tok == tIdent && !p.failed() {
			p.next()
			if p.l.tok != tDot {
				break
			}
			p.next()
		}
	}
	if p.l.tok == tOpenBrace {
		p.skipBalanced(true)
		return
	}
	if p.l.tok == tSemicolon {
		p.next()
	}
}

// skipDecorators reads `@a.b(c) @(d)` and leaves the decorators out of the
// tree: they have no value the rules follow. It returns them for a
// config's style (see decorated).
func (p *parser) skipDecorators() []*JSNode {
	var out []*JSNode
	for p.l.tok == tAt && !p.failed() {
		p.next()
		if p.l.tok == tOpenParen {
			p.skipBalanced(false)
			continue
		}
		saved := p.code.ctx
		p.code.ctx = exprCtx{decorator: true}
		start := p.l.start
		out = append(out, p.cSuffix(p.cPrefix(lNew), lNew, start))
		p.code.ctx = saved
	}
	return out
}

// decorated records the decorators of a statement or class, which the
// config's style counts as written (view.go).
func (p *parser) decorated(n *JSNode, decorators []*JSNode) *JSNode {
	if p.code.cfg && n != nil && len(decorators) > 0 {
		if p.code.decorators == nil {
			p.code.decorators = make(map[*JSNode][]*JSNode)
		}
		p.code.decorators[n] = decorators
	}
	return n
}

func (p *parser) skipImportAttrs() {
	if (p.l.tok == tWith || p.l.is("assert")) && !p.l.nl {
		p.next()
		if p.l.tok == tOpenBrace {
			p.skipBalanced(false)
		}
	}
}

// peekIs reports whether the token after the current one is t.
func (p *parser) peekIs(t token) bool {
	s := p.save()
	p.next()
	ok := p.l.tok == t && !p.failed()
	p.restore(s)
	return ok
}

// peekTok returns the token after the current one and whether a line
// break precedes it.
func (p *parser) peekTok() (token, bool, string) {
	s := p.save()
	p.next()
	t, nl, raw := p.l.tok, p.l.nl, ""
	if t == tIdent {
		raw = p.l.raw()
	}
	p.restore(s)
	return t, nl, raw
}

func (p *parser) cStmt() *JSNode {
	if !p.enter() {
		p.leave()
		return nil
	}
	defer p.leave()
	start := p.l.start
	switch p.l.tok {
	case tSemicolon:
		n := p.node(JSEmpty, start)
		p.next()
		return p.fin(n)
	case tOpenBrace:
		return p.cBlock()
	case tVar:
		n := p.cVar(start, "var")
		p.cSemi()
		return p.fin(n)
	case tConst:
		if t, _, _ := p.peekTok(); t == tEnum {
			return p.cTypeStmt(start, "enum", p.enumName())
		}
		n := p.cVar(start, "const")
		p.cSemi()
		return p.fin(n)
	case tFunction:
		return p.cFunction(start, true, false)
	case tClass:
		return p.cClass(start, true)
	case tAt:
		ds := p.skipDecorators()
		if p.l.tok == tExport || p.l.tok == tClass || p.l.is("abstract") {
			return p.decorated(p.cStmt(), ds)
		}
		p.expect(tClass)
		return nil
	case tEnum:
		return p.cTypeStmt(start, "enum", p.enumName())
	case tIf:
		n := p.node(JSIf, start)
		p.next()
		n.X = p.cParenExpr()
		n.Y = p.cStmt()
		if p.l.tok == tElse {
			p.next()
			n.Z = p.cStmt()
		}
		return p.fin(n)
	case tFor:
		return p.cFor(start)
	case tWhile, tWith:
		k := JSWhile
		if p.l.tok == tWith {
			k = JSWith
		}
		n := p.node(k, start)
		p.next()
		n.X = p.cParenExpr()
		n.Y = p.cStmt()
		return p.fin(n)
	case tDo:
		n := p.node(JSDoWhile, start)
		p.next()
		n.X = p.cStmt()
		p.expect(tWhile)
		n.Y = p.cParenExpr()
		if p.l.tok == tSemicolon {
			p.next()
		}
		return p.fin(n)
	case tReturn, tThrow:
		k := JSReturn
		if p.l.tok == tThrow {
			k = JSThrow
		}
		n := p.node(k, start)
		p.next()
		if p.l.tok != tSemicolon && p.l.tok != tCloseBrace && p.l.tok != tEOF && !p.l.nl {
			n.X = p.cExpr(lLowest)
		}
		p.cSemi()
		return p.fin(n)
	case tBreak, tContinue:
		k := JSBreak
		if p.l.tok == tContinue {
			k = JSContinue
		}
		n := p.node(k, start)
		p.next()
		if p.l.tok == tIdent && !p.l.nl {
			n.Name = p.l.raw()
			p.next()
		}
		p.cSemi()
		return p.fin(n)
	case tDebugger:
		n := p.node(JSDebugger, start)
		p.next()
		p.cSemi()
		return p.fin(n)
	case tTry:
		n := p.node(JSTry, start)
		p.next()
		n.X = p.cBlock()
		if p.l.tok == tCatch {
			c := p.node(JSCatch, p.l.start)
			p.next()
			if p.l.tok == tOpenParen {
				p.next()
				c.X = p.cBinding()
				if p.ts && p.l.tok == tColon {
					p.next()
					p.skipType(lLowest)
				}
				p.expect(tCloseParen)
			}
			c.Y = p.cBlock()
			n.Y = p.fin(c)
		}
		if p.l.tok == tFinally {
			p.next()
			n.Z = p.cBlock()
		}
		if n.Y == nil && n.Z == nil && !p.failed() {
			p.fail(p.l.start, `Expected "finally" but found `+p.tokenDesc())
		}
		return p.fin(n)
	case tSwitch:
		n := p.node(JSSwitch, start)
		p.next()
		n.X = p.cParenExpr()
		if !p.expect(tOpenBrace) {
			return n
		}
		for p.l.tok != tCloseBrace && !p.failed() {
			c := p.node(JSCase, p.l.start)
			if p.l.tok == tDefault {
				p.next()
			} else {
				p.expect(tCase)
				c.X = p.cExpr(lLowest)
			}
			p.expect(tColon)
			for p.l.tok != tCase && p.l.tok != tDefault && p.l.tok != tCloseBrace && p.l.tok != tEOF && !p.failed() {
				if s := p.cStmt(); s != nil {
					c.List = append(c.List, s)
				}
			}
			n.List = append(n.List, p.fin(c))
		}
		p.expect(tCloseBrace)
		return p.fin(n)
	case tImport:
		if t, _, _ := p.peekTok(); t == tOpenParen || t == tDot {
			return p.cExprStmt(start)
		}
		return p.cImport(start)
	case tExport:
		return p.cExport(start)
	case tIdent:
		if p.l.esc {
			return p.cExprStmt(start)
		}
		next, nl, nextRaw := p.peekTok()
		switch raw := p.l.raw(); raw {
		case "let":
			if next == tIdent || next == tOpenBracket || next == tOpenBrace || next.isReserved() && next != tIn && next != tInstanceof {
				n := p.cVar(start, "let")
				p.cSemi()
				return p.fin(n)
			}
		case "using":
			if next == tIdent && !nl {
				n := p.cVar(start, "using")
				p.cSemi()
				return p.fin(n)
			}
		case "await":
			if next == tIdent && nextRaw == "using" && !nl {
				s := p.save()
				p.next()
				if t, nl2, _ := p.peekTok(); t == tIdent && !nl2 {
					n := p.cVar(start, "await using")
					p.cSemi()
					return p.fin(n)
				}
				p.restore(s)
			}
		case "async":
			if next == tFunction && !nl {
				p.next()
				return p.cFunction(start, true, true)
			}
		case "abstract":
			if p.ts && next == tClass && !nl {
				p.next()
				return p.cClass(start, true)
			}
		case "type", "interface", "namespace", "module", "declare", "global":
			if p.ts && !nl && (next == tIdent || next == tString || next == tOpenBrace || next.isReserved()) {
				if raw == "global" && next != tOpenBrace || raw == "module" && next == tOpenBrace ||
					(raw == "type" || raw == "interface") && next != tIdent {
					break
				}
				if raw == "type" || raw == "interface" {
					return p.cTypeStmt(start, raw, nextRaw)
				}
				return p.cTypeStmt(start, raw, nextRaw)
			}
		}
		if next == tColon {
			n := p.node(JSLabeled, start)
			n.Name = p.l.raw()
			p.next()
			p.next()
			n.X = p.cStmt()
			return p.fin(n)
		}
	}
	return p.cExprStmt(start)
}

func (p *parser) enumName() string {
	s := p.save()
	if p.l.tok == tConst {
		p.next()
	}
	p.next()
	name := ""
	if p.l.tok == tIdent {
		name = p.l.raw()
	}
	p.restore(s)
	return name
}

func (p *parser) cExprStmt(start int) *JSNode {
	n := p.node(JSExprStmt, start)
	n.X = p.cExpr(lLowest)
	p.cSemi()
	return p.fin(n)
}

func (p *parser) cParenExpr() *JSNode {
	if !p.expect(tOpenParen) {
		return p.cErr()
	}
	saved := p.code.ctx
	p.code.ctx = exprCtx{}
	x := p.cExpr(lLowest)
	p.code.ctx = saved
	p.expect(tCloseParen)
	return x
}

// cVar reads the declarators after var, let, const, using (the keyword is
// the current token; for "await using", `await`).
func (p *parser) cVar(start int, kind string) *JSNode {
	n := p.node(JSVar, start)
	n.Op = kind
	if kind == "await using" {
		p.next()
	}
	p.next()
	for !p.failed() {
		d := p.node(JSDeclarator, p.l.start)
		d.X = p.cBinding()
		if p.ts && p.l.tok == tExclamation && !p.l.nl {
			p.next()
		}
		if p.ts && p.l.tok == tColon {
			p.next()
			p.skipType(lLowest)
		}
		if p.l.tok == tEquals {
			p.next()
			d.Y = p.cExpr(lComma)
		}
		n.List = append(n.List, p.fin(d))
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	return p.fin(n)
}

func (p *parser) cFor(start int) *JSNode {
	p.next() // for
	await := false
	if p.l.is("await") {
		await = true
		p.next()
	}
	if !p.expect(tOpenParen) {
		return p.cErr()
	}
	var init *JSNode
	savedCtx := p.code.ctx
	p.code.ctx = exprCtx{noIn: true}
	initStart := p.l.start
	switch {
	case p.l.tok == tSemicolon:
	case p.l.tok == tVar:
		init = p.cVar(initStart, "var")
	case p.l.tok == tConst:
		init = p.cVar(initStart, "const")
	case p.l.is("let"):
		if t, _, _ := p.peekTok(); t == tIdent || t == tOpenBracket || t == tOpenBrace {
			init = p.cVar(initStart, "let")
		} else {
			init = p.cExpr(lLowest)
		}
	case p.l.is("using"):
		if t, nl, raw := p.peekTok(); t == tIdent && !nl && raw != "of" && raw != "in" {
			init = p.cVar(initStart, "using")
		} else {
			init = p.cExpr(lLowest)
		}
	default:
		init = p.cExpr(lLowest)
	}
	p.code.ctx = savedCtx
	if p.l.tok == tIn || p.l.is("of") {
		n := p.node(JSForIn, start)
		n.Op = "in"
		if p.l.tok != tIn {
			n.Op = "of"
		}
		if await {
			n.Flags |= FlagAwait
		}
		p.next()
		if init != nil && init.Kind != JSVar {
			init = toPattern(init)
		}
		n.X = init
		if n.Op == "of" {
			n.Y = p.cExpr(lComma)
		} else {
			n.Y = p.cExpr(lLowest)
		}
		p.expect(tCloseParen)
		n.Body = []*JSNode{p.cStmt()}
		return p.fin(n)
	}
	n := p.node(JSFor, start)
	n.X = init
	p.expect(tSemicolon)
	if p.l.tok != tSemicolon {
		n.Y = p.cExpr(lLowest)
	}
	p.expect(tSemicolon)
	if p.l.tok != tCloseParen {
		n.Z = p.cExpr(lLowest)
	}
	p.expect(tCloseParen)
	n.Body = []*JSNode{p.cStmt()}
	return p.fin(n)
}

// ---- modules ----

func (p *parser) cModuleName() (string, Span) {
	start := p.l.start
	if p.l.tok == tString {
		v := p.stringValue()
		p.next()
		return v, Span{start, p.l.prevEnd}
	}
	if !p.l.isIdentOrKeyword() {
		p.expect(tIdent)
		return "", Span{}
	}
	v := p.l.raw()
	p.next()
	return v, Span{start, p.l.prevEnd}
}

func (p *parser) cSource(n *JSNode) {
	if !p.l.is("from") {
		p.fail(p.l.start, `Expected "from" but found `+p.tokenDesc())
		return
	}
	p.next()
	if p.l.tok != tString {
		p.expect(tString)
		return
	}
	s := p.node(JSString, p.l.start)
	s.Name = p.stringValue()
	p.next()
	n.Y = p.fin(s)
	p.skipImportAttrs()
}

func (p *parser) cLocalIdent() *JSNode {
	id := p.node(JSIdent, p.l.start)
	id.Name = p.l.raw()
	if p.l.esc {
		id.Name = decodeIdent(id.Name)
	}
	if p.l.tok != tIdent {
		p.expect(tIdent)
		return id
	}
	p.next()
	return p.fin(id)
}

// cSpecifiers reads `{ a, b as c, type d, 'x' as e }`.
func (p *parser) cSpecifiers(imports bool) []*JSNode {
	var out []*JSNode
	p.expect(tOpenBrace)
	for p.l.tok != tCloseBrace && !p.failed() {
		sp := p.node(JSSpecifier, p.l.start)
		if p.ts && p.l.is("type") {
			if t, _, raw := p.peekTok(); (t == tIdent || t.isReserved() || t == tString) && !(t == tIdent && raw == "as") || t == tIdent && raw == "as" && p.typeAsAs() {
				sp.Flags |= FlagType
				p.next()
			}
		}
		first, firstLoc := p.cModuleName()
		sp.Name, sp.Local, sp.NameLoc = first, first, firstLoc
		if p.l.is("as") {
			p.next()
			if imports {
				sp.Y = p.cLocalIdent()
				sp.Local = sp.Y.Name
			} else {
				sp.Name, sp.NameLoc = p.cModuleName()
			}
		} else if imports {
			id := p.node(JSIdent, firstLoc.Start)
			id.Name = first
			id.Loc = firstLoc
			sp.Y = id
		}
		if !imports {
			id := p.node(JSIdent, firstLoc.Start)
			id.Name, id.Loc = sp.Local, firstLoc
			sp.Y = id
		}
		out = append(out, p.fin(sp))
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.expect(tCloseBrace)
	return out
}

// typeAsAs tells `type as as x` / `type as` (a type-only specifier named as)
// from `type as x` (the specifier `type` renamed).
func (p *parser) typeAsAs() bool {
	s := p.save()
	p.next() // type
	p.next() // as
	ok := p.l.is("as") || p.l.tok == tComma || p.l.tok == tCloseBrace
	p.restore(s)
	return ok
}

func (p *parser) cImport(start int) *JSNode {
	n := p.node(JSImport, start)
	p.next() // import
	if p.l.tok == tString {
		n.X = p.node(JSString, p.l.start)
		n.X.Name = p.stringValue()
		n.Name = n.X.Name
		p.next()
		p.fin(n.X)
		p.skipImportAttrs()
		p.cSemi()
		return p.fin(n)
	}
	if p.ts && p.l.is("type") {
		if t, _, raw := p.peekTok(); t == tOpenBrace || t == tAsterisk || t == tIdent && raw != "from" {
			n.Flags |= FlagType
			p.next()
		}
	}
	if p.l.tok == tIdent {
		sp := p.node(JSSpecifier, p.l.start)
		sp.Name = "default"
		sp.Y = p.cLocalIdent()
		sp.Local = sp.Y.Name
		if p.l.tok == tEquals {
			// TypeScript: import x = require('y') / import x = A.B
			p.next()
			if p.l.is("require") {
				p.next()
				if p.expect(tOpenParen) && p.l.tok == tString {
					n.X = p.node(JSString, p.l.start)
					n.X.Name = p.stringValue()
					n.Name = n.X.Name
					p.next()
					p.fin(n.X)
				}
				p.expect(tCloseParen)
			} else {
				for p.l.isIdentOrKeyword() && !p.failed() {
					p.next()
					if p.l.tok != tDot {
						break
					}
					p.next()
				}
			}
			n.List = append(n.List, p.fin(sp))
			p.cSemi()
			return p.fin(n)
		}
		n.List = append(n.List, p.fin(sp))
		if p.l.tok == tComma {
			p.next()
		}
	}
	switch p.l.tok {
	case tAsterisk:
		sp := p.node(JSSpecifier, p.l.start)
		sp.Name = "*"
		p.next()
		if !p.l.is("as") {
			p.fail(p.l.start, `Expected "as" but found `+p.tokenDesc())
			return n
		}
		p.next()
		sp.Y = p.cLocalIdent()
		sp.Local = sp.Y.Name
		n.List = append(n.List, p.fin(sp))
	case tOpenBrace:
		n.List = append(n.List, p.cSpecifiers(true)...)
	}
	p.cSource(n)
	if n.Y != nil {
		n.X, n.Y = n.Y, nil
		n.Name = n.X.Name
	}
	p.cSemi()
	return p.fin(n)
}

func (p *parser) cExport(start int) *JSNode {
	n := p.node(JSExport, start)
	p.next() // export
	switch p.l.tok {
	case tDefault:
		n.Flags |= FlagDefault
		p.next()
		dstart := p.l.start
		switch {
		case p.l.tok == tFunction:
			n.X = p.cFunction(dstart, true, false)
			n.X.Flags &^= FlagDecl
			if n.X.X != nil {
				n.X.Flags |= FlagDecl
			}
		case p.l.tok == tClass || p.l.tok == tAt:
			ds := p.skipDecorators()
			n.X = p.decorated(p.cClass(dstart, n.X == nil), ds)
			if n.X.X == nil {
				n.X.Flags &^= FlagDecl
			}
		case p.l.is("async") && p.peekIs(tFunction):
			p.next()
			n.X = p.cFunction(dstart, true, true)
			if n.X.X == nil {
				n.X.Flags &^= FlagDecl
			}
		case p.ts && p.l.is("abstract") && p.peekIs(tClass):
			p.next()
			n.X = p.cClass(dstart, true)
		case p.ts && p.l.is("interface") && p.peekIs(tIdent):
			// As esbuild reads it, the name may be on the next line.
			n.X = p.cTypeStmt(dstart, "interface", "")
		default:
			n.X = p.cExpr(lComma)
			p.cSemi()
		}
		return p.fin(n)
	case tAsterisk:
		n.Flags |= FlagStar
		p.next()
		if p.l.is("as") {
			p.next()
			n.Name, n.NameLoc = p.cModuleName()
		}
		p.cSource(n)
		p.cSemi()
		return p.fin(n)
	case tOpenBrace:
		n.List = p.cSpecifiers(false)
		if p.l.is("from") {
			p.cSource(n)
			for _, sp := range n.List {
				sp.Y = nil // a re-export names no local binding
			}
		}
		p.cSemi()
		return p.fin(n)
	case tEquals:
		p.next()
		n.X = p.cExpr(lLowest)
		p.cSemi()
		return p.fin(n)
	case tImport:
		n.X = p.cImport(p.l.start)
		return p.fin(n)
	case tIdent:
		switch {
		case p.l.is("as"):
			// export as namespace X
			t := p.node(JSTypeDecl, start)
			p.next()
			p.next()
			p.next()
			p.cSemi()
			return p.fin(t)
		case p.l.is("type") && (p.peekIs(tOpenBrace) || p.peekIs(tAsterisk)):
			n.Flags |= FlagType
			p.next()
			if p.l.tok == tAsterisk {
				p.next()
				if p.l.is("as") {
					p.next()
					n.Name, n.NameLoc = p.cModuleName()
				}
				n.Flags |= FlagStar
			} else {
				n.List = p.cSpecifiers(false)
			}
			if p.l.is("from") {
				p.cSource(n)
				for _, sp := range n.List {
					sp.Y = nil
				}
			}
			p.cSemi()
			return p.fin(n)
		}
	}
	n.X = p.cStmt()
	return p.fin(n)
}

// ---- functions and classes ----

// cFunction reads `function [*] [name] (params) [: type] { body }` from the
// `function` keyword (async already read when async).
func (p *parser) cFunction(start int, decl, async bool) *JSNode {
	n := p.node(JSFunction, start)
	if decl {
		n.Flags |= FlagDecl
	}
	if async {
		n.Flags |= FlagAsync
	}
	p.next() // function
	if p.l.tok == tAsterisk {
		n.Flags |= FlagGenerator
		p.next()
	}
	if p.l.tok == tIdent {
		id := p.cLocalIdent()
		n.X, n.Name = id, id.Name
	}
	p.cFnRest(n)
	if n.Y == nil && p.l.tok != tOpenBrace && (p.ts || n.X != nil) {
		// An overload signature or a declaration without a body.
		p.cSemi()
	}
	return p.fin(n)
}

// cFnRest reads type parameters, parameters, return type and body into n.
func (p *parser) cFnRest(n *JSNode) {
	if p.ts {
		p.skipTypeParams()
	}
	savedGen := p.code.inGen
	p.code.inGen = n.Has(FlagGenerator)
	defer func() { p.code.inGen = savedGen }()
	n.List = p.cParams()
	if p.ts && p.l.tok == tColon {
		p.next()
		p.skipReturnType()
	}
	if p.l.tok == tOpenBrace {
		n.Y = p.cFnBody()
	} else if !p.ts {
		p.expect(tOpenBrace)
	}
}

func (p *parser) cFnBody() *JSNode {
	savedNoIn := p.code.ctx
	p.code.ctx = exprCtx{}
	b := p.cBlock()
	p.code.ctx = savedNoIn
	return b
}

// cParams reads a parameter list from "(".
func (p *parser) cParams() []*JSNode {
	var out []*JSNode
	if !p.expect(tOpenParen) {
		return nil
	}
	savedNoIn := p.code.ctx
	p.code.ctx = exprCtx{}
	defer func() { p.code.ctx = savedNoIn }()
	for p.l.tok != tCloseParen && !p.failed() {
		if p.l.tok == tAt {
			p.skipDecorators()
		}
		if p.ts {
			for p.l.tok == tIdent && !p.l.esc {
				switch p.l.raw() {
				case "public", "private", "protected", "readonly", "override":
					if t, _, _ := p.peekTok(); t == tIdent || t == tOpenBrace || t == tOpenBracket || t.isReserved() && t != tIn {
						p.next()
						continue
					}
				}
				break
			}
			if p.l.tok == tThis {
				// `this: Window`: a type, not a parameter.
				p.next()
				if p.l.tok == tColon {
					p.next()
					p.skipType(lLowest)
				}
				if p.l.tok != tComma {
					break
				}
				p.next()
				continue
			}
		}
		start := p.l.start
		var param *JSNode
		if p.l.tok == tDotDotDot {
			param = p.node(JSSpread, start)
			p.next()
			param.X = p.cBinding()
		} else {
			param = p.cBinding()
		}
		if p.ts && p.l.tok == tQuestion {
			p.next()
		}
		if p.ts && p.l.tok == tColon {
			p.next()
			p.skipType(lLowest)
		}
		if param.Kind == JSSpread {
			p.fin(param)
		}
		if p.l.tok == tEquals {
			d := p.node(JSDefault, start)
			p.next()
			d.X = param
			d.Y = p.cExpr(lComma)
			param = p.fin(d)
		}
		out = append(out, param)
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.expect(tCloseParen)
	return out
}

// cBinding reads a binding pattern: an identifier, {...} or [...].
func (p *parser) cBinding() *JSNode {
	if !p.enter() {
		p.leave()
		return p.cErr()
	}
	defer p.leave()
	start := p.l.start
	switch p.l.tok {
	case tOpenBrace:
		n := p.node(JSObject, start)
		p.next()
		for p.l.tok != tCloseBrace && !p.failed() {
			if p.l.tok == tDotDotDot {
				s := p.node(JSSpread, p.l.start)
				p.next()
				s.X = p.cBinding()
				n.List = append(n.List, p.fin(s))
			} else {
				pr := p.node(JSProperty, p.l.start)
				shorthand := p.cKey(pr)
				if shorthand && p.l.tok != tColon {
					pr.Op = "shorthand"
					id := p.node(JSIdent, pr.NameLoc.Start)
					id.Name, id.Loc = pr.Name, pr.NameLoc
					pr.Y = id
				} else {
					p.expect(tColon)
					pr.Y = p.cBinding()
				}
				if p.l.tok == tEquals {
					d := p.node(JSDefault, pr.Y.Loc.Start)
					p.next()
					d.X = pr.Y
					d.Y = p.cExpr(lComma)
					pr.Y = p.fin(d)
				}
				n.List = append(n.List, p.fin(pr))
			}
			if p.l.tok != tComma {
				break
			}
			p.next()
		}
		p.expect(tCloseBrace)
		return p.fin(n)
	case tOpenBracket:
		n := p.node(JSArray, start)
		p.next()
		for p.l.tok != tCloseBracket && !p.failed() {
			if p.l.tok == tComma {
				n.List = append(n.List, nil)
				p.next()
				continue
			}
			var el *JSNode
			if p.l.tok == tDotDotDot {
				el = p.node(JSSpread, p.l.start)
				p.next()
				el.X = p.cBinding()
				p.fin(el)
			} else {
				el = p.cBinding()
				if p.l.tok == tEquals {
					d := p.node(JSDefault, el.Loc.Start)
					p.next()
					d.X = el
					d.Y = p.cExpr(lComma)
					el = p.fin(d)
				}
			}
			n.List = append(n.List, el)
			if p.l.tok != tComma {
				break
			}
			p.next()
		}
		p.expect(tCloseBracket)
		return p.fin(n)
	case tIdent:
		return p.cLocalIdent()
	}
	if p.l.tok.isReserved() && (p.l.tok == tThis) {
		p.unexpected()
		return p.cErr()
	}
	p.expect(tIdent)
	return p.cErr()
}

// cKey reads a property key into pr (Name, NameLoc, or X for a computed
// key) and reports whether it may be a shorthand (an identifier).
func (p *parser) cKey(pr *JSNode) bool {
	start := p.l.start
	switch p.l.tok {
	case tString:
		pr.Name = p.stringValue()
		p.next()
	case tNumber:
		pr.Name = formatNumber(parseNumber(p.l.raw()))
		p.next()
	case tBigInt:
		pr.Name = bigIntKey(p.l.raw())
		p.next()
	case tOpenBracket:
		pr.Flags |= FlagComputed
		p.next()
		saved := p.code.ctx
		p.code.ctx = exprCtx{}
		pr.X = p.cExpr(lComma)
		p.code.ctx = saved
		p.expect(tCloseBracket)
	case tPrivate:
		pr.Name = p.l.raw()
		p.next()
	default:
		if !p.l.isIdentOrKeyword() {
			p.unexpected()
			return false
		}
		pr.Name = p.l.raw()
		if p.l.esc {
			pr.Name = decodeIdent(pr.Name)
		}
		ident := p.l.tok == tIdent
		p.next()
		pr.NameLoc = Span{start, p.l.prevEnd}
		return ident
	}
	pr.NameLoc = Span{start, p.l.prevEnd}
	return false
}

// cMethod reads a method's parameters and body as a JSFunction.
func (p *parser) cMethod(start int, async, gen bool) *JSNode {
	fn := p.node(JSFunction, start)
	if async {
		fn.Flags |= FlagAsync
	}
	if gen {
		fn.Flags |= FlagGenerator
	}
	p.cFnRest(fn)
	if fn.Y == nil {
		p.cSemi()
	}
	return p.fin(fn)
}

// modifierFollows reports whether the token after a modifier word makes it
// a modifier (`static x`, `get x()`) rather than a member named so.
func (p *parser) modifierFollows() bool {
	t, nl, _ := p.peekTok()
	switch t {
	case tIdent, tString, tNumber, tBigInt, tOpenBracket, tPrivate, tAsterisk, tOpenBrace:
		return !nl || t != tOpenBrace
	}
	return t.isReserved() && !nl
}

func (p *parser) cClass(start int, decl bool) *JSNode {
	n := p.node(JSClass, start)
	if decl {
		n.Flags |= FlagDecl
	}
	p.next() // class
	if p.l.tok == tIdent && !p.l.is("implements") {
		id := p.cLocalIdent()
		n.X, n.Name = id, id.Name
	}
	if p.ts {
		p.skipTypeParams()
	}
	if p.l.tok == tExtends {
		p.next()
		n.Y = p.cExpr(lNew)
		if p.ts {
			p.skipTypeArgs(false)
		}
	}
	if p.ts && p.l.is("implements") {
		p.next()
		p.skipTypeList()
	}
	if !p.expect(tOpenBrace) {
		return n
	}
	for p.l.tok != tCloseBrace && !p.failed() {
		if p.l.tok == tSemicolon {
			p.next()
			continue
		}
		if m := p.cMember(); m != nil {
			n.List = append(n.List, m)
		}
	}
	p.expect(tCloseBrace)
	return p.fin(n)
}

func (p *parser) cMember() *JSNode {
	if p.l.tok == tAt {
		p.skipDecorators()
	}
	start := p.l.start
	pr := p.node(JSProperty, start)
	async, gen, abstract := false, false, false
	kind := ""
	for p.l.tok == tIdent && !p.l.esc && !p.failed() {
		word := p.l.raw()
		switch word {
		case "static", "public", "private", "protected", "readonly", "abstract", "override", "declare", "accessor", "async", "get", "set":
		default:
			word = ""
		}
		if word == "" || !p.modifierFollows() {
			break
		}
		switch word {
		case "static":
			pr.Flags |= FlagStatic
			if t, _, _ := p.peekTok(); t == tOpenBrace {
				p.next()
				b := p.cBlock()
				b.Loc.Start = start
				return b
			}
		case "abstract", "declare":
			abstract = true
		case "async":
			async = true
		case "get", "set":
			kind = word
		}
		p.next()
	}
	if p.l.tok == tAsterisk {
		gen = true
		p.next()
	}
	// TypeScript index signature: [key: string]: T
	if p.ts && p.l.tok == tOpenBracket {
		s := p.save()
		p.next()
		if p.l.tok == tIdent {
			p.next()
			if p.l.tok == tColon {
				p.restore(s)
				t := p.node(JSTypeDecl, start)
				p.skipBalanced(false)
				if p.l.tok == tColon {
					p.next()
					p.skipType(lLowest)
				}
				p.cSemi()
				return p.fin(t)
			}
		}
		p.restore(s)
	}
	p.cKey(pr)
	if p.ts && (p.l.tok == tQuestion || p.l.tok == tExclamation) {
		p.next()
	}
	if p.l.tok == tOpenParen || p.l.tok == tLessThan {
		pr.Op = "method"
		if kind != "" {
			pr.Op = kind
		}
		pr.Y = p.cMethod(p.l.start, async, gen)
		if abstract || pr.Y.Y == nil {
			pr.Kind = JSTypeDecl
			pr.Y = nil
		}
		return p.fin(pr)
	}
	if p.ts && p.l.tok == tColon {
		p.next()
		p.skipType(lLowest)
	}
	if p.l.tok == tEquals {
		p.next()
		pr.Y = p.cExpr(lComma)
	}
	p.fin(pr)
	p.cSemi()
	if abstract {
		pr.Kind = JSTypeDecl
		pr.Y, pr.X = nil, nil
	}
	return pr
}

// ---- expressions ----

func (p *parser) cExpr(lv level) *JSNode {
	if !p.enter() {
		p.leave()
		return p.cErr()
	}
	start := p.l.start
	left := p.cPrefix(lv)
	left = p.cSuffix(left, lv, start)
	p.leave()
	return left
}

func (p *parser) cIdentNode() *JSNode {
	return p.cLocalIdent()
}

func (p *parser) cPrefix(lv level) *JSNode {
	start := p.l.start
	switch p.l.tok {
	case tThis, tSuper:
		k := JSThis
		if p.l.tok == tSuper {
			k = JSSuper
		}
		n := p.node(k, start)
		p.next()
		return p.fin(n)
	case tNull:
		n := p.node(JSNull, start)
		p.next()
		return p.fin(n)
	case tTrue, tFalse:
		n := p.node(JSBool, start)
		n.Name = p.l.raw()
		p.next()
		return p.fin(n)
	case tString:
		n := p.node(JSString, start)
		n.Name = p.stringValue()
		p.next()
		return p.fin(n)
	case tNumber, tBigInt:
		n := p.node(JSNumber, start)
		n.Name = p.l.raw()
		p.next()
		return p.fin(n)
	case tNoSubTemplate, tTemplateHead:
		return p.cTemplate(nil, start)
	case tSlash, tSlashEquals:
		p.l.rescanRegExp()
		if p.failed() {
			return p.cErr()
		}
		n := p.node(JSRegExp, start)
		n.Name = p.l.raw()
		p.next()
		return p.fin(n)
	case tPrivate:
		n := p.node(JSMeta, start)
		n.Name = p.l.raw()
		p.next()
		if p.l.tok != tIn {
			p.unexpected()
		}
		return p.fin(n)
	case tOpenParen:
		if lv <= lAssign && !p.code.notArrow[start] {
			if fn := p.cTryArrow(start, false); fn != nil {
				return fn
			}
		}
		p.next()
		saved := p.code.ctx
		p.code.ctx = exprCtx{}
		x := p.cExpr(lLowest)
		p.code.ctx = saved
		p.expect(tCloseParen)
		p.wrapped(x, HintParen, start)
		return x
	case tOpenBracket:
		return p.cArray()
	case tOpenBrace:
		return p.cObject()
	case tExclamation, tTilde, tPlus, tMinus, tTypeof, tVoid, tDelete:
		n := p.node(JSUnary, start)
		n.Op = p.l.raw()
		p.next()
		n.X = p.cExpr(lPrefix)
		return p.fin(n)
	case tPlusPlus, tMinusMinus:
		n := p.node(JSUpdate, start)
		n.Op = p.l.raw()
		n.Flags |= FlagPrefix
		p.next()
		n.X = p.cExpr(lPrefix)
		return p.fin(n)
	case tFunction:
		return p.cFunction(start, false, false)
	case tClass:
		return p.cClass(start, false)
	case tAt:
		ds := p.skipDecorators()
		if p.l.tok != tClass {
			p.expect(tClass)
			return p.cErr()
		}
		return p.decorated(p.cClass(start, false), ds)
	case tNew:
		p.next()
		if p.l.tok == tDot {
			p.next()
			if !p.l.is("target") {
				p.unexpected()
			}
			p.next()
			n := p.node(JSMeta, start)
			n.Name = "new.target"
			return p.fin(n)
		}
		n := p.node(JSNew, start)
		cs := p.l.start
		// `new new new X`: the target recurses without cExpr, which
		// would count the level.
		if !p.enter() {
			p.leave()
			return p.cErr()
		}
		n.X = p.cSuffix(p.cPrefix(lMember), lMember, cs)
		p.leave()
		if p.ts && (p.l.tok == tLessThan || p.l.tok == tLessThanLessThan) {
			p.trySkipTypeArgsInExpr()
		}
		if p.l.tok == tOpenParen {
			n.List = p.cArgs()
		}
		return p.fin(n)
	case tImport:
		p.next()
		if p.l.tok == tDot {
			p.next()
			if p.l.is("meta") {
				p.next()
				n := p.node(JSMeta, start)
				n.Name = "import.meta"
				return p.fin(n)
			}
			if !p.l.is("defer") && !p.l.is("source") {
				p.unexpected()
				return p.cErr()
			}
			p.next()
		}
		callee := p.node(JSMeta, start)
		callee.Name = "import"
		p.fin(callee)
		if p.l.tok != tOpenParen {
			p.expect(tOpenParen)
			return p.cErr()
		}
		n := p.node(JSCall, start)
		n.X = callee
		n.List = p.cArgs()
		return p.fin(n)
	case tLessThan:
		if p.code.jsx {
			if p.ts && p.tsxTypeParams() {
				s := p.save()
				p.skipTypeParams()
				if p.l.tok == tOpenParen {
					if fn := p.cTryArrow(start, false); fn != nil {
						return fn
					}
				}
				p.restore(s)
				p.unexpected()
				return p.cErr()
			}
			return p.cJSX()
		}
		if !p.ts {
			p.unexpected()
			return p.cErr()
		}
		// <T>(x) => x
		s := p.save()
		if p.skipTypeParams() != noTypeParams && !p.failed() && p.l.tok == tOpenParen {
			if fn := p.cTryArrow(start, false); fn != nil {
				fn.Loc.Start = start
				return fn
			}
		}
		if p.fatal {
			return p.cErr()
		}
		p.restore(s)
		// <T>x
		if !p.enter() {
			p.leave()
			return p.cErr()
		}
		p.next()
		p.skipType(lLowest)
		p.expectGreaterThan()
		x := p.cPrefix(lv)
		p.leave()
		p.wrapped(x, HintTypeAssert, start)
		return x
	case tIdent:
		raw := p.l.raw()
		esc := p.l.esc
		if !esc {
			switch raw {
			case "async":
				if n := p.cAsync(start, lv); n != nil {
					return n
				}
			case "await":
				s := p.save()
				p.next()
				if p.startsExpression() && !(p.l.tok == tOpenParen && p.l.nl) && p.l.tok != tIn && !(p.l.tok == tLessThan && !p.ts) {
					n := p.node(JSAwait, start)
					n.X = p.cExpr(lPrefix)
					return p.fin(n)
				}
				p.restore(s)
			case "yield":
				if p.code.inGen {
					n := p.node(JSYield, start)
					p.next()
					if p.l.tok == tAsterisk && !p.l.nl {
						n.Flags |= FlagDelegate
						p.next()
						n.X = p.cExpr(lYield)
					} else if !p.l.nl && p.startsExpression() {
						n.X = p.cExpr(lYield)
					}
					return p.fin(n)
				}
			}
		}
		id := p.cIdentNode()
		if p.l.tok == tArrow && lv <= lAssign {
			return p.cArrowBody(start, []*JSNode{id}, false)
		}
		return id
	}
	p.unexpected()
	return p.cErr()
}

// tsxTypeParams reports whether "<" in a .tsx file opens type parameters
// (`<T,>(x) => x`, `<T extends U>(x) => x`) rather than a JSX element.
func (p *parser) tsxTypeParams() bool {
	s := p.save()
	defer p.restore(s)
	p.next()
	if p.l.tok == tConst {
		p.next()
	}
	if p.l.tok != tIdent {
		return false
	}
	p.next()
	return p.l.tok == tComma || p.l.tok == tExtends
}

func (p *parser) cAsync(start int, lv level) *JSNode {
	t, nl, _ := p.peekTok()
	if nl {
		return nil
	}
	switch t {
	case tFunction:
		p.next()
		return p.cFunction(start, false, true)
	case tIdent:
		if lv > lAssign {
			return nil
		}
		s := p.save()
		p.next()
		id := p.cLocalIdent()
		if p.l.tok == tArrow {
			return p.cArrowBody(start, []*JSNode{id}, true)
		}
		p.restore(s)
	case tOpenParen:
		if lv > lAssign {
			return nil
		}
		s := p.save()
		p.next()
		if !p.code.notArrow[p.l.start] {
			if fn := p.cTryArrow(start, true); fn != nil {
				return fn
			}
		}
		p.restore(s)
	case tLessThan:
		if p.ts && lv <= lAssign {
			s := p.save()
			p.next()
			if p.skipTypeParams() != noTypeParams && !p.failed() && p.l.tok == tOpenParen {
				if fn := p.cTryArrow(start, true); fn != nil {
					return fn
				}
			}
			if p.fatal {
				return p.cErr()
			}
			p.restore(s)
		}
	}
	return nil
}

// cTryArrow reads arrow parameters from the current "(" and the arrow
// after them; it returns nil (with the parser where it was) when they are
// not an arrow's. A failure is remembered by position, so that nested
// parentheses are tried once each.
func (p *parser) cTryArrow(start int, async bool) *JSNode {
	open := p.l.start
	s := p.save()
	afterQ := p.code.ctx.afterQ
	params := p.cParams()
	if !p.failed() && p.ts && p.l.tok == tColon {
		if afterQ {
			// `a ? (b) : c => d`: TypeScript takes `(b): c => d` for an
			// arrow only if a ":" follows its body.
			s2 := p.save()
			p.next()
			p.skipReturnType()
			if !p.failed() && p.l.tok == tArrow && !p.l.nl {
				fn := p.cArrowBody(start, params, async)
				if !p.failed() && p.l.tok == tColon {
					return fn
				}
			}
			if p.fatal {
				return p.cErr()
			}
			p.restore(s2)
		} else {
			p.next()
			p.skipReturnType()
		}
	}
	if p.failed() || p.l.tok != tArrow || p.l.nl {
		if p.fatal {
			return p.cErr()
		}
		p.restore(s)
		if p.code.notArrow == nil {
			p.code.notArrow = make(map[int]bool)
		}
		p.code.notArrow[open] = true
		return nil
	}
	return p.cArrowBody(start, params, async)
}

func (p *parser) cArrowBody(start int, params []*JSNode, async bool) *JSNode {
	n := p.node(JSArrow, start)
	n.List = params
	if async {
		n.Flags |= FlagAsync
	}
	if p.l.nl {
		p.fail(p.l.start, `Unexpected newline before "=>"`)
		return n
	}
	p.expect(tArrow)
	savedGen := p.code.inGen
	p.code.inGen = false
	if p.l.tok == tOpenBrace {
		n.Y = p.cFnBody()
	} else {
		n.Flags |= FlagExprBody
		n.Y = p.cExpr(lComma)
	}
	p.code.inGen = savedGen
	return p.fin(n)
}

func (p *parser) cArgs() []*JSNode {
	p.next() // (
	saved := p.code.ctx
	p.code.ctx = exprCtx{}
	var args []*JSNode
	for p.l.tok != tCloseParen && !p.failed() {
		if p.l.tok == tDotDotDot {
			s := p.node(JSSpread, p.l.start)
			p.next()
			s.X = p.cExpr(lComma)
			args = append(args, p.fin(s))
		} else {
			args = append(args, p.cExpr(lComma))
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.code.ctx = saved
	p.expect(tCloseParen)
	return args
}

func (p *parser) cTemplate(tag *JSNode, start int) *JSNode {
	n := p.node(JSTemplate, start)
	n.X = tag
	if p.l.tok == tNoSubTemplate {
		n.Name, _ = p.templateValue(p.l.start+1, p.l.end-1)
		p.next()
		return p.fin(n)
	}
	saved := p.code.ctx
	p.code.ctx = exprCtx{}
	for !p.failed() {
		p.next()
		n.List = append(n.List, p.cExpr(lLowest))
		if p.l.tok != tCloseBrace {
			p.expect(tCloseBrace)
			break
		}
		p.l.rescanTemplate()
		if p.l.tok == tTemplateTail {
			p.next()
			break
		}
		if p.l.tok != tTemplateMiddle {
			p.unexpected()
			break
		}
	}
	p.code.ctx = saved
	return p.fin(n)
}

func (p *parser) cArray() *JSNode {
	n := p.node(JSArray, p.l.start)
	p.next()
	saved := p.code.ctx
	p.code.ctx = exprCtx{}
	for p.l.tok != tCloseBracket && !p.failed() {
		if p.l.tok == tComma {
			n.List = append(n.List, nil)
			p.next()
			continue
		}
		if p.l.tok == tDotDotDot {
			s := p.node(JSSpread, p.l.start)
			p.next()
			s.X = p.cExpr(lComma)
			n.List = append(n.List, p.fin(s))
		} else {
			n.List = append(n.List, p.cExpr(lComma))
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.code.ctx = saved
	p.expect(tCloseBracket)
	return p.fin(n)
}

func (p *parser) cObject() *JSNode {
	n := p.node(JSObject, p.l.start)
	p.next()
	saved := p.code.ctx
	p.code.ctx = exprCtx{}
	for p.l.tok != tCloseBrace && !p.failed() {
		if p.l.tok == tDotDotDot {
			s := p.node(JSSpread, p.l.start)
			p.next()
			s.X = p.cExpr(lComma)
			n.List = append(n.List, p.fin(s))
		} else {
			n.List = append(n.List, p.cProperty())
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.code.ctx = saved
	p.expect(tCloseBrace)
	return p.fin(n)
}

func (p *parser) cProperty() *JSNode {
	pr := p.node(JSProperty, p.l.start)
	async, gen := false, false
	kind := ""
	for p.l.tok == tIdent && !p.l.esc && !gen {
		word := p.l.raw()
		if word != "get" && word != "set" && word != "async" || !p.modifierFollows() || kind != "" || async {
			break
		}
		if t, nl, _ := p.peekTok(); word == "async" && (nl || t == tOpenBrace) || word != "async" && t == tAsterisk || t == tOpenBrace {
			break
		}
		if word == "async" {
			async = true
		} else {
			kind = word
		}
		p.next()
	}
	if p.l.tok == tAsterisk {
		gen = true
		p.next()
	}
	ident := p.cKey(pr)
	if kind == "" && !async && !gen && ident && p.l.tok != tColon && p.l.tok != tOpenParen && p.l.tok != tLessThan {
		pr.Op = "shorthand"
		id := p.node(JSIdent, pr.NameLoc.Start)
		id.Name, id.Loc = pr.Name, pr.NameLoc
		pr.Y = id
		if p.l.tok == tEquals {
			// `{ a = 1 }`: only valid as a pattern.
			d := p.node(JSDefault, id.Loc.Start)
			p.next()
			d.X = id
			d.Y = p.cExpr(lComma)
			pr.Y = p.fin(d)
		}
		return p.fin(pr)
	}
	if kind != "" || async || gen || p.l.tok == tOpenParen || p.l.tok == tLessThan {
		pr.Op = "method"
		if kind != "" {
			pr.Op = kind
		}
		pr.Y = p.cMethod(p.l.start, async, gen)
		return p.fin(pr)
	}
	p.expect(tColon)
	pr.Y = p.cExpr(lComma)
	return p.fin(pr)
}

// toPattern turns an expression read before "=" or "of" into the pattern
// it is: `a = 1` inside it becomes a default.
func toPattern(n *JSNode) *JSNode {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case JSArray:
		for i, el := range n.List {
			n.List[i] = toPattern(el)
		}
	case JSObject:
		for _, pr := range n.List {
			if pr.Kind == JSProperty {
				pr.Y = toPattern(pr.Y)
			} else {
				toPattern(pr)
			}
		}
	case JSSpread:
		n.X = toPattern(n.X)
	case JSAssign:
		if n.Op == "=" {
			n.Kind = JSDefault
			n.Op = ""
			n.X = toPattern(n.X)
		}
	case JSDefault:
		n.X = toPattern(n.X)
	}
	return n
}

var binaryLevels = [...]struct {
	tok token
	lv  level
}{
	{tQuestionQuestion, lNullish}, {tBarBar, lLogicalOr}, {tAmpersandAmpersand, lLogicalAnd},
	{tBar, lBitOr}, {tCaret, lBitXor}, {tAmpersand, lBitAnd},
	{tEqualsEquals, lEquals}, {tExclamationEquals, lEquals}, {tEqualsEqualsEquals, lEquals}, {tExclamationEqualsEquals, lEquals},
	{tLessThan, lCompare}, {tLessThanEquals, lCompare}, {tGreaterThan, lCompare}, {tGreaterThanEquals, lCompare},
	{tIn, lCompare}, {tInstanceof, lCompare},
	{tLessThanLessThan, lShift}, {tGreaterThanGreaterThan, lShift}, {tGreaterThanGreaterThanGreaterThan, lShift},
	{tPlus, lAdd}, {tMinus, lAdd}, {tAsterisk, lMultiply}, {tSlash, lMultiply}, {tPercent, lMultiply},
	{tAsteriskAsterisk, lExponent},
}

func binaryLevel(t token) level {
	for _, b := range binaryLevels {
		if b.tok == t {
			return b.lv
		}
	}
	return lLowest
}

func (p *parser) cSuffix(left *JSNode, lv level, start int) *JSNode {
	for !p.failed() {
		if left.Kind == JSArrow && left.Loc.Start == start {
			// Nothing but a comma continues an arrow function; one in
			// parentheses (it starts after start) is an operand like any
			// other: `(() => 1)()`, `(() => x) as T`, `(() => {}).call()`.
			if p.l.tok == tComma && lv < lComma {
				n := p.node(JSSeq, start)
				n.List = []*JSNode{left}
				for p.l.tok == tComma && !p.failed() {
					p.next()
					n.List = append(n.List, p.cExpr(lComma))
				}
				return p.fin(n)
			}
			return left
		}
		switch p.l.tok {
		case tDot:
			p.next()
			if p.l.tok != tPrivate && !p.l.isIdentOrKeyword() {
				p.expect(tIdent)
				return left
			}
			n := p.node(JSMember, start)
			n.X = left
			n.Name = p.l.raw()
			n.NameLoc = Span{p.l.start, p.l.end}
			p.next()
			left = p.fin(n)
		case tQuestionDot:
			p.next()
			switch p.l.tok {
			case tOpenBracket:
				n := p.node(JSMember, start)
				n.Flags |= FlagOptional | FlagComputed
				n.X = left
				p.next()
				n.Y = p.cExpr(lLowest)
				p.expect(tCloseBracket)
				left = p.fin(n)
			case tOpenParen:
				n := p.node(JSCall, start)
				n.Flags |= FlagOptional
				n.X = left
				n.List = p.cArgs()
				left = p.fin(n)
			case tLessThan, tLessThanLessThan:
				if !p.ts {
					p.expect(tIdent)
					return left
				}
				p.skipTypeArgs(false)
				if p.l.tok != tOpenParen {
					p.expect(tOpenParen)
					return left
				}
				n := p.node(JSCall, start)
				n.Flags |= FlagOptional
				n.X = left
				n.List = p.cArgs()
				left = p.fin(n)
			default:
				if p.l.tok != tPrivate && !p.l.isIdentOrKeyword() {
					p.expect(tIdent)
					return left
				}
				n := p.node(JSMember, start)
				n.Flags |= FlagOptional
				n.X = left
				n.Name = p.l.raw()
				n.NameLoc = Span{p.l.start, p.l.end}
				p.next()
				left = p.fin(n)
			}
		case tNoSubTemplate, tTemplateHead:
			left = p.cTemplate(left, start)
		case tOpenBracket:
			if p.code.ctx.decorator {
				return left
			}
			n := p.node(JSMember, start)
			n.Flags |= FlagComputed
			n.X = left
			p.next()
			saved := p.code.ctx
			p.code.ctx = exprCtx{}
			n.Y = p.cExpr(lLowest)
			p.code.ctx = saved
			p.expect(tCloseBracket)
			left = p.fin(n)
		case tOpenParen:
			if lv >= lCall {
				return left
			}
			n := p.node(JSCall, start)
			n.X = left
			n.List = p.cArgs()
			left = p.fin(n)
		case tQuestion:
			if lv >= lConditional {
				return left
			}
			n := p.node(JSCond, start)
			n.X = left
			p.next()
			saved := p.code.ctx
			p.code.ctx = exprCtx{afterQ: true}
			n.Y = p.cExpr(lComma)
			p.code.ctx = saved
			p.expect(tColon)
			n.Z = p.cExpr(lComma)
			left = p.fin(n)
		case tExclamation:
			if p.l.nl || !p.ts {
				if !p.ts && !p.l.nl {
					p.unexpected()
				}
				return left
			}
			p.next()
			p.wrapped(left, HintNonNull, start)
		case tPlusPlus, tMinusMinus:
			if p.l.nl || lv >= lPostfix {
				return left
			}
			n := p.node(JSUpdate, start)
			n.Op = p.l.raw()
			n.X = left
			p.next()
			left = p.fin(n)
		case tComma:
			if lv >= lComma {
				return left
			}
			n := p.node(JSSeq, start)
			n.List = []*JSNode{left}
			for p.l.tok == tComma && !p.failed() {
				p.next()
				if p.l.tok == tCloseParen {
					break // `(a, b,)`: esbuild reads it; so do we
				}
				n.List = append(n.List, p.cExpr(lComma))
			}
			left = p.fin(n)
		case tLessThan, tLessThanLessThan:
			if p.ts && p.trySkipTypeArgsInExpr() {
				if p.l.tok != tOpenParen && p.l.tok != tNoSubTemplate && p.l.tok != tTemplateHead {
					p.wrapped(left, HintOther, start) // `f<T>`, an instantiation
				}
				continue
			}
			if !p.cBinary(&left, lv, start) {
				return left
			}
		case tIdent:
			if p.ts && lv < lCompare && !p.l.nl && (p.l.is("as") || p.l.is("satisfies")) {
				hint := HintAs
				if p.l.is("satisfies") {
					hint = HintSatisfies
				}
				p.next()
				p.skipType(lLowest)
				p.wrapped(left, hint, start)
				switch p.l.tok {
				case tPlusPlus, tMinusMinus, tNoSubTemplate, tTemplateHead, tOpenParen, tOpenBracket, tQuestionDot:
					return left
				}
				if p.l.tok.isAssign() {
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
				n := p.node(JSAssign, start)
				n.Op = p.l.raw()
				if n.Op == "=" {
					left = toPattern(left)
				}
				n.X = left
				p.next()
				n.Y = p.cExpr(lAssign - 1)
				left = p.fin(n)
				continue
			}
			if !p.cBinary(&left, lv, start) {
				return left
			}
		}
	}
	return left
}

// cBinary reads a binary operator and its right operand when the current
// token is one whose precedence is above lv.
func (p *parser) cBinary(left **JSNode, lv level, start int) bool {
	if p.l.tok == tIn && p.code.ctx.noIn {
		return false
	}
	opLevel := binaryLevel(p.l.tok)
	if opLevel == lLowest || lv >= opLevel {
		return false
	}
	right := opLevel
	if p.l.tok == tAsteriskAsterisk {
		right = lExponent - 1
	}
	n := p.node(JSBinary, start)
	n.Op = p.l.raw()
	n.X = *left
	p.next()
	n.Y = p.cExpr(right)
	*left = p.fin(n)
	return true
}
