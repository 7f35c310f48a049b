package code

import (
	"bytes"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Index reads that noUncheckedIndexedAccess makes `T | undefined` and that
// the code uses where undefined is an error (FW851). Without types this
// is an estimate from the code's syntax: see IndexReads.

// IndexRead is one place where the type checker reports an index read
// that the flag makes possibly undefined.
type IndexRead struct {
	// Span is where the type checker reports it: the read, the variable
	// that holds it, the annotated variable it is assigned to, or the
	// return.
	Span ast.Span
	// Read is the index read itself (`list[i]`).
	Read ast.Span
	// Code is the error the type checker reports there: TS2532 (Object is
	// possibly 'undefined'), TS18048 ('x' is possibly 'undefined'), TS2322
	// (not assignable), TS2722 (cannot invoke), TS2339 (a property
	// destructured from it) or TS2488 (spread or iterated).
	Code string
	// What says how the value is used.
	What string
	// Var is the variable that holds the read, "" for a read used as it is.
	Var string
}

// arrayMethods return arrays: destructuring their result (`const [a, b] =
// s.split(',')`) gives elements the flag makes possibly undefined.
var arrayMethods = map[string]bool{
	"split": true, "slice": true, "filter": true, "map": true, "flatMap": true, "concat": true, "sort": true,
	"toSorted": true, "toReversed": true, "reverse": true, "splice": true, "flat": true,
}

// iterCallbacks are the array methods whose callback receives each
// element: on Object.entries(...) the element is a [key, value] tuple,
// whose reads by a literal index are not affected.
var iterCallbacks = map[string]bool{
	"map": true, "forEach": true, "filter": true, "some": true, "every": true, "find": true, "findIndex": true,
	"flatMap": true, "reduce": true, "sort": true, "findLast": true, "findLastIndex": true,
}

// IndexReads returns the places in f's scripts and template where an index
// read (`list[i]`, `record[key]`, `headers['x-id']`, `s.split(',')[1]`, and the variables
// that hold one: `const x = list[0]`, `const [a, b] = s.split(',')`) is used
// where undefined is an error: its property is read or it is called, it is
// an operand of arithmetic or a comparison of order, it is iterated or
// destructured, it is assigned to a variable with a type annotation or
// returned from a function with a return type. In source order.
//
// It is an estimate: the code's types are not known. Left out as not
// affected: reads of `this`, of the component's props object, of a const
// holding an object literal (known keys) or an `as const` array, and by a literal index of an
// Object.entries() pair; guarded reads: `?.`, `!`, `as`, `??`, `||`, and a
// read (or variable) tested before in a condition of an enclosing if,
// while, `&&` or `?:`, or by an earlier `if (...) return` (any earlier test
// of a variable counts, as the type checker narrows after most). Not
// counted: a read passed as an argument (TS2345 depends on the parameter's
// type), assigned to a property, or read with a dot from a Record
// (`record.key`).
func IndexReads(f *File) []IndexRead {
	var out []IndexRead
	WalkFile(f, []*Visitor{IndexReadVisitor(f, func(reads []IndexRead) { out = reads })}, nil)
	return out
}

// IndexReadVisitor is IndexReads as f's visitor in a shared walk
// (WalkFile): done receives the file's reads once the walk is over.
func IndexReadVisitor(f *File, done func([]IndexRead)) *Visitor {
	r := &indexReader{f: f, held: map[*ast.Binding]*heldRead{}, pairs: map[*ast.Binding]bool{}, props: map[*ast.Binding]bool{}}
	return &Visitor{
		Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			// A JavaScript script (and the template of a component without
			// a TypeScript script) is not type-checked: its root says.
			if len(up) == 0 && (tx == nil && !r.scriptTS(n) || tx != nil && !r.anyTS()) {
				return false
			}
			r.visit(n, up, tx)
			return true
		},
		Done: func() { done(r.out) },
	}
}

// heldRead is a variable that holds an index read (or an element of an
// array destructured from an array method's result).
type heldRead struct {
	read    ast.Span
	guarded bool
}

type indexReader struct {
	f     *File
	out   []IndexRead
	held  map[*ast.Binding]*heldRead
	pairs map[*ast.Binding]bool // bindings of Object.entries() pairs
	props map[*ast.Binding]bool // the props object of a component
}

// scriptTS reports whether prog is the program of a TypeScript script.
func (r *indexReader) scriptTS(prog *ast.JSNode) bool {
	for _, s := range r.f.Code.Scripts {
		if s.Program == prog {
			return s.TS
		}
	}
	return false
}

// anyTS reports whether a script of the file is TypeScript (the type
// checker then checks the template's expressions too).
func (r *indexReader) anyTS() bool {
	for _, s := range r.f.Code.Scripts {
		if s.TS {
			return true
		}
	}
	return false
}

func (r *indexReader) visit(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) {
	switch n.Kind {
	case ast.JSCall:
		r.markPairs(n)
	case ast.JSForIn:
		if n.Op == "of" && isEntriesCall(n.Y) && n.X != nil {
			r.markPattern(n.X)
		}
	case ast.JSDeclarator:
		r.declarator(n)
	case ast.JSIdent:
		r.ident(n, up, tx)
	case ast.JSMember:
		if r.affected(n) {
			r.read(n, up, tx)
		}
	}
}

// markPairs marks the first parameter of a callback of an iteration over
// Object.entries(...): its elements are [key, value] pairs.
func (r *indexReader) markPairs(call *ast.JSNode) {
	x := call.X
	if x == nil || x.Kind != ast.JSMember || x.Has(ast.FlagComputed) || !iterCallbacks[x.Name] || !isEntriesCall(x.X) || len(call.List) == 0 {
		return
	}
	fn := call.List[0]
	if (fn.Kind == ast.JSArrow || fn.Kind == ast.JSFunction) && len(fn.List) > 0 {
		i := 0
		if x.Name == "reduce" {
			i = 1
		}
		if i < len(fn.List) {
			r.markPattern(fn.List[i])
		}
	}
}

func (r *indexReader) markPattern(p *ast.JSNode) {
	ast.WalkJS(p, func(n *ast.JSNode, _ []*ast.JSNode) bool {
		if b := n.DeclBinding(); b != nil && b.Path == nil {
			r.pairs[b] = true
		}
		return true
	})
}

// isEntriesCall reports Object.entries(...).
func isEntriesCall(n *ast.JSNode) bool {
	return n != nil && n.Kind == ast.JSCall && ast.MemberPath(n.X) == "Object.entries"
}

// declarator registers the variables that hold an index read, and reports
// an annotated one (TS2322) or an object destructured from one (TS2339).
func (r *indexReader) declarator(d *ast.JSNode) {
	if d.X == nil || d.Y == nil {
		return
	}
	init := d.Y
	if init.Kind == ast.JSCall && (ImportedAs(init.X, "defineProps") || ImportedAs(init.X, "withDefaults")) && d.X.Kind == ast.JSIdent {
		if b := d.X.DeclBinding(); b != nil {
			r.props[b] = true
		}
		return
	}
	switch {
	case init.Kind == ast.JSMember && r.affected(init) && !r.wrapped(init):
		switch d.X.Kind {
		case ast.JSIdent:
			if r.annotated(d.X.Loc.End, init.Loc.Start) {
				r.add(d.X.Loc, init.Loc, "TS2322", "assigned to a variable whose type does not take undefined")
				return
			}
			if b := d.X.DeclBinding(); b != nil && r.constant(b) {
				r.held[b] = &heldRead{read: init.Loc}
			}
		case ast.JSObject:
			for _, p := range d.X.List {
				if p.Kind == ast.JSProperty {
					r.add(p.Loc, init.Loc, "TS2339", "destructured")
				}
			}
		}
	case d.X.Kind == ast.JSArray && r.arraySource(init):
		for _, el := range d.X.List {
			if el == nil || el.Kind != ast.JSIdent {
				continue
			}
			if b := el.DeclBinding(); b != nil && r.constant(b) {
				r.held[b] = &heldRead{read: init.Loc}
			}
		}
	}
}

// arraySource reports an initializer whose value is an array (not a
// tuple): the result of an array method, or a variable holding an array
// literal that is not `as const`.
func (r *indexReader) arraySource(init *ast.JSNode) bool {
	init = ast.Unawait(init)
	switch init.Kind {
	case ast.JSCall:
		x := init.X
		if p := ast.MemberPath(x); p == "Object.keys" || p == "Object.values" || p == "Array.from" {
			return true
		}
		return x != nil && x.Kind == ast.JSMember && !x.Has(ast.FlagComputed) && arrayMethods[x.Name]
	case ast.JSIdent:
		if b := init.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil && b.Init != nil && b.Init.Kind == ast.JSArray {
			return !r.asConst(b.Init)
		}
	}
	return false
}

// constant reports a variable that is not assigned after its declaration.
func (r *indexReader) constant(b *ast.Binding) bool {
	if b.Kind == ast.BindConst {
		return true
	}
	if b.Kind != ast.BindLet && b.Kind != ast.BindVar {
		return false
	}
	for _, ref := range b.Refs {
		if ref.Write {
			return false
		}
	}
	return true
}

// affected reports an index read whose type the flag changes, as far as
// the syntax tells.
func (r *indexReader) affected(n *ast.JSNode) bool {
	if !n.Has(ast.FlagComputed) || n.Y == nil || n.X == nil {
		return false
	}
	if p := ast.MemberPath(n.Y); strings.HasPrefix(p, "Symbol.") {
		return false
	}
	switch x := n.X; x.Kind {
	case ast.JSThis, ast.JSSuper:
		return false
	case ast.JSIdent:
		b := x.Resolve()
		if b == nil {
			return true
		}
		if r.props[b] {
			return false
		}
		if r.pairs[b] && n.Y.Kind == ast.JSNumber {
			return false
		}
		if b.Kind == ast.BindConst && b.Path == nil && b.Init != nil && b.Decl != nil && b.Decl.X != nil && !r.annotated(b.Decl.X.Loc.End, b.Init.Loc.Start) {
			switch b.Init.Kind {
			case ast.JSObject:
				return false
			case ast.JSArray:
				return !r.asConst(b.Init)
			}
		}
	}
	return true
}

// asConst reports an `as const` after an expression.
func (r *indexReader) asConst(n *ast.JSNode) bool {
	rest := bytes.TrimLeft(r.f.Text[n.Loc.End:], " \t\r\n)")
	return bytes.HasPrefix(rest, []byte("as const"))
}

// annotated reports a type annotation between a binding and its value (`:`
// in `x: T = v`; the `!:` of a definite assignment too).
func (r *indexReader) annotated(from, to int) bool {
	if from < 0 || to > len(r.f.Text) || from >= to {
		return false
	}
	return bytes.IndexByte(r.f.Text[from:to], ':') >= 0
}

// wrapped reports an expression followed by `!` (not `!=`), `as` or
// `satisfies` (through closing parentheses): the code asserts its type.
func (r *indexReader) wrapped(n *ast.JSNode) bool {
	rest := bytes.TrimLeft(r.f.Text[n.Loc.End:], " \t\r\n)")
	switch {
	case len(rest) > 0 && rest[0] == '!':
		return len(rest) == 1 || rest[1] != '='
	case bytes.HasPrefix(rest, []byte("as")) && (len(rest) == 2 || !identByte(rest[2])):
		return true
	case bytes.HasPrefix(rest, []byte("satisfies")):
		return true
	}
	return false
}

// read reports an index read used unguarded.
func (r *indexReader) read(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) {
	if r.wrapped(n) || r.guardedRead(n, up) || r.templateGuard(tx, r.f.Text[n.Loc.Start:n.Loc.End]) {
		return
	}
	if code, what, span, ok := r.use(n, up, "TS2532"); ok {
		r.add(span, n.Loc, code, what)
	}
}

// ident reports a use of a variable that holds an index read, until a
// test of it.
func (r *indexReader) ident(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) {
	b := n.Resolve()
	h := r.held[b]
	if h == nil || h.guarded || n.DeclBinding() != nil {
		return
	}
	if guard(n, up) || tx != nil && tx.Attr != nil && (tx.Attr.Directive == "if" || tx.Attr.Directive == "else-if") {
		h.guarded = true
		return
	}
	if r.templateGuard(tx, []byte(n.Name)) {
		return
	}
	if r.wrapped(n) {
		return
	}
	if code, what, span, ok := r.use(n, up, "TS18048"); ok {
		r.add(span, h.read, code, what)
		r.out[len(r.out)-1].Var = n.Name
	}
}

// guard reports a reference in a test: a condition, an operand of `&&`,
// `||`, `??`, `!`, typeof or an equality, or the target of an assignment.
func guard(n *ast.JSNode, up []*ast.JSNode) bool {
	if len(up) == 0 {
		return false
	}
	p := up[len(up)-1]
	switch p.Kind {
	case ast.JSIf, ast.JSWhile, ast.JSCond:
		return p.X == n
	case ast.JSDoWhile, ast.JSFor:
		return p.Y == n
	case ast.JSBinary:
		switch p.Op {
		case "&&", "||", "??", "==", "!=", "===", "!==", "instanceof":
			return true
		}
	case ast.JSUnary:
		return p.Op == "!" || p.Op == "typeof"
	case ast.JSAssign:
		return p.X == n
	}
	return false
}

// use classifies how the value n (an index read, or a variable holding
// one) is used: ok is false for a use where undefined is no error (or that
// is not counted). possibly is the code of `possibly undefined` there.
func (r *indexReader) use(n *ast.JSNode, up []*ast.JSNode, possibly string) (code, what string, span ast.Span, ok bool) {
	if len(up) == 0 {
		return "", "", span, false
	}
	p := up[len(up)-1]
	switch p.Kind {
	case ast.JSMember:
		if p.X == n && !p.Has(ast.FlagOptional) {
			return possibly, "its property is read", n.Loc, true
		}
	case ast.JSCall:
		if p.X == n && !p.Has(ast.FlagOptional) {
			return "TS2722", "called", n.Loc, true
		}
	case ast.JSBinary:
		switch p.Op {
		case "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^", "<", ">", "<=", ">=":
			return possibly, "an operand of `" + p.Op + "`", n.Loc, true
		case "+":
			if o := OtherOperand(p, n); r.notString(o) {
				return possibly, "an operand of `+` (not a string concatenation)", n.Loc, true
			}
		case "in":
			if p.Y == n {
				return possibly, "the right operand of `in`", n.Loc, true
			}
		}
	case ast.JSUnary:
		switch p.Op {
		case "-", "+", "~":
			return possibly, "an operand of unary `" + p.Op + "`", n.Loc, true
		}
	case ast.JSUpdate:
		return possibly, "incremented", n.Loc, true
	case ast.JSAssign:
		if p.X == n {
			switch p.Op {
			case "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=":
				return possibly, "updated with `" + p.Op + "`", n.Loc, true
			case "+=":
				if p.Y != nil && p.Y.Kind == ast.JSNumber {
					return possibly, "updated with `+=` and a number", n.Loc, true
				}
			}
			return "", "", span, false
		}
		if p.Y == n && p.Op == "=" && p.X != nil && p.X.Kind == ast.JSIdent {
			if b := p.X.Resolve(); b != nil && b.Decl != nil && b.Decl.Kind == ast.JSDeclarator && b.Ident != nil {
				end := b.Decl.Loc.End
				if b.Decl.Y != nil {
					end = b.Decl.Y.Loc.Start
				}
				if r.annotated(b.Ident.Loc.End, end) {
					return "TS2322", "assigned to a variable whose type does not take undefined", p.X.Loc, true
				}
			}
		}
	case ast.JSForIn:
		if p.Op == "of" && p.Y == n {
			return possibly, "iterated", n.Loc, true
		}
	case ast.JSSpread:
		if len(up) > 1 && up[len(up)-2].Kind == ast.JSArray {
			return "TS2488", "spread into an array", n.Loc, true
		}
	case ast.JSReturn:
		if p.X == n && r.returnsType(up) {
			return "TS2322", "returned from a function whose return type does not take undefined", p.Loc, true
		}
	case ast.JSArrow:
		if p.Y == n && p.Has(ast.FlagExprBody) && r.declaresReturn(p) {
			return "TS2322", "returned from a function whose return type does not take undefined", n.Loc, true
		}
	}
	return "", "", span, false
}

// notString reports an operand of `+` that is no string for sure, so that
// undefined on the other side is an error: a number, arithmetic, or a value
// the flag makes possibly undefined (an index read, a variable holding
// one). Another operand may be a string: not counted.
func (r *indexReader) notString(o *ast.JSNode) bool {
	switch {
	case o == nil:
		return false
	case o.Kind == ast.JSNumber:
		return true
	case o.Kind == ast.JSBinary:
		switch o.Op {
		case "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^":
			return true
		}
	case o.Kind == ast.JSUnary:
		return o.Op == "-" || o.Op == "~"
	case o.Kind == ast.JSMember:
		return r.affected(o) && !r.wrapped(o)
	case o.Kind == ast.JSIdent:
		h := r.held[o.Resolve()]
		return h != nil && !h.guarded && !r.wrapped(o)
	}
	return false
}

// returnsType reports whether the function a return statement (the last
// of up) belongs to declares its return type.
func (r *indexReader) returnsType(up []*ast.JSNode) bool {
	for i := len(up) - 2; i >= 0; i-- {
		if fn := up[i]; fn.Kind == ast.JSFunction || fn.Kind == ast.JSArrow {
			return !fn.Has(ast.FlagGenerator) && r.declaresReturn(fn)
		}
	}
	return false
}

// declaresReturn reports a `: T` between a function's parameters and its
// body.
func (r *indexReader) declaresReturn(fn *ast.JSNode) bool {
	if fn.Y == nil || fn.Y.Loc.Start <= fn.Loc.Start {
		return false
	}
	head := r.f.Text[fn.Loc.Start:fn.Y.Loc.Start]
	if fn.Kind == ast.JSArrow {
		i := bytes.LastIndex(head, []byte("=>"))
		if i < 0 {
			return false
		}
		head = head[:i]
	}
	i := bytes.LastIndexByte(head, ')')
	return i >= 0 && bytes.IndexByte(head[i:], ':') >= 0
}

// guardedRead reports an index read that an enclosing condition tests
// (the same text in the test of an if, while, `?:` or the left of `&&`
// and `||`), or that a preceding `if (...) return` (throw, continue,
// break) of an enclosing block tests.
func (r *indexReader) guardedRead(n *ast.JSNode, up []*ast.JSNode) bool {
	text := r.f.Text[n.Loc.Start:n.Loc.End]
	mentions := func(t *ast.JSNode) bool {
		return t != nil && t.Loc.Start <= t.Loc.End && t.Loc.End <= len(r.f.Text) && bytes.Contains(r.f.Text[t.Loc.Start:t.Loc.End], text)
	}
	child := n
	for i := len(up) - 1; i >= 0; i-- {
		a := up[i]
		switch a.Kind {
		case ast.JSIf, ast.JSCond, ast.JSWhile:
			if child != a.X && mentions(a.X) {
				return true
			}
		case ast.JSBinary:
			if (a.Op == "&&" || a.Op == "||") && child == a.Y && mentions(a.X) {
				return true
			}
		case ast.JSBlock, ast.JSProgram:
			for _, st := range a.List {
				if st == child || st.Loc.Start >= child.Loc.Start {
					break
				}
				if st.Kind == ast.JSIf && mentions(st.X) && exits(st.Y) {
					return true
				}
			}
		}
		child = a
	}
	return false
}

// templateGuard reports a template expression inside an element that a
// v-if or v-else-if (of it or an ancestor, or of an earlier sibling for
// v-else) tests with the text given: the checker narrows there.
func (r *indexReader) templateGuard(tx *ast.TemplateExpr, text []byte) bool {
	if tx == nil {
		return false
	}
	tests := func(e *ast.Element) bool {
		for _, a := range e.Attrs {
			if (a.Directive == "if" || a.Directive == "else-if") && a != tx.Attr && strings.Contains(a.Value, string(text)) {
				return true
			}
		}
		return false
	}
	for e := tx.Element; e != nil; e = e.Parent {
		if tests(e) {
			return true
		}
		if e.Parent == nil {
			continue
		}
		conditional := false
		for _, a := range e.Attrs {
			conditional = conditional || a.Directive == "else" || a.Directive == "else-if"
		}
		if !conditional {
			continue
		}
		// v-else: the siblings before it, back to the v-if.
		for _, sib := range e.Parent.Children {
			if sib == e {
				break
			}
			if tests(sib) {
				return true
			}
		}
	}
	return false
}

// exits reports a statement that leaves the block: return, throw,
// continue, break, or a block that ends with one.
func exits(st *ast.JSNode) bool {
	if st == nil {
		return false
	}
	switch st.Kind {
	case ast.JSReturn, ast.JSThrow, ast.JSContinue, ast.JSBreak:
		return true
	case ast.JSBlock:
		return len(st.List) > 0 && exits(st.List[len(st.List)-1])
	}
	return false
}

func (r *indexReader) add(span, read ast.Span, code, what string) {
	r.out = append(r.out, IndexRead{Span: span, Read: read, Code: code, What: what})
}

// MaybeIndexRead reports text that may hold an index read used where
// undefined is an error, read from the text alone (a file without one is
// neither parsed nor walked for FW851): a `[` after an identifier, `)`
// or `]` (not `[]`, a type's) whose `]` is followed by `.name`, `(`, `[`,
// an arithmetic or order operator, or that follows `=` (a declaration or
// assignment), `return`, `of`, `in`, an operator or a spread; or an array
// destructured by a declaration (`const [a, b] =`).
func MaybeIndexRead(src []byte) bool {
	if bytes.Contains(src, []byte("const [")) || bytes.Contains(src, []byte("let [")) {
		return true
	}
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], '[')
		if j < 0 {
			return false
		}
		i += j
		if i == 0 || i+1 >= len(src) || src[i+1] == ']' {
			continue
		}
		if c := src[i-1]; c == ')' || c == ']' || identChar(c) {
			if unguardedAt(src, i) {
				return true
			}
		}
	}
}

// unguardedAt judges the index read whose `[` is at open (see
// MaybeIndexRead).
func unguardedAt(src []byte, open int) bool {
	depth, end := 0, -1
	for j := open; j < len(src) && j < open+200; j++ {
		switch src[j] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		}
		if depth == 0 {
			end = j
			break
		}
	}
	if end < 0 {
		return false
	}
	j := end + 1
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	if j < len(src) {
		next := byte(0)
		if j+1 < len(src) {
			next = src[j+1]
		}
		switch c := src[j]; c {
		case '.':
			return next == '_' || next == '$' || next >= 'a' && next <= 'z' || next >= 'A' && next <= 'Z'
		case '(', '[', '*', '/', '%', '-', '<', '>', '^', '+':
			return true
		case '&':
			return next != '&'
		case '|':
			return next != '|'
		case '=', '!', '?':
			return false
		}
	}
	// What precedes the object: skip back over it.
	k := open
	for k > 0 {
		c := src[k-1]
		if c == '_' || c == '$' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			k--
			continue
		}
		break
	}
	if k+3 <= open && string(src[k:k+3]) == "..." {
		return true // a spread
	}
	for k > 0 && (src[k-1] == ' ' || src[k-1] == '\t') {
		k--
	}
	if k == 0 {
		return false
	}
	switch src[k-1] {
	case '=':
		return k < 2 || !bytes.ContainsRune([]byte("=!<>"), rune(src[k-2]))
	case '*', '/', '%', '-', '<', '>', '~':
		return true
	}
	for _, w := range []string{"return", "of", "in"} {
		if k >= len(w) && string(src[k-len(w):k]) == w && (k == len(w) || !identChar(src[k-len(w)-1])) {
			return true
		}
	}
	return false
}

func identChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
