package move

import "bytes"

// sfcBlock is a top-level block of a single-file component.
type sfcBlock struct {
	tag        string // script, style, template, or a custom block's name
	lang       string // the lang attribute, lower-cased; "" when absent
	start, end int    // content range
	// srcStart/srcEnd is the value of a src attribute (srcEnd > srcStart).
	srcStart, srcEnd int
}

// sfcBlocks splits a .vue file into its top-level blocks the way the
// component compiler does: <script> and <style> contents are raw text up to
// their closing tag, <template> nests, and <!-- comments --> are skipped.
func sfcBlocks(src []byte) []sfcBlock {
	var blocks []sfcBlock
	pos := 0
	for {
		lt := bytes.IndexByte(src[pos:], '<')
		if lt < 0 {
			return blocks
		}
		pos += lt
		if bytes.HasPrefix(src[pos:], []byte("<!--")) {
			end := indexFrom(src, pos+4, "-->")
			if end < 0 {
				return blocks
			}
			pos = end + 3
			continue
		}
		b, next, ok := sfcOpenTag(src, pos)
		if !ok {
			pos++
			continue
		}
		pos = next
		if b.start < 0 { // self-closing
			blocks = append(blocks, b)
			continue
		}
		var end int
		if b.tag == "template" {
			end = templateEnd(src, b.start)
		} else {
			end = closingTag(src, b.start, b.tag)
		}
		if end < 0 {
			return blocks // unterminated: leave the rest alone
		}
		b.end = end
		blocks = append(blocks, b)
		pos = indexFrom(src, end, ">")
		if pos < 0 {
			return blocks
		}
	}
}

// sfcOpenTag parses the start tag at src[pos] ("<"). It returns the block
// with start = -1 for a self-closing tag, and the position after the tag.
func sfcOpenTag(src []byte, pos int) (sfcBlock, int, bool) {
	b := sfcBlock{}
	i := pos + 1
	nameStart := i
	for i < len(src) && (isIdentPart(src[i]) || src[i] == '-') {
		i++
	}
	if i == nameStart {
		return b, 0, false
	}
	b.tag = string(bytes.ToLower(src[nameStart:i]))
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i >= len(src) {
			return b, 0, false
		}
		switch src[i] {
		case '>':
			b.start = i + 1
			return b, i + 1, true
		case '/':
			if i+1 < len(src) && src[i+1] == '>' {
				b.start = -1
				return b, i + 2, true
			}
			i++
			continue
		}
		aStart := i
		for i < len(src) && !isSpace(src[i]) && src[i] != '=' && src[i] != '>' && src[i] != '/' {
			i++
		}
		name := string(bytes.ToLower(src[aStart:i]))
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i >= len(src) || src[i] != '=' {
			continue
		}
		i++
		for i < len(src) && isSpace(src[i]) {
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
			for i < len(src) && !isSpace(src[i]) && src[i] != '>' {
				i++
			}
			vEnd = i
		}
		switch name {
		case "lang":
			b.lang = string(bytes.ToLower(src[vStart:vEnd]))
		case "src":
			b.srcStart, b.srcEnd = vStart, vEnd
		}
	}
}

// closingTag finds "</tag" (any case) from pos, as the HTML tokenizer does
// for raw text elements.
func closingTag(src []byte, pos int, tag string) int {
	for {
		i := indexFrom(src, pos, "</")
		if i < 0 {
			return -1
		}
		j := i + 2
		if j+len(tag) <= len(src) && bytes.EqualFold(src[j:j+len(tag)], []byte(tag)) &&
			(j+len(tag) == len(src) || !isIdentPart(src[j+len(tag)]) && src[j+len(tag)] != '-') {
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
			end := indexFrom(src, i+4, "-->")
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
		(i+len(tag) == len(src) || !isIdentPart(src[i+len(tag)]) && src[i+len(tag)] != '-')
}

// scanVue appends the specifiers of a .vue file: those of its <script>
// blocks, its <style> blocks, and the src attributes of its blocks.
func (l *jsLexer) scanVue(src []byte, refs []ref) ([]ref, bool) {
	complete := true
	for _, b := range sfcBlocks(src) {
		if b.srcEnd > b.srcStart {
			refs = append(refs, ref{start: b.srcStart, end: b.srcEnd, kind: refSrcAttr, style: b.tag == "style"})
		}
		if b.start < 0 || b.end <= b.start {
			continue
		}
		switch b.tag {
		case "script":
			var ok bool
			refs, ok = l.scan(src[b.start:b.end], b.start, b.lang == "tsx" || b.lang == "jsx", refs)
			complete = complete && ok
		case "style":
			lang := b.lang
			if lang == "" {
				lang = "css"
			}
			refs = scanCSS(src[b.start:b.end], b.start, lang, refs)
		}
	}
	return refs, complete
}
