package lsp

import (
	"regexp"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// Hovers: on an option key of a config, what `fwmigrate options OPTION`
// prints (type, defaults in layouts A and B, status, replacement, the
// reference's rule); on a rule code anywhere (a fwmigrate-ignore comment,
// a settings file), what `fwmigrate explain CODE` prints.

var ruleCode = regexp.MustCompile(`FW[0-9]{3}`)

func (s *Server) hover(p TextDocumentPositionParams) *Hover {
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	d := s.docs[path]
	markdown := len(s.caps.TextDocument.Hover.ContentFormat) == 0 || s.caps.TextDocument.Hover.ContentFormat[0] == "markdown"
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	text := d.text
	lines := ast.NewLines(text)
	off := lines.Offset(p.Position.Line+1, p.Position.Character+1)
	reply := func(body string, start, end int) *Hover {
		r := Range{Start: position(lines, start), End: position(lines, end)}
		if markdown {
			return &Hover{Contents: MarkupContent{Kind: "markdown", Value: "```text\n" + body + "```"}, Range: &r}
		}
		return &Hover{Contents: MarkupContent{Kind: "plaintext", Value: body}, Range: &r}
	}
	// A rule code under the cursor.
	ls, le := lines.LineStart(off), off
	for le < len(text) && text[le] != '\n' && text[le] != '\r' {
		le++
	}
	for _, m := range ruleCode.FindAllIndex(text[ls:le], -1) {
		if ls+m[0] <= off && off <= ls+m[1] {
			if r := rules.Find(string(text[ls+m[0] : ls+m[1]])); r != nil {
				return reply(ruledocs.Explain(r), ls+m[0], ls+m[1])
			}
		}
	}
	if d.owner != path {
		return nil // option keys are a config's
	}
	f, err := ast.Parse(path, text)
	if err != nil || f.Config == nil {
		return nil
	}
	var hit *ast.Property
	var at ast.Path
	f.Walk(func(path ast.Path, prop *ast.Property) bool {
		if prop.KeySpan.Len() > 0 && prop.KeySpan.Start <= off && off <= prop.KeySpan.End {
			hit, at = prop, path
		}
		return prop.Loc.Start <= off && off <= prop.Loc.End
	})
	if hit == nil {
		return nil
	}
	name, _ := compat.Unscope(at.String())
	o := compat.Find(name)
	if o == nil {
		return nil
	}
	return reply(o.Describe(compat.LayoutUnknown), hit.KeySpan.Start, hit.KeySpan.End)
}
