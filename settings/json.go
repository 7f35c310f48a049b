package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
)

// A settings file is small, and every error in it must name its line and
// column: encoding/json's token stream gives each value's offset, which
// this reader keeps with the value (the standard decoder into structs
// loses it, and says nothing of keys it does not know).

// value is one JSON value with the offset of its first byte.
type value struct {
	off  int
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str  string
	num  json.Number
	b    bool
	keys []member // objects, in the file's order
	elem []*value // arrays
}

type member struct {
	key    string
	keyOff int
	val    *value
}

func (v *value) what() string {
	switch v.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// posError is an error at a byte offset of a file.
type posError struct {
	off int
	msg string
}

func (e *posError) Error() string { return e.msg }

func errAt(off int, format string, args ...any) error {
	return &posError{off, fmt.Sprintf(format, args...)}
}

// parseJSON reads one JSON document.
func parseJSON(src []byte) (*value, error) {
	// json.Unmarshal places syntax errors exactly (the token stream only
	// roughly): it checks the text first.
	var any any
	if err := json.Unmarshal(src, &any); err != nil {
		return nil, jsonError(err, src)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	return readValue(dec, src)
}

// jsonError gives json.Unmarshal's errors an offset.
func jsonError(err error, src []byte) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) && int(se.Offset) >= len(src):
		return errAt(len(src), "invalid JSON: unexpected end of the file")
	case errors.As(err, &se):
		return errAt(int(se.Offset)-1, "invalid JSON: %v", se)
	case errors.As(err, &te):
		return errAt(int(te.Offset)-1, "%v", err)
	}
	return errAt(0, "%v", err)
}

// skipSpace returns the offset of the first byte at or after off that is
// not white space or the separator the decoder read past (: or ,).
func skipSpace(src []byte, off int) int {
	for off < len(src) {
		switch src[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func readValue(dec *json.Decoder, src []byte) (*value, error) {
	off := skipSpace(src, int(dec.InputOffset()))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	v := &value{off: off}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v.kind = 'o'
			for dec.More() {
				keyOff := skipSpace(src, int(dec.InputOffset()))
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				for _, m := range v.keys {
					if m.key == key {
						return nil, errAt(keyOff, "%q is set twice", key)
					}
				}
				mv, err := readValue(dec, src)
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, member{key, keyOff, mv})
			}
		case '[':
			v.kind = 'a'
			for dec.More() {
				ev, err := readValue(dec, src)
				if err != nil {
					return nil, err
				}
				v.elem = append(v.elem, ev)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		v.kind, v.str = 's', t
	case json.Number:
		v.kind, v.num = 'n', t
	case bool:
		v.kind, v.b = 'b', t
	case nil:
		v.kind = 'z'
	}
	return v, nil
}

// located prefixes err with the file and, for an error at an offset, the
// line and column.
func located(file string, src []byte, err error) error {
	var pe *posError
	if errors.As(err, &pe) {
		msg := err.Error()
		return fmt.Errorf("%s: %s", position(file, src, pe.off), msg)
	}
	return fmt.Errorf("%s: %v", file, err)
}

// position renders off as file:line:column.
func position(file string, src []byte, off int) string {
	p := ast.NewLines(src).Position(off)
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
}
