// Package gitquote quotes paths as git writes them, for patches and for
// the messages that name files.
package gitquote

import "strings"

// Quote returns a path as `git diff` writes it in patch headers (diff
// --git, ---, +++, rename from/to), so that `git apply` reads it back: as it
// is when it holds nothing special, else in double quotes with C escapes
// (\a \b \t \n \v \f \r \" \\) and every other control byte, DEL and every
// byte from 0x80 as a three-digit octal escape, which is git's quote_c_style
// with core.quotePath on (its default).
func Quote(name string) string {
	i := 0
	for i < len(name) && !gitMustQuote(name[i]) {
		i++
	}
	if i == len(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 8)
	b.WriteByte('"')
	b.WriteString(name[:i])
	for ; i < len(name); i++ {
		c := name[i]
		if !gitMustQuote(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('\\')
		switch c {
		case '\a':
			b.WriteByte('a')
		case '\b':
			b.WriteByte('b')
		case '\t':
			b.WriteByte('t')
		case '\n':
			b.WriteByte('n')
		case '\v':
			b.WriteByte('v')
		case '\f':
			b.WriteByte('f')
		case '\r':
			b.WriteByte('r')
		case '"', '\\':
			b.WriteByte(c)
		default:
			b.WriteByte('0' + c>>6)
			b.WriteByte('0' + c>>3&7)
			b.WriteByte('0' + c&7)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func gitMustQuote(c byte) bool {
	return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f
}
