package ast

// One scanner of JavaScript's literals and one keyword table, for every
// reader of JavaScript in fwmigrate. The strict lexer of this package (its
// parsers) and the tolerant lexer of rewrite/move (which finds import
// specifiers in any script, valid or not) are two modes over these
// functions, as esbuild keeps one lexer: a bug in where a string, template
// or regular expression ends is fixed here for all of them.

// ScanString scans the string literal whose opening quote is at src[i]. It
// returns the offset after the closing quote, and ok. When a line break or
// the end of input comes first, ok is false and end is the offset of the
// line break (or len(src)): that is where a parser reports the error, and
// where a tolerant reader ends the literal.
func ScanString(src []byte, i int) (end int, ok bool) {
	end, _, ok = scanString(src, i)
	return end, ok
}

// litFlags says what a scanned literal holds, for the strict lexer.
type litFlags uint8

const (
	litEscape litFlags = 1 << iota // a backslash
	litHigh                        // a non-ASCII byte
)

func scanString(src []byte, i int) (int, litFlags, bool) {
	quote := src[i]
	var fl litFlags
	i++
	for i < len(src) {
		c := src[i]
		switch {
		case c == quote:
			return i + 1, fl, true
		case c == '\\':
			fl |= litEscape
			i++
			// A line continuation with CRLF is one escape.
			if i+1 < len(src) && src[i] == '\r' && src[i+1] == '\n' {
				i += 2
			} else if i < len(src) {
				i++
			}
		case c == '\n' || c == '\r':
			return i, fl, false
		case c >= 0x80:
			fl |= litHigh
			i++
		default:
			i++
		}
	}
	return len(src), fl, false
}

// ScanTemplate scans template characters from src[i] (just after the "`"
// that opens a template or the "}" that closes a substitution) through the
// closing "`" (sub false) or the "${" of the next substitution (sub true),
// and returns the offset after it. ok is false when the input ends first;
// end is then len(src).
func ScanTemplate(src []byte, i int) (end int, sub, ok bool) {
	end, sub, _, ok = scanTemplate(src, i)
	return end, sub, ok
}

func scanTemplate(src []byte, i int) (int, bool, litFlags, bool) {
	var fl litFlags
	for i < len(src) {
		switch c := src[i]; {
		case c == '`':
			return i + 1, false, fl, true
		case c == '$' && i+1 < len(src) && src[i+1] == '{':
			return i + 2, true, fl, true
		case c == '\\':
			fl |= litEscape
			i += 2
		case c >= 0x80:
			fl |= litHigh
			i++
		default:
			i++
		}
	}
	return len(src), false, fl, false
}

// ScanRegExp scans the regular expression literal whose "/" is at src[i],
// flags included, and returns the offset after it. ok is false when a line
// terminator or the end of input comes before the closing "/"; end is then
// its offset (where a parser reports the error). A "/" inside a character
// class does not close the literal.
func ScanRegExp(src []byte, i int) (end int, ok bool) {
	i++
	inClass := false
	for {
		if i >= len(src) {
			return len(src), false
		}
		c := src[i]
		switch c {
		case '\\':
			i++
			if i < len(src) && (src[i] == '\n' || src[i] == '\r') {
				return i, false
			}
			if i < len(src) {
				i++
			}
			continue
		case '\n', '\r':
			return i, false
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				i++
				for i < len(src) {
					c := src[i]
					if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' {
						i++
						continue
					}
					break
				}
				return i, true
			}
		case 0xE2:
			if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
				return i, false
			}
		}
		i++
	}
}

// keywordToken is the keyword table: the token of a reserved word, tIdent
// for any other word.
func keywordToken(s string) token {
	if len(s) < 2 || len(s) > 10 || s[0] < 'b' || s[0] > 'w' {
		return tIdent
	}
	switch s {
	case "break":
		return tBreak
	case "case":
		return tCase
	case "catch":
		return tCatch
	case "class":
		return tClass
	case "const":
		return tConst
	case "continue":
		return tContinue
	case "debugger":
		return tDebugger
	case "default":
		return tDefault
	case "delete":
		return tDelete
	case "do":
		return tDo
	case "else":
		return tElse
	case "enum":
		return tEnum
	case "export":
		return tExport
	case "extends":
		return tExtends
	case "false":
		return tFalse
	case "finally":
		return tFinally
	case "for":
		return tFor
	case "function":
		return tFunction
	case "if":
		return tIf
	case "import":
		return tImport
	case "in":
		return tIn
	case "instanceof":
		return tInstanceof
	case "new":
		return tNew
	case "null":
		return tNull
	case "return":
		return tReturn
	case "super":
		return tSuper
	case "switch":
		return tSwitch
	case "this":
		return tThis
	case "throw":
		return tThrow
	case "true":
		return tTrue
	case "try":
		return tTry
	case "typeof":
		return tTypeof
	case "var":
		return tVar
	case "void":
		return tVoid
	case "while":
		return tWhile
	case "with":
		return tWith
	}
	return tIdent
}

// OperandFollows reports whether an expression operand may follow the word
// w, so that a "/" after it starts a regular expression (and a "<" a JSX
// element) rather than being an operator: reserved words other than this,
// super, null, true and false, and the contextual keywords await, yield and
// of. Lexers without a parser decide "/" with it; a word after "." is a
// property name, which it does not judge.
func OperandFollows(w string) bool {
	switch t := keywordToken(w); t {
	case tIdent:
		return w == "await" || w == "yield" || w == "of"
	case tThis, tSuper, tNull, tTrue, tFalse:
		return false
	}
	return true
}
