package compat

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// TypeKind is the kind of a Type.
type TypeKind uint8

const (
	KindAny      TypeKind = iota // anything
	KindString                   // string
	KindNumber                   // number
	KindBoolean                  // boolean
	KindNull                     // null
	KindObject                   // object: any plain object
	KindRecord                   // record<T>: an object whose every value is a T
	KindShape                    // {a: T, b: U}: an object; listed keys, when present, have those types
	KindArray                    // array<T> (bare "array" is array<any>)
	KindFunction                 // function: never a static value
	KindRegExp                   // regexp: never a static value
	KindPath                     // path: a string naming a file or directory
	KindURL                      // url: an absolute URL (scheme and host)
	KindGlob                     // glob: a string pattern
	KindDate                     // date: a YYYY-MM-DD string
	KindLiteral                  // 'x', 3, true, false: exactly that value
	KindUnion                    // A | B
)

var typeNames = map[string]TypeKind{
	"any": KindAny, "string": KindString, "number": KindNumber, "boolean": KindBoolean,
	"null": KindNull, "object": KindObject, "record": KindRecord, "array": KindArray,
	"function": KindFunction, "regexp": KindRegExp, "path": KindPath, "url": KindURL,
	"glob": KindGlob, "date": KindDate,
}

// Type is a parsed expression of the knowledge base's type language:
//
//	type  = term { "|" term }
//	term  = name [ "<" type ">" ] | "{" [ field { "," field } ] "}" | literal | "(" type ")"
//	field = name ":" type
//	name  = any string number boolean null object record array function regexp path url glob date
//	literal = 'text' | number | true | false
//
// The zero Type is any.
type Type struct {
	Kind   TypeKind
	Elem   *Type   // KindArray, KindRecord
	Alts   []Type  // KindUnion
	Fields []Field // KindShape, in source order
	Lit    any     // KindLiteral: string, float64 or bool
}

// Field is one key of a shape type.
type Field struct {
	Name string
	Type Type
}

// ParseType parses s in the type language.
func ParseType(s string) (Type, error) {
	p := typeParser{src: s}
	t, err := p.union()
	if err != nil {
		return Type{}, err
	}
	p.space()
	if p.pos < len(p.src) {
		return Type{}, p.errorf("unexpected %q", p.src[p.pos:])
	}
	return t, nil
}

// MustParseType is ParseType for the package's own literals.
func MustParseType(s string) Type {
	t, err := ParseType(s)
	if err != nil {
		panic(err)
	}
	return t
}

type typeParser struct {
	src   string
	pos   int
	depth int
}

func (p *typeParser) errorf(format string, args ...any) error {
	return fmt.Errorf("type %q at offset %d: %s", p.src, p.pos, fmt.Sprintf(format, args...))
}

func (p *typeParser) space() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n') {
		p.pos++
	}
}

func (p *typeParser) eat(c byte) bool {
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) union() (Type, error) {
	// Nesting is bounded so that no input can exhaust the stack.
	if p.depth++; p.depth > 64 {
		return Type{}, p.errorf("nested too deeply")
	}
	defer func() { p.depth-- }()
	var alts []Type
	for {
		t, err := p.term()
		if err != nil {
			return Type{}, err
		}
		if t.Kind == KindUnion {
			alts = append(alts, t.Alts...)
		} else {
			alts = append(alts, t)
		}
		if !p.eat('|') {
			break
		}
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return Type{Kind: KindUnion, Alts: alts}, nil
}

func (p *typeParser) term() (Type, error) {
	p.space()
	if p.pos >= len(p.src) {
		return Type{}, p.errorf("missing type")
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		p.pos++
		t, err := p.union()
		if err != nil {
			return Type{}, err
		}
		if !p.eat(')') {
			return Type{}, p.errorf("missing )")
		}
		return t, nil
	case c == '{':
		p.pos++
		return p.shape()
	case c == '\'':
		s, err := p.quoted()
		if err != nil {
			return Type{}, err
		}
		return Type{Kind: KindLiteral, Lit: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		p.pos++
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.') {
			p.pos++
		}
		f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
		if err != nil {
			return Type{}, p.errorf("bad number %q", p.src[start:p.pos])
		}
		return Type{Kind: KindLiteral, Lit: f}, nil
	}
	name := p.ident()
	switch name {
	case "":
		return Type{}, p.errorf("unexpected %q", p.src[p.pos:p.pos+1])
	case "true":
		return Type{Kind: KindLiteral, Lit: true}, nil
	case "false":
		return Type{Kind: KindLiteral, Lit: false}, nil
	}
	k, ok := typeNames[name]
	if !ok {
		return Type{}, p.errorf("unknown type name %q", name)
	}
	t := Type{Kind: k}
	if k == KindArray || k == KindRecord {
		elem := Type{}
		if p.eat('<') {
			var err error
			if elem, err = p.union(); err != nil {
				return Type{}, err
			}
			if !p.eat('>') {
				return Type{}, p.errorf("missing >")
			}
		}
		t.Elem = &elem
	}
	return t, nil
}

func (p *typeParser) shape() (Type, error) {
	t := Type{Kind: KindShape}
	for {
		if p.eat('}') {
			return t, nil
		}
		p.space()
		name := p.ident()
		if name == "" {
			return Type{}, p.errorf("missing field name")
		}
		if !p.eat(':') {
			return Type{}, p.errorf("missing : after %s", name)
		}
		ft, err := p.union()
		if err != nil {
			return Type{}, err
		}
		t.Fields = append(t.Fields, Field{name, ft})
		if !p.eat(',') {
			if !p.eat('}') {
				return Type{}, p.errorf("missing , or }")
			}
			return t, nil
		}
	}
}

func (p *typeParser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	return p.src[start:p.pos]
}

func (p *typeParser) quoted() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch c {
		case '\'':
			return b.String(), nil
		case '\\':
			if p.pos >= len(p.src) {
				return "", p.errorf("unterminated string")
			}
			b.WriteByte(p.src[p.pos])
			p.pos++
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errorf("unterminated string")
}

// Check reports whether the static value v fits t. It reports false only
// when v is known not to fit: a DynamicValue anywhere inside v fits any type.
// Functions and regular expressions are never static, so only a
// DynamicValue fits them.
func (t Type) Check(v any) bool {
	if _, ok := v.(DynamicValue); ok {
		return true
	}
	switch t.Kind {
	case KindAny:
		return true
	case KindString, KindPath, KindGlob:
		_, ok := v.(string)
		return ok
	case KindNumber:
		_, ok := v.(float64)
		return ok
	case KindBoolean:
		_, ok := v.(bool)
		return ok
	case KindNull:
		return v == nil
	case KindObject:
		_, ok := asMap(v)
		return ok
	case KindRecord:
		m, ok := asMap(v)
		if !ok {
			return false
		}
		for k, e := range m {
			if k != Spread && !t.elem().Check(e) {
				return false
			}
		}
		return true
	case KindShape:
		m, ok := asMap(v)
		if !ok {
			return false
		}
		for _, f := range t.Fields {
			if e, ok := m[f.Name]; ok && !f.Type.Check(e) {
				return false
			}
		}
		return true
	case KindArray:
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			if !t.elem().Check(e) {
				return false
			}
		}
		return true
	case KindFunction, KindRegExp:
		return false
	case KindURL:
		s, ok := v.(string)
		if !ok {
			return false
		}
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && u.Host != ""
	case KindDate:
		s, ok := v.(string)
		return ok && isDate(s)
	case KindLiteral:
		return v == t.Lit
	case KindUnion:
		for _, a := range t.Alts {
			if a.Check(v) {
				return true
			}
		}
	}
	return false
}

func (t Type) elem() Type {
	if t.Elem == nil {
		return Type{}
	}
	return *t.Elem
}

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case MapConfig:
		return m, true
	}
	return nil, false
}

// isDate reports whether s is a calendar date written YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	y, _ := strconv.Atoi(s[:4])
	m, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:])
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	if m == 2 && (y%4 == 0 && y%100 != 0 || y%400 == 0) {
		return d <= 29
	}
	return d <= days[m-1]
}

// Literals returns the literal values a union (or a single literal) lists,
// in order: the choices of an enum such as 'automatic' | 'manual' | false.
func (t Type) Literals() []any {
	switch t.Kind {
	case KindLiteral:
		return []any{t.Lit}
	case KindUnion:
		var out []any
		for _, a := range t.Alts {
			if a.Kind == KindLiteral {
				out = append(out, a.Lit)
			}
		}
		return out
	}
	return nil
}

// Has reports whether t is, or is a union with, a type of kind k.
func (t Type) Has(k TypeKind) bool {
	if t.Kind == k {
		return true
	}
	for _, a := range t.Alts {
		if a.Kind == k {
			return true
		}
	}
	return false
}

// String renders t in the type language; ParseType(t.String()) gives t back.
func (t Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t Type) write(b *strings.Builder) {
	switch t.Kind {
	case KindUnion:
		for i, a := range t.Alts {
			if i > 0 {
				b.WriteString(" | ")
			}
			a.write(b)
		}
	case KindArray, KindRecord:
		b.WriteString(kindName(t.Kind))
		if e := t.elem(); e.Kind != KindAny {
			b.WriteByte('<')
			e.write(b)
			b.WriteByte('>')
		}
	case KindShape:
		b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			f.Type.write(b)
		}
		b.WriteByte('}')
	case KindLiteral:
		b.WriteString(literalString(t.Lit))
	default:
		b.WriteString(kindName(t.Kind))
	}
}

var kindNames = [...]string{"any", "string", "number", "boolean", "null", "object", "record", "{}", "array", "function", "regexp", "path", "url", "glob", "date", "literal", "union"}

func kindName(k TypeKind) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "any"
}

func literalString(v any) string {
	switch x := v.(type) {
	case string:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(x) + "'"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return "null"
}

// MarshalText renders the type for JSON output.
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }
