package specs

// StrLit is a string literal of a staying script: its text without the
// delimiters. Concat is set when it follows a "+" (it continues a computed
// string), DirConcat when what precedes the "+" names a directory
// (__dirname, import.meta.dirname, a call: process.cwd()); Subst for a
// template literal with substitutions, whose span is then the whole
// literal; Key when a ":" follows (an object key).
type StrLit struct {
	Start, End int
	Concat     bool
	DirConcat  bool
	Subst      bool
	Key        bool
}

// StrLits appends the string literals of the tokens of l's last Scan.
func (l *Lexer) StrLits(strs []StrLit) []StrLit {
	for i, t := range l.toks {
		if t.kind != tString && t.kind != tTemplate {
			continue
		}
		plus := l.isPunct(i-1, '+')
		strs = append(strs, StrLit{
			Start: t.start + 1, End: t.end - 1, Subst: t.subst,
			Key:       l.isPunct(l.next(i), ':') && (l.isPunct(i-1, '{') || l.isPunct(i-1, ',')), // not c ? 'a' : 'b'
			Concat:    plus,
			DirConcat: plus && (l.isIdent(i-2, "__dirname") || l.isIdent(i-2, "dirname") || l.isPunct(i-2, ')')),
		})
	}
	return strs
}
