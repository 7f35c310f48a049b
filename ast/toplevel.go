package ast

// This file scans the statements of a module just enough to find the
// exported config, the top-level variables it may be bound to, the imports
// that may provide it, and the statements that may mutate it.

func (p *parser) parseProgram() {
	p.next()
	for p.l.tok != tEOF && !p.failed() {
		before := p.l.start
		p.parseStatement(true)
		if p.l.start == before && !p.failed() && p.l.tok != tEOF {
			p.unexpected()
		}
	}
}

// semicolon consumes an optional ";" that ends a statement; top-level
// statements vote for Style.Semicolons.
func (p *parser) semicolon(top bool) {
	if p.l.tok == tSemicolon {
		p.next()
		if top {
			p.semiYes++
		}
		return
	}
	if top {
		p.semiNo++
	}
}

func (p *parser) parseStatement(top bool) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	start := p.l.start
	idx := len(p.stmts)
	decl := false
	switch p.l.tok {
	case tSemicolon:
		p.next()
		return
	case tImport:
		s := p.save()
		p.next()
		if p.l.tok == tOpenParen || p.l.tok == tDot {
			p.restore(s)
			p.exprStatement(top)
		} else {
			p.restore(s)
			p.parseImport(top)
		}
	case tExport:
		decl = p.parseExport(top, idx)
	case tVar, tConst:
		if p.l.tok == tConst && p.peekIs(tEnum) {
			p.next()
			p.skipEnum()
			decl = true
			break
		}
		p.parseVarDecl(top, idx)
	case tFunction:
		p.functionDecl(top, idx, start, false)
		decl = true
	case tClass:
		p.next()
		if p.l.tok == tIdent && !p.l.is("implements") {
			p.next()
		}
		p.skipClassTail()
		decl = true
	case tAt:
		p.skipDecorators()
		p.parseStatement(top)
		return
	case tEnum:
		p.skipEnum()
		decl = true
	case tIf:
		p.next()
		p.skipParenHead()
		p.parseStatement(false)
		if p.l.tok == tElse {
			p.next()
			p.parseStatement(false)
		}
	case tFor:
		p.next()
		if p.l.is("await") {
			p.next()
		}
		p.skipParenHead()
		p.parseStatement(false)
	case tWhile, tWith:
		p.next()
		p.skipParenHead()
		p.parseStatement(false)
	case tDo:
		p.next()
		p.parseStatement(false)
		p.expect(tWhile)
		p.skipParenHead()
		if p.l.tok == tSemicolon {
			p.next()
		}
	case tTry:
		p.next()
		p.skipBlock()
		if p.l.tok == tCatch {
			p.next()
			if p.l.tok == tOpenParen {
				p.skipBalanced(false)
			}
			p.skipBlock()
		}
		if p.l.tok == tFinally {
			p.next()
			p.skipBlock()
		}
	case tSwitch:
		p.next()
		p.skipParenHead()
		p.skipBlock()
	case tOpenBrace:
		p.skipBalanced(true)
	case tReturn, tThrow:
		// In a config function's body, a return directly in it is what the
		// function exports.
		ret := top && p.inBody && p.l.tok == tReturn
		p.next()
		if !p.l.nl && p.l.tok != tSemicolon && p.l.tok != tCloseBrace && p.l.tok != tEOF {
			if ret {
				p.setExport(ExportDefault, p.parseExpr(lLowest), idx)
			} else {
				p.skipExpr(lLowest)
			}
		}
		p.semicolon(false)
	case tBreak, tContinue:
		p.next()
		if p.l.tok == tIdent && !p.l.nl {
			p.next()
		}
		p.semicolon(false)
	case tDebugger:
		p.next()
		p.semicolon(false)
	case tIdent:
		decl = p.parseIdentStatement(top, idx)
	default:
		p.exprStatement(top)
	}
	if top {
		p.stmts = append(p.stmts, stmt{span: Span{start, p.l.prevEnd}, decl: decl})
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

// peekIdentSameLine reports whether the next token is an identifier (or a
// string, when str) on the same line: `type X`, `module 'x'`.
func (p *parser) peekIdentSameLine(str bool) bool {
	s := p.save()
	p.next()
	ok := !p.failed() && !p.l.nl && (p.l.tok == tIdent || str && p.l.tok == tString)
	p.restore(s)
	return ok
}

func (p *parser) exprStatement(top bool) {
	p.skipExpr(lLowest)
	p.semicolon(top)
}

func (p *parser) skipParenHead() {
	if p.l.tok != tOpenParen {
		p.expect(tOpenParen)
		return
	}
	p.skipBalanced(false)
}

func (p *parser) skipBlock() {
	if p.l.tok != tOpenBrace {
		p.expect(tOpenBrace)
		return
	}
	p.skipBalanced(true)
}

func (p *parser) skipFunction() {
	if !p.skipFnHead() {
		return
	}
	p.skipBalanced(false)
	if p.ts && p.l.tok == tColon {
		p.next()
		p.skipReturnType()
	}
	if p.l.tok == tOpenBrace {
		p.skipBalanced(true)
		return
	}
	p.semicolon(false) // an overload signature or a declare
}

// functionDecl skips a function declaration; at the top level, a named
// one with a body is parsed and bound to its name, so that `export default
// config` can find the config function `async function config() {...}`.
func (p *parser) functionDecl(top bool, idx, start int, async bool) {
	if top && !p.inBody {
		s := p.save()
		p.next() // function
		if p.l.tok == tAsterisk {
			p.next()
		}
		name := ""
		if p.l.tok == tIdent && !p.l.esc {
			name = p.l.raw()
		}
		p.restore(s)
		var fn Node
		if name != "" && p.try(func() bool { fn = p.parseFnExpr(start, async); return true }) {
			if p.bindings == nil {
				p.bindings = make(map[string]binding)
			}
			p.bindings[name] = binding{init: fn, stmt: idx}
			return
		}
	}
	p.skipFunction()
}

func (p *parser) skipEnum() {
	p.next() // enum
	if p.l.tok == tIdent {
		p.next()
	}
	p.skipBlock()
}

// parseIdentStatement handles statements that start with an identifier:
// contextual keywords, labels, module.exports, and expression statements.
// It reports whether the statement is a declaration.
func (p *parser) parseIdentStatement(top bool, idx int) bool {
	if p.l.esc {
		p.exprStatement(top)
		return false
	}
	switch p.l.raw() {
	case "let":
		s := p.save()
		p.next()
		if p.l.tok == tIdent || p.l.tok == tOpenBracket || p.l.tok == tOpenBrace {
			p.restore(s)
			p.parseVarDecl(top, idx)
			return false
		}
		p.restore(s)
	case "async":
		s := p.save()
		p.next()
		if p.l.tok == tFunction && !p.l.nl {
			p.functionDecl(top, idx, s.l.start, true)
			return true
		}
		p.restore(s)
	case "module":
		if !p.inBody && p.parseModuleExports(top, idx) {
			return false
		}
		if p.ts && p.peekIdentSameLine(true) {
			p.skipNamespace()
			return true
		}
	case "namespace":
		if p.ts && p.peekIdentSameLine(false) {
			p.skipNamespace()
			return true
		}
	case "global":
		if p.ts && p.peekIs(tOpenBrace) {
			p.next()
			p.skipBalanced(true)
			return true
		}
	case "type":
		if p.ts && p.peekIdentSameLine(false) {
			p.next()
			p.next()
			p.skipTypeParams()
			p.expect(tEquals)
			p.skipType(lLowest)
			p.semicolon(top)
			return true
		}
	case "interface":
		if p.ts && p.peekIdentSameLine(false) {
			p.next()
			p.next()
			p.skipTypeParams()
			if p.l.tok == tExtends {
				p.next()
				for !p.failed() {
					p.skipType(lLowest)
					if p.l.tok != tComma {
						break
					}
					p.next()
				}
			}
			p.skipObjectType()
			return true
		}
	case "declare":
		if p.ts {
			s := p.save()
			p.next()
			if !p.l.nl && (p.l.isIdentOrKeyword() || p.l.tok == tAt) {
				p.parseStatement(false)
				return true
			}
			p.restore(s)
		}
	case "abstract":
		if p.ts {
			s := p.save()
			p.next()
			if p.l.tok == tClass && !p.l.nl {
				p.parseStatement(false)
				return true
			}
			p.restore(s)
		}
	}
	// A label: `name: statement`
	s := p.save()
	p.next()
	if p.l.tok == tColon {
		p.next()
		p.parseStatement(false)
		return false
	}
	p.restore(s)
	p.exprStatement(top)
	return false
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
	p.semicolon(false)
}

// parseModuleExports parses `module.exports = value` when the statement is
// one, and reports whether it was.
func (p *parser) parseModuleExports(top bool, idx int) bool {
	s := p.save()
	p.next()
	if p.l.tok == tDot {
		p.next()
		if p.l.is("exports") {
			p.next()
			if p.l.tok == tEquals {
				p.next()
				v := p.parseExpr(lAssign - 1)
				p.setExport(ExportModuleExports, v, idx)
				if p.l.tok == tComma {
					// `module.exports = a, b`: the rest is another expression.
					p.next()
					p.skipExpr(lLowest)
				}
				p.semicolon(top)
				return true
			}
		}
	}
	p.restore(s)
	return false
}

func (p *parser) setExport(kind ExportKind, v Node, idx int) {
	p.exportVal = v
	p.exportKind = kind
	p.exportStmt = idx
	p.exportDecl = ""
}

func (p *parser) parseVarDecl(top bool, idx int) {
	p.next() // var, let, const
	for !p.failed() {
		switch p.l.tok {
		case tIdent:
			name := p.l.raw()
			if p.l.esc {
				name = decodeIdent(name)
			}
			p.next()
			if p.ts && p.l.tok == tExclamation && !p.l.nl {
				p.next()
			}
			if p.ts && p.l.tok == tColon {
				p.next()
				p.skipType(lLowest)
			}
			if p.l.tok == tEquals {
				p.next()
				init := p.parseExpr(lComma)
				if top {
					if p.bindings == nil {
						p.bindings = make(map[string]binding)
					}
					p.bindings[name] = binding{init: init, stmt: idx}
				}
			}
		case tOpenBrace, tOpenBracket:
			p.skipBalanced(false)
			if p.ts && p.l.tok == tColon {
				p.next()
				p.skipType(lLowest)
			}
			if p.l.tok == tEquals {
				p.next()
				p.skipExpr(lComma)
			}
		default:
			p.unexpected()
			return
		}
		if p.l.tok != tComma {
			break
		}
		p.next()
	}
	p.semicolon(top)
}

func (p *parser) skipImportAttrs() {
	if (p.l.tok == tWith || p.l.is("assert")) && !p.l.nl {
		p.next()
		if p.l.tok == tOpenBrace {
			p.skipBalanced(false)
		}
	}
}

func (p *parser) addImport(local, module string) {
	if p.imports == nil {
		p.imports = make(map[string]string)
	}
	p.imports[local] = module
}

// parseImport parses an import declaration and records its local names.
func (p *parser) parseImport(top bool) {
	p.next() // import
	if p.l.tok == tString {
		p.next()
		p.skipImportAttrs()
		p.semicolon(top)
		return
	}
	if p.ts && p.l.is("type") {
		s := p.save()
		p.next()
		if !(p.l.tok == tOpenBrace || p.l.tok == tAsterisk || p.l.tok == tIdent && !p.l.is("from")) {
			p.restore(s)
		}
	}
	var locals []string
	if p.l.tok == tIdent {
		name := p.l.raw()
		p.next()
		if p.l.tok == tEquals {
			// TypeScript: import x = require('y'), import x = A.B
			p.next()
			module := ""
			if p.l.is("require") {
				p.next()
				if p.l.tok == tOpenParen {
					s := p.save()
					p.next()
					if p.l.tok == tString {
						module = p.stringValue()
					}
					p.restore(s)
					p.skipBalanced(false)
				}
			} else {
				for p.l.isIdentOrKeyword() && !p.failed() {
					p.next()
					if p.l.tok != tDot {
						break
					}
					p.next()
				}
			}
			p.addImport(name, module)
			p.semicolon(top)
			return
		}
		locals = append(locals, name)
		if p.l.tok == tComma {
			p.next()
		}
	}
	switch p.l.tok {
	case tAsterisk:
		p.next()
		if p.l.is("as") {
			p.next()
		}
		if p.l.tok == tIdent {
			locals = append(locals, p.l.raw())
			p.next()
		} else {
			p.expect(tIdent)
			return
		}
	case tOpenBrace:
		p.next()
		for p.l.tok != tCloseBrace && !p.failed() {
			if p.ts && p.l.is("type") {
				s := p.save()
				p.next()
				if !(p.l.isIdentOrKeyword() && !p.l.is("as") || p.l.tok == tString) {
					p.restore(s)
				}
			}
			if !p.l.isIdentOrKeyword() && p.l.tok != tString {
				p.expect(tIdent)
				return
			}
			local := p.l.raw()
			p.next()
			if p.l.is("as") {
				p.next()
				if !p.l.isIdentOrKeyword() {
					p.expect(tIdent)
					return
				}
				local = p.l.raw()
				p.next()
			}
			locals = append(locals, local)
			if p.l.tok != tComma {
				break
			}
			p.next()
		}
		p.expect(tCloseBrace)
	}
	if !p.l.is("from") {
		p.fail(p.l.start, `Expected "from" but found `+p.tokenDesc())
		return
	}
	p.next()
	if p.l.tok != tString {
		p.expect(tString)
		return
	}
	module := p.stringValue()
	p.next()
	p.skipImportAttrs()
	p.semicolon(top)
	for _, l := range locals {
		p.addImport(l, module)
	}
}

// parseExport parses an export declaration; it reports whether it is a
// declaration that runs nothing where it stands.
func (p *parser) parseExport(top bool, idx int) bool {
	p.next() // export
	switch p.l.tok {
	case tDefault:
		p.next()
		start := p.l.start
		var v Node
		switch {
		case p.l.tok == tFunction:
			v = p.parseFnExpr(start, false)
		case p.l.tok == tClass:
			v = p.parseClassExpr(start)
		case p.l.tok == tAt:
			p.skipDecorators()
			v = p.parseClassExpr(start)
		case p.l.is("async") && p.peekIs(tFunction):
			p.next()
			v = p.parseFnExpr(start, true)
		case p.ts && p.l.is("abstract") && p.peekIs(tClass):
			p.next()
			v = p.parseClassExpr(start)
		case p.ts && p.l.is("interface") && p.peekIdentSameLine(false):
			p.parseStatement(false)
			p.exportVal, p.exportKind, p.exportStmt, p.exportDecl = nil, ExportDefault, idx, "an interface"
			return true
		default:
			v = p.parseExpr(lComma)
			p.semicolon(top)
		}
		p.setExport(ExportDefault, v, idx)
		return false
	case tAsterisk:
		p.next()
		if p.l.is("as") {
			p.next()
			p.next() // the namespace name (identifier or string)
		}
		p.skipExportFrom(top)
	case tOpenBrace:
		p.skipBalanced(false)
		p.skipExportFrom(top)
	case tEquals:
		// TypeScript: export = value
		p.next()
		v := p.parseExpr(lLowest)
		p.semicolon(top)
		p.setExport(ExportModuleExports, v, idx)
	case tImport:
		p.parseImport(top)
	case tVar, tConst:
		if p.l.tok == tConst && p.peekIs(tEnum) {
			p.next()
			p.skipEnum()
			return true
		}
		p.parseVarDecl(top, idx)
	case tIdent:
		switch {
		case p.l.is("as"):
			// export as namespace X
			p.next()
			p.next()
			p.next()
			p.semicolon(top)
		case p.l.is("let"):
			p.parseVarDecl(top, idx)
		case p.l.is("type") && (p.peekIs(tOpenBrace) || p.peekIs(tAsterisk)):
			p.next()
			if p.l.tok == tAsterisk {
				p.next()
				if p.l.is("as") {
					p.next()
					p.next()
				}
			} else {
				p.skipBalanced(false)
			}
			p.skipExportFrom(top)
		default:
			p.parseStatement(false)
			return true
		}
	default:
		p.parseStatement(false)
		return true
	}
	return false
}

func (p *parser) skipExportFrom(top bool) {
	if p.l.is("from") {
		p.next()
		p.expect(tString)
		p.skipImportAttrs()
	}
	p.semicolon(top)
}
