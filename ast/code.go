package ast

import "sync"

// The code reader's syntax tree: every statement and expression of a
// script, with exact byte spans in the file read. See doc.go for the API
// in one page.

// JSKind is the kind of a JSNode. Which fields a kind uses is listed with
// each constant; fields a kind does not list are zero.
type JSKind uint8

const (
	JSBad JSKind = iota // never produced; the zero value

	// ---- programs and statements ----
	JSProgram    // List: statements
	JSVar        // Op: "var", "let", "const", "using", "await using"; List: JSDeclarator
	JSDeclarator // X: the target (a pattern); Y: the initializer or nil
	JSExprStmt   // X
	JSBlock      // List: statements
	JSEmpty      // ;
	JSIf         // X: test; Y: then; Z: else or nil
	JSFor        // X: init (JSVar, expression or nil); Y: test or nil; Z: update or nil; Body: [statement]
	JSForIn      // Op: "in" or "of"; X: left (JSVar or pattern); Y: right; Body: [statement]; FlagAwait for `for await`
	JSWhile      // X: test; Y: body
	JSDoWhile    // X: body; Y: test
	JSReturn     // X: value or nil
	JSThrow      // X
	JSBreak      // Name: label or ""
	JSContinue   // Name: label or ""
	JSLabeled    // Name: label; X: statement
	JSSwitch     // X: discriminant; List: JSCase
	JSCase       // X: test (nil for default); List: statements
	JSTry        // X: block; Y: JSCatch or nil; Z: finally block or nil
	JSCatch      // X: parameter pattern or nil; Y: block
	JSDebugger   //
	JSWith       // X: object; Y: body
	JSImport     // Name: the source's value; X: the source string; List: JSSpecifier; FlagType for `import type`
	JSExport     // `export default X` (FlagDefault), `export <declaration X>`, `export { List } [from Y]`, `export * [as Name] from Y`
	JSSpecifier  // Name: the name outside the module (imported, or exported as; "default", "*"); Local: the name inside; Y: the local JSIdent (a binding for imports, a reference for local exports) or nil; FlagType
	JSTypeDecl   // a TypeScript declaration without run-time value or read here only as a span: interface, type, declare ..., namespace, abstract members, overloads, `export =`; Name: its name when it has one

	// ---- functions and classes ----
	JSFunction // Name: name or ""; X: the name's JSIdent or nil; List: parameters (patterns); Y: body (JSBlock) or nil for a declaration without body; FlagDecl, FlagAsync, FlagGenerator
	JSArrow    // List: parameters; Y: body (JSBlock, or the expression for FlagExprBody); FlagAsync
	JSClass    // Name; X: the name's JSIdent or nil; Y: the superclass or nil; List: members (JSProperty: methods have a JSFunction value; fields a value or nil; JSBlock for static blocks); FlagDecl

	// ---- expressions ----
	JSIdent    // Name. A reference or a binding (FlagDecl); see Code.RefOf
	JSThis     //
	JSSuper    //
	JSMeta     // Name: "import.meta", "new.target" or "import" (the callee of import(...))
	JSString   // Name: the value (escapes decoded)
	JSNumber   // Name: the source text (also BigInt)
	JSRegExp   // Name: the source text
	JSBool     // Name: "true" or "false"
	JSNull     //
	JSTemplate // X: the tag or nil; List: substitutions; Name: the cooked text when it has no substitution
	JSArray    // List: elements (nil for holes; JSSpread for ...x)
	JSObject   // List: JSProperty and JSSpread
	JSProperty // Name: the key when static (identifier, string or number key; "" when computed); NameLoc: the key's span; X: the computed key expression or nil (FlagComputed); Y: the value (JSFunction for methods, getters and setters; the JSIdent for a shorthand; the target in a pattern; nil for a class field without value); Op: "" (init), "get", "set", "method", "shorthand"; FlagStatic in classes
	JSSpread   // X: the argument (also a rest element of a pattern)
	JSDefault  // X: the target; Y: the default value (`a = 1` in a pattern or parameter list)
	JSCall     // X: callee; List: arguments; FlagOptional for `f?.()`. Type arguments are skipped
	JSNew      // X: callee; List: arguments
	JSMember   // X: object; Name: the property for `.name` (NameLoc its span); Y: the index for `[expr]` (FlagComputed); FlagOptional for `?.`
	JSAssign   // Op: "=", "+=", "||=", ...; X: target (expression or pattern); Y: value
	JSUpdate   // Op: "++" or "--"; X: operand; FlagPrefix
	JSUnary    // Op: "!", "-", "+", "~", "typeof", "void", "delete"; X: operand
	JSAwait    // X
	JSYield    // X or nil; FlagDelegate for yield*
	JSBinary   // Op: "===", "+", "&&", "??", "in", "instanceof", ...; X, Y
	JSCond     // X: test; Y: consequent; Z: alternate
	JSSeq      // List
	JSJSX      // a JSX element: Name: tag ("" for a fragment); List: attributes (JSProperty with Y the value: JSString, an expression, a JSJSX, or nil; JSSpread); Body: children that are elements or {expressions}
)

var jsKindNames = [...]string{"bad", "program", "var", "declarator", "exprstmt", "block", "empty", "if", "for", "forin",
	"while", "dowhile", "return", "throw", "break", "continue", "labeled", "switch", "case", "try", "catch", "debugger",
	"with", "import", "export", "specifier", "typedecl", "function", "arrow", "class", "ident", "this", "super", "meta",
	"string", "number", "regexp", "bool", "null", "template", "array", "object", "property", "spread", "default",
	"call", "new", "member", "assign", "update", "unary", "await", "yield", "binary", "cond", "seq", "jsx"}

func (k JSKind) String() string {
	if int(k) < len(jsKindNames) {
		return jsKindNames[k]
	}
	return "unknown"
}

// JSFlags are boolean facts about a JSNode.
type JSFlags uint16

const (
	FlagDecl      JSFlags = 1 << iota // a declaration: function or class declaration; an identifier that declares a binding
	FlagAsync                         // async function or arrow
	FlagGenerator                     // function*
	FlagExprBody                      // an arrow whose body is an expression
	FlagComputed                      // member `a[x]`, property `[x]: v`
	FlagOptional                      // `?.`
	FlagPrefix                        // ++x
	FlagDefault                       // export default
	FlagType                          // import type / export type / a type-only specifier
	FlagStatic                        // a static class member
	FlagAwait                         // for await
	FlagDelegate                      // yield*
	FlagStar                          // export * from
)

// JSNode is a node of the code reader's tree. Kind says which fields it
// uses (see the JSKind constants). TypeScript syntax that has no run-time
// meaning (type annotations and arguments, `as`, `satisfies`, `!`, `<T>x`,
// decorators) is not in the tree: expressions under it are, so that
// `(data.value as Post[]).push(x)` is a call whose callee's object is the
// member `data.value`. Parentheses are not nodes either; a node's span
// does not include parentheses around it (its parent's does).
type JSNode struct {
	Kind    JSKind
	Flags   JSFlags
	Loc     Span
	NameLoc Span
	Op      string
	Name    string
	Local   string
	X, Y, Z *JSNode
	List    []*JSNode
	Body    []*JSNode
	// ref is the binding an identifier resolves to (nil: global or not an
	// identifier), set by the scope analysis.
	ref *Ref
}

// Has reports whether all of flags are set.
func (n *JSNode) Has(flags JSFlags) bool { return n != nil && n.Flags&flags == flags }

// children appends n's children in source order.
//
// A kind keeps its children in fields whose order in the source is fixed
// for the kind (a call's callee X precedes its arguments List, a for's
// Body follows X, Y, Z, an arrow's parameters List precede its body Y):
// they are appended in that order and checked to be strictly increasing
// by start, one comparison per child. Every tree the parser makes passes
// (TestChildOrder); a node that does not (children starting at the same
// offset, as zero-width nodes of a partial tree can, or fields the kind
// does not use) takes the general order instead: X, Y, Z, List, Body,
// sorted stably by start. Either way the result is that sort, which the
// walk did on every node before; now a node's children are not sorted.
func (n *JSNode) children(out []*JSNode) []*JSNode {
	if out, ok := n.kindChildren(out); ok {
		return out
	}
	return n.sortedChildren(out)
}

// kindChildren appends n's children in its kind's order; ok is false, and
// out unchanged, when they are not strictly increasing by start in it.
func (n *JSNode) kindChildren(out []*JSNode) (_ []*JSNode, ok bool) {
	base := len(out)
	switch {
	case n.Kind == JSArrow && n.X == nil && n.Z == nil && len(n.Body) == 0: // parameters, body
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	case n.Kind == JSFunction && n.Z == nil && len(n.Body) == 0: // name, parameters, body
		out = appendKid(out, n.X)
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	case n.Kind == JSImport && n.Y == nil && n.Z == nil && len(n.Body) == 0: // specifiers, source
		out = appendKids(out, n.List)
		out = appendKid(out, n.X)
	case n.Kind == JSExport && n.Z == nil && len(n.Body) == 0: // declaration or value, specifiers, source
		out = appendKid(out, n.X)
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	default:
		out = n.appendFields(out)
	}
	kids := out[base:]
	for i := 1; i < len(kids); i++ {
		if kids[i].Loc.Start <= kids[i-1].Loc.Start {
			return out[:base], false
		}
	}
	return out, true
}

// appendFields appends n's children in the general order of its fields:
// X, Y, Z, List, Body.
func (n *JSNode) appendFields(out []*JSNode) []*JSNode {
	out = appendKid(out, n.X)
	out = appendKid(out, n.Y)
	out = appendKid(out, n.Z)
	out = appendKids(out, n.List)
	return appendKids(out, n.Body)
}

func appendKid(out []*JSNode, c *JSNode) []*JSNode {
	if c != nil {
		out = append(out, c)
	}
	return out
}

func appendKids(out, list []*JSNode) []*JSNode {
	for _, c := range list {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// sortedChildren appends n's children in the general order: the fields
// X, Y, Z, List, Body, sorted stably by start.
func (n *JSNode) sortedChildren(out []*JSNode) []*JSNode {
	base := len(out)
	out = n.appendFields(out)
	kids := out[base:]
	for i := 1; i < len(kids); i++ {
		for j := i; j > 0 && kids[j].Loc.Start < kids[j-1].Loc.Start; j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
	return out
}

// walkBuf is the memory of one walk: the ancestors, the children of every
// node on the stack, and the frames. Walks take one from walkBufs and
// give it back, so that a walk allocates nothing once the pool is warm
// (the code rules walk many small trees: every template expression is
// one).
type walkBuf struct {
	ancestors []*JSNode
	kids      []*JSNode
	frames    []walkFrame
}

type walkFrame struct{ lo, hi, next int }

var walkBufs = sync.Pool{New: func() any {
	return &walkBuf{ancestors: make([]*JSNode, 0, 32), kids: make([]*JSNode, 0, 128), frames: make([]walkFrame, 0, 32)}
}}

// WalkJS calls fn for n and every node below it, in source order. stack
// holds the ancestors of the node, outermost first (the slice is reused:
// copy it to keep it). When fn returns false, the nodes below that node
// are not visited.
func WalkJS(n *JSNode, fn func(n *JSNode, stack []*JSNode) bool) {
	if n == nil || !fn(n, nil) {
		return
	}
	if n.X == nil && n.Y == nil && n.Z == nil && len(n.List) == 0 && len(n.Body) == 0 {
		return // a leaf: an identifier, a string, a number
	}
	// An explicit stack (a tree as deep as the parser allows must not
	// overflow Go's), and one buffer for the children of every node on it.
	buf := walkBufs.Get().(*walkBuf)
	ancestors := append(buf.ancestors[:0], n)
	kids := n.children(buf.kids[:0])
	frames := append(buf.frames[:0], walkFrame{0, len(kids), 0})
	// The high-water marks of ancestors and kids, cleared at the end.
	hiAnc, hiKids := 1, len(kids)
	for len(frames) > 0 {
		top := &frames[len(frames)-1]
		if top.next >= top.hi {
			kids = kids[:top.lo]
			frames = frames[:len(frames)-1]
			ancestors = ancestors[:len(ancestors)-1]
			continue
		}
		c := kids[top.next]
		top.next++
		if !fn(c, ancestors) {
			continue
		}
		lo := len(kids)
		kids = c.children(kids)
		if len(kids) == lo {
			continue // no children: no frame to push and pop
		}
		frames = append(frames, walkFrame{lo, len(kids), lo})
		ancestors = append(ancestors, c)
		hiAnc, hiKids = max(hiAnc, len(ancestors)), max(hiKids, len(kids))
	}
	// Clear the pointers, so that a pooled buffer keeps no tree alive.
	clear(ancestors[:hiAnc])
	clear(kids[:hiKids])
	buf.ancestors, buf.kids, buf.frames = ancestors[:0], kids[:0], frames[:0]
	walkBufs.Put(buf)
}

// Unawait returns the expression under await: `await f()` -> `f()`. (The
// tree has no parentheses or TypeScript wrappers to see through.)
func Unawait(n *JSNode) *JSNode {
	for n != nil && n.Kind == JSAwait {
		n = n.X
	}
	return n
}

// CalleeName returns the name called by a call or new expression when the
// callee is an identifier or a member chain of identifiers (`useFetch`,
// `fw.hook`, `Object.assign`), "" otherwise. It sees through await.
func CalleeName(n *JSNode) string {
	n = Unawait(n)
	if n == nil || n.Kind != JSCall && n.Kind != JSNew {
		return ""
	}
	return MemberPath(n.X)
}

// MemberPath returns the dotted text of an identifier or of a member chain
// of static names (`route.meta.name`, `window.__FW__`, `a['b'].c` ->
// "a.b.c"), "" for anything else.
func MemberPath(n *JSNode) string {
	switch {
	case n == nil:
		return ""
	case n.Kind == JSIdent:
		return n.Name
	case n.Kind == JSThis:
		return "this"
	case n.Kind == JSMember:
		obj := MemberPath(n.X)
		if obj == "" {
			return ""
		}
		if n.Has(FlagComputed) {
			if n.Y == nil || n.Y.Kind != JSString {
				return ""
			}
			return obj + "." + n.Y.Name
		}
		return obj + "." + n.Name
	}
	return ""
}

// Returns returns the values returned by a function or arrow: the body of
// an expression arrow, else the values of the return statements of its
// body (not of nested functions). A bare `return` is not listed.
func Returns(fn *JSNode) []*JSNode {
	if fn == nil || fn.Kind != JSFunction && fn.Kind != JSArrow || fn.Y == nil {
		return nil
	}
	if fn.Has(FlagExprBody) {
		return []*JSNode{fn.Y}
	}
	var out []*JSNode
	WalkJS(fn.Y, func(n *JSNode, _ []*JSNode) bool {
		switch n.Kind {
		case JSFunction, JSArrow, JSClass:
			return false
		case JSReturn:
			if n.X != nil {
				out = append(out, n.X)
			}
		}
		return true
	})
	return out
}
