package text

import "strings"

// Markdown escaping, for the reports pasted into a pull request or written
// to a CI step summary (GitHub renders them). A name or value from the tree
// may hold Markdown (emphasis, links, a table's "|"), raw HTML ("<img
// src=x onerror=...>"), entity references, backticks that end a code span,
// or a newline that starts a block of its own. Each of the functions below
// first makes the string printable (Escape: newlines, control bytes and
// bidi controls become visible escapes, so that nothing of it spans two
// lines), then makes every character of it literal.

// MarkdownText returns s as literal Markdown text: after Escape, every
// ASCII punctuation character is backslash-escaped (CommonMark makes any
// escaped ASCII punctuation a literal), so that no emphasis, link, HTML
// tag, entity, heading or list marker can start in it. "|" is the
// exception: MarkdownCell escapes it, and only where a table needs it.
func MarkdownText(s string) string {
	s = Escape(s)
	if !strings.ContainsFunc(s, mdPunct) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if mdPunct(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func mdPunct(r rune) bool {
	return r < 0x80 && r != '|' && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{}~", r)
}

// MarkdownCode returns s as a code span: after Escape, between backtick
// fences one longer than the longest run of backticks in it, padded with
// a space on each side when it starts or ends with a backtick or a space
// (the one space CommonMark then strips from each side). Inside a code
// span nothing is markup: no HTML, no entity, no emphasis, and GitHub
// links no @mention or issue number in it.
func MarkdownCode(s string) string {
	s = Escape(s)
	if s == "" {
		return "` `"
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s[0] == '`' || s[0] == ' ' || s[len(s)-1] == '`' || s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// MarkdownInline renders one line of fwmigrate's own words that quotes
// names and values from the tree between backticks (a finding's message,
// a fix's description): the quoted parts become code spans (MarkdownCode),
// the rest literal text (MarkdownText). A quoted value that holds a
// backtick itself splits differently than it was written, and still
// renders as literal text and code, never as markup.
func MarkdownInline(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 {
		// An odd number of backticks: the last one opens nothing.
		parts[len(parts)-2] += "`" + parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 {
			b.WriteString(MarkdownCode(p))
		} else {
			b.WriteString(MarkdownText(p))
		}
	}
	return b.String()
}

// MarkdownCell makes an inline Markdown string (from the functions above)
// safe in a table cell: each "|" gets the backslash that keeps it from
// ending the cell (in a code span too, as GitHub's tables read it). A "|"
// already preceded by an odd number of backslashes is escaped already.
func MarkdownCell(s string) string {
	if !strings.Contains(s, "|") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '|' && slashes%2 == 0 {
			b.WriteByte('\\')
		}
		if c == '\\' {
			slashes++
		} else {
			slashes = 0
		}
		b.WriteByte(c)
	}
	return b.String()
}
