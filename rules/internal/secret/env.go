package secret

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// What the secret checks read in a .env file besides its assignments: its
// comment lines, where an old key is kept commented out (# STRIPE_KEY=...),
// and the assignments' values as written, before godotenv expands
// ${OTHER} in them. The file's bytes come from project.EnvFile.Src: rules
// do not read the disk.

// EnvComment is a comment line of a .env file: a commented-out assignment
// (Name and Value set, Span the name), or prose (Name "", Value the text
// after #, Span the text).
type EnvComment struct {
	Name, Value string
	Span        ast.Span
}

// EnvComments returns the comment lines of a .env file's source, in order,
// reading it once. Lines inside a quoted value that spans lines (a PEM key)
// are not comments, whatever they start with.
func EnvComments(src []byte) []EnvComment {
	var out []EnvComment
	var inQuote byte // the quote of a value still open at the end of the previous line
	for off := 0; off < len(src); {
		end := off
		for end < len(src) && src[end] != '\n' {
			end++
		}
		line := string(src[off:end])
		start := off
		off = end + 1
		if inQuote != 0 {
			if closesQuote(line, inQuote) {
				inQuote = 0
			}
			continue
		}
		trimmed := strings.TrimLeft(line, " \t")
		lead := len(line) - len(trimmed)
		if !strings.HasPrefix(trimmed, "#") {
			inQuote = openQuote(trimmed)
			continue
		}
		text := strings.TrimLeft(trimmed, "#")
		text = strings.TrimRight(strings.TrimLeft(text, " \t"), " \t\r")
		at := start + lead + (len(trimmed) - len(strings.TrimLeft(strings.TrimLeft(trimmed, "#"), " \t")))
		if text == "" {
			continue
		}
		if name, value, nameAt, ok := commentedAssignment(text); ok {
			out = append(out, EnvComment{Name: name, Value: value, Span: ast.Span{Start: at + nameAt, End: at + nameAt + len(name)}})
			continue
		}
		out = append(out, EnvComment{Value: text, Span: ast.Span{Start: at, End: at + len(text)}})
	}
	return out
}

// openQuote returns the quote that an assignment line leaves open (its
// value starts with a quote that the line does not close), 0 when none.
func openQuote(line string) byte {
	_, value, ok := strings.Cut(line, "=")
	if !ok {
		return 0
	}
	value = strings.TrimLeft(value, " \t")
	if value == "" || !strings.ContainsRune("\"'`", rune(value[0])) {
		return 0
	}
	if closesQuote(value[1:], value[0]) {
		return 0
	}
	return value[0]
}

// closesQuote reports whether text holds the closing quote q (an
// unescaped one for double quotes).
func closesQuote(text string, q byte) bool {
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '\\' && q == '"':
			i++
		case text[i] == q:
			return true
		}
	}
	return false
}

// commentedAssignment parses the text of a comment as an assignment,
// NAME=value or export NAME=value, and returns the name, the value as
// .env files quote it (quotes taken off, an unquoted value cut at " #"),
// and the name's offset in text.
func commentedAssignment(text string) (name, value string, at int, ok bool) {
	rest := text
	if r, cut := strings.CutPrefix(rest, "export "); cut {
		rest = strings.TrimLeft(r, " ")
		at = len(text) - len(rest)
	}
	i := 0
	for i < len(rest) && (isWordByte(rest[i]) || i > 0 && (rest[i] == '.' || rest[i] == '-')) {
		i++
	}
	if i == 0 || isDigit(rest[0]) {
		return "", "", 0, false
	}
	name = rest[:i]
	j := i
	for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t') {
		j++
	}
	if j >= len(rest) || rest[j] != '=' { // not NAME: value, which reads like prose
		return "", "", 0, false
	}
	value = strings.TrimLeft(rest[j+1:], " \t")
	switch {
	case value == "":
	case value[0] == '"' || value[0] == '\'' || value[0] == '`':
		q := value[0]
		var b strings.Builder
		for k := 1; k < len(value) && value[k] != q; k++ {
			if value[k] == '\\' && q == '"' && k+1 < len(value) {
				k++
				switch value[k] {
				case 'n':
					b.WriteByte('\n')
				default:
					b.WriteByte(value[k])
				}
				continue
			}
			b.WriteByte(value[k])
		}
		value = b.String()
	default:
		if k := strings.Index(value, " #"); k >= 0 {
			value = value[:k]
		}
		value = strings.TrimSpace(value)
	}
	return name, value, at, true
}

// EnvCheckedValue is the value of a .env assignment as the secret checks
// judge it: godotenv's, unless the line as written refers to other
// variables (${DB_PASSWORD}, $TOKEN) outside single quotes: then the text
// as written, so that a secret is reported where it is written, and once,
// not again in every value that refers to it.
func EnvCheckedValue(src []byte, v *project.EnvVar) string {
	if v.Span.End > len(src) {
		return v.Value
	}
	end := v.Span.End
	for end < len(src) && src[end] != '\n' {
		end++
	}
	raw := strings.TrimLeft(string(src[v.Span.End:end]), " \t")
	if raw == "" || raw[0] != '=' && raw[0] != ':' {
		return v.Value
	}
	raw = strings.TrimSpace(raw[1:])
	if raw == "" || raw[0] == '\'' || !strings.Contains(raw, "$") {
		return v.Value
	}
	if raw[0] == '"' || raw[0] == '`' {
		if k := strings.LastIndexByte(raw, raw[0]); k > 0 {
			return raw[1:k]
		}
		return v.Value // a value that spans lines
	}
	if k := strings.Index(raw, " #"); k >= 0 {
		raw = raw[:k]
	}
	return strings.TrimSpace(raw)
}
