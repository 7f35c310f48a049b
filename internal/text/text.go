// Package text holds the small rules of English that fwmigrate's messages
// and reports share.
package text

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Plural writes n and word, with the plural ending when n is not 1:
// "1 file", "3 files", "2 fixes".
func Plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	switch {
	case n == 1:
		return s
	case strings.HasSuffix(word, "x"):
		return s + "es"
	case strings.HasSuffix(word, "ry"):
		return s[:len(s)-1] + "ies" // entry, directory
	}
	return s + "s"
}

// Wrap renders text after lead, wrapped at width with a hanging indent as
// wide as lead, and ends with a newline.
func Wrap(lead, text string, width int) string {
	pad := strings.Repeat(" ", utf8.RuneCountInString(lead))
	var b strings.Builder
	line := lead
	n := utf8.RuneCountInString(lead)
	fresh := true
	for _, word := range strings.Fields(text) {
		wl := utf8.RuneCountInString(word)
		if !fresh && n+1+wl > width {
			b.WriteString(line + "\n")
			line, n, fresh = pad, len(pad), true
		}
		if !fresh {
			line += " "
			n++
		}
		line += word
		n += wl
		fresh = false
	}
	b.WriteString(line + "\n")
	return b.String()
}

// FirstLines is the first n lines of s (a stack trace shown in a note).
func FirstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
