package ast

// JSX: elements are read byte by byte (text, attribute strings and tag
// names are not JavaScript tokens); the {expressions} inside them are read
// by the expression parser.

func isJSXNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '-' || c == ':' || c == '.' || c >= 0x80
}

// jsxSpace skips white space and comments between the parts of a tag.
func (p *parser) jsxSpace(i int) int {
	src := p.l.src
	for i < len(src) {
		switch c := src[i]; {
		case isHTMLSpace(c):
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexAt(src, i+2, "*/")
			if end < 0 {
				return len(src)
			}
			i = end + 2
		default:
			return i
		}
	}
	return i
}

func (p *parser) jsxName(i int) (string, int) {
	start := i
	for i < len(p.l.src) && isJSXNameByte(p.l.src[i]) {
		i++
	}
	return p.text[start:i], i
}

// jsxFail records an error at i and returns a placeholder.
func (p *parser) jsxFail(i int, msg string) *JSNode {
	if !p.failed() {
		p.fail(i, msg)
	}
	return p.cErr()
}

// jsxExpr reads `{expr}` (or `{...expr}` when spread) whose "{" is at i and
// returns the expression (nil for an empty container) and the offset after
// "}".
func (p *parser) jsxExpr(i int, spread bool) (*JSNode, int) {
	p.seek(i + 1)
	var x *JSNode
	if spread {
		s := p.node(JSSpread, p.l.start)
		if !p.expect(tDotDotDot) {
			return nil, len(p.l.src)
		}
		s.X = p.cExpr(lComma)
		x = p.fin(s)
	} else if p.l.tok != tCloseBrace {
		saved := p.code.ctx
		p.code.ctx = exprCtx{}
		x = p.cExpr(lLowest)
		p.code.ctx = saved
	}
	if p.l.tok != tCloseBrace {
		p.expect(tCloseBrace)
		return x, len(p.l.src)
	}
	return x, p.l.end
}

// cJSX reads the element whose "<" is the current token and relexes after
// it.
func (p *parser) cJSX() *JSNode {
	n, end := p.jsxElement(p.l.start)
	if p.failed() {
		return n
	}
	p.seek(end)
	p.l.prevEnd = end
	return p.fin(n)
}

func (p *parser) jsxElement(lt int) (*JSNode, int) {
	if !p.enter() {
		p.leave()
		return p.cErr(), len(p.l.src)
	}
	defer p.leave()
	src := p.l.src
	n := p.node(JSJSX, lt)
	i := p.jsxSpace(lt + 1)
	if i < len(src) && src[i] != '>' {
		name, j := p.jsxName(i)
		if name == "" {
			return p.jsxFail(i, "Expected identifier in a JSX tag"), len(src)
		}
		n.Name, n.NameLoc = name, Span{i, j}
		i = j
		// Type arguments of a TSX element: <Foo<T> ...>
		for {
			i = p.jsxSpace(i)
			if i >= len(src) {
				return p.jsxFail(i, "Unterminated JSX element"), len(src)
			}
			c := src[i]
			if c == '/' {
				if i+1 < len(src) && src[i+1] == '>' {
					n.Loc.End = i + 2
					return n, i + 2
				}
				return p.jsxFail(i, `Expected ">" in a JSX tag`), len(src)
			}
			if c == '>' {
				break
			}
			if c == '{' {
				x, end := p.jsxExpr(i, true)
				if p.failed() {
					return n, len(src)
				}
				n.List = append(n.List, x)
				i = end
				continue
			}
			name, j := p.jsxName(i)
			if name == "" {
				return p.jsxFail(i, "Unexpected "+quoteByteText(c)+" in a JSX tag"), len(src)
			}
			attr := p.node(JSProperty, i)
			attr.Name, attr.NameLoc = name, Span{i, j}
			i = p.jsxSpace(j)
			attr.Loc.End = j
			if i < len(src) && src[i] == '=' {
				i = p.jsxSpace(i + 1)
				if i >= len(src) {
					return p.jsxFail(i, "Unterminated JSX attribute"), len(src)
				}
				switch v := src[i]; v {
				case '"', '\'':
					end := indexAt(src, i+1, string(v))
					if end < 0 {
						return p.jsxFail(i, "Unterminated string literal"), len(src)
					}
					s := p.node(JSString, i)
					s.Name = p.text[i+1 : end]
					s.Loc.End = end + 1
					attr.Y = s
					i = end + 1
				case '{':
					x, end := p.jsxExpr(i, false)
					if p.failed() {
						return n, len(src)
					}
					attr.Y = x
					i = end
				case '<':
					x, end := p.jsxElement(i)
					if p.failed() {
						return n, len(src)
					}
					attr.Y = x
					i = end
				default:
					return p.jsxFail(i, "Expected a JSX attribute value"), len(src)
				}
				attr.Loc.End = i
			}
			n.List = append(n.List, attr)
		}
	}
	if i >= len(src) {
		return p.jsxFail(i, "Unterminated JSX element"), len(src)
	}
	i++ // >
	// Children: text, {expressions}, elements, up to the closing tag.
	for i < len(src) {
		switch src[i] {
		case '{':
			x, end := p.jsxExpr(i, false)
			if p.failed() {
				return n, len(src)
			}
			if x != nil {
				n.Body = append(n.Body, x)
			}
			i = end
		case '<':
			j := p.jsxSpace(i + 1)
			if j < len(src) && src[j] == '/' {
				j = p.jsxSpace(j + 1)
				name, k := p.jsxName(j)
				if name != n.Name {
					return p.jsxFail(j, "Expected closing tag </"+n.Name+">"), len(src)
				}
				k = p.jsxSpace(k)
				if k >= len(src) || src[k] != '>' {
					return p.jsxFail(k, `Expected ">" in a JSX closing tag`), len(src)
				}
				n.Loc.End = k + 1
				return n, k + 1
			}
			child, end := p.jsxElement(i)
			if p.failed() {
				return n, len(src)
			}
			n.Body = append(n.Body, child)
			i = end
		case '}', '>':
			return p.jsxFail(i, "Unexpected "+quoteByteText(src[i])+" in JSX text"), len(src)
		default:
			i++
		}
	}
	return p.jsxFail(len(src), "Unterminated JSX element"), len(src)
}

func quoteByteText(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return `"` + string(rune(c)) + `"`
	}
	return "character"
}
