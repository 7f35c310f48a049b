package ast

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// token is the kind of a lexical token. Reserved words get their own kinds
// (as in esbuild's lexer); contextual keywords such as `async`, `as` or
// `satisfies` are tIdent and are compared by text.
type token uint8

const (
	tEOF token = iota
	tIdent
	tPrivate // #name
	tString
	tNoSubTemplate // `...` without substitutions
	tTemplateHead  // `...${
	tTemplateMiddle
	tTemplateTail
	tNumber
	tBigInt
	tRegExp

	tOpenParen
	tCloseParen
	tOpenBracket
	tCloseBracket
	tOpenBrace
	tCloseBrace
	tSemicolon
	tComma
	tDot
	tDotDotDot
	tQuestionDot
	tQuestion
	tQuestionQuestion
	tQuestionQuestionEquals
	tColon
	tArrow
	tEquals
	tEqualsEquals
	tEqualsEqualsEquals
	tExclamation
	tExclamationEquals
	tExclamationEqualsEquals
	tPlus
	tPlusPlus
	tPlusEquals
	tMinus
	tMinusMinus
	tMinusEquals
	tAsterisk
	tAsteriskAsterisk
	tAsteriskEquals
	tAsteriskAsteriskEquals
	tSlash
	tSlashEquals
	tPercent
	tPercentEquals
	tAmpersand
	tAmpersandAmpersand
	tAmpersandEquals
	tAmpersandAmpersandEquals
	tBar
	tBarBar
	tBarEquals
	tBarBarEquals
	tCaret
	tCaretEquals
	tTilde
	tLessThan
	tLessThanEquals
	tLessThanLessThan
	tLessThanLessThanEquals
	tGreaterThan
	tGreaterThanEquals
	tGreaterThanGreaterThan
	tGreaterThanGreaterThanEquals
	tGreaterThanGreaterThanGreaterThan
	tGreaterThanGreaterThanGreaterThanEquals
	tAt

	// Reserved words, in the order of esbuild's keyword table.
	tBreak
	tCase
	tCatch
	tClass
	tConst
	tContinue
	tDebugger
	tDefault
	tDelete
	tDo
	tElse
	tEnum
	tExport
	tExtends
	tFalse
	tFinally
	tFor
	tFunction
	tIf
	tImport
	tIn
	tInstanceof
	tNew
	tNull
	tReturn
	tSuper
	tSwitch
	tThis
	tThrow
	tTrue
	tTry
	tTypeof
	tVar
	tVoid
	tWhile
	tWith
)

func (t token) isReserved() bool { return t >= tBreak }

// isAssign reports an assignment operator.
func (t token) isAssign() bool {
	switch t {
	case tEquals, tPlusEquals, tMinusEquals, tAsteriskEquals, tAsteriskAsteriskEquals,
		tSlashEquals, tPercentEquals, tAmpersandEquals, tAmpersandAmpersandEquals,
		tBarEquals, tBarBarEquals, tCaretEquals, tQuestionQuestionEquals,
		tLessThanLessThanEquals, tGreaterThanGreaterThanEquals, tGreaterThanGreaterThanGreaterThanEquals:
		return true
	}
	return false
}

// lexStats gathers style votes while lexing. Only bytes past the high-water
// mark count, so that backtracking does not vote twice.
type lexStats struct {
	high           int
	single, double int
	// Indentation: deltas between the indentation of consecutive lines that
	// start with a token.
	prevIndent  int
	prevTab     bool
	spaceDeltas [9]int // index: delta in spaces (1..8)
	tabDeltas   int
}

// lexer is a hand-written JavaScript/TypeScript lexer. It is driven by the
// parser: `/` is lexed as division, and the parser asks for a rescan as a
// regular expression where an operand is expected; `}` is lexed as a brace,
// and the parser asks for a rescan as a template continuation where a
// substitution ends. The whole struct is copied to backtrack.
type lexer struct {
	src  []byte
	text string // src as a string: substrings of it cost nothing

	pos        int   // next byte to lex
	tok        token // current token
	start, end int   // current token's span
	prevEnd    int   // end of the previous token
	nl         bool  // a line terminator precedes the current token
	esc        bool  // the current identifier, string or template has a backslash
	hi         bool  // the current string or template has a non-ASCII byte

	// Comments are appended to *comments as they are passed. nComments is how
	// many of them lie before pos; after a backtrack, comments already in the
	// list are reused rather than appended again, so each comment is one
	// *Comment however often it is lexed. cBefore is the index of the first
	// comment between the previous token and the current one.
	comments   *[]*Comment
	nComments  int
	cBefore    int
	noComments bool // a rescan that must not touch the comment list
	rescan     bool // a rescan of code lexed before: find comments, never add them

	stats *lexStats

	// err is the first lexical error; the lexer then stays at EOF.
	errPos int
	errMsg string
}

func newLexer(src []byte, text string, comments *[]*Comment, stats *lexStats) lexer {
	l := lexer{src: src, text: text, comments: comments, stats: stats, errPos: -1}
	// A BOM is not part of the program; a hashbang line is not a comment.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		l.pos = 3
	}
	if l.pos+1 < len(src) && src[l.pos] == '#' && src[l.pos+1] == '!' {
		for l.pos < len(src) && src[l.pos] != '\n' && src[l.pos] != '\r' {
			l.pos++
		}
	}
	return l
}

func (l *lexer) fail(pos int, msg string) {
	if l.errPos < 0 {
		l.errPos = pos
		l.errMsg = msg
	}
	l.tok = tEOF
	l.pos = len(l.src)
	l.start, l.end = pos, pos
}

// raw returns the current token's source text.
func (l *lexer) raw() string { return l.text[l.start:l.end] }

// is reports whether the current token is the unescaped identifier s.
func (l *lexer) is(s string) bool {
	return l.tok == tIdent && !l.esc && l.end-l.start == len(s) && l.text[l.start:l.end] == s
}

// isIdentOrKeyword reports an IdentifierName: an identifier or reserved word.
func (l *lexer) isIdentOrKeyword() bool { return l.tok == tIdent || l.tok.isReserved() }

// next lexes the next token.
func (l *lexer) next() {
	if l.errPos >= 0 {
		l.tok = tEOF
		return
	}
	l.prevEnd = l.end
	l.nl = false
	l.cBefore = l.nComments
	src := l.src
	for {
		if l.pos >= len(src) {
			l.tok = tEOF
			l.start, l.end = len(src), len(src)
			return
		}
		c := src[l.pos]
		switch c {
		case ' ', '\t', '\v', '\f':
			l.pos++
			continue
		case '\n', '\r':
			l.nl = true
			l.pos++
			continue
		case '/':
			if l.pos+1 < len(src) {
				switch src[l.pos+1] {
				case '/':
					start := l.pos
					l.pos += 2
					for l.pos < len(src) {
						c := src[l.pos]
						if c == '\n' || c == '\r' {
							break
						}
						if c == 0xE2 && l.pos+2 < len(src) && src[l.pos+1] == 0x80 && (src[l.pos+2] == 0xA8 || src[l.pos+2] == 0xA9) {
							break
						}
						l.pos++
					}
					l.addComment(start, l.pos, false)
					continue
				case '*':
					start := l.pos
					l.pos += 2
					for {
						if l.pos+1 >= len(src) {
							l.fail(len(src), `Expected "*/" to terminate multi-line comment`)
							return
						}
						if src[l.pos] == '*' && src[l.pos+1] == '/' {
							l.pos += 2
							break
						}
						if src[l.pos] == '\n' || src[l.pos] == '\r' {
							l.nl = true
						}
						l.pos++
					}
					l.addComment(start, l.pos, true)
					continue
				}
			}
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRune(src[l.pos:])
			if r == 0x2028 || r == 0x2029 {
				l.nl = true
				l.pos += size
				continue
			}
			if r == 0xFEFF || r == 0xA0 || (r != utf8.RuneError && unicode.Is(unicode.Zs, r)) {
				l.pos += size
				continue
			}
		}
		break
	}
	l.start = l.pos
	if l.nl && l.stats != nil && l.start > l.stats.high {
		l.countIndent()
	}
	l.lexToken()
	l.end = l.pos
	if l.stats != nil && l.end > l.stats.high {
		l.stats.high = l.end
	}
}

func (l *lexer) addComment(start, end int, block bool) {
	if l.noComments {
		return
	}
	list := *l.comments
	if l.nComments < len(list) && list[l.nComments].Loc.Start == start {
		l.nComments++
		return
	}
	if l.rescan {
		i := sort.Search(len(list), func(i int) bool { return list[i].Loc.Start >= start })
		if i < len(list) && list[i].Loc.Start == start {
			l.nComments = i + 1
		}
		return
	}
	if l.nComments < len(list) {
		// Backtracking lexed this stretch differently: drop the comments of
		// the abandoned reading.
		list = list[:l.nComments]
	}
	*l.comments = append(list, &Comment{Loc: Span{start, end}, Text: l.text[start:end], Block: block})
	l.nComments++
}

// countIndent votes for the indentation unit with the line of the current
// token, which is the first token on its line.
func (l *lexer) countIndent() {
	ls := l.start
	for ls > 0 && l.src[ls-1] != '\n' && l.src[ls-1] != '\r' {
		ls--
	}
	spaces, tab := 0, false
	for i := ls; i < l.start; i++ {
		switch l.src[i] {
		case ' ':
			spaces++
		case '\t':
			tab = true
		default:
			return // a comment precedes the token on its line
		}
	}
	s := l.stats
	switch {
	case tab:
		if !s.prevTab || spaces != s.prevIndent {
			s.tabDeltas++
		}
	case spaces > s.prevIndent && !s.prevTab:
		if d := spaces - s.prevIndent; d <= 8 {
			s.spaceDeltas[d]++
		}
	}
	s.prevIndent, s.prevTab = spaces, tab
}

func (l *lexer) lexToken() {
	src := l.src
	c := src[l.pos]
	l.esc, l.hi = false, false
	switch c {
	case '(':
		l.pos++
		l.tok = tOpenParen
	case ')':
		l.pos++
		l.tok = tCloseParen
	case '[':
		l.pos++
		l.tok = tOpenBracket
	case ']':
		l.pos++
		l.tok = tCloseBracket
	case '{':
		l.pos++
		l.tok = tOpenBrace
	case '}':
		l.pos++
		l.tok = tCloseBrace
	case ';':
		l.pos++
		l.tok = tSemicolon
	case ',':
		l.pos++
		l.tok = tComma
	case ':':
		l.pos++
		l.tok = tColon
	case '~':
		l.pos++
		l.tok = tTilde
	case '@':
		l.pos++
		l.tok = tAt
	case '.':
		if l.pos+1 < len(src) && isDigit(src[l.pos+1]) {
			l.lexNumber()
			return
		}
		if l.pos+2 < len(src) && src[l.pos+1] == '.' && src[l.pos+2] == '.' {
			l.pos += 3
			l.tok = tDotDotDot
			return
		}
		l.pos++
		l.tok = tDot
	case '?':
		l.pos++
		switch l.peek(0) {
		case '?':
			l.pos++
			if l.peek(0) == '=' {
				l.pos++
				l.tok = tQuestionQuestionEquals
			} else {
				l.tok = tQuestionQuestion
			}
		case '.':
			// "a?.5:b" is a conditional, not an optional chain
			if isDigit(l.peek(1)) {
				l.tok = tQuestion
			} else {
				l.pos++
				l.tok = tQuestionDot
			}
		default:
			l.tok = tQuestion
		}
	case '=':
		l.pos++
		switch l.peek(0) {
		case '>':
			l.pos++
			l.tok = tArrow
		case '=':
			l.pos++
			if l.peek(0) == '=' {
				l.pos++
				l.tok = tEqualsEqualsEquals
			} else {
				l.tok = tEqualsEquals
			}
		default:
			l.tok = tEquals
		}
	case '!':
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
			if l.peek(0) == '=' {
				l.pos++
				l.tok = tExclamationEqualsEquals
			} else {
				l.tok = tExclamationEquals
			}
		} else {
			l.tok = tExclamation
		}
	case '+':
		l.tok = l.op3('+', tPlus, tPlusPlus, tPlusEquals)
	case '-':
		l.tok = l.op3('-', tMinus, tMinusMinus, tMinusEquals)
	case '*':
		l.pos++
		switch l.peek(0) {
		case '*':
			l.pos++
			if l.peek(0) == '=' {
				l.pos++
				l.tok = tAsteriskAsteriskEquals
			} else {
				l.tok = tAsteriskAsterisk
			}
		case '=':
			l.pos++
			l.tok = tAsteriskEquals
		default:
			l.tok = tAsterisk
		}
	case '/':
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
			l.tok = tSlashEquals
		} else {
			l.tok = tSlash
		}
	case '%':
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
			l.tok = tPercentEquals
		} else {
			l.tok = tPercent
		}
	case '&':
		l.tok = l.logical('&', tAmpersand, tAmpersandAmpersand, tAmpersandEquals, tAmpersandAmpersandEquals)
	case '|':
		l.tok = l.logical('|', tBar, tBarBar, tBarEquals, tBarBarEquals)
	case '^':
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
			l.tok = tCaretEquals
		} else {
			l.tok = tCaret
		}
	case '<':
		l.pos++
		switch l.peek(0) {
		case '<':
			l.pos++
			if l.peek(0) == '=' {
				l.pos++
				l.tok = tLessThanLessThanEquals
			} else {
				l.tok = tLessThanLessThan
			}
		case '=':
			l.pos++
			l.tok = tLessThanEquals
		default:
			l.tok = tLessThan
		}
	case '>':
		l.pos++
		switch l.peek(0) {
		case '>':
			l.pos++
			switch l.peek(0) {
			case '>':
				l.pos++
				if l.peek(0) == '=' {
					l.pos++
					l.tok = tGreaterThanGreaterThanGreaterThanEquals
				} else {
					l.tok = tGreaterThanGreaterThanGreaterThan
				}
			case '=':
				l.pos++
				l.tok = tGreaterThanGreaterThanEquals
			default:
				l.tok = tGreaterThanGreaterThan
			}
		case '=':
			l.pos++
			l.tok = tGreaterThanEquals
		default:
			l.tok = tGreaterThan
		}
	case '\'', '"':
		l.lexString(c)
	case '`':
		l.pos++
		l.lexTemplate(tNoSubTemplate, tTemplateHead)
	case '#':
		l.pos++
		if !l.lexIdentTail(true) {
			return
		}
		l.tok = tPrivate
	default:
		if isDigit(c) {
			l.lexNumber()
			return
		}
		if !l.lexIdentTail(true) {
			return
		}
		l.tok = tIdent
		if !l.esc {
			l.tok = keywordToken(l.text[l.start:l.pos])
		}
	}
}

func (l *lexer) peek(i int) byte {
	if l.pos+i < len(l.src) {
		return l.src[l.pos+i]
	}
	return 0
}

func (l *lexer) op3(c byte, single, double, assign token) token {
	l.pos++
	switch l.peek(0) {
	case c:
		l.pos++
		return double
	case '=':
		l.pos++
		return assign
	}
	return single
}

func (l *lexer) logical(c byte, single, double, assign, doubleAssign token) token {
	l.pos++
	switch l.peek(0) {
	case c:
		l.pos++
		if l.peek(0) == '=' {
			l.pos++
			return doubleAssign
		}
		return double
	case '=':
		l.pos++
		return assign
	}
	return single
}

// lexIdentTail lexes an identifier starting at l.pos (which may be a start
// character or, when first is false, a continuation). It reports false after
// failing on a character that cannot start one.
func (l *lexer) lexIdentTail(first bool) bool {
	src := l.src
	begin := l.pos
	for l.pos < len(src) {
		c := src[l.pos]
		if c < 0x80 {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || (!first || l.pos > begin) && c >= '0' && c <= '9' {
				l.pos++
				continue
			}
			if c == '\\' {
				// \uXXXX or \u{X...} escape
				if l.peek(1) != 'u' {
					l.fail(l.pos, `Unexpected "\"`)
					return false
				}
				l.esc = true
				l.pos += 2
				if l.peek(0) == '{' {
					for l.pos < len(src) && src[l.pos] != '}' {
						l.pos++
					}
					if l.pos >= len(src) {
						l.fail(l.pos, "Unterminated unicode escape")
						return false
					}
					l.pos++
				} else {
					for i := 0; i < 4; i++ {
						if !isHex(l.peek(0)) {
							l.fail(l.pos, "Invalid unicode escape")
							return false
						}
						l.pos++
					}
				}
				continue
			}
			break
		}
		r, size := utf8.DecodeRune(src[l.pos:])
		if isIDStart(r) || l.pos > begin && isIDContinue(r) {
			l.pos += size
			continue
		}
		break
	}
	if l.pos == begin {
		r, _ := utf8.DecodeRune(src[l.pos:])
		if r == utf8.RuneError && l.pos < len(src) && src[l.pos] >= 0x80 {
			l.fail(l.pos, quoteByte(src[l.pos]))
		} else {
			l.fail(l.pos, "Unexpected "+quoteRune(r))
		}
		return false
	}
	return true
}

func quoteRune(r rune) string {
	switch {
	case r == 0:
		return `"\x00"`
	case r < 0x20 || r == 0x7F:
		const hex = "0123456789abcdef"
		return `"\x` + string([]byte{hex[r>>4], hex[r&15]}) + `"`
	case r == '"':
		return `"\""`
	}
	return `"` + string(r) + `"`
}

func quoteByte(b byte) string {
	const hex = "0123456789abcdef"
	return `Unexpected "\x` + string([]byte{hex[b>>4], hex[b&15]}) + `"`
}

func isIDStart(r rune) bool {
	if r < 0x80 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	if r < 0x80 {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$' || r >= '0' && r <= '9'
	}
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) || r == 0x200C || r == 0x200D
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (l *lexer) lexString(quote byte) {
	end, fl, ok := scanString(l.src, l.pos)
	l.esc, l.hi = fl&litEscape != 0, fl&litHigh != 0
	if !ok {
		l.fail(end, "Unterminated string literal")
		return
	}
	l.pos = end
	l.tok = tString
	if l.stats != nil && l.pos > l.stats.high {
		if quote == '"' {
			l.stats.double++
		} else {
			l.stats.single++
		}
	}
}

// lexTemplate lexes template characters from l.pos (after "`" or "}")
// through the closing "`" (tok = end) or "${" (tok = open).
func (l *lexer) lexTemplate(end, open token) {
	next, sub, fl, ok := scanTemplate(l.src, l.pos)
	l.esc, l.hi = l.esc || fl&litEscape != 0, l.hi || fl&litHigh != 0
	if !ok {
		l.fail(next, "Unterminated template literal")
		return
	}
	l.pos = next
	l.tok = end
	if sub {
		l.tok = open
	}
}

// rescanTemplate continues a template after the "}" that closes a
// substitution: the current token must be tCloseBrace.
func (l *lexer) rescanTemplate() {
	if l.tok != tCloseBrace {
		return
	}
	l.pos = l.start + 1
	l.esc, l.hi = false, false
	l.lexTemplate(tTemplateTail, tTemplateMiddle)
	l.end = l.pos
	if l.stats != nil && l.end > l.stats.high {
		l.stats.high = l.end
	}
}

// rescanRegExp relexes the current "/" or "/=" token as a regular expression.
func (l *lexer) rescanRegExp() {
	if l.tok != tSlash && l.tok != tSlashEquals {
		return
	}
	end, ok := ScanRegExp(l.src, l.start)
	if !ok {
		l.fail(end, "Unterminated regular expression")
		return
	}
	l.pos = end
	l.tok = tRegExp
	l.end = l.pos
	if l.stats != nil && l.end > l.stats.high {
		l.stats.high = l.end
	}
}

// splitFirst consumes the first character of the current operator token and
// relexes the rest as the current token: ">>" becomes ">", ">=" becomes
// "=", "<<" becomes "<". Types need this (`Array<Array<T>>`).
func (l *lexer) splitFirst() {
	if l.errPos >= 0 {
		return
	}
	l.prevEnd = l.start + 1
	l.pos = l.start + 1
	l.start = l.pos
	l.nl = false
	l.cBefore = l.nComments
	l.lexToken()
	l.end = l.pos
}

func (l *lexer) lexNumber() {
	src := l.src
	start := l.pos
	l.tok = tNumber
	c := src[l.pos]
	if c == '0' && l.pos+1 < len(src) {
		switch src[l.pos+1] | 0x20 {
		case 'x', 'o', 'b':
			l.pos += 2
			for l.pos < len(src) && (isHex(src[l.pos]) || src[l.pos] == '_') {
				l.pos++
			}
			if l.peek(0) == 'n' {
				l.pos++
				l.tok = tBigInt
			}
			l.checkNumberEnd()
			return
		}
	}
	for l.pos < len(src) && (isDigit(src[l.pos]) || src[l.pos] == '_') {
		l.pos++
	}
	if l.peek(0) == 'n' {
		l.pos++
		l.tok = tBigInt
		l.checkNumberEnd()
		return
	}
	if legacyOctal(src[start:l.pos]) {
		// 00.x is a member of a legacy octal literal: no fraction, no
		// exponent.
		l.checkNumberEnd()
		return
	}
	if l.peek(0) == '.' {
		l.pos++
		for l.pos < len(src) && (isDigit(src[l.pos]) || src[l.pos] == '_') {
			l.pos++
		}
	}
	if l.peek(0)|0x20 == 'e' {
		c1 := l.peek(1)
		if isDigit(c1) || (c1 == '+' || c1 == '-') && isDigit(l.peek(2)) {
			l.pos += 2
			for l.pos < len(src) && (isDigit(src[l.pos]) || src[l.pos] == '_') {
				l.pos++
			}
		}
	}
	l.checkNumberEnd()
}

// legacyOctal reports a legacy octal literal: 0 followed by octal digits.
func legacyOctal(digits []byte) bool {
	if len(digits) < 2 || digits[0] != '0' {
		return false
	}
	for _, c := range digits[1:] {
		if c < '0' || c > '7' {
			return false
		}
	}
	return true
}

// checkNumberEnd rejects an identifier character right after a number
// ("3in"), as the language does.
func (l *lexer) checkNumberEnd() {
	if l.pos < len(l.src) {
		c := l.src[l.pos]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || isDigit(c)) {
			l.fail(l.pos, "Invalid number")
		}
	}
}
