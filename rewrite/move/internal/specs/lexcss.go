package specs

import "bytes"

// ScanCSS appends to refs the specifiers of the style sheet src (offsets
// shifted by base): the targets of @import (and Sass's @use and @forward)
// and of url(). lang is "css", "scss", "sass", "less", "postcss" or "styl";
// it decides whether // starts a comment and whether unquoted @import
// targets exist (the indented Sass syntax).
func ScanCSS(src []byte, base int, lang string, refs []Ref) []Ref {
	lineComments := lang == "scss" || lang == "sass" || lang == "less" || lang == "styl" || lang == "stylus"
	sass := lang == "scss" || lang == "sass"
	add := func(start, end int, kind Kind) {
		if start < end && !dynamicCSS(src[start:end]) {
			refs = append(refs, Ref{Start: base + start, End: base + end, Kind: kind, Style: true})
		}
	}
	pos := 0
	for pos < len(src) {
		c := src[pos]
		switch {
		case c == '/' && pos+1 < len(src) && src[pos+1] == '*':
			end := indexFrom(src, pos+2, "*/")
			if end < 0 {
				return refs
			}
			pos = end + 2
		case c == '/' && pos+1 < len(src) && src[pos+1] == '/' && lineComments:
			for pos < len(src) && src[pos] != '\n' {
				pos++
			}
		case c == '"' || c == '\'':
			pos = cssStringEnd(src, pos)
		case c == '@':
			pos++
			nameStart := pos
			for pos < len(src) && (isIdentPart(src[pos]) || src[pos] == '-') {
				pos++
			}
			switch name := string(src[nameStart:pos]); name {
			case "config", "plugin", "reference", "source":
				// Tailwind 4's directives name files (and @source globs)
				// relative to the style sheet.
				pos = skipCSSSpace(src, pos, lineComments)
				kind := CSSImport
				if name == "source" {
					kind = CSSSource
					if hasPrefixAt(src, pos, "not") && pos+3 < len(src) && isSpace(src[pos+3]) {
						pos = skipCSSSpace(src, pos+3, lineComments)
					}
				}
				if pos < len(src) && (src[pos] == '"' || src[pos] == '\'') {
					end := cssStringEnd(src, pos)
					if end-pos >= 2 && src[end-1] == src[pos] {
						refs = cssGlobRef(src, pos+1, end-1, base, kind, refs)
					}
					pos = end
				}
				continue
			case "import":
			case "use", "forward":
				if !sass {
					continue
				}
			default:
				continue
			}
			// One or more comma-separated targets, after Less's options.
			for {
				pos = skipCSSSpace(src, pos, lineComments)
				if lang == "less" && pos < len(src) && src[pos] == '(' {
					for pos < len(src) && src[pos] != ')' {
						pos++
					}
					pos = skipCSSSpace(src, pos+1, lineComments)
				}
				if pos >= len(src) {
					return refs
				}
				switch d := src[pos]; {
				case d == '"' || d == '\'':
					end := cssStringEnd(src, pos)
					if end-pos >= 2 && src[end-1] == d {
						add(pos+1, end-1, CSSImport)
					}
					pos = end
				case isURLAt(src, pos):
					var s, e int
					s, e, pos = cssURL(src, pos)
					add(s, e, CSSImport)
				case lang == "sass" && d != ';' && d != '\n' && d != '{':
					// The indented syntax allows @import foo, bar/baz
					s := pos
					for pos < len(src) && !isSpace(src[pos]) && src[pos] != ',' && src[pos] != ';' {
						pos++
					}
					add(s, pos, CSSImport)
				default:
					pos = max(pos, nameStart)
				}
				pos = skipCSSSpace(src, pos, lineComments)
				if pos < len(src) && src[pos] == ',' {
					pos++
					continue
				}
				break
			}
		case (c == 'u' || c == 'U') && isURLAt(src, pos) && (pos == 0 || !isIdentPart(src[pos-1]) && src[pos-1] != '-'):
			var s, e int
			s, e, pos = cssURL(src, pos)
			add(s, e, CSSURL)
		default:
			pos++
		}
	}
	return refs
}

func isURLAt(src []byte, pos int) bool {
	return pos+4 <= len(src) && (src[pos]|0x20) == 'u' && (src[pos+1]|0x20) == 'r' && (src[pos+2]|0x20) == 'l' && src[pos+3] == '('
}

// cssURL parses url(...) at pos and returns the byte range of its target
// (empty when there is none) and the position after the closing ")".
func cssURL(src []byte, pos int) (start, end, next int) {
	pos += 4
	for pos < len(src) && isSpace(src[pos]) {
		pos++
	}
	if pos >= len(src) {
		return 0, 0, pos
	}
	if q := src[pos]; q == '"' || q == '\'' {
		e := cssStringEnd(src, pos)
		if e-pos < 2 || src[e-1] != q {
			return 0, 0, e
		}
		start, end = pos+1, e-1
		pos = e
	} else {
		start = pos
		for pos < len(src) && src[pos] != ')' && !isSpace(src[pos]) && src[pos] != '"' && src[pos] != '\'' && src[pos] != '(' {
			if src[pos] == '\\' {
				return 0, 0, pos // an escape: the bytes are not the value
			}
			pos++
		}
		end = pos
	}
	for pos < len(src) && src[pos] != ')' && src[pos] != '\n' {
		pos++
	}
	if pos < len(src) && src[pos] == ')' {
		return start, end, pos + 1
	}
	return 0, 0, pos // unterminated: not a url token
}

// cssStringEnd returns the position after the string opened at pos.
func cssStringEnd(src []byte, pos int) int {
	q := src[pos]
	pos++
	for pos < len(src) {
		switch src[pos] {
		case '\\':
			pos += 2
			continue
		case '\n':
			return pos
		case q:
			return pos + 1
		}
		pos++
	}
	return len(src)
}

func skipCSSSpace(src []byte, pos int, lineComments bool) int {
	for pos < len(src) {
		switch {
		case isSpace(src[pos]):
			pos++
		case src[pos] == '/' && pos+1 < len(src) && src[pos+1] == '*':
			end := indexFrom(src, pos+2, "*/")
			if end < 0 {
				return len(src)
			}
			pos = end + 2
		case lineComments && src[pos] == '/' && pos+1 < len(src) && src[pos+1] == '/':
			for pos < len(src) && src[pos] != '\n' {
				pos++
			}
		default:
			return pos
		}
	}
	return pos
}

// dynamicCSS reports a target computed by a preprocessor (#{$x}, @{x}, $x)
// or holding escapes: its bytes are not a path we can map.
func dynamicCSS(s []byte) bool {
	for i, c := range s {
		switch c {
		case '$', '\\', '\n':
			return true
		case '{':
			if i > 0 && (s[i-1] == '#' || s[i-1] == '@') {
				return true
			}
		}
	}
	return false
}

// cssGlobRef appends the ref of the path or glob src[start:end] of a
// directive: a path whole, a glob by its directory prefix (as
// import.meta.glob's), nothing for a glob without one.
func cssGlobRef(src []byte, start, end, base int, kind Kind, refs []Ref) []Ref {
	v := src[start:end]
	if len(v) == 0 || dynamicCSS(v) {
		return refs
	}
	cut := bytes.IndexAny(v, "*?[{")
	if cut < 0 {
		return append(refs, Ref{Start: base + start, End: base + end, Kind: kind, Style: true})
	}
	cut = bytes.LastIndexByte(v[:cut], '/') + 1
	if cut == 0 {
		return refs
	}
	return append(refs, Ref{Start: base + start, End: base + start + cut, Kind: kind, Style: true, Prefix: true})
}
