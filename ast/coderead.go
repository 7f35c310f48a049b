package ast

import (
	"math"
	"path"
	"strings"
)

// Code is an application or module file read by the code reader: a script
// (.ts, .js, .mjs, .cjs, .mts, .cts, .tsx, .jsx) or a single-file
// component (.vue).
type Code struct {
	Name string
	// Src is the input exactly as given; every span indexes it (also the
	// spans of a .vue file's blocks and template).
	Src []byte
	// Scripts holds one Script for a script file, and one for each
	// <script> block of a .vue file, in source order.
	Scripts []*Script
	// Blocks are the top-level blocks of a .vue file (nil for a script).
	Blocks []SFCBlock
	// Template is the <template> of a .vue file, nil when it has none.
	Template *VueTemplate
	// Module is the module scope: the top-level bindings of the script (of
	// both script blocks of a .vue file, which compile to one module).
	Module *Scope
	// Refs are the identifier references of the file, in source order
	// within each script block and then in the template: each is resolved
	// to its binding, or to none (a global).
	Refs []*Ref

	f    *File
	slab []JSNode // nodes not yet handed out, shared by the parsers of the file
}

// Script is one script of a Code: a script file, or a <script> block.
type Script struct {
	// Block is the .vue block it was read from, nil for a script file.
	Block *SFCBlock
	Setup bool // <script setup>
	TS    bool // TypeScript syntax (.ts, .mts, .cts, .tsx; lang="ts" or "tsx")
	JSX   bool // JSX syntax (.tsx, .jsx; lang="tsx" or "jsx")
	// Program is the tree of the script (JSProgram); its span is the
	// script's (the block's content).
	Program *JSNode
}

// ScopeKind is the kind of a Scope.
type ScopeKind uint8

const (
	ScopeModule   ScopeKind = iota // a module's top level
	ScopeFunction                  // a function or arrow: parameters and var
	ScopeBlock                     // a block, for, switch, catch or class
	ScopeTemplate                  // a template element with v-for or slot props
)

// Scope is a region of code whose declarations its identifiers see.
type Scope struct {
	Kind   ScopeKind
	Node   *JSNode // the node that opens it (nil for template scopes)
	Parent *Scope
	// Bindings are the names declared in it.
	Bindings map[string]*Binding
}

// Lookup resolves name from s outwards; nil when no scope declares it.
func (s *Scope) Lookup(name string) *Binding {
	for ; s != nil; s = s.Parent {
		if b := s.Bindings[name]; b != nil {
			return b
		}
	}
	return nil
}

func (s *Scope) declare(b *Binding) {
	if s.Bindings == nil {
		s.Bindings = make(map[string]*Binding)
	}
	if old := s.Bindings[b.Name]; old != nil && (old.Kind == BindVar || old.Kind == BindFunction || old.Kind == BindParam) {
		// `var x` twice, a var and a function: one variable. The first
		// declaration stands.
		return
	}
	s.Bindings[b.Name] = b
	b.Scope = s
}

// BindingKind says how a binding is declared.
type BindingKind uint8

const (
	BindVar      BindingKind = iota // var
	BindLet                         // let
	BindConst                       // const, using
	BindFunction                    // a function declaration, or a function expression's own name
	BindClass                       // a class declaration, or a class expression's own name
	BindParam                       // a parameter
	BindCatch                       // a catch parameter
	BindImport                      // an import
	BindEnum                        // a TypeScript enum or namespace
	BindTemplate                    // a v-for alias or slot prop of a template
)

var bindingKindNames = [...]string{"var", "let", "const", "function", "class", "param", "catch", "import", "enum", "template"}

func (k BindingKind) String() string {
	if int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return "unknown"
}

// Binding is a declared name.
type Binding struct {
	Name  string
	Kind  BindingKind
	Scope *Scope
	// Ident is the declaring identifier.
	Ident *JSNode
	// Decl is the declaration: a JSDeclarator (var, let, const), the
	// JSFunction or JSClass (declarations and own names), the function or
	// arrow of a parameter, the JSCatch, the JSSpecifier of an import, the
	// JSTypeDecl of an enum, the alias or props pattern of a template
	// binding.
	Decl *JSNode
	// Init is the value the declaration binds the pattern to: the
	// declarator's initializer (`const { data } = await useFetch()` ->
	// the await), the v-for source (`item in list` -> list); nil otherwise.
	Init *JSNode
	// Path is where the identifier sits in the declared pattern: nil for a
	// plain name; `const { data: d } = x` -> [data]; `const [a, b] = x` ->
	// b: [1]; a rest element ends in "...". A computed key makes it stop
	// with "[]".
	Path []string
	// Refs are the references that resolve to it, in source order.
	Refs []*Ref
}

// Ref is an identifier that refers to a binding (or to a global).
type Ref struct {
	Ident   *JSNode
	Binding *Binding // nil: a global, or a name no scope declares
	Read    bool     // the reference reads the value
	Write   bool     // the reference assigns it (`x = 1`, `x++`, `[x] = a`, `for (x of a)`)
}

// Ref returns the reference an identifier is, nil for an identifier that
// declares a binding (see DeclBinding) and for any other node.
func (n *JSNode) Ref() *Ref {
	if n == nil || n.Kind != JSIdent {
		return nil
	}
	return n.ref
}

// DeclBinding returns the binding a declaring identifier declares (nil
// for other nodes).
func (n *JSNode) DeclBinding() *Binding {
	if n == nil || n.Kind != JSIdent || n.ref == nil || n.ref.Ident != n || n.ref.Binding == nil || n.ref.Binding.Ident != n {
		return nil
	}
	return n.ref.Binding
}

// Resolve returns the binding an identifier refers to or declares, nil for
// a global and for any other node.
func (n *JSNode) Resolve() *Binding {
	if n == nil || n.Kind != JSIdent || n.ref == nil {
		return nil
	}
	return n.ref.Binding
}

// Position returns the line and column of a byte offset of the file.
func (c *Code) Position(offset int) Position { return c.f.Position(offset) }

// Text returns the source text of a span.
func (c *Code) Text(s Span) string { return c.f.Text(s) }

// scriptLang says whether a file name or a block's lang is TypeScript and
// JSX; ok is false for one the reader does not read.
func scriptLang(ext string) (ts, jsx, ok bool) {
	switch ext {
	case "", "js", "mjs", "cjs", "javascript":
		return false, false, true
	case "jsx":
		return false, true, true
	case "ts", "mts", "cts", "typescript":
		return true, false, true
	case "tsx":
		return true, true, true
	}
	return false, false, false
}

// ReadCode reads a script or a .vue file (by its extension). It never
// panics or hangs. On input it cannot read fully (a syntax error, the
// nesting limit, a script in a language it does not read) it returns a
// *SyntaxError with the position, together with what it could read (a
// .vue file's other blocks); a caller must not edit a file that gave an
// error. esbuild is not run: the reader is the parser of read-only
// analysis (the edits it leads to are validated by esbuild when written).
// The Code keeps src, which must not be modified afterwards (NewFile).
func ReadCode(name string, src []byte) (*Code, error) {
	if len(src) > math.MaxInt32 {
		return nil, &SyntaxError{File: name, Line: 1, Column: 1, Text: "The file is too large (more than 2 GiB)"}
	}
	c := &Code{Name: name, Src: src, f: NewFile(name, src)}
	c.Module = &Scope{Kind: ScopeModule}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	if ext == "vue" {
		return c, c.readVue()
	}
	ts, jsx, ok := scriptLang(ext)
	if !ok {
		ts = true
	}
	start := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		start = 3
	}
	s := &Script{TS: ts, JSX: jsx}
	err := c.readScript(s, Span{start, len(src)})
	c.Scripts = append(c.Scripts, s)
	return c, err
}

// readScript parses the script in span into s.Program and resolves its
// names in the module scope.
func (c *Code) readScript(s *Script, span Span) error {
	p := &parser{f: c.f, text: c.f.text, ts: s.TS, exportStmt: -1}
	p.code.jsx = s.JSX
	p.code.slab = c.slab
	defer func() { c.slab = p.code.slab }()
	p.l = lexerIn(c.f, span)
	// A hashbang line is not a comment.
	if span.Start+1 < len(c.Src) && c.Src[span.Start] == '#' && c.Src[span.Start+1] == '!' {
		for p.l.pos < span.End && c.Src[p.l.pos] != '\n' && c.Src[p.l.pos] != '\r' {
			p.l.pos++
		}
	}
	p.next()
	prog := p.cProgram(span.Start, span.End)
	if p.failed() {
		return p.syntaxError()
	}
	s.Program = prog
	r := resolver{code: c}
	r.resolve(prog, c.Module, true)
	return nil
}

func (c *Code) readVue() error {
	blocks, complete := SFCBlocks(c.Src)
	c.Blocks = blocks
	var firstErr error
	for i := range c.Blocks {
		b := &c.Blocks[i]
		if b.Tag != "script" || b.SelfClosing || b.Src.End > b.Src.Start && b.Content.Len() == 0 {
			continue
		}
		ts, jsx, ok := scriptLang(b.Lang)
		s := &Script{Block: b, Setup: b.Setup, TS: ts, JSX: jsx}
		c.Scripts = append(c.Scripts, s)
		if !ok {
			if firstErr == nil {
				firstErr = c.errorAt(b.Loc.Start, "The reader does not read <script lang=\""+b.Lang+"\">")
			}
			continue
		}
		if err := c.readScript(s, b.Content); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	for i := range c.Blocks {
		b := &c.Blocks[i]
		if b.Tag != "template" || b.SelfClosing || c.Template != nil {
			continue
		}
		if b.Lang != "" && b.Lang != "html" {
			if firstErr == nil {
				firstErr = c.errorAt(b.Loc.Start, "The reader does not read <template lang=\""+b.Lang+"\">")
			}
			continue
		}
		t, err := c.readTemplate(b)
		c.Template = t
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if !complete && firstErr == nil {
		end := len(c.Src)
		if n := len(blocks); n > 0 {
			end = blocks[n-1].Loc.End
		}
		firstErr = c.errorAt(end, "Unterminated block: its end tag is missing")
	}
	return firstErr
}

func (c *Code) errorAt(offset int, msg string) *SyntaxError {
	pos := c.f.Position(offset)
	return &SyntaxError{File: c.Name, Line: pos.Line, Column: pos.Column, Offset: offset, Text: msg}
}

// ---- scopes ----

type resolver struct {
	code   *Code
	scopes map[*JSNode]*Scope
}

type scopeAt struct {
	depth int
	s     *Scope
}

// resolve declares the bindings of the tree under root and resolves its
// references; root's top level is the scope top (a module scope, or a
// template scope for a template expression).
func (r *resolver) resolve(root *JSNode, top *Scope, module bool) {
	r.scopes = map[*JSNode]*Scope{root: top}
	// Pass 1: scopes and declarations (so that hoisted names and names
	// declared after their use resolve).
	var stack []scopeAt
	WalkJS(root, func(n *JSNode, anc []*JSNode) bool {
		d := len(anc)
		for len(stack) > 0 && stack[len(stack)-1].depth >= d {
			stack = stack[:len(stack)-1]
		}
		cur := top
		if len(stack) > 0 {
			cur = stack[len(stack)-1].s
		}
		var parent *JSNode
		if d > 0 {
			parent = anc[d-1]
		}
		open := func(kind ScopeKind) *Scope {
			s := &Scope{Kind: kind, Node: n, Parent: cur}
			r.scopes[n] = s
			stack = append(stack, scopeAt{d, s})
			return s
		}
		switch n.Kind {
		case JSVar:
			target := cur
			kind := BindLet
			switch n.Op {
			case "var":
				kind = BindVar
				target = functionScope(cur)
			case "const", "using", "await using":
				kind = BindConst
			}
			for _, dcl := range n.List {
				r.declarePattern(dcl.X, target, kind, dcl, dcl.Y, nil)
			}
		case JSFunction, JSArrow:
			if n.Kind == JSFunction && n.Has(FlagDecl) && n.X != nil {
				r.declare(n.X, cur, BindFunction, n, nil, nil)
			}
			s := open(ScopeFunction)
			if n.Kind == JSFunction && !n.Has(FlagDecl) && n.X != nil {
				r.declare(n.X, s, BindFunction, n, nil, nil)
			}
			for _, prm := range n.List {
				r.declarePattern(prm, s, BindParam, n, nil, nil)
			}
		case JSClass:
			if n.Has(FlagDecl) && n.X != nil {
				r.declare(n.X, cur, BindClass, n, nil, nil)
			}
			s := open(ScopeBlock)
			if !n.Has(FlagDecl) && n.X != nil {
				r.declare(n.X, s, BindClass, n, nil, nil)
			}
		case JSCatch:
			s := open(ScopeBlock)
			if n.X != nil {
				r.declarePattern(n.X, s, BindCatch, n, nil, nil)
			}
		case JSBlock:
			if parent == nil || parent.Kind != JSFunction && parent.Kind != JSArrow && parent.Kind != JSCatch {
				open(ScopeBlock)
			}
		case JSFor, JSForIn, JSSwitch:
			open(ScopeBlock)
		case JSImport:
			if module {
				for _, sp := range n.List {
					if sp.Y != nil {
						r.declare(sp.Y, top, BindImport, sp, nil, nil)
					}
				}
			}
		case JSTypeDecl:
			if (n.Op == "enum" || n.Op == "namespace") && n.Name != "" && cur.Bindings[n.Name] == nil {
				id := &JSNode{Kind: JSIdent, Name: n.Name, Loc: n.Loc, Flags: FlagDecl}
				r.declare(id, cur, BindEnum, n, nil, nil)
			}
		}
		return true
	})
	// Pass 2: references.
	stack = stack[:0]
	WalkJS(root, func(n *JSNode, anc []*JSNode) bool {
		d := len(anc)
		for len(stack) > 0 && stack[len(stack)-1].depth >= d {
			stack = stack[:len(stack)-1]
		}
		cur := top
		if len(stack) > 0 {
			cur = stack[len(stack)-1].s
		}
		switch n.Kind {
		case JSFunction, JSArrow, JSClass, JSCatch, JSBlock, JSFor, JSForIn, JSSwitch:
			if s := r.scopes[n]; s != nil && n != root {
				stack = append(stack, scopeAt{d, s})
				cur = s
			}
		}
		if n.Kind != JSIdent || n.Has(FlagDecl) {
			return true
		}
		// A function or class expression's name and parameters resolve
		// in its own scope, which this node is not under: the parent
		// decides.
		ref := &Ref{Ident: n}
		ref.Read, ref.Write = access(n, anc)
		ref.Binding = cur.Lookup(n.Name)
		n.ref = ref
		if ref.Binding != nil {
			ref.Binding.Refs = append(ref.Binding.Refs, ref)
		}
		r.code.Refs = append(r.code.Refs, ref)
		return true
	})
}

func functionScope(s *Scope) *Scope {
	for s.Parent != nil && s.Kind != ScopeFunction && s.Kind != ScopeModule {
		s = s.Parent
	}
	return s
}

func (r *resolver) declare(id *JSNode, s *Scope, kind BindingKind, decl, init *JSNode, path []string) {
	if id == nil || id.Kind != JSIdent {
		return
	}
	id.Flags |= FlagDecl
	b := &Binding{Name: id.Name, Kind: kind, Ident: id, Decl: decl, Init: init, Path: path}
	id.ref = &Ref{Ident: id, Binding: b, Write: init != nil}
	s.declare(b)
}

// declarePattern declares the names of a binding pattern.
func (r *resolver) declarePattern(pat *JSNode, s *Scope, kind BindingKind, decl, init *JSNode, path []string) {
	if pat == nil {
		return
	}
	switch pat.Kind {
	case JSIdent:
		r.declare(pat, s, kind, decl, init, path)
	case JSDefault:
		r.declarePattern(pat.X, s, kind, decl, init, path)
	case JSSpread:
		r.declarePattern(pat.X, s, kind, decl, init, appendPath(path, "..."))
	case JSArray:
		for i, el := range pat.List {
			r.declarePattern(el, s, kind, decl, init, appendPath(path, itoa(i)))
		}
	case JSObject:
		for _, pr := range pat.List {
			if pr.Kind == JSSpread {
				r.declarePattern(pr.X, s, kind, decl, init, appendPath(path, "..."))
				continue
			}
			key := pr.Name
			if pr.Has(FlagComputed) {
				key = "[]"
			}
			r.declarePattern(pr.Y, s, kind, decl, init, appendPath(path, key))
		}
	}
}

func appendPath(path []string, seg string) []string {
	out := make([]string, len(path)+1)
	copy(out, path)
	out[len(path)] = seg
	return out
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// access says whether the identifier n (with its ancestors) is read,
// written, or both.
func access(n *JSNode, anc []*JSNode) (read, write bool) {
	child := n
	for i := len(anc) - 1; i >= 0; i-- {
		p := anc[i]
		switch p.Kind {
		case JSAssign:
			if p.X == child {
				return p.Op != "=", true
			}
			return true, false
		case JSUpdate:
			return true, true
		case JSForIn:
			if p.X == child {
				return false, true
			}
			return true, false
		case JSProperty:
			if p.Y != child {
				return true, false
			}
		case JSDefault:
			if p.X != child {
				return true, false
			}
		case JSObject, JSArray, JSSpread:
		default:
			return true, false
		}
		child = p
	}
	return true, false
}

// Stub returns what is left of c once the code rules are done with the
// file: a Code with c's name, text, blocks and line table, and each script
// with its span (an empty program), but no tree, template or bindings.
// Positions, texts and the script spans answer as c's; nothing can be
// walked. A check releases a file's trees this way as soon as the file's
// findings are made, so that a project's live heap does not hold every
// tree at once.
func (c *Code) Stub() *Code {
	// The positions' file, without the tree (its text is Src: no copy).
	f := &File{Name: c.f.Name, Src: c.f.Src, text: c.f.text, Lines: c.f.Lines}
	s := &Code{Name: c.Name, Src: c.Src, Blocks: c.Blocks, Module: &Scope{Kind: ScopeModule}, f: f}
	for _, sc := range c.Scripts {
		st := *sc
		if sc.Program != nil {
			st.Program = &JSNode{Kind: JSProgram, Loc: sc.Program.Loc}
		}
		s.Scripts = append(s.Scripts, &st)
	}
	return s
}
