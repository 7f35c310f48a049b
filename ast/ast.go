// Package ast is fwmigrate's lossless parser for fw.config.* modules.
//
// esbuild's public Go API exposes no syntax tree (its parser lives in
// internal/), and its Transform re-prints code, losing comments and layout.
// A migration tool must edit the user's bytes in place, so this package keeps
// byte spans for every node it builds, keeps every comment, and records the
// file's style. esbuild is still the syntax gate: Parse validates the whole
// input with api.Transform first, and its messages are what users see for
// syntax errors.
//
// The package has one JavaScript grammar, the code reader's (codeparse.go):
// a config module is read once into its tree, which File.Code hands out,
// and File's nodes are a view of that tree (view.go). Only the config
// object is seen as fine-grained nodes (objects, arrays, literals); any
// other expression is an Expr: an exact span plus a hint of what it is.
// The view keeps what the tree leaves out and an edit needs: parentheses
// and casts around expressions, commas, and the comments, attached to the
// properties. Its statements give the exported config, the variables it
// may be bound to, and the statements that change it.
//
// File.Config is the object the module produces, as far as it is known
// without running it: through defineFwConfig, variables, a config function
// (async or not) whose body returns once, directly, and the plain
// assignments that follow the declaration (`config.ssr = false`), which
// are read into a copy of the literal. File.Literal is the literal as
// written, what edits change; File.Assigned tells the properties an
// assignment set.
// A config whose result is not known (a call, a conditional, a function
// with several returns or a return in a branch or a loop) has no Config:
// File.Reason says why.
package ast

import "sync"

// Span is a half-open byte range [Start, End) into File.Src.
type Span struct {
	Start, End int
}

// Len returns the span's length in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Kind is the syntactic kind of a value node.
type Kind uint8

const (
	KindObject Kind = iota
	KindArray
	KindString
	KindTemplate
	KindNumber
	KindBoolean
	KindNull
	KindIdent
	KindRegExp
	KindUnary // unary minus or plus applied to another node
	KindExpr  // any other expression: see Expr.Hint
)

var kindNames = [...]string{"object", "array", "string", "template", "number", "boolean", "null", "identifier", "regexp", "unary", "expr"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Node is a value in the config tree.
type Node interface {
	Span() Span
	Kind() Kind
}

// Object is an object literal `{...}`. Its span runs from `{` through `}`.
type Object struct {
	Loc   Span
	Props []*Property
	// TrailingComma reports a comma after the last property.
	TrailingComma bool
	// Dangling holds comments inside the braces that belong to no property:
	// the comments of an empty object, and comments after the last property
	// that are not on its line.
	Dangling []*Comment
}

// Array is an array literal `[...]`. Elements holds nil for holes (`[a,,b]`).
type Array struct {
	Loc           Span
	Elements      []Node
	TrailingComma bool
	// Spreads holds the indices of Elements written as `...x` (the element
	// node is then the spread's argument).
	Spreads []int
}

// IsSpread reports whether Elements[i] is written as `...x`.
func (a *Array) IsSpread(i int) bool {
	for _, s := range a.Spreads {
		if s == i {
			return true
		}
	}
	return false
}

// QuoteKind says how a string literal was quoted.
type QuoteKind uint8

const (
	QuoteSingle QuoteKind = iota
	QuoteDouble
)

// String is a string literal; Value has its escapes decoded.
type String struct {
	Loc   Span
	Value string
	Quote QuoteKind
}

// Template is a template literal. It is static when it has no
// substitutions; Value is then its cooked text.
type Template struct {
	Loc    Span
	Static bool
	Value  string // cooked value when Static
	// Tag is the span of a tag expression (`css\`...\``), empty when untagged.
	// A tagged template is never static.
	Tag Span
}

// Number is a numeric literal (including hex, octal, binary, separators,
// and BigInt, whose Value is then approximate and IsBigInt is set).
type Number struct {
	Loc      Span
	Value    float64
	Raw      string
	IsBigInt bool
}

// Boolean is `true` or `false`.
type Boolean struct {
	Loc   Span
	Value bool
}

// Null is `null`.
type Null struct {
	Loc Span
}

// Ident is a lone identifier used as a value (`undefined`, `isDev`, a
// shorthand property's value).
type Ident struct {
	Loc  Span
	Name string
}

// RegExp is a regular expression literal.
type RegExp struct {
	Loc     Span
	Pattern string
	Flags   string
}

// Unary is a unary `-` or `+` applied to another value (`-1`, `-Infinity`).
type Unary struct {
	Loc     Span
	Op      byte // '-' or '+'
	Operand Node
}

// Expr is any other expression: its exact span, a hint of its kind, and for
// transparent wrappers (parentheses, `as`, `satisfies`, `!`, `<T>x`) the
// wrapped node, so that static evaluation and lookups can see through them.
type Expr struct {
	Loc  Span
	Hint string
	// Inner is the wrapped node for the hints "paren", "as", "satisfies",
	// "nonnull" and "typeassert", and the argument for "spread"; nil
	// otherwise. Unwrap sees through the wrappers, not through spreads.
	Inner Node
	// Callee is the span of the callee for "call" and "new".
	Callee Span
	// Args holds the call's arguments for "call" and "new" when they were
	// parsed (a config wrapper such as `withMatrix({...})`).
	Args []Node
}

// Expression hints. Hints are advisory; the span is what matters.
const (
	HintParen       = "paren"
	HintAs          = "as"
	HintSatisfies   = "satisfies"
	HintNonNull     = "nonnull"
	HintTypeAssert  = "typeassert"
	HintCall        = "call"
	HintNew         = "new"
	HintMember      = "member" // a.b, a?.b, a[b]
	HintArrow       = "arrow"
	HintFunction    = "function"
	HintClass       = "class"
	HintConditional = "conditional"
	HintBinary      = "binary" // includes logical ||, &&, ??
	HintUnary       = "unary"  // !x, typeof x, void x, ~x, await x, ...
	HintTemplate    = "template"
	HintAssign      = "assign"
	HintSequence    = "sequence"
	HintSpread      = "spread" // ...x among call arguments or parenthesized items; Inner is x
	HintOther       = "other"
)

func (n *Object) Span() Span   { return n.Loc }
func (n *Array) Span() Span    { return n.Loc }
func (n *String) Span() Span   { return n.Loc }
func (n *Template) Span() Span { return n.Loc }
func (n *Number) Span() Span   { return n.Loc }
func (n *Boolean) Span() Span  { return n.Loc }
func (n *Null) Span() Span     { return n.Loc }
func (n *Ident) Span() Span    { return n.Loc }
func (n *RegExp) Span() Span   { return n.Loc }
func (n *Unary) Span() Span    { return n.Loc }
func (n *Expr) Span() Span     { return n.Loc }

func (n *Object) Kind() Kind   { return KindObject }
func (n *Array) Kind() Kind    { return KindArray }
func (n *String) Kind() Kind   { return KindString }
func (n *Template) Kind() Kind { return KindTemplate }
func (n *Number) Kind() Kind   { return KindNumber }
func (n *Boolean) Kind() Kind  { return KindBoolean }
func (n *Null) Kind() Kind     { return KindNull }
func (n *Ident) Kind() Kind    { return KindIdent }
func (n *RegExp) Kind() Kind   { return KindRegExp }
func (n *Unary) Kind() Kind    { return KindUnary }
func (n *Expr) Kind() Kind     { return KindExpr }

// KeyKind says how a property key was written.
type KeyKind uint8

const (
	KeyIdent    KeyKind = iota // foo
	KeyString                  // 'foo' or "foo"
	KeyNumber                  // 1
	KeyComputed                // [expr]
	KeyNone                    // spread: no key
)

// PropKind says what form a property has.
type PropKind uint8

const (
	PropInit      PropKind = iota // key: value
	PropShorthand                 // key
	PropMethod                    // key() {}, async key() {}, *key() {}
	PropGetter                    // get key() {}
	PropSetter                    // set key(v) {}
	PropSpread                    // ...expr
)

var propKindNames = [...]string{"init", "shorthand", "method", "getter", "setter", "spread"}

func (k PropKind) String() string {
	if int(k) < len(propKindNames) {
		return propKindNames[k]
	}
	return "unknown"
}

// Property is one member of an Object.
//
// Loc covers the property itself: from the first byte of its key (or of
// `...`, `get`, `async`, `*`) through the last byte of its value, without the
// separating comma and without comments. The extent to remove when deleting
// the property, comments and comma included, is given by Extent.
type Property struct {
	Loc     Span
	Kind    PropKind
	KeyKind KeyKind
	// Key is the property name with quotes removed and escapes decoded; a
	// numeric key is in canonical form (`0x10` -> "16"). Empty for computed
	// keys and spreads.
	Key     string
	KeySpan Span
	// Value is the property's value: for PropInit the value expression, for
	// PropShorthand an Ident, for PropSpread the spread argument. Nil for
	// methods, getters and setters (their body is not a value).
	Value Node
	// Leading are the comments on the lines between the previous property's
	// comma (or the object's `{`) and this property, in source order.
	Leading []*Comment
	// Trailing is a comment on the same line after the property (and after
	// its comma when the comma is on that line), nil when there is none.
	Trailing *Comment
	// Comma is the byte offset of the comma that follows the property, or -1.
	Comma int
	// Parent is the object holding this property.
	Parent *Object
}

// Mutation is one change to the bound config, found in a statement of
// File.Mutations.
type Mutation struct {
	// Stmt is the top-level statement that holds it (one of File.Mutations).
	Stmt Span
	// Loc is the expression that writes: the assignment, update, delete or
	// call.
	Loc Span
	// Path is the member path written below the binding:
	// `c.future.x = 1` -> [future x]; `c.modules.push(m)` -> [modules];
	// `delete c['ssr']` -> [ssr]; `Object.assign(c, { ssr: false })` ->
	// [ssr] (one Mutation for each key of the literal).
	Path Path
	// Dynamic reports a shape that does not tell which key changes past
	// Path: a computed member (`c[k] = 1` -> Path nil; `c.a[k] = 1` ->
	// Path [a]), Object.assign with an argument that is not an object
	// literal or has a spread or computed key, Object.defineProperties and
	// Object.setPrototypeOf, a mutating method called on the binding itself
	// (`c.set(...)`), a reassignment of the binding. Any key below Path may
	// change.
	Dynamic bool
	// Read reports a write whose result is statically known and is in
	// File.Config: a statement `config.a.b = value` on its own, directly in
	// the config's scope, reaching objects the config has as literals, with
	// no unknown write to the same top-level key before it.
	Read bool
}

// Comment is a `// line` or `/* block */` comment. Text is the raw source,
// delimiters included.
type Comment struct {
	Loc   Span
	Text  string
	Block bool
}

// ExportKind says how the config is exported.
type ExportKind uint8

const (
	ExportNone          ExportKind = iota // no export found
	ExportDefault                         // export default ...
	ExportModuleExports                   // module.exports = ...
)

// Style is the file's detected formatting, for code that inserts text.
type Style struct {
	// Indent is one indentation unit: "  ", "    " or "\t" (default "  ").
	Indent string
	// Quote is the preferred string quote, '\'' or '"' (default '\'').
	Quote byte
	// TrailingCommas reports that multi-line objects and arrays end with a
	// comma after their last element (majority vote; default false).
	TrailingCommas bool
	// Semicolons reports that top-level statements end with `;` (majority
	// vote; false when the file has no statement to judge by).
	Semicolons bool
	// EOL is "\n" or "\r\n", the file's dominant line ending.
	EOL string
	// BOM reports a UTF-8 byte order mark at the start of Src.
	BOM bool
	// FinalNewline reports that the file ends with a line ending.
	FinalNewline bool
}

// File is a parsed config module.
type File struct {
	Name string
	// Src is the input exactly as given (BOM included); every span indexes it.
	Src []byte

	// Config is the config object, or nil when the exported config is not
	// an object literal Parse can see; Reason then says why, at ReasonSpan.
	// It is the object the module produces: when statements after the
	// declaration assign to it (`config.ssr = false`, Writes with Read),
	// Config is a copy of the literal holding those properties too (their
	// Assigned is set), with the literal's Loc.
	Config *Object
	// Literal is the object literal Config is read from, as written: what
	// an edit of the config changes. It is Config itself when no assignment
	// was read into Config; nil when Config is.
	Literal    *Object
	Reason     string
	ReasonSpan Span

	// Export is how the config is exported and ExportSpan the exported
	// expression (`defineFwConfig({...})`, `config`, ...), empty when none.
	Export     ExportKind
	ExportSpan Span
	// ExportValue is the exported expression as parsed, nil when none. When
	// it is not a literal (`withMatrix({...})`), it is still there to look
	// into: a call keeps its Args.
	ExportValue Node
	// DefineCall is the span of the `defineFwConfig(...)` call around the
	// object, empty when the object is exported without it.
	DefineCall Span
	// Function is the config function whose result Config is (`export
	// default async () => { ...; return {...} }`), empty when the config
	// is not behind a function.
	Function Span
	// Binding is the name of the top-level const/let the object is bound to
	// when it is exported through a variable, "" otherwise.
	Binding string
	// Mutations are top-level statements that change the bound config after
	// its declaration (`config.ssr = false`, an if-block assigning to it,
	// Object.assign(config, ...)): what the config ends up holding is then
	// more than the literal shows.
	Mutations []Span
	// Writes are the changes those statements make, one for each site, in
	// source order: what a caller asks when it wants to know which key a
	// mutation may change.
	Writes []Mutation

	// Comments holds every comment in the file, in source order.
	Comments []*Comment
	Style    Style

	// Lines is Src's line table: LineStart and Position.
	Lines

	text     string             // Src as a string, for zero-copy substrings
	assigned map[*Property]Span // see Assigned
	code     *Code              // the tree the config is a view of (see Code)
	codeOnce *sync.Once         // resolves code's names (see Code)
}

// Position is a 1-based line and column. Column counts bytes; ColumnUTF16
// counts UTF-16 code units (what SARIF and LSP editors use). A BOM at the
// start of the file is not counted in columns.
type Position struct {
	Line        int
	Column      int
	ColumnUTF16 int
}
