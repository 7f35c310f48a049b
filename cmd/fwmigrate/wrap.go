package main

import (
	"strings"
	"unicode/utf8"

	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

// wrapLines wraps every line of s that is wider than width at its spaces,
// each continuation under the text of its line: after the line's indent
// and its marker ("- ", "= note: ", "= fix (safe): "), else two columns
// further in. A word wider than the room is not broken: a path stays one
// word. The colour sequences fwmigrate writes take no columns. width <= 0
// leaves s as it is (not a terminal: one line per line, for grep and
// logs).
func wrapLines(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = wrapLine(l, width)
	}
	return strings.Join(lines, "\n")
}

// marker matches what a hanging indent goes under: a list item's dash, a
// "= note: " or "= fix (unsafe): ", a "note: ".
var marker = lazyregexp.New(`^(- |= [a-z]+(?: \([a-z]+\))?: |note: )`)

// wrapLine is wrapLines for one line.
func wrapLine(line string, width int) string {
	if width <= 0 || visibleLen(line) <= width {
		return line
	}
	body := strings.TrimLeft(line, " ")
	indent := len(line) - len(body)
	hang := indent + 2
	if m := marker().FindString(body); m != "" {
		hang = indent + len(m)
	}
	if hang > width/2 {
		hang = min(indent+2, width/2)
	}
	pad := strings.Repeat(" ", hang)
	var b strings.Builder
	b.WriteString(line[:indent])
	col := indent
	fresh := true // nothing written on this line yet
	for _, word := range strings.Split(body, " ") {
		n := visibleLen(word)
		if !fresh && col+1+n > width {
			b.WriteString("\n" + pad)
			col, fresh = hang, true
		}
		if !fresh {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
		fresh = false
	}
	return b.String()
}

// visibleLen is the columns s takes: its runes, colour sequences left out.
func visibleLen(s string) int {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = stripANSI(s)
	}
	return utf8.RuneCountInString(s)
}
