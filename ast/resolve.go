package ast

import (
	"sort"
	"strings"
)

// defineName is the framework's config helper.
const defineName = "defineFwConfig"

// resolve finds the config object behind the exported value, through
// wrappers, defineFwConfig calls, top-level bindings and config functions.
func (p *parser) resolve() {
	f := p.f
	if p.exportVal == nil {
		switch {
		case p.exportDecl != "":
			f.Export = p.exportKind
			f.Reason = "the default export is " + p.exportDecl + ", not a config object"
			if p.exportStmt >= 0 && p.exportStmt < len(p.stmts) {
				f.ReasonSpan = p.stmts[p.exportStmt].span
			}
		case strings.TrimSpace(strings.TrimPrefix(p.text, "\uFEFF")) == "":
			f.Reason = "the file is empty: it has no `export default` or `module.exports =`"
		default:
			f.Reason = "no `export default` or `module.exports =` found"
		}
		return
	}
	f.Export = p.exportKind
	f.ExportSpan = p.exportVal.Span()
	f.ExportValue = p.exportVal
	p.resolveNode(p.exportVal, 0)
	if f.Config != nil && f.Binding != "" {
		p.findMutations()
	}
}

func (p *parser) notLiteral(n Node, reason string) {
	p.f.Config = nil
	p.f.Reason = reason
	p.f.ReasonSpan = n.Span()
}

func (p *parser) resolveNode(n Node, hops int) {
	f := p.f
	if hops > 8 {
		p.notLiteral(n, "the config goes through too many variables or calls to follow")
		return
	}
	n = Unwrap(n)
	switch n := n.(type) {
	case *Object:
		f.Config = n
	case *Ident:
		if b, ok := p.bindings[n.Name]; ok && b.init != nil {
			f.Binding = n.Name
			p.bindingStmt = b.stmt
			p.resolveNode(b.init, hops+1)
			return
		}
		if m, ok := p.imports[n.Name]; ok {
			p.notLiteral(n, "the config is `"+n.Name+"`, imported from '"+m+"': fwmigrate only reads the object literal in this file")
			return
		}
		p.notLiteral(n, "the config is `"+n.Name+"`, which is not a top-level variable initialised with an object literal")
	case *Expr:
		switch n.Hint {
		case HintCall:
			callee := p.text[n.Callee.Start:n.Callee.End]
			if callee == defineName {
				f.DefineCall = n.Loc
				if len(n.Args) == 0 {
					p.notLiteral(n, defineName+" is called without a config")
					return
				}
				p.resolveNode(n.Args[0], hops+1)
				return
			}
			p.notLiteral(n, "the config is the result of calling "+short(callee)+"(...), which fwmigrate does not evaluate")
		case HintArrow, HintFunction:
			info := p.fns[n]
			if info == nil {
				p.notLiteral(n, "the config is a function fwmigrate cannot read")
				return
			}
			if info.async {
				p.notLiteral(n, "the config is an async function: its result is only known at run time")
				return
			}
			if !info.block {
				p.resolveNode(info.expr, hops+1)
				return
			}
			rets := p.functionReturns(info.body)
			if len(rets.direct) != 1 || rets.bare > 0 || rets.nested > 0 {
				p.notLiteral(n, "the config is a function without a single `return` of an object literal")
				return
			}
			p.resolveNode(rets.direct[0], hops+1)
		case HintConditional:
			p.notLiteral(n, "the config is a conditional expression: which object it is depends on run time")
		default:
			p.notLiteral(n, "the config is "+article(n.Hint)+" expression, not an object literal")
		}
	default:
		p.notLiteral(n, "the config is "+article(n.Kind().String())+", not an object")
	}
}

func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func article(s string) string {
	if s != "" && strings.IndexByte("aeiou", s[0]) >= 0 {
		return "an " + s
	}
	return "a " + s
}

// lexerAt returns a lexer positioned at offset, reusing the comments already
// collected, and with the token at offset lexed.
func (p *parser) lexerAt(offset int) lexer {
	l := p.l
	l.pos, l.start, l.end, l.prevEnd = offset, offset, offset, offset
	l.errPos, l.errMsg = -1, ""
	l.rescan = true
	l.nComments = sort.Search(len(p.comments), func(i int) bool { return p.comments[i].Loc.Start >= offset })
	l.next()
	return l
}

// functionReturns scans a function body again and parses the values of the
// return statements directly in it.
func (p *parser) functionReturns(body Span) *returnsInfo {
	saved := p.save()
	p.l = p.lexerAt(body.Start)
	rets := &returnsInfo{}
	p.skipRegion(true, rets)
	if p.failed() {
		rets.direct = nil
		rets.nested++
	}
	p.restore(saved)
	return rets
}

// mutatingMethods are methods that change the object or array they are
// called on.
var mutatingMethods = map[string]bool{
	"push": true, "unshift": true, "splice": true, "pop": true, "shift": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true,
	"set": true, "add": true, "delete": true, "clear": true,
}

type scanTok struct {
	tok        token
	start, end int
}

// findMutations records the top-level statements after the config's
// declaration that assign to it, delete from it, call a mutating method on
// it or pass it to Object.assign.
func (p *parser) findMutations() {
	name := p.f.Binding
	for i := p.bindingStmt + 1; i < len(p.stmts); i++ {
		st := p.stmts[i]
		if i == p.exportStmt || st.decl {
			continue
		}
		if !strings.Contains(p.text[st.span.Start:st.span.End], name) {
			continue
		}
		if p.mutates(st.span, name) {
			p.f.Mutations = append(p.f.Mutations, st.span)
		}
	}
}

func (p *parser) mutates(span Span, name string) bool {
	saved := p.save()
	base := len(p.skipStack)
	defer func() {
		p.restore(saved)
		p.skipStack = p.skipStack[:base]
	}()
	p.l = p.lexerAt(span.Start)
	p.l.noComments = true
	var toks []scanTok
	rs := regexState{start: true}
	for !p.failed() && p.l.tok != tEOF && p.l.start < span.End {
		tok, _ := p.scanStep(base, &rs)
		toks = append(toks, scanTok{tok, p.l.start, p.l.end})
		p.next()
	}
	text := func(t scanTok) string { return p.text[t.start:t.end] }
	for i := range toks {
		if toks[i].tok != tIdent || text(toks[i]) != name || i > 0 && (toks[i-1].tok == tDot || toks[i-1].tok == tQuestionDot) {
			continue
		}
		// Object.assign(name, ...), Object.defineProperty(name, ...)
		if i >= 4 && toks[i-1].tok == tOpenParen && toks[i-3].tok == tDot && text(toks[i-4]) == "Object" {
			switch text(toks[i-2]) {
			case "assign", "defineProperty", "defineProperties", "setPrototypeOf":
				return true
			}
		}
		j := i + 1
		chain := 0
		last := ""
		for j < len(toks) {
			t := toks[j]
			if (t.tok == tDot || t.tok == tQuestionDot) && j+1 < len(toks) && (toks[j+1].tok == tIdent || toks[j+1].tok.isReserved()) {
				last = text(toks[j+1])
				j += 2
				chain++
				continue
			}
			if t.tok == tOpenBracket {
				depth := 0
				for ; j < len(toks); j++ {
					if toks[j].tok == tOpenBracket {
						depth++
					} else if toks[j].tok == tCloseBracket {
						depth--
						if depth == 0 {
							break
						}
					}
				}
				j++
				chain++
				last = ""
				continue
			}
			break
		}
		if j < len(toks) {
			t := toks[j].tok
			if t.isAssign() || chain > 0 && (t == tPlusPlus || t == tMinusMinus) {
				return true
			}
			if chain > 0 && t == tOpenParen && mutatingMethods[last] {
				return true
			}
		}
		if chain > 0 && i > 0 && (toks[i-1].tok == tDelete || toks[i-1].tok == tPlusPlus || toks[i-1].tok == tMinusMinus) {
			return true
		}
	}
	return false
}
