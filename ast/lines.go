package ast

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Lines is the line table of a text: the one way fwmigrate turns a byte
// offset into a line and column, for configs (File embeds it), .env and
// ignore files, and the sources the layout move edits. A line ends at LF,
// CRLF or a lone CR, as in esbuild and editors; a BOM at the start of the
// text is not counted in columns.
type Lines struct {
	src    []byte
	starts []int32 // byte offset of the start of each line
}

// NewLines builds the line table of src, which must not change afterwards.
// Texts over 2 GiB are not supported (Parse refuses them).
func NewLines(src []byte) Lines {
	n := 1 + bytes.Count(src, []byte{'\n'})
	if bytes.IndexByte(src, '\r') < 0 {
		// Only LF line ends, the usual case: find them with IndexByte.
		starts := make([]int32, 1, n)
		for i := 0; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				return Lines{src, starts}
			}
			i += j + 1
			starts = append(starts, int32(i))
		}
	}
	n += bytes.Count(src, []byte{'\r'})
	starts := make([]int32, 1, n)
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, int32(i+1))
		case '\n':
			starts = append(starts, int32(i+1))
		}
	}
	return Lines{src, starts}
}

func (l Lines) clamp(offset int) int {
	return max(0, min(offset, len(l.src)))
}

// lineIndex is the 0-based line of a clamped offset.
func (l Lines) lineIndex(offset int) int {
	return sort.Search(len(l.starts), func(i int) bool { return int(l.starts[i]) > offset }) - 1
}

func (l Lines) hasBOM() bool {
	return len(l.src) >= 3 && l.src[0] == 0xEF && l.src[1] == 0xBB && l.src[2] == 0xBF
}

// Line returns the 1-based line of offset.
func (l Lines) Line(offset int) int { return l.lineIndex(l.clamp(offset)) + 1 }

// LineStart returns the offset of the first byte of offset's line (after
// the BOM on the first line).
func (l Lines) LineStart(offset int) int {
	offset = l.clamp(offset)
	ls := int(l.starts[l.lineIndex(offset)])
	if ls == 0 && l.hasBOM() {
		return 3
	}
	return ls
}

// Position returns the 1-based line and columns of offset.
func (l Lines) Position(offset int) Position {
	offset = l.clamp(offset)
	i := l.lineIndex(offset)
	ls := int(l.starts[i])
	if i == 0 && l.hasBOM() {
		ls = 3
		if offset < ls {
			offset = ls
		}
	}
	u16 := 0
	for j := ls; j < offset; {
		c := l.src[j]
		if c < 0x80 {
			u16++
			j++
			continue
		}
		r, size := utf8.DecodeRune(l.src[j:])
		if r >= 0x10000 {
			u16 += 2
		} else {
			u16++
		}
		j += size
	}
	return Position{Line: i + 1, Column: offset - ls + 1, ColumnUTF16: u16 + 1}
}

// Offset is Position's inverse for UTF-16 columns (an editor's positions):
// the byte offset of 1-based line and column. A line past the end gives the
// end of the text; a column past the line's end gives the end of its text
// (before its line end); a column inside a character gives the character's
// start. On the first line the BOM is skipped, as Position does.
func (l Lines) Offset(line, columnUTF16 int) int {
	if line < 1 {
		return 0
	}
	if line > len(l.starts) {
		return len(l.src)
	}
	i := line - 1
	ls := int(l.starts[i])
	if i == 0 && l.hasBOM() {
		ls = 3
	}
	end := len(l.src)
	if i+1 < len(l.starts) {
		end = int(l.starts[i+1])
		if end > ls && l.src[end-1] == '\n' {
			end--
		}
		if end > ls && l.src[end-1] == '\r' {
			end--
		}
	}
	u16 := 1
	j := ls
	for j < end {
		c := l.src[j]
		w, size := 1, 1
		if c >= 0x80 {
			var r rune
			r, size = utf8.DecodeRune(l.src[j:])
			if r >= 0x10000 {
				w = 2
			}
		}
		if u16+w > columnUTF16 {
			break
		}
		u16 += w
		j += size
	}
	return j
}
