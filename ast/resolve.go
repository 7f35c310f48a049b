package ast

import (
	"slices"
	"sort"
	"strings"
)

// defineName is the framework's config helper.
const defineName = "defineFwConfig"

// scope is where the config's variables are looked up and the statements
// that may change them are: the module, or the block body of a config
// function (`export default async () => { ...; return {...} }`).
type scope struct {
	stmts    []stmt
	bindings map[string]binding
	// ret is the statement that exports (module) or returns (body) the
	// config, -1 when none. In a body, the statements after it never run.
	ret  int
	val  Node // what a body returns
	body bool
	// fn is the function, for a body: the span searched for other uses of
	// a name it returns from the scope around it.
	fn     Span
	parent *scope
}

// alias is a variable the config object was found through.
type alias struct {
	sc   *scope
	name string
	stmt int // its declaration, in sc.stmts
}

// assignment is a write whose value is known: a statement of its own
// `name.a.b = value` (the span of its last member name is key), or a
// property of an object literal that `Object.assign(name, {...})` copies.
type assignment struct {
	value Node
	key   Span
	loc   Span // the property as Config shows it: the assignment, or the property in Object.assign's literal
}

// resolve finds the config object behind the exported value, through
// wrappers, defineFwConfig calls, variables and config functions, and
// reads the statements that assign to it.
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
	module := &scope{stmts: p.stmts, bindings: p.bindings, ret: p.exportStmt}
	p.resolveNode(module, p.exportVal, 0)
	if f.Config == nil {
		return
	}
	f.Literal = f.Config
	// The module's statements run before the config function is called:
	// its writes come first.
	for _, body := range []bool{false, true} {
		n := len(f.Writes)
		for _, a := range p.aliases {
			if a.sc.body == body {
				p.findMutations(a)
			}
		}
		// The writes through several variables, in the order they run.
		ws := f.Writes[n:]
		sort.SliceStable(ws, func(i, j int) bool { return ws[i].Loc.Start < ws[j].Loc.Start })
	}
	sort.Slice(f.Mutations, func(i, j int) bool { return f.Mutations[i].Start < f.Mutations[j].Start })
	f.Mutations = slices.Compact(f.Mutations)
	p.readWrites()
}

func (p *parser) notLiteral(n Node, reason string) {
	p.f.Config, p.f.Function = nil, Span{}
	p.f.Reason = reason
	p.f.ReasonSpan = n.Span()
}

func (p *parser) resolveNode(sc *scope, n Node, hops int) {
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
		if b, ok := sc.bindings[n.Name]; ok && b.init != nil {
			// A variable holding the config function is not the config:
			// `config.x = 1` then sets a property of the function.
			if !p.holdsFunction(sc, b.init, 0) {
				if !sc.body {
					f.Binding = n.Name
				}
				p.aliases = append(p.aliases, alias{sc, n.Name, b.stmt})
			}
			p.resolveNode(sc, b.init, hops+1)
			return
		}
		if sc.parent != nil {
			// A name the function does not declare with a value: the
			// module's, unless the function binds it otherwise (a
			// parameter, `let c;`) or uses it before returning it.
			ret := sc.stmts[sc.ret].span
			if HasIdent(p.text[sc.fn.Start:ret.Start], n.Name) || HasIdent(p.text[ret.End:sc.fn.End], n.Name) {
				p.notLiteral(n, boundInFunction(n.Name))
				return
			}
			p.resolveNode(sc.parent, n, hops+1)
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
				p.resolveNode(sc, n.Args[0], hops+1)
				return
			}
			p.notLiteral(n, "the config is the result of calling "+short(callee)+"(...), which fwmigrate does not evaluate")
		case HintArrow, HintFunction:
			info := p.fns[n]
			if info == nil {
				p.notLiteral(n, "the config is a function fwmigrate cannot read")
				return
			}
			if p.inResult {
				// The framework calls the config function once: what it
				// returns is the config, a function too.
				p.notLiteral(n, "the config function returns a function, not a config object")
				return
			}
			p.inResult = true
			f.Function = n.Loc
			if !info.block {
				// `(c) => c`: a parameter, not the module's c.
				if id, ok := Unwrap(info.expr).(*Ident); ok && HasIdent(p.text[n.Loc.Start:info.expr.Span().Start], id.Name) {
					p.notLiteral(id, boundInFunction(id.Name))
					return
				}
				p.resolveNode(sc, info.expr, hops+1)
				return
			}
			// The function's result is known when its body returns once,
			// directly (not in a branch, a loop or an inner function).
			rets := p.functionReturns(info.node)
			if len(rets.direct) != 1 || rets.bare > 0 || rets.nested > 0 {
				p.notLiteral(n, "the config is a function without a single `return` of an object literal")
				return
			}
			body := p.readBody(info.node)
			if body == nil {
				p.notLiteral(n, "the config is a function whose body fwmigrate cannot read")
				return
			}
			body.fn, body.parent = n.Loc, sc
			p.resolveNode(body, body.val, hops+1)
		case HintConditional:
			p.notLiteral(n, "the config is a conditional expression: which object it is depends on run time")
		case HintUnary:
			if text := p.text[n.Loc.Start:n.Loc.End]; strings.HasPrefix(text, "await") {
				p.notLiteral(n, "the config is awaited ("+short(text)+"): it is only known at run time")
				return
			}
			p.notLiteral(n, "the config is a unary expression, not an object literal")
		default:
			p.notLiteral(n, "the config is "+article(n.Hint)+" expression, not an object literal")
		}
	default:
		p.notLiteral(n, "the config is "+article(n.Kind().String())+", not an object")
	}
}

// holdsFunction reports whether the value of n is a function (through
// wrappers, defineFwConfig, which returns its argument, and variables).
func (p *parser) holdsFunction(sc *scope, n Node, hops int) bool {
	if hops > 8 {
		return false
	}
	switch e := Unwrap(n).(type) {
	case *Ident:
		for s := sc; s != nil; s = s.parent {
			if b, ok := s.bindings[e.Name]; ok && b.init != nil {
				return p.holdsFunction(s, b.init, hops+1)
			}
		}
	case *Expr:
		switch {
		case e.Hint == HintArrow || e.Hint == HintFunction:
			return true
		case e.Hint == HintCall && p.text[e.Callee.Start:e.Callee.End] == defineName && len(e.Args) > 0:
			return p.holdsFunction(sc, e.Args[0], hops+1)
		}
	}
	return false
}

// boundInFunction is the reason for a function that returns a name it
// binds itself (a parameter, `let c;`) or uses before returning it: what
// it returns is not the module's variable, or not as declared.
func boundInFunction(name string) string {
	return "the config function returns `" + name + "`, which it binds or uses in a way fwmigrate does not follow"
}

// readBody reads the statements of a config function's block body as the
// module's are read: its variables, its statements, its return.
func (p *parser) readBody(fn *JSNode) *scope {
	stmts, bindings, imports := p.stmts, p.bindings, p.imports
	val, kind, idx, decl := p.exportVal, p.exportKind, p.exportStmt, p.exportDecl
	defer func() {
		p.stmts, p.bindings, p.imports = stmts, bindings, imports
		p.exportVal, p.exportKind, p.exportStmt, p.exportDecl = val, kind, idx, decl
	}()
	p.stmts, p.bindings, p.imports = nil, nil, nil
	p.exportVal, p.exportStmt = nil, -1
	p.scanStmts(fn.Y.List, true)
	if p.exportVal == nil || p.exportStmt < 0 || p.exportStmt >= len(p.stmts) {
		return nil
	}
	return &scope{stmts: p.stmts, bindings: p.bindings, ret: p.exportStmt, val: p.exportVal, body: true}
}

// HasIdent reports whether name occurs in text as a whole identifier: not
// inside a longer one (a cheap textual test, comments and strings
// included).
func HasIdent(text, name string) bool {
	for i := 0; name != ""; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isIdentByte(text[j-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
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

// functionReturns scans a function body again for its return statements:
// which are directly in it, which are nested. The values of the direct
// ones count for the style, as the literals of the module do.
func (p *parser) functionReturns(fn *JSNode) *returnsInfo {
	rets := &returnsInfo{at: map[int]*JSNode{}}
	WalkJS(fn.Y, func(n *JSNode, _ []*JSNode) bool {
		if n.Kind == JSReturn {
			rets.at[n.Loc.Start] = n
		}
		return true
	})
	saved := p.save()
	p.l = p.lexerAt(fn.Y.Loc.Start)
	p.skipRegion(true, rets)
	if p.failed() {
		rets.direct = nil
		rets.nested++
	}
	p.restore(saved)
	for _, x := range rets.direct {
		p.voteExpr(x)
	}
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

// findMutations records the statements of a's scope after its declaration
// that assign to it, delete from it, call a mutating method on it or pass
// it to Object.assign, and the writes they make. In a function body, the
// statements after the return never run.
func (p *parser) findMutations(a alias) {
	sc := a.sc
	end := len(sc.stmts)
	if sc.body {
		end = sc.ret
	}
	for i := a.stmt + 1; i < end; i++ {
		st := sc.stmts[i]
		if i == sc.ret || st.decl {
			continue
		}
		if !strings.Contains(p.text[st.span.Start:st.span.End], a.name) {
			continue
		}
		if ws, ok := p.mutations(st, a.name); ok {
			p.f.Mutations = append(p.f.Mutations, st.span)
			p.f.Writes = append(p.f.Writes, ws...)
		}
	}
}

// readWrites reads the plain assignments among File.Writes into Config, in
// order, as long as nothing unknown came before them at the same top-level
// key. Config becomes a copy of the literal; the literal is left as is.
func (p *parser) readWrites() {
	f := p.f
	if len(p.assigns) == 0 {
		return
	}
	r := writeReader{copies: map[*Object]bool{}}
	blocked := map[string]bool{}
	for i := range f.Writes {
		w := &f.Writes[i]
		if len(w.Path) == 0 || slices.Contains(w.Path, "__proto__") {
			return // any key may change from here on
		}
		if blocked[w.Path[0]] {
			continue
		}
		a, ok := p.assigns[w.Loc]
		if !ok || w.Dynamic {
			blocked[w.Path[0]] = true
			continue
		}
		kind := KeyIdent
		switch f.Src[a.key.Start] {
		case '\'', '"':
			kind = KeyString
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.':
			kind = KeyNumber
		}
		prop := &Property{Loc: a.loc, Kind: PropInit, KeyKind: kind, Key: w.Path[len(w.Path)-1], KeySpan: a.key, Value: a.value, Comma: -1}
		root, ok := r.set(f.Config, w.Path, prop)
		if !ok {
			blocked[w.Path[0]] = true
			continue
		}
		if f.assigned == nil {
			f.assigned = make(map[*Property]Span)
		}
		f.assigned[prop] = w.Stmt
		f.Config = root
		w.Read = true
	}
}

// writeReader sets properties in a copy of the config, copying each object
// on the way once.
type writeReader struct {
	copies map[*Object]bool
}

func (r *writeReader) copy(o *Object) *Object {
	if r.copies[o] {
		return o
	}
	c := *o
	c.Props = make([]*Property, len(o.Props))
	for i, pr := range o.Props {
		q := *pr
		q.Parent = &c
		c.Props[i] = &q
	}
	r.copies[&c] = true
	return &c
}

// set returns a copy of o with prop at path. It fails when an object on the
// way is not there as a literal: the assignment would throw, or set a
// value fwmigrate does not see.
func (r *writeReader) set(o *Object, path Path, prop *Property) (*Object, bool) {
	key := path[0]
	idx := -1
	for i, pr := range o.Props {
		if pr.Kind != PropSpread && pr.KeyKind != KeyComputed && pr.Key == key {
			idx = i
		}
	}
	if len(path) == 1 {
		o = r.copy(o)
		prop.Parent = o
		if idx >= 0 {
			o.Props[idx] = prop
		} else {
			o.Props = append(o.Props, prop)
		}
		return o, true
	}
	if idx < 0 || o.Props[idx].Kind != PropInit {
		return nil, false
	}
	for _, q := range o.Props[idx+1:] {
		if q.Kind == PropSpread || q.KeyKind == KeyComputed {
			return nil, false // it may replace the object
		}
	}
	child, ok := Unwrap(o.Props[idx].Value).(*Object)
	if !ok {
		return nil, false
	}
	nc, ok := r.set(child, path[1:], prop)
	if !ok {
		return nil, false
	}
	o = r.copy(o)
	if nc != child {
		o.Props[idx].Value = nc
	}
	return o, true
}

// mutations returns the writes to name in the statement at span, and
// whether the statement mutates it (Object.assign(name, {}) does, with no
// write to tell).
func (p *parser) mutations(st stmt, name string) ([]Mutation, bool) {
	span := st.span
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
	plain, key := -1, -1 // `name.a.b = value` as the whole statement: its "=" and last key
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
				out = append(out, p.assignedKeys(st, start, toks[i].end, start == span.Start)...)
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
		j, start := unwrapRef(toks, i, text)
		chain := 0
		last := ""
		lastKey := -1
		var path Path
		dynamic := false
		for j < len(toks) {
			t := toks[j]
			if (t.tok == tDot || t.tok == tQuestionDot) && j+1 < len(toks) && (toks[j+1].tok == tIdent || toks[j+1].tok.isReserved()) {
				last = text(toks[j+1])
				lastKey = j + 1
				if !dynamic {
					path = append(path, last)
				}
				j += 2
				chain++
				continue
			}
			if t.tok == tOpenBracket {
				lastKey = -1
				if k, ok := literalKey(tokAt(toks, j+1), textAt(toks, j+1, text)); ok && tokAt(toks, j+2) == tCloseBracket {
					lastKey = j + 1
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
		if j < len(toks) {
			t := toks[j].tok
			if t.isAssign() || chain > 0 && (t == tPlusPlus || t == tMinusMinus) {
				add(start, toks[j].end, path, dynamic || chain == 0)
				if start == span.Start && t == tEquals && chain > 0 && !dynamic {
					plain, key = j, lastKey
				}
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
	if plain >= 0 && key >= 0 && len(out) == 1 && !assigned {
		if v := p.plainValue(st, toks[plain].end); v != nil {
			p.assign(out[0].Loc, assignment{value: v, key: Span{toks[key].start, toks[key].end}, loc: Span{span.Start, v.Span().End}})
		}
	}
	return out, assigned || len(out) > 0
}

// plainValue returns the value of the statement `name.a.b = value` whose
// "=" ends at eqEnd: the statement is that one assignment.
func (p *parser) plainValue(st stmt, eqEnd int) Node {
	s := st.node
	if s.Kind != JSExprStmt || s.X.Kind != JSAssign || s.X.Op != "=" || p.outerSpan(s.X.Y).Start < eqEnd {
		return nil
	}
	// The values read into Config from assignments have always come
	// without their comments: edits keep to the literal's.
	p.noComments = true
	defer func() { p.noComments = false }()
	return p.view(s.X.Y)
}

// unwrapRef returns the token after the reference to a binding at toks[i]
// and where the reference starts, seeing through what names the same
// object: `name!`, `(name)`, `(name as T)`, `(name satisfies T)` and
// `(<T>name)` are name.
func unwrapRef(toks []scanTok, i int, text func(scanTok) string) (next, start int) {
	next, start = i+1, toks[i].start
	if next < len(toks) && toks[next].tok == tExclamation {
		next++
	}
	open := i - 1
	if open >= 2 && toks[open].tok == tGreaterThan {
		// (<T>name): find the "<" of the assertion, one level of brackets.
		k := open - 1
		for k > 0 && toks[k].tok != tLessThan && toks[k].tok != tOpenParen {
			k--
		}
		if toks[k].tok == tLessThan {
			open = k - 1
		}
	}
	if open < 0 || toks[open].tok != tOpenParen {
		return next, start
	}
	k := next
	if k < len(toks) && toks[k].tok == tIdent && (text(toks[k]) == "as" || text(toks[k]) == "satisfies") {
		depth := 0
		for k++; k < len(toks); k++ {
			switch toks[k].tok {
			case tOpenParen, tOpenBracket, tOpenBrace:
				depth++
			case tCloseBracket, tCloseBrace:
				depth--
			case tCloseParen:
				depth--
			}
			if depth < 0 {
				break
			}
		}
	}
	if k >= len(toks) || toks[k].tok != tCloseParen {
		return i + 1, toks[i].start
	}
	next, start = k+1, toks[open].start
	if next < len(toks) && toks[next].tok == tExclamation {
		next++
	}
	return next, start
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
// When the call is the whole statement (plain), the values of the literals'
// properties are recorded as the assignments they make.
func (p *parser) assignedKeys(st stmt, start, argEnd int, plain bool) []Mutation {
	stmt := st.span
	var call *JSNode
	WalkJS(st.node, func(n *JSNode, _ []*JSNode) bool {
		if call != nil || n.Loc.End <= start || n.Loc.Start > start {
			return false
		}
		if n.Kind == JSCall && n.Loc.Start == start && n.X.Kind == JSMember && n.X.Name == "assign" && !n.X.Has(FlagComputed) &&
			n.X.X.Kind == JSIdent && n.X.X.Name == "Object" && len(n.List) > 0 && n.List[0].Loc.End == argEnd {
			call = n
		}
		return true
	})
	var out []Mutation
	var values []assignment // of out's writes, when known
	dynamic := func(end int) {
		out = append(out, Mutation{Stmt: stmt, Loc: Span{start, end}, Dynamic: true})
		values = append(values, assignment{})
	}
	if call == nil {
		dynamic(argEnd) // what could not be read may change anything
		return out
	}
	if p.outerSpan(call.List[0]) != call.List[0].Loc {
		// `Object.assign(name!, {...})`: the sources after a cast are not
		// read (the statement still counts as a mutation), as before the
		// config was a view of the code tree.
		return nil
	}
	p.noComments = true // as plainValue
	defer func() { p.noComments = false }()
	for _, arg := range call.List[1:] {
		if arg.Kind == JSSpread {
			dynamic(arg.Loc.End)
			continue
		}
		obj, ok := Unwrap(p.view(arg)).(*Object)
		if !ok {
			dynamic(p.outerSpan(arg).End)
			continue
		}
		for _, pr := range obj.Props {
			if pr.Kind == PropSpread || pr.KeyKind == KeyComputed {
				dynamic(pr.Loc.End)
				continue
			}
			out = append(out, Mutation{Stmt: stmt, Loc: Span{start, pr.Loc.End}, Path: Path{pr.Key}})
			values = append(values, assignment{value: pr.Value, key: pr.KeySpan, loc: pr.Loc})
		}
	}
	if plain && st.node.Kind == JSExprStmt && st.node.X == call && p.outer[call] == nil {
		for i, v := range values {
			if v.value != nil {
				p.assign(out[i].Loc, v)
			}
		}
	}
	return out
}

func (p *parser) assign(write Span, a assignment) {
	if p.assigns == nil {
		p.assigns = make(map[Span]assignment)
	}
	p.assigns[write] = a
}
