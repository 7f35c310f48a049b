package specs

import (
	"bytes"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// ScanVue appends the specifiers of a .vue file: those of its <script>
// blocks, its <style> blocks, the src attributes of its blocks, and the
// asset URLs of its <template>. The blocks are ast's (ast.SFCBlocks), the
// reader of .vue files.
func (l *Lexer) ScanVue(src []byte, refs []Ref) ([]Ref, bool) {
	complete := true
	blocks, _ := ast.SFCBlocks(src)
	for _, b := range blocks {
		if b.Src.End > b.Src.Start {
			refs = append(refs, Ref{Start: b.Src.Start, End: b.Src.End, Kind: SrcAttr, Style: b.Tag == "style"})
		}
		if b.SelfClosing || b.Content.End <= b.Content.Start {
			continue
		}
		c := b.Content
		switch b.Tag {
		case "script":
			var ok bool
			refs, ok = l.Scan(src[c.Start:c.End], c.Start, b.Lang == "tsx" || b.Lang == "jsx", refs)
			complete = complete && ok
		case "style":
			lang := b.Lang
			if lang == "" {
				lang = "css"
			}
			refs = ScanCSS(src[c.Start:c.End], c.Start, lang, refs)
		case "template":
			if mayHaveAssetURL(src[c.Start:c.End]) {
				refs = templateAssetURLs(src, blocks, refs)
			}
		}
	}
	return refs, complete
}

// assetAttrs are the attributes whose static values the component compiler
// turns into imports (its transformAssetUrls default, which the framework
// keeps: config-reference, ui.transformAssetUrls), and the tags they are
// read on; srcset lists several URLs.
var assetAttrs = map[string][]string{
	"img":    {"src", "srcset"},
	"source": {"src", "srcset"},
	"video":  {"src", "poster"},
	"image":  {"xlink:href", "href"},
	"use":    {"xlink:href", "href"},
}

// mayHaveAssetURL is a cheap test before the template is read: a relative
// URL holds "./".
func mayHaveAssetURL(t []byte) bool {
	return bytes.Contains(t, []byte("./")) &&
		(bytes.Contains(t, []byte("src")) || bytes.Contains(t, []byte("href")) || bytes.Contains(t, []byte("poster")))
}

// templateAssetURLs appends the relative asset URLs of the .vue file's
// <template>: the static attribute values of assetAttrs starting with ".",
// which the compiler turns into imports relative to the file, so that they
// follow the move as imports do (a URL with a fragment, icons.svg#home,
// keeps it). Aliased ones (~/, @/) do not depend on where the file is and
// are left to the alias rules. The elements are ast's
// template reader's; their attributes are found by its tag scanner, which
// does not depend on reading the expressions, so an expression it cannot
// read does not move them.
func templateAssetURLs(src []byte, blocks []ast.SFCBlock, refs []Ref) []Ref {
	// Only the template is read: the other blocks' contents are blanked
	// (offsets kept), so that the scripts are not parsed again.
	text := bytes.Clone(src)
	for _, b := range blocks {
		if b.Tag != "template" {
			for i := b.Content.Start; i < b.Content.End; i++ {
				if text[i] != '\n' && text[i] != '\r' {
					text[i] = ' '
				}
			}
		}
	}
	code, _ := ast.ReadCode("component.vue", text)
	if code == nil || code.Template == nil {
		return refs
	}
	add := func(start, end int) {
		v := src[start:end]
		if start < end && v[0] == '.' && bytes.IndexByte(v, '&') < 0 {
			refs = append(refs, Ref{Start: start, End: end, Kind: AssetURL, Style: true})
		}
	}
	var walk func(e *ast.Element)
	walk = func(e *ast.Element) {
		for _, name := range assetAttrs[e.Tag] {
			a := e.Attr(name)
			if a == nil || a.Directive != "" || !a.HasValue {
				continue
			}
			if name != "srcset" {
				add(a.ValueLoc.Start, a.ValueLoc.End)
				continue
			}
			// "a.png 1x, b.png 2x": each candidate's URL, up to its
			// descriptor (the compiler splits on commas too).
			pos := a.ValueLoc.Start
			for _, cand := range strings.Split(a.Value, ",") {
				lead := len(cand) - len(strings.TrimLeft(cand, " \t\n\r\f"))
				url, _, _ := strings.Cut(cand[lead:], " ")
				url, _, _ = strings.Cut(url, "\t")
				url, _, _ = strings.Cut(url, "\n")
				add(pos+lead, pos+lead+len(url))
				pos += len(cand) + 1
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(code.Template.Root)
	return refs
}
