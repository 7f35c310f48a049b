package ast

import (
	"bytes"
	"strings"
)

// VueTemplate is the <template> of a .vue file: its elements and the
// expressions of its interpolations and directives, read by the script
// parser with their spans in the .vue file.
type VueTemplate struct {
	Block *SFCBlock
	// Root holds the top-level elements as Children (Tag "", Loc the
	// block's content).
	Root *Element
	// Exprs are every expression of the template in source order.
	Exprs []*TemplateExpr
}

// Element is an element of a template.
type Element struct {
	Tag      string // as written: "div", "KeepAlive", "fw-link"
	Loc      Span   // from "<" through the end of its end tag (or of the start tag when it has none)
	TagLoc   Span
	Attrs    []*Attr
	Children []*Element
	Parent   *Element
	// Scope is what names in the element's expressions (but its v-for's
	// source) resolve in: its and its ancestors' v-for aliases and slot
	// props, then the module scope of the component's scripts.
	Scope *Scope
}

// Attr is an attribute or directive of an element.
type Attr struct {
	Name     string // as written: "include", ":prop", "@click.stop", "v-model", "#default"
	NameLoc  Span
	HasValue bool
	Value    string // the raw value, quotes removed
	ValueLoc Span   // the value's span, quotes excluded
	// Directive is "" for a static attribute; else the directive's name:
	// "bind" (`:x`, `v-bind:x`, `v-bind`), "on" (`@x`, `v-on:x`), "slot"
	// (`#x`, `v-slot:x`), "model", "if", "else-if", "else", "show", "for",
	// "html", "text", "memo", or a custom directive's name.
	Directive string
	Arg       string // `:prop` -> "prop"; `@click.stop` -> "click"; "" without one
	Modifiers []string
	// Expr is the directive's expression, nil for static attributes and
	// directives without a value.
	Expr *TemplateExpr
}

// Attr returns the element's attribute or directive with the given name
// as written (`include`, `:include`), nil when it has none.
func (e *Element) Attr(name string) *Attr {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// TemplateExpr is an expression of a template.
type TemplateExpr struct {
	Element *Element
	Attr    *Attr // nil for a {{ }} interpolation
	Loc     Span  // the expression's text
	// Node is the expression's tree: for "on" a JSProgram of the handler's
	// statements (`data.n++; save()`); for "for" the source (`list` in
	// `item in list`); for "slot" the props pattern; otherwise the
	// expression. Nil when it could not be read (Code's error says where).
	Node *JSNode
	// Aliases are v-for's alias patterns: `(item, i) in list` -> item, i.
	Aliases []*JSNode
}

var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

type tmplReader struct {
	c        *Code
	ts       bool
	t        *VueTemplate
	firstErr error
}

func (c *Code) readTemplate(b *SFCBlock) (*VueTemplate, error) {
	r := &tmplReader{c: c, t: &VueTemplate{Block: b}}
	for _, s := range c.Scripts {
		r.ts = r.ts || s.TS
	}
	root := &Element{Loc: b.Content, Scope: c.Module}
	r.t.Root = root
	src := c.Src[:b.Content.End]
	cur := root
	i := b.Content.Start
	for i < len(src) {
		lt := bytes.IndexByte(src[i:], '<')
		mu := bytes.Index(src[i:], []byte("{{"))
		if mu >= 0 && (lt < 0 || mu < lt) {
			start := i + mu + 2
			end := indexAt(src, start, "}}")
			if end < 0 {
				break
			}
			r.expr(cur, nil, Span{start, end})
			i = end + 2
			continue
		}
		if lt < 0 {
			break
		}
		i += lt
		switch {
		case bytes.HasPrefix(src[i:], []byte("<!--")):
			end := indexAt(src, i+4, "-->")
			if end < 0 {
				i = len(src)
				continue
			}
			i = end + 3
		case i+1 < len(src) && src[i+1] == '/':
			j := i + 2
			for j < len(src) && (isTagNameByte(src[j]) || src[j] == '-' || src[j] == ':' || src[j] == '.') {
				j++
			}
			name := string(src[i+2 : j])
			gt := bytes.IndexByte(src[j:], '>')
			end := len(src)
			if gt >= 0 {
				end = j + gt + 1
			}
			for e := cur; e != root; e = e.Parent {
				if e.Tag == name || strings.EqualFold(e.Tag, name) {
					e.Loc.End = end
					cur = e.Parent
					break
				}
			}
			i = end
		case i+1 < len(src) && (src[i+1] >= 'a' && src[i+1] <= 'z' || src[i+1] >= 'A' && src[i+1] <= 'Z'):
			e, next, selfClosing := r.startTag(src, i, cur)
			cur.Children = append(cur.Children, e)
			i = next
			if !selfClosing && !voidElements[strings.ToLower(e.Tag)] {
				cur = e
			}
		default:
			i++
		}
	}
	return r.t, r.firstErr
}

// startTag reads the start tag at src[i] ("<"), its attributes and
// directives.
func (r *tmplReader) startTag(src []byte, i int, parent *Element) (*Element, int, bool) {
	e := &Element{Parent: parent, Scope: parent.Scope}
	e.Loc.Start = i
	j := i + 1
	for j < len(src) && !isHTMLSpace(src[j]) && src[j] != '>' && src[j] != '/' {
		j++
	}
	e.Tag, e.TagLoc = string(src[i+1:j]), Span{i + 1, j}
	selfClosing := false
	for {
		for j < len(src) && isHTMLSpace(src[j]) {
			j++
		}
		if j >= len(src) {
			break
		}
		if src[j] == '>' {
			j++
			break
		}
		if src[j] == '/' && j+1 < len(src) && src[j+1] == '>' {
			selfClosing = true
			j += 2
			break
		}
		start := j
		j++ // an attribute name may start with "=" or "/" only as nonsense: take one byte
		for j < len(src) && !isHTMLSpace(src[j]) && src[j] != '=' && src[j] != '>' && !(src[j] == '/' && j+1 < len(src) && src[j+1] == '>') {
			j++
		}
		a := &Attr{Name: string(src[start:j]), NameLoc: Span{start, j}}
		k := j
		for k < len(src) && isHTMLSpace(src[k]) {
			k++
		}
		if k < len(src) && src[k] == '=' {
			k++
			for k < len(src) && isHTMLSpace(src[k]) {
				k++
			}
			a.HasValue = true
			if k < len(src) && (src[k] == '"' || src[k] == '\'') {
				end := bytes.IndexByte(src[k+1:], src[k])
				if end < 0 {
					end = len(src) - k - 1
				}
				a.ValueLoc = Span{k + 1, k + 1 + end}
				j = min(k+2+end, len(src))
			} else {
				v := k
				for v < len(src) && !isHTMLSpace(src[v]) && src[v] != '>' {
					v++
				}
				a.ValueLoc = Span{k, v}
				j = v
			}
			a.Value = string(src[a.ValueLoc.Start:a.ValueLoc.End])
		}
		classify(a)
		e.Attrs = append(e.Attrs, a)
	}
	if selfClosing || voidElements[strings.ToLower(e.Tag)] {
		e.Loc.End = j
	} else {
		e.Loc.End = len(src) // until its end tag is found
	}
	// v-for and slot props open a scope for the element and its children;
	// v-for's source is read in the parent's.
	for _, a := range e.Attrs {
		if !a.HasValue || a.Directive != "for" && a.Directive != "slot" {
			continue
		}
		outer := e.Scope
		scope := &Scope{Kind: ScopeTemplate, Parent: outer}
		if a.Directive == "for" {
			x := r.vfor(e, a, outer)
			for _, al := range x.Aliases {
				(&resolver{code: r.c}).declarePattern(al, scope, BindTemplate, al, x.Node, nil)
			}
		} else {
			x := &TemplateExpr{Element: e, Attr: a, Loc: a.ValueLoc}
			a.Expr = x
			x.Node = r.parse(a.ValueLoc, func(p *parser) *JSNode { return p.cBinding() })
			r.t.Exprs = append(r.t.Exprs, x)
			(&resolver{code: r.c}).declarePattern(x.Node, scope, BindTemplate, x.Node, nil, nil)
		}
		e.Scope = scope
	}
	for _, a := range e.Attrs {
		if a.Directive == "" || !a.HasValue || a.Expr != nil {
			continue
		}
		if a.Directive == "on" {
			r.handler(e, a)
			continue
		}
		r.expr(e, a, a.ValueLoc)
	}
	return e, j, selfClosing
}

// classify sets the directive, argument and modifiers of an attribute.
func classify(a *Attr) {
	name := a.Name
	var rest string
	switch {
	case strings.HasPrefix(name, ":"), strings.HasPrefix(name, "."):
		a.Directive, rest = "bind", name[1:]
	case strings.HasPrefix(name, "@"):
		a.Directive, rest = "on", name[1:]
	case strings.HasPrefix(name, "#"):
		a.Directive, rest = "slot", name[1:]
	case strings.HasPrefix(name, "v-"):
		d := name[2:]
		cut := strings.IndexAny(d, ":.")
		if cut < 0 {
			a.Directive = d
			return
		}
		a.Directive = d[:cut]
		if d[cut] == ':' {
			rest = d[cut+1:]
		} else {
			rest = d[cut:]
		}
	default:
		return
	}
	// The argument may be dynamic: [expr], possibly holding dots.
	argEnd := 0
	if strings.HasPrefix(rest, "[") {
		if k := strings.IndexByte(rest, ']'); k >= 0 {
			argEnd = k + 1
		}
	}
	if k := strings.IndexByte(rest[argEnd:], '.'); k >= 0 {
		argEnd += k
		a.Modifiers = strings.Split(rest[argEnd+1:], ".")
	} else {
		argEnd = len(rest)
	}
	a.Arg = rest[:argEnd]
}

// parse runs read over the span with a parser of the template's language
// and checks that it reads all of it.
func (r *tmplReader) parse(span Span, read func(p *parser) *JSNode) *JSNode {
	f := r.c.f
	p := &parser{f: f, text: f.text, ts: r.ts, exportStmt: -1}
	p.code.slab = r.c.slab
	defer func() { r.c.slab = p.code.slab }()
	p.l = lexerIn(f, span)
	p.next()
	n := read(p)
	if !p.failed() && p.l.tok != tEOF {
		p.unexpected()
	}
	if p.failed() {
		if r.firstErr == nil {
			r.firstErr = p.syntaxError()
		}
		return nil
	}
	return n
}

func (r *tmplReader) expr(e *Element, a *Attr, span Span) *TemplateExpr {
	x := &TemplateExpr{Element: e, Attr: a, Loc: span}
	if a != nil {
		a.Expr = x
	}
	x.Node = r.parse(span, func(p *parser) *JSNode { return p.cExpr(lLowest) })
	r.t.Exprs = append(r.t.Exprs, x)
	if x.Node != nil {
		(&resolver{code: r.c}).resolve(x.Node, e.Scope, false)
	}
	return x
}

func (r *tmplReader) handler(e *Element, a *Attr) {
	x := &TemplateExpr{Element: e, Attr: a, Loc: a.ValueLoc}
	a.Expr = x
	x.Node = r.parse(a.ValueLoc, func(p *parser) *JSNode { return p.cProgram(a.ValueLoc.Start, a.ValueLoc.End) })
	r.t.Exprs = append(r.t.Exprs, x)
	if x.Node != nil {
		(&resolver{code: r.c}).resolve(x.Node, &Scope{Kind: ScopeTemplate, Parent: e.Scope}, false)
	}
}

// vfor reads `alias in source`, `(item, index) in source`, `item, index
// in source`, `item of source`; the source resolves in outer.
func (r *tmplReader) vfor(e *Element, a *Attr, outer *Scope) *TemplateExpr {
	x := &TemplateExpr{Element: e, Attr: a, Loc: a.ValueLoc}
	a.Expr = x
	x.Node = r.parse(a.ValueLoc, func(p *parser) *JSNode {
		if p.l.tok == tOpenParen {
			x.Aliases = p.cParams()
		} else {
			// `row, i in rows`: the SFC compiler takes an alias list
			// without parentheses too.
			x.Aliases = []*JSNode{p.cBinding()}
			for p.l.tok == tComma && !p.failed() {
				p.next()
				x.Aliases = append(x.Aliases, p.cBinding())
			}
		}
		if p.l.tok != tIn && !p.l.is("of") {
			p.fail(p.l.start, `Expected "in" or "of" but found `+p.tokenDesc())
			return nil
		}
		p.next()
		return p.cExpr(lLowest)
	})
	r.t.Exprs = append(r.t.Exprs, x)
	if x.Node != nil {
		(&resolver{code: r.c}).resolve(x.Node, outer, false)
	} else {
		x.Aliases = nil
	}
	return x
}
