package lsp

import (
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// Completion in a config: the option keys the knowledge base knows at the
// cursor's object path (compat.Siblings), less those already written; and
// in an option's value, its enum values (the literals of its type, true
// and false for a boolean).

func (s *Server) complete(p CompletionParams) *CompletionList {
	out := &CompletionList{Items: []CompletionItem{}}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return out
	}
	s.mu.Lock()
	d := s.docs[path]
	s.mu.Unlock()
	if d == nil || d.owner != path {
		return out
	}
	text := d.text
	lines := ast.NewLines(text)
	off := lines.Offset(p.Position.Line+1, p.Position.Character+1)
	// The word being typed is replaced whole.
	ws, we := off, off
	for ws > 0 && isIdentByte(text[ws-1]) {
		ws--
	}
	for we < len(text) && isIdentByte(text[we]) {
		we++
	}
	f, at, exact := parseAround(path, text, off, ws, we)
	if f == nil {
		return out
	}
	c := where(f, at)
	if c.obj == nil {
		return out
	}
	word := Range{Start: position(lines, ws), End: position(lines, we)}
	if c.value {
		name := c.path.String()
		if name != "" {
			name += "."
		}
		name, _ = compat.Unscope(name + f.Segment(c.prop))
		o := compat.Find(name)
		if o == nil {
			return out
		}
		r := word
		if str, ok := ast.Unwrap(c.prop.Value).(*ast.String); ok && exact {
			r = Range{Start: position(lines, str.Loc.Start), End: position(lines, str.Loc.End)}
		}
		for i, v := range enumValues(o.Type) {
			lit := literal(v, f.Style.Quote)
			out.Items = append(out.Items, CompletionItem{
				Label: lit, Kind: CompletionEnum, Detail: o.Type.String(),
				SortText: strconv.Itoa(100 + i), FilterText: strings.Trim(lit, `'"`),
				TextEdit: &TextEdit{Range: r, NewText: lit},
			})
		}
		return out
	}
	parent, _ := compat.Unscope(c.path.String())
	have := map[string]bool{}
	for _, pr := range c.obj.Props {
		if pr != c.prop {
			have[pr.Key] = true
		}
	}
	for _, key := range compat.Siblings(parent) {
		if have[key] {
			continue
		}
		full := key
		if parent != "" {
			full = parent + "." + key
		}
		item := CompletionItem{Label: key, Kind: CompletionProperty, SortText: "0" + key, TextEdit: &TextEdit{Range: word, NewText: keyText(key, f.Style.Quote)}}
		if o := compat.Find(full); o != nil {
			item.Detail = o.Type.String()
			if o.Status != compat.Current {
				item.Detail += " (" + o.StatusText() + ")"
				item.SortText = "1" + key
			}
			if o.Status == compat.Deprecated || o.Status == compat.NoEffect || o.Status.Removed() {
				item.Tags = []int{CompletionItemTagDeprecated}
			}
			item.Documentation = &MarkupContent{Kind: "markdown", Value: "```text\n" + o.Describe(compat.LayoutUnknown) + "```"}
		}
		out.Items = append(out.Items, item)
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// parseAround parses the config for a completion at off, whose word is
// text[ws:we]. A config being typed often does not parse: a key alone
// after a property without a comma, a key with its colon and no value.
// The word is then replaced by a placeholder key or value, with commas
// around it when needed. It returns the file, the cursor's offset in it,
// and exact: the file is text itself.
func parseAround(name string, text []byte, off, ws, we int) (*ast.File, int, bool) {
	if f, err := ast.Parse(name, text); err == nil {
		return f, off, true
	}
	for _, fill := range []string{"__fw", ",__fw,"} {
		next := make([]byte, 0, len(text)+len(fill))
		next = append(append(append(next, text[:ws]...), fill...), text[we:]...)
		if f, err := ast.Parse(name, next); err == nil {
			return f, ws + strings.IndexByte(fill, '_'), false
		}
	}
	return nil, 0, false
}

// place is where a cursor is in a config: in object obj at path, on the
// key of prop (prop nil: between properties), or in prop's value.
type place struct {
	obj   *ast.Object
	path  ast.Path
	prop  *ast.Property
	value bool
}

func where(f *ast.File, off int) place {
	obj := f.Config
	if obj == nil || off <= obj.Loc.Start || off >= obj.Loc.End {
		return place{}
	}
	var path ast.Path
outer:
	for {
		for _, pr := range obj.Props {
			if pr.Kind == ast.PropSpread {
				continue
			}
			if pr.KeySpan.Len() > 0 && pr.KeySpan.Start <= off && off <= pr.KeySpan.End {
				return place{obj: obj, path: path, prop: pr}
			}
			if pr.Value == nil {
				continue
			}
			vs := pr.Value.Span()
			if off < vs.Start || off > vs.End {
				continue
			}
			if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
				if child.Loc.Start < off && off < child.Loc.End {
					obj, path = child, append(path, f.Segment(pr))
					continue outer
				}
				continue
			}
			return place{obj: obj, path: path, prop: pr, value: true}
		}
		return place{obj: obj, path: path}
	}
}

// enumValues are the values an option's type lists: its literals, and
// true and false for a boolean.
func enumValues(t compat.Type) []any {
	vals := t.Literals()
	if t.Has(compat.KindBoolean) {
		for _, b := range []bool{true, false} {
			dup := false
			for _, v := range vals {
				dup = dup || v == any(b)
			}
			if !dup {
				vals = append(vals, b)
			}
		}
	}
	return vals
}

// literal writes a value as the config writes it, strings in its quote.
func literal(v any, quote byte) string {
	switch v := v.(type) {
	case string:
		q := string(quote)
		return q + strings.NewReplacer(`\`, `\\`, q, `\`+q, "\n", `\n`).Replace(v) + q
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// keyText is a key as written: quoted when it is not an identifier.
func keyText(key string, quote byte) string {
	for i := 0; i < len(key); i++ {
		if !isIdentByte(key[i]) || i == 0 && '0' <= key[i] && key[i] <= '9' {
			return literal(key, quote)
		}
	}
	return key
}
