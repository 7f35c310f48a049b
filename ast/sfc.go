package ast

import "bytes"

// SFCBlock is a top-level block of a single-file component (.vue): a
// <template>, a <script> (with or without setup), a <style>, or a custom
// block.
type SFCBlock struct {
	Tag  string // script, style, template, or a custom block's name (lower case)
	Lang string // the lang attribute, lower-cased; "" when absent
	// Setup reports a `setup` attribute (<script setup>).
	Setup bool
	// Loc runs from the "<" of the start tag through the ">" of the end
	// tag (through "/>" for a self-closing block).
	Loc Span
	// Content is the text between the tags; empty for a self-closing
	// block.
	Content     Span
	SelfClosing bool
	// Src is the value of a src attribute (empty when there is none).
	Src Span
}

// SFCBlocks splits a .vue file into its top-level blocks the way the
// component compiler does: <script> and <style> contents are raw text up to
// their closing tag, <template> nests, and <!-- comments --> are skipped. A
// block whose end tag is missing ends the list (ok is then false).
func SFCBlocks(src []byte) (blocks []SFCBlock, ok bool) {
	pos := 0
	for {
		lt := bytes.IndexByte(src[pos:], '<')
		if lt < 0 {
			return blocks, true
		}
		pos += lt
		if bytes.HasPrefix(src[pos:], []byte("<!--")) {
			end := indexAt(src, pos+4, "-->")
			if end < 0 {
				return blocks, true
			}
			pos = end + 3
			continue
		}
		b, next, found := sfcOpenTag(src, pos)
		if !found {
			pos++
			continue
		}
		pos = next
		if b.SelfClosing {
			b.Loc = Span{b.Loc.Start, next}
			b.Content = Span{next, next}
			blocks = append(blocks, b)
			continue
		}
		var end int
		if b.Tag == "template" {
			end = templateEnd(src, b.Content.Start)
		} else {
			end = closingTag(src, b.Content.Start, b.Tag)
		}
		if end < 0 {
			return blocks, false // unterminated: leave the rest alone
		}
		b.Content.End = end
		gt := indexAt(src, end, ">")
		if gt < 0 {
			b.Loc.End = len(src)
			return append(blocks, b), false
		}
		b.Loc.End = gt + 1
		blocks = append(blocks, b)
		pos = gt
	}
}

func isTagNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '\\' || c >= 0x80
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// sfcOpenTag parses the start tag at src[pos] ("<"). It returns the block
// and the position after the tag.
func sfcOpenTag(src []byte, pos int) (SFCBlock, int, bool) {
	b := SFCBlock{Loc: Span{pos, pos}}
	i := pos + 1
	nameStart := i
	for i < len(src) && (isTagNameByte(src[i]) || src[i] == '-') {
		i++
	}
	if i == nameStart {
		return b, 0, false
	}
	b.Tag = string(bytes.ToLower(src[nameStart:i]))
	for {
		for i < len(src) && isHTMLSpace(src[i]) {
			i++
		}
		if i >= len(src) {
			return b, 0, false
		}
		switch src[i] {
		case '>':
			b.Content = Span{i + 1, i + 1}
			return b, i + 1, true
		case '/':
			if i+1 < len(src) && src[i+1] == '>' {
				b.SelfClosing = true
				return b, i + 2, true
			}
			i++
			continue
		}
		aStart := i
		for i < len(src) && !isHTMLSpace(src[i]) && src[i] != '=' && src[i] != '>' && src[i] != '/' {
			i++
		}
		name := string(bytes.ToLower(src[aStart:i]))
		for i < len(src) && isHTMLSpace(src[i]) {
			i++
		}
		if i >= len(src) || src[i] != '=' {
			if name == "setup" {
				b.Setup = true
			}
			continue
		}
		i++
		for i < len(src) && isHTMLSpace(src[i]) {
			i++
		}
		if i >= len(src) {
			return b, 0, false
		}
		var vStart, vEnd int
		if q := src[i]; q == '"' || q == '\'' {
			end := bytes.IndexByte(src[i+1:], q)
			if end < 0 {
				return b, 0, false
			}
			vStart, vEnd = i+1, i+1+end
			i = vEnd + 1
		} else {
			vStart = i
			for i < len(src) && !isHTMLSpace(src[i]) && src[i] != '>' {
				i++
			}
			vEnd = i
		}
		switch name {
		case "lang":
			b.Lang = string(bytes.ToLower(src[vStart:vEnd]))
		case "src":
			b.Src = Span{vStart, vEnd}
		case "setup":
			b.Setup = true
		}
	}
}

func indexAt(s []byte, from int, sub string) int {
	if from > len(s) {
		return -1
	}
	i := bytes.Index(s[from:], []byte(sub))
	if i < 0 {
		return -1
	}
	return from + i
}

// closingTag finds "</tag" (any case) from pos, as the HTML tokenizer does
// for raw text elements.
func closingTag(src []byte, pos int, tag string) int {
	for {
		i := indexAt(src, pos, "</")
		if i < 0 {
			return -1
		}
		if tagAt(src, i+2, tag) {
			return i
		}
		pos = i + 2
	}
}

// templateEnd finds the </template> that closes the top-level template
// whose content starts at pos, counting nested <template> elements.
func templateEnd(src []byte, pos int) int {
	depth := 0
	for {
		lt := bytes.IndexByte(src[pos:], '<')
		if lt < 0 {
			return -1
		}
		i := pos + lt
		switch {
		case bytes.HasPrefix(src[i:], []byte("<!--")):
			end := indexAt(src, i+4, "-->")
			if end < 0 {
				return -1
			}
			pos = end + 3
			continue
		case tagAt(src, i+1, "template"):
			// A self-closing <template ... /> does not nest.
			gt := bytes.IndexByte(src[i:], '>')
			if gt < 0 {
				return -1
			}
			if src[i+gt-1] != '/' {
				depth++
			}
			pos = i + gt + 1
			continue
		case i+1 < len(src) && src[i+1] == '/' && tagAt(src, i+2, "template"):
			if depth == 0 {
				return i
			}
			depth--
		}
		pos = i + 1
	}
}

func tagAt(src []byte, i int, tag string) bool {
	return i+len(tag) <= len(src) && bytes.EqualFold(src[i:i+len(tag)], []byte(tag)) &&
		(i+len(tag) == len(src) || !isTagNameByte(src[i+len(tag)]) && src[i+len(tag)] != '-')
}
