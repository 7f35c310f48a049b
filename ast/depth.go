package ast

import "fmt"

// The nesting gate. esbuild's parser recurses on every level of brackets,
// unary operators, right-associative operators and nested statements, and
// Go cannot recover from a goroutine that outgrows its stack: 250,000
// nested "!" or 200,000 nested "[" end the process, and every other
// project of the run with it. So every text is measured here, iteratively,
// before Validate hands it to esbuild, and a text too deep gets the same
// FW901 error the parser gives past maxDepth.
//
// The measure is the parser's depth as esbuild would reach it, counted on
// tokens: one per open bracket, template substitution and pending unary
// operator, and one per link of a right-recursive chain (assignments, "?",
// "=>", "**", nested if/for/while/do/with and labels) until the
// statement or list item that holds it ends. Where a "/" starts a regular
// expression and where a "{" opens a block are guessed from the token
// before them (regexState, as the skipper does); a guess esbuild would not
// share can hide code inside what looks like a literal, so a second, raw
// count over the bytes, blind to strings and comments, bounds the depth
// whatever the guesses, with a limit esbuild is still far from crashing at
// (it survives 50,000 levels of each construct; it dies between 50,000 and
// 250,000).

// rawMaxDepth is the limit of the raw count, which also counts brackets
// and operators inside strings and comments: far above any real config,
// far below what esbuild's stack survives.
const rawMaxDepth = 20 * maxDepth

// CheckDepth is the nesting gate Validate runs before esbuild: a
// *SyntaxError at the first token past the nesting limit, nil when src
// stays within it (or has a lexical error before, which esbuild reports at
// the same place without going deeper). A caller that hands a text to
// esbuild by other means runs it first.
func CheckDepth(filename string, src []byte) error {
	if err := checkDepth(filename, src); err != nil {
		return err
	}
	return nil
}

func checkDepth(filename string, src []byte) *SyntaxError {
	off, limit, ok := scanDepth(src)
	if ok {
		off, limit, ok = rawDepth(src)
	}
	if ok {
		return nil
	}
	f := NewFile(filename, src)
	pos := f.Position(off)
	text := "Too deeply nested: more than 1000 levels of objects, arrays, brackets or expressions"
	if limit != maxDepth {
		text = fmt.Sprintf("Too deeply nested: more than %d levels of brackets and operators", limit)
	}
	return &SyntaxError{File: filename, Line: pos.Line, Column: pos.Column, Offset: off, Text: text}
}

// depthLevel is one open bracket of scanDepth.
type depthLevel struct {
	tok  token // tOpenParen, tOpenBracket, tOpenBrace, tTemplateHead; tEOF for the top level
	flag bool  // "(": head of if/while/for/with; "{": a block
	// run counts the unary operators waiting for their operand, chain the
	// links of right-recursive constructs since the statement or item
	// began, ternary the "?" whose ":" is still to come.
	run, chain, ternary int
}

func (lv *depthLevel) block() bool { return lv.tok == tEOF || lv.tok == tOpenBrace && lv.flag }

// scanDepth measures src on tokens. It returns ok, or the offset of the
// token that goes past maxDepth.
func scanDepth(src []byte) (off, limit int, ok bool) {
	l := newLexer(src, string(src), nil, nil)
	l.noComments = true
	stack := []depthLevel{{tok: tEOF, flag: true}}
	depth := 1 // len(stack) plus every level's run and chain
	rs := regexState{start: true}
	labelColon := false // the previous token is the ":" of a label or case
	reset := func(lv *depthLevel) {
		depth -= lv.run + lv.chain
		lv.run, lv.chain, lv.ternary = 0, 0, 0
	}
	for {
		l.next()
		tok := l.tok
		if tok == tEOF {
			return 0, 0, true
		}
		top := &stack[len(stack)-1]
		operandExpected := rs.allowsRegex()
		ended := !operandExpected || !rs.start && rs.prev == tCloseBrace && rs.prevFlag
		word := tok == tIdent || tok.isReserved()
		if word && ended && !continues(tok, l.raw()) {
			// A word after a complete operand or block starts a new
			// statement (automatic semicolon insertion): the chain of
			// the one before has unwound.
			reset(top)
		}
		flag := false
		switch tok {
		case tOpenParen, tOpenBracket, tOpenBrace, tTemplateHead:
			lv := depthLevel{tok: tok}
			switch tok {
			case tOpenParen:
				lv.flag = !rs.start && (rs.prev == tIf || rs.prev == tWhile || rs.prev == tFor || rs.prev == tWith ||
					rs.prev == tIdent && rs.prevText == "await")
			case tOpenBrace:
				lv.flag = labelColon || rs.braceIsBlock()
			}
			stack = append(stack, lv)
			depth++
		case tCloseParen, tCloseBracket, tCloseBrace:
			if tok == tCloseBrace && top.tok == tTemplateHead {
				l.rescanTemplate()
				tok = l.tok
				if tok == tEOF {
					return 0, 0, true
				}
				if tok == tTemplateMiddle {
					reset(top)
					break
				}
			} else if len(stack) == 1 || top.tok != tok-1 {
				return 0, 0, true // unbalanced: esbuild stops here too
			}
			flag = top.flag
			depth -= 1 + top.run + top.chain
			stack = stack[:len(stack)-1]
			if tok != tCloseBrace || !flag {
				stack[len(stack)-1].endRun(&depth) // the bracket was an operand
			}
		case tSlash, tSlashEquals:
			if operandExpected {
				l.rescanRegExp()
				tok = l.tok
				if tok == tEOF {
					return 0, 0, true
				}
			}
			top.endRun(&depth) // a regular expression is an operand; a division follows one
		case tSemicolon, tComma:
			reset(top)
		case tExclamation, tTilde, tTypeof, tVoid, tDelete, tNew, tDotDotDot:
			top.run++
			depth++
		case tPlus, tMinus, tPlusPlus, tMinusMinus:
			if operandExpected {
				top.run++
				depth++
			}
		case tQuestion:
			top.chain++
			top.ternary++
			depth++
		case tColon:
			if top.ternary > 0 {
				top.ternary--
			} else if top.block() {
				top.chain++ // a label or case: the statement after it nests
				depth++
				labelColon = true
			}
		case tArrow, tAsteriskAsterisk, tIf, tFor, tWhile, tDo, tWith:
			top.chain++
			depth++
		case tIdent:
			switch l.raw() {
			case "await", "yield":
				top.run++
				depth++
			default:
				top.endRun(&depth)
			}
		default:
			if tok.isAssign() {
				top.chain++
				depth++
			} else if operandToken(tok) {
				top.endRun(&depth)
			}
		}
		if tok != tColon {
			labelColon = false
		}
		if depth > maxDepth {
			return l.start, maxDepth, false
		}
		rs.prev, rs.prevFlag, rs.start = tok, flag, false
		if tok == tIdent {
			rs.prevText = l.raw()
		}
	}
}

// endRun ends the pending unary operators of lv: their operand is complete,
// so their recursion has unwound.
func (lv *depthLevel) endRun(depth *int) {
	*depth -= lv.run
	lv.run = 0
}

// continues reports a word that continues the statement before it rather
// than starting one: binary operators spelled as words, and the second half
// of if/else and try/catch/finally.
func continues(tok token, text string) bool {
	switch tok {
	case tIn, tInstanceof, tElse, tCatch, tFinally:
		return true
	case tIdent:
		return text == "as" || text == "satisfies" || text == "of"
	}
	return false
}

// operandToken reports a token that is a whole operand by itself.
func operandToken(tok token) bool {
	switch tok {
	case tPrivate, tString, tNoSubTemplate, tTemplateTail, tNumber, tBigInt, tRegExp,
		tThis, tSuper, tNull, tTrue, tFalse:
		return true
	}
	return false
}

// rawDepth is the count that no guess can fool: brackets, unary operators
// and chain links counted on bytes, strings, comments and regular
// expressions included. It returns ok, or the offset past rawMaxDepth.
func rawDepth(src []byte) (off, limit int, ok bool) {
	type level struct{ run, chain int }
	stack := []level{{}}
	depth := 1
	for i := 0; i < len(src); i++ {
		top := &stack[len(stack)-1]
		c := src[i]
		switch c {
		case '(', '[', '{':
			stack = append(stack, level{})
			depth++
		case ')', ']', '}':
			if len(stack) > 1 {
				depth -= 1 + top.run + top.chain
				stack = stack[:len(stack)-1]
				depth -= stack[len(stack)-1].run
				stack[len(stack)-1].run = 0
			}
		case ';', ',':
			depth -= top.run + top.chain
			top.run, top.chain = 0, 0
		case '!', '~', '+', '-':
			if c == '!' && i+1 < len(src) && src[i+1] == '=' {
				break
			}
			top.run++
			depth++
		case '=':
			// "=" and compound assignments, "=>": one link; "==" and the
			// comparisons are not.
			prev, next := byte(0), byte(0)
			if i > 0 {
				prev = src[i-1]
			}
			if i+1 < len(src) {
				next = src[i+1]
			}
			if next != '=' && prev != '=' && prev != '!' && prev != '<' && prev != '>' || next == '>' {
				top.chain++
				depth++
			}
		case '?':
			if i+1 < len(src) && (src[i+1] == '.' || src[i+1] == '?') {
				break
			}
			top.chain++
			depth++
		case ' ', '\t', '\n', '\r':
		default:
			if isRawWordByte(c) {
				j := i
				for j < len(src) && isRawWordByte(src[j]) {
					j++
				}
				switch string(src[i:j]) {
				case "typeof", "void", "delete", "new", "await", "yield":
					top.run++
					depth++
				case "if", "for", "while", "do", "with":
					top.chain++
					depth++
				default:
					depth -= top.run
					top.run = 0
				}
				i = j - 1
			} else {
				depth -= top.run
				top.run = 0
			}
		}
		if depth > rawMaxDepth {
			return i, rawMaxDepth, false
		}
	}
	return 0, 0, true
}

func isRawWordByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
