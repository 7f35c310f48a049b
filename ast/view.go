package ast

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The config view: a config module is read once, by the code reader
// (codeparse.go), and File's nodes are a view of that tree. The view keeps
// what the code tree leaves out and a config edit needs: parentheses and
// TypeScript casts around expressions (recorded while reading, as wraps),
// the commas between properties and elements, and the comments, which are
// attached here to the properties around them. Only the parts of the tree
// the config asks for are turned into Nodes: an object literal's values, a
// call's arguments, what a wrapper wraps. Any other expression is an Expr
// with its span and hint.

// readConfig reads the module's statements into the parser's scope (its
// statements, top-level bindings, imports and export) and counts the
// style votes of the module.
func (p *parser) readConfig(prog *JSNode) {
	p.outer = make(map[*JSNode][]wrap, len(p.code.wraps))
	for _, w := range p.code.wraps {
		p.outer[w.n] = append(p.outer[w.n], w)
	}
	p.scanStmts(prog.List, false)
}

// scanStmts reads a statement list as the config's scope: the module's, or
// (body) the block of a config function, whose direct `return` is what it
// exports.
func (p *parser) scanStmts(list []*JSNode, body bool) {
	for _, s := range list {
		if s.Kind == JSEmpty {
			continue
		}
		idx := len(p.stmts)
		decl := p.scanStmt(s, true, idx, body)
		p.stmts = append(p.stmts, stmt{span: s.Loc, decl: decl, node: s})
	}
}

// scanStmt reads the statement s of the statement at idx (top: s is that
// statement; otherwise a statement nested in it without a block, as in
// `if (x) module.exports = a`), and reports whether it is a declaration
// that runs nothing where it stands. The module's statements vote for the
// style: top-level statements for semicolons, the literals outside
// function and class bodies and blocks for trailing commas.
func (p *parser) scanStmt(s *JSNode, top bool, idx int, body bool) bool {
	if s == nil {
		return false
	}
	vote := !body
	if vote {
		p.voteDecorators(s)
	}
	switch s.Kind {
	case JSExprStmt:
		if !body && p.moduleExports(s, idx) {
			p.voteSemi(s, top)
			return false
		}
		if vote {
			p.voteExpr(s.X)
		}
		p.voteSemi(s, top && vote)
	case JSVar:
		p.scanVar(s, top, idx, body)
		p.voteSemi(s, top && vote)
	case JSFunction:
		// A named function with a body is bound to its name, so that
		// `export default config` finds `async function config() {...}`.
		if top && !body && s.X != nil && s.Y != nil && p.text[s.X.Loc.Start:s.X.Loc.End] == s.X.Name {
			p.bind(s.X.Name, p.view(s), idx)
		}
		return true
	case JSClass:
		if vote {
			p.voteExpr(s.Y)
		}
		return true
	case JSTypeDecl:
		// `type X = T` and `export as namespace X` (no Op) end like
		// statements; the other declarations with a block or a body.
		if s.Op == "type" || s.Op == "" {
			p.voteSemi(s, top && vote)
		}
		return s.Op != ""
	case JSImport:
		for _, sp := range s.List {
			p.addImport(sp.Local, s.Name)
		}
		p.voteSemi(s, top && vote)
	case JSExport:
		return p.scanExport(s, top, idx, body)
	case JSIf:
		p.scanStmt(s.Y, false, idx, body)
		p.scanStmt(s.Z, false, idx, body)
	case JSFor, JSForIn:
		p.scanStmt(s.Body[0], false, idx, body)
	case JSWhile, JSWith, JSLabeled:
		if s.Kind == JSLabeled {
			p.scanStmt(s.X, false, idx, body)
		} else {
			p.scanStmt(s.Y, false, idx, body)
		}
	case JSDoWhile:
		p.scanStmt(s.X, false, idx, body)
	case JSReturn:
		// In a config function's body, a return directly in it is what
		// the function exports.
		if top && body && s.X != nil {
			p.setExport(ExportDefault, p.view(s.X), idx)
		} else if vote {
			p.voteExpr(s.X)
		}
	case JSThrow:
		if vote {
			p.voteExpr(s.X)
		}
	}
	return false
}

// scanVar binds the top-level names declared with a value.
func (p *parser) scanVar(s *JSNode, top bool, idx int, body bool) {
	for _, d := range s.List {
		if d.Y == nil {
			continue
		}
		if !body {
			p.voteExpr(d.Y)
		}
		if top && d.X.Kind == JSIdent && s.Op != "using" && s.Op != "await using" {
			p.bind(d.X.Name, p.view(d.Y), idx)
		}
	}
}

func (p *parser) bind(name string, init Node, idx int) {
	if p.bindings == nil {
		p.bindings = make(map[string]binding)
	}
	p.bindings[name] = binding{init: init, stmt: idx}
}

func (p *parser) addImport(local, module string) {
	if p.imports == nil {
		p.imports = make(map[string]string)
	}
	p.imports[local] = module
}

func (p *parser) setExport(kind ExportKind, v Node, idx int) {
	p.exportVal = v
	p.exportKind = kind
	p.exportStmt = idx
	p.exportDecl = ""
}

// scanExport reads an export declaration.
func (p *parser) scanExport(s *JSNode, top bool, idx int, body bool) bool {
	vote := !body
	x := s.X
	switch {
	case s.Has(FlagDefault):
		switch x.Kind {
		case JSTypeDecl:
			p.exportVal, p.exportKind, p.exportStmt, p.exportDecl = nil, ExportDefault, idx, "an interface"
			return true
		case JSFunction, JSClass:
			if p.outer[x] == nil {
				// `export default function f() {}`, read as a declaration
				// (cExport): no semicolon ends it.
				if x.Kind == JSClass && vote {
					p.voteDecorators(x)
					p.voteExpr(x.Y)
				}
				p.setExport(ExportDefault, p.view(x), idx)
				return false
			}
		}
		if vote {
			p.voteExpr(x)
		}
		p.setExport(ExportDefault, p.view(x), idx)
		p.voteSemi(s, top && vote)
	case x == nil:
		// export * from, export { a }, export type { T }
		p.voteSemi(s, top && vote)
	case p.nextByte(s.Loc.Start+len("export")) == '=':
		// TypeScript: export = value
		if vote {
			p.voteExpr(x)
		}
		p.setExport(ExportModuleExports, p.view(x), idx)
		p.voteSemi(s, top && vote)
	case x.Kind == JSImport:
		// export import x = require('y')
		p.scanStmt(x, top, idx, body)
	case x.Kind == JSVar:
		p.scanVar(x, top, idx, body)
		p.voteSemi(s, top && vote)
	default:
		p.scanStmt(x, false, idx, body)
		return true
	}
	return false
}

// moduleExports reads `module.exports = value` (and `module.exports =
// value, other`) when s is one.
func (p *parser) moduleExports(s *JSNode, idx int) bool {
	a := s.X
	if a.Kind == JSSeq {
		a = a.List[0]
	}
	if a.Kind != JSAssign || a.Op != "=" || a.X.Kind != JSMember || a.X.Flags&(FlagComputed|FlagOptional) != 0 || a.X.Name != "exports" {
		return false
	}
	m := a.X.X
	if m.Kind != JSIdent || m.Loc.Start != s.Loc.Start || p.text[m.Loc.Start:m.Loc.End] != "module" || p.outer[m] != nil || p.outer[a.X] != nil {
		return false
	}
	p.voteExpr(a.Y)
	if s.X.Kind == JSSeq {
		for _, x := range s.X.List[1:] {
			p.voteExpr(x)
		}
	}
	p.setExport(ExportModuleExports, p.view(a.Y), idx)
	return true
}

// voteSemi counts a top-level statement for Style.Semicolons.
func (p *parser) voteSemi(s *JSNode, vote bool) {
	if !vote {
		return
	}
	if s.Loc.End > s.Loc.Start && p.text[s.Loc.End-1] == ';' {
		p.semiYes++
	} else {
		p.semiNo++
	}
}

// voteExpr counts the object and array literals of an expression for
// Style.TrailingCommas, but those in function and class bodies (as in
// blocks, a style of its own is often used there).
func (p *parser) voteExpr(n *JSNode) {
	if n == nil {
		return
	}
	switch n.Kind {
	case JSObject:
		p.voteLiteral(n)
		for _, m := range n.List {
			if m.Kind != JSProperty {
				p.voteExpr(m)
				continue
			}
			if m.Has(FlagComputed) {
				p.voteExpr(m.X)
			}
			switch m.Op {
			case "":
				p.voteExpr(m.Y)
			case "shorthand":
				if m.Y.Kind == JSDefault {
					p.voteExpr(m.Y.Y)
				}
			}
		}
		return
	case JSArray:
		p.voteLiteral(n)
	case JSFunction:
		return
	case JSClass:
		p.voteDecorators(n)
		p.voteExpr(n.Y)
		return
	case JSArrow:
		for _, prm := range n.List {
			p.voteExpr(prm)
		}
		if n.Has(FlagExprBody) {
			p.voteExpr(n.Y)
		}
		return
	}
	for _, c := range n.children(nil) {
		p.voteExpr(c)
	}
}

// voteDecorators counts the literals of the decorators of a statement or
// class (not of its members: class bodies do not count).
func (p *parser) voteDecorators(n *JSNode) {
	for _, d := range p.code.decorators[n] {
		p.voteExpr(d)
	}
}

// voteLiteral counts a multi-line object or array literal: with a comma
// after its last element, or without.
func (p *parser) voteLiteral(n *JSNode) {
	last, comma := p.literalTail(n)
	if last >= 0 {
		p.voteTrailing(last, n.Loc.End-1, comma)
	}
}

// literalTail returns where the last element of an object or array literal
// ends (its comma, when one follows it) and whether a comma ends the
// literal; last is -1 when it has no element.
func (p *parser) literalTail(n *JSNode) (last int, comma bool) {
	last = -1
	for _, el := range n.List {
		if el == nil {
			comma = false // a hole
			continue
		}
		last, comma = p.outerSpan(el).End, false
		if c := p.commaAfter(last); c >= 0 {
			last, comma = c, true
		}
	}
	return last, comma
}

// outerSpan is n's span with the parentheses and casts around it.
func (p *parser) outerSpan(n *JSNode) Span {
	if ws := p.outer[n]; len(ws) > 0 {
		return ws[len(ws)-1].loc
	}
	return n.Loc
}

// nextByte returns the first byte from offset that is not white space or
// in a comment (0 at the end).
func (p *parser) nextByte(offset int) byte {
	if i := p.skipTrivia(offset); i < len(p.text) {
		return p.text[i]
	}
	return 0
}

// commaAfter returns the offset of the comma that is the next token after
// offset, -1 when the next token is not a comma.
func (p *parser) commaAfter(offset int) int {
	if i := p.skipTrivia(offset); i < len(p.text) && p.text[i] == ',' {
		return i
	}
	return -1
}

// skipTrivia returns the offset of the first byte from offset that is not
// white space, a line terminator or in a comment.
func (p *parser) skipTrivia(i int) int {
	src := p.text
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			k := sort.Search(len(p.f.Comments), func(k int) bool { return p.f.Comments[k].Loc.Start >= i })
			if k == len(p.f.Comments) || p.f.Comments[k].Loc.Start != i {
				return i
			}
			i = p.f.Comments[k].Loc.End
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r != 0x2028 && r != 0x2029 && r != 0xFEFF && r != 0xA0 && (r == utf8.RuneError || !unicode.Is(unicode.Zs, r)) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// view returns the config view of the expression n, with the parentheses
// and casts around it.
func (p *parser) view(n *JSNode) Node {
	x := p.viewBare(n)
	for _, w := range p.outer[n] {
		e := &Expr{Loc: w.loc, Hint: w.hint}
		if w.hint != HintOther {
			e.Inner = x
		}
		x = e
	}
	return x
}

// viewBare returns the config view of n itself.
func (p *parser) viewBare(n *JSNode) Node {
	switch n.Kind {
	case JSObject:
		return p.object(n)
	case JSArray:
		return p.array(n)
	case JSIdent:
		return &Ident{Loc: n.Loc, Name: n.Name}
	case JSString:
		s := &String{Loc: n.Loc, Value: n.Name}
		if p.text[n.Loc.Start] == '"' {
			s.Quote = QuoteDouble
		}
		return s
	case JSNumber:
		return &Number{Loc: n.Loc, Raw: n.Name, Value: parseNumber(n.Name), IsBigInt: strings.HasSuffix(n.Name, "n")}
	case JSBool:
		return &Boolean{Loc: n.Loc, Value: n.Name == "true"}
	case JSNull:
		return &Null{Loc: n.Loc}
	case JSRegExp:
		i := strings.LastIndexByte(n.Name, '/')
		return &RegExp{Loc: n.Loc, Pattern: n.Name[1:i], Flags: n.Name[i+1:]}
	case JSTemplate:
		if n.X != nil {
			return &Template{Loc: n.Loc, Tag: p.outerSpan(n.X)}
		}
		if len(n.List) > 0 {
			return &Template{Loc: n.Loc}
		}
		v, ok := p.cooked(n.Loc.Start+1, n.Loc.End-1)
		return &Template{Loc: n.Loc, Static: ok, Value: v}
	case JSUnary:
		if n.Op == "-" || n.Op == "+" {
			return &Unary{Loc: n.Loc, Op: n.Op[0], Operand: p.view(n.X)}
		}
		return &Expr{Loc: n.Loc, Hint: HintUnary}
	case JSUpdate, JSAwait, JSYield:
		return &Expr{Loc: n.Loc, Hint: HintUnary}
	case JSCall, JSNew:
		hint := HintCall
		if n.Kind == JSNew {
			hint = HintNew
		}
		e := &Expr{Loc: n.Loc, Hint: hint, Callee: p.outerSpan(n.X)}
		for _, a := range n.List {
			e.Args = append(e.Args, p.arg(a))
		}
		return e
	case JSFunction, JSArrow:
		e := &Expr{Loc: n.Loc, Hint: HintFunction}
		if n.Y == nil {
			// `export default function f(): T;`, an overload: no body to
			// read, so no config function (resolveNode says so).
			return e
		}
		info := &fnInfo{node: n, block: true}
		if n.Kind == JSArrow {
			e.Hint = HintArrow
			if n.Has(FlagExprBody) {
				info.block, info.expr = false, p.view(n.Y)
			}
		}
		if p.fns == nil {
			p.fns = make(map[*Expr]*fnInfo)
		}
		p.fns[e] = info
		return e
	case JSSeq:
		// From its first item through its last, as written.
		return &Expr{Loc: Span{p.outerSpan(n.List[0]).Start, p.outerSpan(n.List[len(n.List)-1]).End}, Hint: HintSequence}
	case JSSpread:
		return p.arg(n)
	}
	hint := HintOther
	switch n.Kind {
	case JSClass:
		hint = HintClass
	case JSMember:
		hint = HintMember
	case JSCond:
		hint = HintConditional
	case JSBinary:
		hint = HintBinary
	case JSAssign, JSDefault:
		hint = HintAssign
	}
	return &Expr{Loc: n.Loc, Hint: hint}
}

// arg is the view of a call's argument: `...x` is a spread Expr.
func (p *parser) arg(a *JSNode) Node {
	if a.Kind == JSSpread {
		return &Expr{Loc: a.Loc, Hint: HintSpread, Inner: p.view(a.X)}
	}
	return p.view(a)
}

// cooked is the cooked value of template text [start, end).
func (p *parser) cooked(start, end int) (string, bool) {
	body := p.text[start:end]
	for i := 0; i < len(body); i++ {
		if c := body[i]; c == '\\' || c == '\r' || c >= 0x80 {
			return decodeText(body, true)
		}
	}
	return body, true
}

func (p *parser) array(n *JSNode) *Array {
	arr := &Array{Loc: n.Loc}
	for i, el := range n.List {
		switch {
		case el == nil:
			arr.Elements = append(arr.Elements, nil)
		case el.Kind == JSSpread:
			arr.Spreads = append(arr.Spreads, i)
			arr.Elements = append(arr.Elements, p.view(el.X))
		default:
			arr.Elements = append(arr.Elements, p.view(el))
		}
	}
	_, arr.TrailingComma = p.literalTail(n)
	return arr
}

func (p *parser) object(n *JSNode) *Object {
	obj := &Object{Loc: n.Loc}
	var props []Property // one allocation for the object's properties
	if len(n.List) > 0 {
		obj.Props = make([]*Property, 0, len(n.List))
		props = make([]Property, len(n.List))
	}
	var prev *Property
	from := n.Loc.Start + 1
	for i, m := range n.List {
		pr := &props[i]
		pr.Loc, pr.Comma, pr.Parent = m.Loc, -1, obj
		if m.Kind == JSSpread {
			pr.Kind, pr.KeyKind = PropSpread, KeyNone
			pr.Value = p.view(m.X)
		} else {
			pr.KeySpan, pr.Key = m.NameLoc, m.Name
			switch c := p.text[m.NameLoc.Start]; {
			case m.Has(FlagComputed):
				pr.KeyKind, pr.Key = KeyComputed, ""
			case c == '\'' || c == '"':
				pr.KeyKind = KeyString
			case c == '.' || '0' <= c && c <= '9':
				pr.KeyKind = KeyNumber
			}
			switch m.Op {
			case "":
				pr.Value = p.view(m.Y)
			case "shorthand":
				pr.Kind = PropShorthand
				pr.Value = &Ident{Loc: pr.KeySpan, Name: pr.Key}
			case "method":
				pr.Kind = PropMethod
			case "get":
				pr.Kind = PropGetter
			case "set":
				pr.Kind = PropSetter
			}
		}
		pr.Leading = p.attach(obj, prev, from, pr.Loc.Start)
		pr.Comma = p.commaAfter(pr.Loc.End)
		obj.Props = append(obj.Props, pr)
		prev, from = pr, pr.Loc.End
	}
	p.attach(obj, prev, from, -1)
	obj.TrailingComma = prev != nil && prev.Comma >= 0
	return obj
}

// attach distributes the comments in [from, next) (through the object's
// "}" when next < 0), which lie between prev (or "{") and the property at
// next: a comment on prev's line that is not followed on its own line by
// the next property is prev's Trailing; the others lead the next property,
// or dangle in obj.
func (p *parser) attach(obj *Object, prev *Property, from, next int) []*Comment {
	if p.noComments {
		return nil
	}
	end := next
	if next < 0 {
		end = obj.Loc.End - 1
	}
	cs := p.f.Comments
	lo := sort.Search(len(cs), func(i int) bool { return cs[i].Loc.Start >= from })
	var leading []*Comment
	for _, c := range cs[lo:] {
		if c.Loc.Start >= end {
			break
		}
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
