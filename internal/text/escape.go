package text

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Names and values read from a project's tree (file and folder names, lines
// quoted in messages) reach terminals and CI logs. A repository can name a
// folder with terminal escape sequences, bidi overrides that reorder what a
// reader sees, or a newline followed by a GitHub workflow command
// ("::error title=...::", or the older "##[error]" anywhere in a line),
// which the Actions runner obeys. Escape and EscapeLines are the one place
// such bytes are made visible; every printer calls them.

// Escape returns s as it may be printed inside one line of a terminal or a
// log: control bytes (newlines and tabs too), DEL, C1 controls, bytes that
// are not UTF-8, bidi controls and line separators are shown as Go-style
// escapes (\n, \x1b, \u202e, \xff for a stray byte), a leading "::" (after
// blanks) becomes "\x3a:" and "##[" becomes "##\x5b". Backslashes are kept,
// for Windows paths: the result is for reading, not for unquoting. Text
// that needs none of this is returned as it is, without allocating.
func Escape(s string) string {
	return escape(s, false, false)
}

// EscapeLines is Escape for a report fwmigrate assembled from its own words
// and the tree's: its newlines and tabs are kept, every line is guarded
// against a workflow command at its start, and with sgr the colour
// sequences fwmigrate writes (ESC [ digits ; m) are kept too.
func EscapeLines(s string, sgr bool) string {
	return escape(s, true, sgr)
}

func escape(s string, keepNewlines, sgr bool) string {
	i := 0
	lineStart := true
	for i < len(s) {
		if lineStart {
			if j := commandAt(s, i); j >= 0 {
				break
			}
			lineStart = false
		}
		c := s[i]
		if c == '\n' && keepNewlines {
			lineStart = true
			i++
			continue
		}
		if c == '\t' && keepNewlines {
			i++
			continue
		}
		if c == 0x1b && sgr && sgrLen(s[i:]) > 0 {
			i += sgrLen(s[i:])
			continue
		}
		if c == '#' && strings.HasPrefix(s[i:], "##[") {
			break
		}
		if c < 0x80 {
			if c < 0x20 || c == 0x7f {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	colon := -1 // the ':' of a workflow command at a line's start
	for i < len(s) {
		if lineStart {
			colon = commandAt(s, i)
			lineStart = false
		}
		c := s[i]
		switch {
		case i == colon:
			b.WriteString(`\x3a`)
		case c == '\t' && keepNewlines:
			b.WriteByte(c)
		case c == '\n' && keepNewlines:
			b.WriteByte('\n')
			lineStart = true
			i++
			continue
		case c == 0x1b && sgr && sgrLen(s[i:]) > 0:
			n := sgrLen(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '#' && strings.HasPrefix(s[i:], "##["):
			b.WriteString(`##\x5b`)
			i += 3
			continue
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c < 0x80:
			b.WriteByte(c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				fmt.Fprintf(&b, `\x%02x`, c)
			case unsafeRune(r):
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		i++
	}
	return b.String()
}

// unsafeRune reports the runes a terminal or a log viewer obeys rather than
// shows: C1 controls (U+009B is CSI on some terminals), the bidi marks,
// embeddings, overrides and isolates (the "Trojan Source" reorderings), and
// the Unicode line and paragraph separators.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// commandAt returns the index of the "::" that starts a workflow command at
// the line beginning at i (after the blanks the runner trims), or -1.
func commandAt(s string, i int) int {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if strings.HasPrefix(s[j:], "::") {
		return j
	}
	return -1
}

// sgrLen is the length of the colour sequence (ESC [ digits and ; m) that
// starts s, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c == 'm':
			return j + 1
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0
		}
	}
	return 0
}
