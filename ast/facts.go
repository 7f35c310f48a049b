package ast

import "strings"

// Facts about the code inside expressions that the parser keeps as spans
// (Expr): asked of the parser's own lexer, so that no other package
// tokenizes JavaScript again.

// lexerIn returns a lexer over f's source that starts at span.Start and
// sees the end of input at span.End. It records no comments and no style.
func lexerIn(f *File, span Span) lexer {
	start, end := f.clamp(span.Start), f.clamp(span.End)
	if start > end {
		start = end
	}
	l := lexer{src: f.Src[:end], text: f.text[:end], pos: start, start: start, end: start, prevEnd: start, errPos: -1, noComments: true}
	return l
}

// EnvReads returns the environment variables that the value n reads when
// it is written as reads of environment variables: process.env.X,
// process.env['X'], process?.env?.X (optionally cast: `as string`), each
// optionally followed by `|| fallback` or `?? fallback`, where each
// fallback is another such read or a literal (a string, an untagged
// template without substitutions, a number, true, false, null, undefined).
// It returns the variables in order, or nil when n is anything else.
func (f *File) EnvReads(n Node) []string {
	if n == nil {
		return nil
	}
	l := lexerIn(f, n.Span())
	l.next()
	var names []string
	for {
		if name, ok := envRead(&l); ok {
			names = append(names, name)
		} else if !envLiteral(&l) {
			return nil
		}
		if l.tok == tEOF {
			break
		}
		if l.tok != tBarBar && l.tok != tQuestionQuestion {
			return nil
		}
		l.next()
	}
	if l.errPos >= 0 {
		return nil
	}
	return names
}

// envRead reads `process.env.NAME` (and its spellings) at the current
// token; it consumes nothing when the tokens are something else.
func envRead(l *lexer) (string, bool) {
	if !l.is("process") {
		return "", false
	}
	save := *l
	fail := func() (string, bool) { *l = save; return "", false }
	l.next()
	if l.tok != tDot && l.tok != tQuestionDot {
		return fail()
	}
	l.next()
	if !l.is("env") {
		return fail()
	}
	l.next()
	var name string
	switch l.tok {
	case tDot, tQuestionDot:
		optional := l.tok == tQuestionDot
		l.next()
		if l.tok == tOpenBracket && optional {
			break // process.env?.['X']
		}
		if !l.isIdentOrKeyword() || l.esc {
			return fail()
		}
		name = l.raw()
		l.next()
	}
	if name == "" {
		if l.tok != tOpenBracket {
			return fail()
		}
		l.next()
		s, ok := plainString(l)
		if !ok || s == "" {
			return fail()
		}
		name = s
		l.next()
		if l.tok != tCloseBracket {
			return fail()
		}
		l.next()
	}
	// A TypeScript cast keeps the read: process.env.X as string.
	if l.is("as") && l.end < len(l.src) && (l.src[l.end] == ' ' || l.src[l.end] == '\t') {
		cast := *l
		l.next()
		if l.isIdentOrKeyword() {
			l.next()
		} else {
			*l = cast
		}
	}
	return name, true
}

// plainString returns the value of the current token when it is a string
// or a template without substitutions whose bytes are its value (no
// escape, no line break).
func plainString(l *lexer) (string, bool) {
	switch l.tok {
	case tString, tNoSubTemplate:
		body := l.text[l.start+1 : l.end-1]
		if l.esc || strings.IndexByte(body, '\n') >= 0 {
			return "", false
		}
		return body, true
	}
	return "", false
}

// envLiteral consumes a literal fallback of EnvReads.
func envLiteral(l *lexer) bool {
	if _, ok := plainString(l); ok {
		l.next()
		return true
	}
	switch l.tok {
	case tTrue, tFalse, tNull:
		l.next()
		return true
	case tIdent:
		if l.is("undefined") {
			l.next()
			return true
		}
		return false
	case tMinus:
		// A negative number, the sign written against it.
		end := l.end
		l.next()
		if l.tok != tNumber || l.start != end {
			return false
		}
	}
	if l.tok != tNumber {
		return false
	}
	for _, c := range []byte(l.raw()) {
		if !isDigit(c) && c != '.' && c != '_' {
			return false
		}
	}
	l.next()
	return true
}

// MultilineLiterals returns the string and template literals inside the
// code of span whose bytes span lines: the line breaks that belong to a
// value, which re-indenting the code must not touch. A template holding
// another is listed after it. ok is false when the code cannot be
// delimited with confidence (it does not lex, or brackets do not balance):
// the caller then treats the whole span as a literal.
func (f *File) MultilineLiterals(span Span) (spans []Span, ok bool) {
	p := &parser{f: f, text: f.text, ts: isTS(f.Name)}
	p.l = lexerIn(f, span)
	p.next()
	rs := regexState{start: true}
	var opens []int // the start of each template open around the token
	for !p.failed() && p.l.tok != tEOF {
		tok, ok := p.scanStep(0, &rs)
		if !ok || p.failed() {
			return nil, false
		}
		switch tok {
		case tString, tNoSubTemplate:
			if strings.IndexByte(p.l.raw(), '\n') >= 0 {
				spans = append(spans, Span{p.l.start, p.l.end})
			}
		case tTemplateHead:
			opens = append(opens, p.l.start)
		case tTemplateTail:
			s := Span{opens[len(opens)-1], p.l.end}
			opens = opens[:len(opens)-1]
			if strings.IndexByte(p.text[s.Start:s.End], '\n') >= 0 {
				spans = append(spans, s)
			}
		}
		p.next()
	}
	if p.failed() || len(p.skipStack) != 0 {
		return nil, false
	}
	return spans, true
}
