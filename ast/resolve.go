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
// it or pass it to Object.assign, and the writes they make.
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
		if ws, ok := p.mutations(st.span, name); ok {
			p.f.Mutations = append(p.f.Mutations, st.span)
			p.f.Writes = append(p.f.Writes, ws...)
		}
	}
}

// mutations returns the writes to name in the statement at span, and
// whether the statement mutates it (Object.assign(name, {}) does, with no
// write to tell).
func (p *parser) mutations(span Span, name string) ([]Mutation, bool) {
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
	var out []Mutation
	assigned := false
	add := func(start, end int, path Path, dynamic bool) {
		out = append(out, Mutation{Stmt: span, Loc: Span{start, end}, Path: path, Dynamic: dynamic})
	}
	for i := range toks {
		if toks[i].tok != tIdent || text(toks[i]) != name || i > 0 && (toks[i-1].tok == tDot || toks[i-1].tok == tQuestionDot) {
			continue
		}
		// Object.assign(name, ...), Object.defineProperty(name, ...)
		if i >= 4 && toks[i-1].tok == tOpenParen && toks[i-3].tok == tDot && text(toks[i-4]) == "Object" {
			start := toks[i-4].start
			switch text(toks[i-2]) {
			case "assign":
				out = append(out, p.assignedKeys(span, start, toks[i].end)...)
				assigned = true
				continue
			case "defineProperty":
				end := toks[i].end
				if i+3 < len(toks) && toks[i+1].tok == tComma {
					end = toks[i+2].end
					if k, ok := literalKey(toks[i+2].tok, text(toks[i+2])); ok && toks[i+3].tok == tComma {
						add(start, end, Path{k}, false)
						continue
					}
				}
				add(start, end, nil, true)
				continue
			case "defineProperties", "setPrototypeOf":
				add(start, toks[i].end, nil, true)
				continue
			}
		}
		j := i + 1
		chain := 0
		last := ""
		var path Path
		dynamic := false
		for j < len(toks) {
			t := toks[j]
			if (t.tok == tDot || t.tok == tQuestionDot) && j+1 < len(toks) && (toks[j+1].tok == tIdent || toks[j+1].tok.isReserved()) {
				last = text(toks[j+1])
				if !dynamic {
					path = append(path, last)
				}
				j += 2
				chain++
				continue
			}
			if t.tok == tOpenBracket {
				if k, ok := literalKey(tokAt(toks, j+1), textAt(toks, j+1, text)); ok && tokAt(toks, j+2) == tCloseBracket {
					if !dynamic {
						path = append(path, k)
					}
				} else {
					dynamic = true
				}
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
		start := toks[i].start
		if j < len(toks) {
			t := toks[j].tok
			if t.isAssign() || chain > 0 && (t == tPlusPlus || t == tMinusMinus) {
				add(start, toks[j].end, path, dynamic || chain == 0)
				continue
			}
			if chain > 0 && t == tOpenParen && mutatingMethods[last] {
				if !dynamic {
					path = path[:len(path)-1] // the method's name
				}
				add(start, toks[j-1].end, path, dynamic || len(path) == 0)
				continue
			}
		}
		if chain > 0 && i > 0 && (toks[i-1].tok == tDelete || toks[i-1].tok == tPlusPlus || toks[i-1].tok == tMinusMinus) {
			add(toks[i-1].start, toks[j-1].end, path, dynamic)
		}
	}
	return out, assigned || len(out) > 0
}

func tokAt(toks []scanTok, i int) token {
	if i < len(toks) {
		return toks[i].tok
	}
	return tEOF
}

func textAt(toks []scanTok, i int, text func(scanTok) string) string {
	if i < len(toks) {
		return text(toks[i])
	}
	return ""
}

// literalKey is the property name a string or number token names.
func literalKey(tok token, raw string) (string, bool) {
	switch tok {
	case tString:
		body := raw[1 : len(raw)-1]
		if strings.IndexByte(body, '\\') >= 0 {
			v, ok := decodeText(body, false)
			return v, ok
		}
		return body, true
	case tNumber:
		return formatNumber(parseNumber(raw)), true
	}
	return "", false
}

// assignedKeys returns the writes of `Object.assign(name, ...sources)`,
// whose callee starts at start and whose first argument (name) ends at
// argEnd: a write for each key of the object literals among the sources,
// a dynamic one for any other source.
func (p *parser) assignedKeys(stmt Span, start, argEnd int) []Mutation {
	saved := p.save()
	votes := [4]int{p.trailingYes, p.trailingNo, p.semiYes, p.semiNo}
	defer func() {
		p.restore(saved)
		p.trailingYes, p.trailingNo, p.semiYes, p.semiNo = votes[0], votes[1], votes[2], votes[3]
	}()
	p.l = p.lexerAt(argEnd)
	p.l.noComments = true
	var out []Mutation
	dynamic := func(end int) {
		out = append(out, Mutation{Stmt: stmt, Loc: Span{start, end}, Dynamic: true})
	}
	for p.l.tok == tComma && !p.failed() {
		p.next()
		if p.l.tok == tCloseParen {
			break
		}
		spread := p.l.tok == tDotDotDot
		if spread {
			p.next()
		}
		arg := p.parseExpr(lComma)
		if p.failed() {
			break
		}
		obj, ok := Unwrap(arg).(*Object)
		if spread || !ok {
			dynamic(p.l.prevEnd)
			continue
		}
		for _, pr := range obj.Props {
			if pr.Kind == PropSpread || pr.KeyKind == KeyComputed {
				dynamic(pr.Loc.End)
				continue
			}
			out = append(out, Mutation{Stmt: stmt, Loc: Span{start, pr.Loc.End}, Path: Path{pr.Key}})
		}
	}
	if p.failed() {
		dynamic(argEnd) // what could not be read may change anything
	}
	return out
}
