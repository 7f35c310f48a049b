// Package jsonc is a minimal reader of JSON with comments and trailing
// commas (tsconfig.json): it finds the members of an object, or the elements
// of an array, with their byte ranges, so that an edit touches only the bytes
// it must. It does not check the values it skips: a value is balanced
// brackets and strings, or a run of other bytes.
package jsonc

import "bytes"

// Item is one member of an object or element of an array.
type Item struct {
	Start, End       int // the whole member or element
	KeyStart, KeyEnd int // the member's key, quotes included (members only)
	ValStart, ValEnd int
}

// Key is the member's key without its quotes (escapes left as written), ""
// for an array element.
func (it Item) Key(data []byte) string {
	if it.KeyEnd < it.KeyStart+2 {
		return ""
	}
	return string(data[it.KeyStart+1 : it.KeyEnd-1])
}

// String is the item's value when it is a string without escapes.
func (it Item) String(data []byte) (string, bool) {
	v := data[it.ValStart:it.ValEnd]
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// Skip returns the position of the first byte at or after pos that is not
// white space, a comment or a byte order mark.
func Skip(data []byte, pos int) int {
	for pos < len(data) {
		switch c := data[pos]; {
		case isSpace(c):
			pos++
		case c == 0xEF && pos+2 < len(data) && data[pos+1] == 0xBB && data[pos+2] == 0xBF:
			pos += 3
		case c == '/' && pos+1 < len(data) && data[pos+1] == '/':
			for pos < len(data) && data[pos] != '\n' {
				pos++
			}
		case c == '/' && pos+1 < len(data) && data[pos+1] == '*':
			end := bytes.Index(data[pos+2:], []byte("*/"))
			if end < 0 {
				return len(data)
			}
			pos += 2 + end + 2
		default:
			return pos
		}
	}
	return pos
}

func stringEnd(data []byte, pos int) int {
	for i := pos + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// ValueEnd returns the end of the value at pos, or -1.
func ValueEnd(data []byte, pos int) int {
	if pos >= len(data) {
		return -1
	}
	switch data[pos] {
	case '"':
		return stringEnd(data, pos)
	case '{', '[':
		depth := 0
		for i := pos; i < len(data); {
			i = Skip(data, i)
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case '"':
				e := stringEnd(data, i)
				if e < 0 {
					return -1
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	i := pos
	for i < len(data) && !isSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' && data[i] != '/' {
		i++
	}
	if i == pos {
		return -1
	}
	return i
}

// Items parses the members of the object (or the elements of the array)
// opening at pos. ok is false when data has no object or array there, or
// one this reader cannot follow.
func Items(data []byte, pos int) (items []Item, ok bool) {
	if pos >= len(data) || data[pos] != '{' && data[pos] != '[' {
		return nil, false
	}
	obj := data[pos] == '{'
	i := pos + 1
	for {
		i = Skip(data, i)
		if i >= len(data) {
			return nil, false
		}
		if data[i] == '}' || data[i] == ']' {
			return items, true
		}
		it := Item{Start: i}
		if obj {
			if data[i] != '"' {
				return nil, false
			}
			e := stringEnd(data, i)
			if e < 0 {
				return nil, false
			}
			it.KeyStart, it.KeyEnd = i, e
			i = Skip(data, e)
			if i >= len(data) || data[i] != ':' {
				return nil, false
			}
			i = Skip(data, i+1)
		}
		e := ValueEnd(data, i)
		if e < 0 {
			return nil, false
		}
		it.ValStart, it.ValEnd, it.End = i, e, e
		items = append(items, it)
		i = Skip(data, e)
		if i < len(data) && data[i] == ',' {
			i++
		} else if i < len(data) && data[i] != '}' && data[i] != ']' {
			return nil, false // two items without a comma between them
		}
	}
}

// Members parses the top-level object of a JSONC document; ok is false
// when it is not an object.
func Members(data []byte) ([]Item, bool) {
	at := Skip(data, 0)
	if at >= len(data) || data[at] != '{' {
		return nil, false
	}
	return Items(data, at)
}
