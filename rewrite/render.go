package rewrite

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fwmigrate/fwmigrate/ast"
)

// layout is the file's formatting as far as inserted code needs it:
// ast.Style, plus what only the shapes of existing objects tell.
type layout struct {
	ast.Style
	// inline reports that the file writes small objects on one line
	// (`future: { compatibilityVersion: 4 }`).
	inline bool
	// braceSpace reports spaces inside the braces of single-line objects.
	braceSpace bool
}

// maxInline is the longest text a generated single-line object or array
// may have; longer ones are written one member per line.
const maxInline = 72

func detectLayout(f *ast.File) layout {
	l := layout{Style: f.Style, braceSpace: true}
	if l.Indent == "" {
		l.Indent = "  "
	}
	if l.Quote != '"' {
		l.Quote = '\''
	}
	if l.EOL == "" {
		l.EOL = "\n"
	}
	if f.Config == nil {
		return l
	}
	var single, multi, spaced, tight int
	EachNode(f.Config, func(n ast.Node) {
		o, ok := n.(*ast.Object)
		if !ok || len(o.Props) == 0 {
			return
		}
		text := f.Src[o.Loc.Start:o.Loc.End]
		oneLine := bytes.IndexByte(text, '\n') < 0
		if oneLine && len(text) > 2 {
			if text[1] == ' ' {
				spaced++
			} else {
				tight++
			}
		}
		if !smallObject(o) {
			return
		}
		if oneLine {
			single++
		} else {
			multi++
		}
	})
	l.inline = single > multi
	l.braceSpace = spaced >= tight
	return l
}

// smallObject reports an object of one to three scalar properties without
// comments: the kind a file either writes inline or not.
func smallObject(o *ast.Object) bool {
	if len(o.Props) > 3 || len(o.Dangling) > 0 {
		return false
	}
	for _, p := range o.Props {
		if p.Kind != ast.PropInit || len(p.Leading) > 0 || p.Trailing != nil {
			return false
		}
		switch p.Value.(type) {
		case *ast.String, *ast.Number, *ast.Boolean, *ast.Null, *ast.Ident, *ast.Unary:
		default:
			return false
		}
	}
	return true
}

// EachNode calls fn for n and every value node inside it.
func EachNode(n ast.Node, fn func(ast.Node)) {
	if n == nil {
		return
	}
	fn(n)
	switch n := n.(type) {
	case *ast.Object:
		for _, p := range n.Props {
			EachNode(p.Value, fn)
		}
	case *ast.Array:
		for _, e := range n.Elements {
			EachNode(e, fn)
		}
	case *ast.Unary:
		EachNode(n.Operand, fn)
	case *ast.Expr:
		EachNode(n.Inner, fn)
		for _, a := range n.Args {
			EachNode(a, fn)
		}
	}
}

// isIdentName reports whether s can be written as a property name without
// quotes. Only ASCII names are left bare: quoting is always correct.
func isIdentName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func (l *layout) key(k string) (string, error) {
	if isIdentName(k) {
		return k, nil
	}
	return l.str(k)
}

// str renders s as a string literal in the file's quote, or in the other
// quote when that needs fewer escapes (as prettier does).
func (l *layout) str(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("the string %q is not valid UTF-8", s)
	}
	q := l.Quote
	other := byte('"')
	if q == '"' {
		other = '\''
	}
	if strings.Count(s, string(q)) > strings.Count(s, string(other)) {
		q = other
	}
	return string(q) + EscapeString(s, q) + string(q), nil
}

// EscapeString returns s written as the contents of a JavaScript string
// literal delimited by quote (', " or `): the delimiter, backslashes, line
// terminators and control characters escaped, everything else as it is.
func EscapeString(s string, quote byte) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case rune(quote):
			b.WriteByte('\\')
			b.WriteByte(quote)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\u2028', '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		case '$':
			if quote == '`' && strings.HasPrefix(s[i+1:], "{") {
				b.WriteByte('\\') // "${" would open a substitution
			}
			b.WriteRune(r)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// Respell returns the text to write between the delimiters of a string
// literal (quote: ', " or `) whose text raw has the value old, for its new
// value out, in the literal's own spelling: the escapes of the part that
// does not change are kept as written ('../components/q\'uote.vue' becomes
// '../app/components/q\'uote.vue'), the new part is escaped for quote
// where it must be (EscapeString). A literal without escapes, or a long
// one, is written anew.
func Respell(raw string, quote byte, old, out string) string {
	if raw == old || len(raw) > 1024 {
		return EscapeString(out, quote)
	}
	// The longest tail of the raw text that decodes to a tail of both
	// values is kept; the head before it is written anew.
	common := 0
	for common < len(old) && common < len(out) && old[len(old)-1-common] == out[len(out)-1-common] {
		common++
	}
	template := quote == '`'
	for k := 0; k < len(raw); k++ {
		tail, ok := ast.Decode(raw[k:], template)
		if !ok || len(tail) > common || !strings.HasSuffix(out, tail) {
			continue
		}
		text := EscapeString(out[:len(out)-len(tail)], quote) + raw[k:]
		if v, ok := ast.Decode(text, template); ok && v == out {
			return text
		}
	}
	return EscapeString(out, quote)
}

func number(v float64) (string, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "", fmt.Errorf("%v has no literal form", v)
	case v == 0 && math.Signbit(v):
		return "-0", nil
	case v == math.Trunc(v) && math.Abs(v) < 1e21:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	}
	return strconv.FormatFloat(v, 'g', -1, 64), nil
}

// value renders v as a JavaScript literal for a property whose line is
// indented by indent. oneLine forces objects and arrays onto one line.
func (l *layout) value(v any, indent string, oneLine bool) (string, error) {
	switch v := v.(type) {
	case nil:
		return "null", nil
	case bool:
		return strconv.FormatBool(v), nil
	case string:
		return l.str(v)
	case float64:
		return number(v)
	case float32:
		return number(float64(v))
	case int:
		return strconv.Itoa(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case uint:
		return strconv.FormatUint(uint64(v), 10), nil
	case uint64:
		return strconv.FormatUint(v, 10), nil
	case []string:
		items := make([]any, len(v))
		for i, s := range v {
			items[i] = s
		}
		return l.array(items, indent, oneLine)
	case []any:
		return l.array(v, indent, oneLine)
	case Object:
		return l.object(v, indent, oneLine)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := make(Object, len(keys))
		for i, k := range keys {
			obj[i] = KV{k, v[k]}
		}
		return l.object(obj, indent, oneLine)
	}
	return "", fmt.Errorf("cannot write a %T as a literal", v)
}

func (l *layout) array(items []any, indent string, oneLine bool) (string, error) {
	if len(items) == 0 {
		return "[]", nil
	}
	inner := indent + l.Indent
	parts := make([]string, len(items))
	flat := true
	width := len(indent) + 2
	for i, it := range items {
		s, err := l.value(it, inner, oneLine)
		if err != nil {
			return "", err
		}
		parts[i] = s
		width += len(s) + 2
		if strings.Contains(s, "\n") {
			flat = false
		}
	}
	if oneLine || flat && width <= maxInline+len(indent) {
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	return l.block('[', ']', parts, indent), nil
}

func (l *layout) object(obj Object, indent string, oneLine bool) (string, error) {
	if len(obj) == 0 {
		return "{}", nil
	}
	inner := indent + l.Indent
	parts := make([]string, len(obj))
	flat := true
	width := 4
	for i, kv := range obj {
		k, err := l.key(kv.Key)
		if err != nil {
			return "", err
		}
		s, err := l.value(kv.Value, inner, oneLine)
		if err != nil {
			return "", err
		}
		parts[i] = k + ": " + s
		width += len(parts[i]) + 2
		if strings.Contains(s, "\n") {
			flat = false
		}
	}
	if oneLine || l.inline && flat && len(obj) <= 3 && width <= maxInline {
		return l.braces(strings.Join(parts, ", ")), nil
	}
	return l.block('{', '}', parts, indent), nil
}

// braces wraps single-line object contents in the file's brace spacing.
func (l *layout) braces(s string) string {
	if l.braceSpace {
		return "{ " + s + " }"
	}
	return "{" + s + "}"
}

// block writes members one per line, with the file's trailing comma.
func (l *layout) block(open, close byte, parts []string, indent string) string {
	inner := indent + l.Indent
	var b strings.Builder
	b.WriteByte(open)
	for i, p := range parts {
		b.WriteString(l.EOL)
		b.WriteString(inner)
		b.WriteString(p)
		if i < len(parts)-1 || l.TrailingCommas {
			b.WriteByte(',')
		}
	}
	b.WriteString(l.EOL)
	b.WriteString(indent)
	b.WriteByte(close)
	return b.String()
}

// reindent returns src[span] with the indentation of each line after the
// first changed from `from` to `to`. Lines that begin inside a protected
// span (a multi-line string or template literal, whose bytes are its value)
// are kept as they are, and so are lines not indented by `from`.
func reindent(src []byte, span ast.Span, from, to string, protect []ast.Span) string {
	text := src[span.Start:span.End]
	if from == to || bytes.IndexByte(text, '\n') < 0 {
		return string(text)
	}
	var b strings.Builder
	b.Grow(len(text) + 64)
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '\n' {
			continue
		}
		b.Write(text[last : i+1])
		last = i + 1
		if protected(span.Start+i, protect) {
			continue
		}
		if bytes.HasPrefix(text[last:], []byte(from)) {
			b.WriteString(to)
			last += len(from)
		}
	}
	b.Write(text[last:])
	return b.String()
}

// protected reports whether the line break at off lies inside one of spans.
func protected(off int, spans []ast.Span) bool {
	for _, s := range spans {
		if s.Start < off && off < s.End {
			return true
		}
	}
	return false
}

// literalSpans returns the spans under n whose line breaks belong to a
// value: multi-line strings and templates, also inside expressions.
func literalSpans(f *ast.File, n ast.Node) []ast.Span {
	src := f.Src
	var out []ast.Span
	EachNode(n, func(n ast.Node) {
		s := n.Span()
		if s.Start < 0 || s.End > len(src) || s.Start > s.End {
			return
		}
		text := src[s.Start:s.End]
		switch n.(type) {
		case *ast.String, *ast.Template:
			if bytes.IndexByte(text, '\n') >= 0 {
				out = append(out, s)
			}
		case *ast.Expr:
			// The insides of an expression are not parsed into nodes:
			// scan them for literals, and protect all of it when that
			// fails.
			if bytes.IndexByte(text, '\n') < 0 || bytes.IndexByte(text, '`') < 0 && bytes.IndexByte(text, '\\') < 0 {
				return
			}
			spans, ok := f.MultilineLiterals(s)
			if !ok {
				spans = []ast.Span{s}
			}
			out = append(out, spans...)
		}
	})
	return out
}
