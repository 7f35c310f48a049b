package rewrite

import (
	"bytes"

	"github.com/fwmigrate/fwmigrate/ast"
)

// maxScanDepth bounds the nesting of template substitutions codeLiterals
// follows; deeper code is protected as a whole.
const maxScanDepth = 100

// codeLiterals scans the JavaScript code in src[span] (an expression ast
// did not parse into nodes: a function, a call) for the literals whose
// bytes are values: template literals and strings. It returns the spans of
// those that span lines, whose line breaks reindent must not touch. ok is
// false when the code cannot be delimited with confidence (an unterminated
// literal, a regular expression that does not close on its line, too deep
// a nesting): the caller then protects the whole span.
func codeLiterals(src []byte, span ast.Span) (spans []ast.Span, ok bool) {
	s := scanner{src: src[:span.End], out: nil}
	end, ok := s.code(span.Start, false, 0)
	if !ok || end != span.End {
		return nil, false
	}
	return s.out, true
}

type scanner struct {
	src []byte
	out []ast.Span
}

var regexKeywords = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "instanceof": true, "yield": true, "await": true,
}

// code scans code from i. In a template substitution (sub) it stops at the
// `}` that closes it and returns its offset; otherwise at the end.
func (s *scanner) code(i int, sub bool, depth int) (int, bool) {
	if depth > maxScanDepth {
		return i, false
	}
	src := s.src
	braces := 0
	regexOK := true
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return i, false
			}
			i += j + 4
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
					if j+1 < len(src) && src[j] == '\r' && src[j+1] == '\n' {
						j++
					}
				} else if src[j] == '\n' {
					return i, false
				}
				j++
			}
			if j >= len(src) {
				return i, false
			}
			if bytes.IndexByte(src[i:j], '\n') >= 0 {
				s.out = append(s.out, ast.Span{Start: i, End: j + 1})
			}
			i, regexOK = j+1, false
		case c == '`':
			j, ok := s.template(i, depth)
			if !ok {
				return i, false
			}
			if bytes.IndexByte(src[i:j], '\n') >= 0 {
				s.out = append(s.out, ast.Span{Start: i, End: j})
			}
			i, regexOK = j, false
		case c == '/' && regexOK:
			j := i + 1
			class := false
			for j < len(src) && (class || src[j] != '/') {
				switch src[j] {
				case '\\':
					j++
				case '[':
					class = true
				case ']':
					class = false
				case '\n', '\r':
					return i, false
				}
				j++
			}
			if j >= len(src) {
				return i, false
			}
			j++
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			i, regexOK = j, false
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			regexOK = regexKeywords[string(src[i:j])]
			i = j
		case c == '{':
			braces++
			i, regexOK = i+1, true
		case c == '}':
			if sub && braces == 0 {
				return i, true
			}
			braces--
			i, regexOK = i+1, true
		case c == ')' || c == ']':
			i, regexOK = i+1, false
		default:
			i, regexOK = i+1, true
		}
	}
	return i, !sub
}

// template scans the template literal whose backtick is at i and returns
// the offset after its closing backtick.
func (s *scanner) template(i, depth int) (int, bool) {
	src := s.src
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j + 1, true
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				k, ok := s.code(j+2, true, depth+1)
				if !ok {
					return i, false
				}
				j = k
			}
		}
	}
	return i, false
}
