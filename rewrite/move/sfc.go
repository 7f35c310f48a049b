package move

import "github.com/fwmigrate/fwmigrate/ast"

// scanVue appends the specifiers of a .vue file: those of its <script>
// blocks, its <style> blocks, and the src attributes of its blocks. The
// blocks are ast's (ast.SFCBlocks), the reader of .vue files.
func (l *jsLexer) scanVue(src []byte, refs []ref) ([]ref, bool) {
	complete := true
	blocks, _ := ast.SFCBlocks(src)
	for _, b := range blocks {
		if b.Src.End > b.Src.Start {
			refs = append(refs, ref{start: b.Src.Start, end: b.Src.End, kind: refSrcAttr, style: b.Tag == "style"})
		}
		if b.SelfClosing || b.Content.End <= b.Content.Start {
			continue
		}
		c := b.Content
		switch b.Tag {
		case "script":
			var ok bool
			refs, ok = l.scan(src[c.Start:c.End], c.Start, b.Lang == "tsx" || b.Lang == "jsx", refs)
			complete = complete && ok
		case "style":
			lang := b.Lang
			if lang == "" {
				lang = "css"
			}
			refs = scanCSS(src[c.Start:c.End], c.Start, lang, refs)
		}
	}
	return refs, complete
}
