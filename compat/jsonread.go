package compat

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader reads a JSON document in one pass, without reflection: the
// caller walks the document it expects (object, array, str, ...), and
// skips what it does not read. It is strict JSON (RFC 8259) and reads
// values as encoding/json would into the same Go types: null is the zero
// value (a nil slice or map), [] an empty slice, invalid UTF-8 in a string
// is U+FFFD. Object keys are matched exactly (encoding/json also accepts
// other cases for a struct's fields). It exists because the embedded
// ecosystem data, read by encoding/json, cost a check run a fifth of its
// CPU.
type jsonReader struct {
	b   []byte
	i   int
	buf []byte // scratch for keys with escapes
	// interned holds the strings of stringMap and strings, which repeat
	// (the same package names and versions in every release's pins).
	interned map[string]string
}

// intern returns b as a string, the same string for the same bytes.
func (r *jsonReader) intern(b []byte) string {
	if s, ok := r.interned[string(b)]; ok {
		return s
	}
	if r.interned == nil {
		r.interned = make(map[string]string, 256)
	}
	s := string(b)
	r.interned[s] = s
	return s
}

// internStr is str, interned.
func (r *jsonReader) internStr() (string, error) {
	if r.literal("null") {
		return "", nil
	}
	if r.peek() != '"' {
		return "", r.errorf("want a string")
	}
	b, err := r.rawString(true)
	if err != nil {
		return "", err
	}
	return r.intern(b), nil
}

var errJSONDepth = errors.New("JSON nested too deep")

func (r *jsonReader) errorf(format string, args ...any) error {
	return fmt.Errorf("JSON at offset %d: %s", r.i, fmt.Sprintf(format, args...))
}

func (r *jsonReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (r *jsonReader) peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// literal consumes word (true, false, null) if it is next.
func (r *jsonReader) literal(word string) bool {
	r.ws()
	if len(r.b)-r.i >= len(word) && string(r.b[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// end checks that nothing but white space follows the document.
func (r *jsonReader) end() error {
	if r.peek() != 0 || r.i < len(r.b) {
		return r.errorf("data after the document")
	}
	return nil
}

// object reads an object, calling f with each key (valid until the next
// read) to read its value; f must read or skip the value. It reports
// whether the value was null (f is not called then).
func (r *jsonReader) object(f func(key []byte) error) (null bool, err error) {
	return r.container('{', '}', "an object", func() error {
		if r.peek() != '"' {
			return r.errorf("want a key")
		}
		key, err := r.rawString(true)
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.errorf("want a colon")
		}
		r.i++
		return f(key)
	})
}

// array reads an array, calling f for each element, which f must read or
// skip. It reports whether the value was null.
func (r *jsonReader) array(f func() error) (null bool, err error) {
	return r.container('[', ']', "an array", f)
}

// container reads null, or a container that open and close delimit (what
// names it), calling elem for each element, which elem must read.
func (r *jsonReader) container(open, close byte, what string, elem func() error) (null bool, err error) {
	if r.literal("null") {
		return true, nil
	}
	if r.peek() != open {
		return false, r.errorf("want %s", what)
	}
	r.i++
	if r.peek() == close {
		r.i++
		return false, nil
	}
	for {
		if err := elem(); err != nil {
			return false, err
		}
		switch r.peek() {
		case ',':
			r.i++
		case close:
			r.i++
			return false, nil
		default:
			return false, r.errorf("want a comma or %c", close)
		}
	}
}

// str reads a string; null is "".
func (r *jsonReader) str() (string, error) {
	s, _, err := r.strOrNull()
	return s, err
}

// strOrNull reads a string, or null (null true).
func (r *jsonReader) strOrNull() (s string, null bool, err error) {
	if r.literal("null") {
		return "", true, nil
	}
	if r.peek() != '"' {
		return "", false, r.errorf("want a string")
	}
	b, err := r.rawString(false)
	return string(b), false, err
}

// boolean reads true or false; null is false.
func (r *jsonReader) boolean() (bool, error) {
	b, _, err := r.boolOrNull()
	return b, err
}

// boolOrNull reads true, false, or null (null true).
func (r *jsonReader) boolOrNull() (b, null bool, err error) {
	switch {
	case r.literal("true"):
		return true, false, nil
	case r.literal("false"):
		return false, false, nil
	case r.literal("null"):
		return false, true, nil
	}
	return false, false, r.errorf("want true or false")
}

// integer reads a number that is an int (as encoding/json reads one into
// an int); null is 0.
func (r *jsonReader) integer() (int, error) {
	if r.literal("null") {
		return 0, nil
	}
	r.ws()
	start := r.i
	if err := r.number(); err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(r.b[start:r.i]))
	if err != nil {
		return 0, r.errorf("%s is not an int", r.b[start:r.i])
	}
	return n, nil
}

// strings reads an array of strings: nil for null, empty for [].
func (r *jsonReader) strings() ([]string, error) {
	var out []string
	null, err := r.array(func() error {
		s, err := r.internStr()
		out = append(out, s)
		return err
	})
	if err == nil && !null && out == nil {
		out = []string{}
	}
	return out, err
}

// stringMap reads an object of strings: nil for null.
func (r *jsonReader) stringMap() (map[string]string, error) {
	m := map[string]string{}
	null, err := r.object(func(key []byte) error {
		k := r.intern(key)
		v, err := r.internStr()
		m[k] = v
		return err
	})
	if null {
		return nil, err
	}
	return m, err
}

// skip reads any value.
func (r *jsonReader) skip() error { return r.skipDepth(0) }

func (r *jsonReader) skipDepth(depth int) error {
	if depth > 10000 {
		return errJSONDepth
	}
	switch c := r.peek(); {
	case c == '{':
		_, err := r.object(func([]byte) error { return r.skipDepth(depth + 1) })
		return err
	case c == '[':
		_, err := r.array(func() error { return r.skipDepth(depth + 1) })
		return err
	case c == '"':
		_, err := r.rawString(true)
		return err
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	case r.literal("true"), r.literal("false"), r.literal("null"):
		return nil
	}
	return r.errorf("want a value")
}

// number consumes a JSON number.
func (r *jsonReader) number() error {
	b, i := r.b, r.i
	digits := func() bool {
		s := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return r.errorf("want a number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return r.errorf("want digits after the point")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return r.errorf("want digits in the exponent")
		}
	}
	r.i = i
	return nil
}

// rawString reads the string at r.i (its opening quote) and returns its
// value. The bytes are the input's when the string has no escapes and is
// valid UTF-8; otherwise they are decoded into scratch (valid until the
// next call) when scratch is true, or into a new slice.
func (r *jsonReader) rawString(scratch bool) ([]byte, error) {
	b := r.b
	start := r.i + 1
	i := start
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			r.i = i + 1
			return b[start:i], nil
		case c == '\\' || c >= utf8.RuneSelf:
			return r.slowString(start, scratch)
		case c < 0x20:
			r.i = i
			return nil, r.errorf("control character in a string")
		}
		i++
	}
	r.i = i
	return nil, r.errorf("unterminated string")
}

func (r *jsonReader) slowString(start int, scratch bool) ([]byte, error) {
	var out []byte
	if scratch {
		out = r.buf[:0]
	}
	b := r.b
	i := start
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			r.i = i + 1
			if scratch {
				r.buf = out
			}
			return out, nil
		case c < 0x20:
			r.i = i
			return nil, r.errorf("control character in a string")
		case c == '\\':
			if i+1 >= len(b) {
				r.i = i
				return nil, r.errorf("unterminated string")
			}
			switch e := b[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				i += 2
			case 'b':
				out = append(out, '\b')
				i += 2
			case 'f':
				out = append(out, '\f')
				i += 2
			case 'n':
				out = append(out, '\n')
				i += 2
			case 'r':
				out = append(out, '\r')
				i += 2
			case 't':
				out = append(out, '\t')
				i += 2
			case 'u':
				c1, ok := hex4(b, i+2)
				if !ok {
					r.i = i
					return nil, r.errorf("bad \\u escape")
				}
				i += 6
				ch := rune(c1)
				if utf16.IsSurrogate(ch) {
					ch = utf8.RuneError
					if c2, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
						if d := utf16.DecodeRune(rune(c1), rune(c2)); d != utf8.RuneError {
							ch = d
							i += 6
						}
					}
				}
				out = utf8.AppendRune(out, ch)
			default:
				r.i = i
				return nil, r.errorf("bad escape")
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			ch, size := utf8.DecodeRune(b[i:])
			if ch == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, b[i:i+size]...)
			}
			i += size
		}
	}
	r.i = i
	return nil, r.errorf("unterminated string")
}

func hex4(b []byte, i int) (uint16, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var n uint16
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | uint16(c)
	}
	return n, true
}
