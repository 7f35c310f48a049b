package code

import (
	"bytes"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// What the auto-imports of a directory are (the exports of its files, as
// the framework's scanner names them), which names a file uses without
// importing them, and the edits that import them (FW850).

// Export is a name a file exports that a directory scan auto-imports.
type Export struct {
	// Name is the name code uses: the exported name, or for a default
	// export the file's name (see DefaultName).
	Name string
	// Default reports a default export (imported as `import Name from`).
	Default bool
	// Type reports a type-only export (an interface or a type alias).
	Type bool
}

// Exports returns the names f exports as the framework's scanner finds them
// (unimport's scanExports: named exports, declarations, `export * as x`, a
// default export named after the file), in source order. complete is false
// when f re-exports another module's every name (`export * from`), whose
// names are not followed here.
func Exports(f *File) (out []Export, complete bool) {
	complete = true
	if f.Code == nil {
		return nil, false
	}
	for _, s := range f.Code.Scripts {
		for _, st := range s.Program.List {
			if st.Kind != ast.JSExport {
				continue
			}
			typeOnly := st.Has(ast.FlagType)
			switch {
			case st.Has(ast.FlagDefault):
				if name := DefaultName(f.Path); name != "" {
					out = append(out, Export{Name: name, Default: true})
				}
			case st.Has(ast.FlagStar):
				if st.Name != "" {
					out = append(out, Export{Name: st.Name, Type: typeOnly})
				} else {
					complete = false
				}
			case st.X == nil:
				for _, sp := range st.List {
					if sp.Kind == ast.JSSpecifier && sp.Name != "default" && sp.Name != "" {
						out = append(out, Export{Name: sp.Name, Type: typeOnly || sp.Has(ast.FlagType)})
					}
				}
			default:
				out = append(out, declared(st.X)...)
			}
		}
	}
	return out, complete
}

// declared returns the names a declaration exported with `export` binds.
func declared(d *ast.JSNode) []Export {
	switch d.Kind {
	case ast.JSFunction, ast.JSClass:
		if d.Name != "" {
			return []Export{{Name: d.Name}}
		}
	case ast.JSVar:
		var out []Export
		for _, dc := range d.List {
			ast.WalkJS(dc.X, func(n *ast.JSNode, _ []*ast.JSNode) bool {
				if n.Kind == ast.JSIdent && n.DeclBinding() != nil {
					out = append(out, Export{Name: n.Name})
				}
				return true
			})
		}
		return out
	case ast.JSTypeDecl:
		switch d.Op {
		case "type", "interface":
			if d.Name != "" {
				return []Export{{Name: d.Name, Type: true}}
			}
		case "enum", "namespace", "module":
			if d.Name != "" {
				return []Export{{Name: d.Name}}
			}
		}
	}
	return nil
}

// DefaultName is the name the scanner gives a file's default export: the
// file's base name (its directory's for an index file), camel-cased when
// it holds -, _ or . (my-util.ts -> myUtil).
func DefaultName(file string) string {
	base := filepath.Base(file)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if name == "index" {
		dir := filepath.Base(filepath.Dir(file))
		name = strings.TrimSuffix(dir, filepath.Ext(dir))
	}
	if !strings.ContainsAny(name, "-_.") {
		return name
	}
	var b strings.Builder
	for i, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if i == 0 {
			b.WriteString(strings.ToLower(part[:1]) + part[1:])
		} else {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// Free returns the names f uses without declaring or importing them (its
// references that resolve to no binding) among names, each with its
// references in source order.
func Free(f *File, names map[string]bool) map[string][]*ast.Ref {
	out := map[string][]*ast.Ref{}
	if f.Code == nil {
		return out
	}
	for _, r := range f.Code.Refs {
		if r.Binding == nil && r.Ident != nil && names[r.Ident.Name] {
			out[r.Ident.Name] = append(out[r.Ident.Name], r)
		}
	}
	return out
}

// ImportSpec is one name to import.
type ImportSpec struct {
	Name    string
	Default bool // import Name from '...'
	Type    bool // a type: import type { Name }
}

// Specifier returns the module specifier that imports the file to from the
// file from, relative (./x, ../utils/x), without a .ts, .tsx, .js or .jsx
// extension; ok is false for another extension (.mts, .mjs: the bundler
// and TypeScript do not map them alike) or paths on different volumes.
func Specifier(from, to string) (string, bool) {
	rel, err := filepath.Rel(filepath.Dir(from), to)
	if err != nil || filepath.IsAbs(rel) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	switch ext := path.Ext(rel); ext {
	case ".ts", ".tsx", ".js", ".jsx":
		if strings.HasSuffix(rel, ".d.ts") {
			rel = strings.TrimSuffix(rel, ".d.ts")
		} else {
			rel = strings.TrimSuffix(rel, ext)
		}
	default:
		return "", false
	}
	if !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	return rel, true
}

// ImportGroup is the names to import from one module.
type ImportGroup struct {
	Module string
	Specs  []ImportSpec
}

// InsertImports returns the edits (insertions: an offset and its text)
// that import groups into the script of f that holds at: each group's
// names merged into an existing import of its module that lists named
// specifiers (a type import for types, a value import for values), the
// rest as new import statements, in the groups' order, after the script's
// last import, or at its start (after a #! line). Quotes and semicolons
// follow the script's own. ok is false when at is in no script, or a group
// has two default imports.
func InsertImports(f *File, at int, groups []ImportGroup) (edits []Insert, ok bool) {
	var script *ast.Script
	for _, s := range f.Code.Scripts {
		if s.Program.Loc.Start <= at && at <= s.Program.Loc.End {
			script = s
		}
	}
	if script == nil {
		return nil, false
	}
	var last *ast.JSNode
	for _, st := range script.Program.List {
		if st.Kind == ast.JSImport {
			last = st
		}
	}
	q := f.QuoteAt(script.Program.Loc, nil)
	semi := ""
	if Semicolons(f, script) {
		semi = ";"
	}
	nl := f.LineEnd()
	var stmts []string
	for _, g := range groups {
		specs := append([]ImportSpec(nil), g.Specs...)
		sort.SliceStable(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
		var values, types []string
		var def string
		for _, sp := range specs {
			switch {
			case sp.Default:
				if def != "" {
					return nil, false
				}
				def = sp.Name
			case sp.Type:
				types = append(types, sp.Name)
			default:
				values = append(values, sp.Name)
			}
		}
		var valueInto, typeInto *ast.JSNode
		for _, st := range script.Program.List {
			if st.Kind != ast.JSImport || st.Name != g.Module || !named(st) {
				continue
			}
			if st.Has(ast.FlagType) {
				if typeInto == nil {
					typeInto = st
				}
			} else if valueInto == nil {
				valueInto = st
			}
		}
		from := " from " + q + g.Module + q + semi
		if def != "" {
			if len(values) > 0 && valueInto == nil {
				stmts = append(stmts, "import "+def+", { "+strings.Join(values, ", ")+" }"+from)
				values = nil
			} else {
				stmts = append(stmts, "import "+def+from)
			}
		}
		for _, m := range []struct {
			names []string
			into  *ast.JSNode
			kw    string
		}{{values, valueInto, "import { "}, {types, typeInto, "import type { "}} {
			switch {
			case len(m.names) == 0:
			case m.into != nil:
				lastNamed := m.into.List[len(m.into.List)-1]
				edits = append(edits, Insert{At: lastNamed.Loc.End, Text: ", " + strings.Join(m.names, ", ")})
			default:
				stmts = append(stmts, m.kw+strings.Join(m.names, ", ")+" }"+from)
			}
		}
	}
	if len(stmts) == 0 {
		return edits, true
	}
	text := strings.Join(stmts, nl)
	if last != nil {
		return append(edits, Insert{At: last.Loc.End, Text: nl + text}), true
	}
	start := script.Program.Loc.Start
	if strings.HasPrefix(string(f.Text[start:]), "#!") {
		for start < len(f.Text) && f.Text[start] != '\n' {
			start++
		}
		if start < len(f.Text) {
			start++
		}
	}
	return append(edits, Insert{At: start, Text: text + nl}), true
}

// Insert is text to insert at an offset.
type Insert struct {
	At   int
	Text string
}

// named reports whether an import lists named specifiers in braces
// (import { a } from, import d, { a } from), to which more can be added.
func named(imp *ast.JSNode) bool {
	if len(imp.List) == 0 {
		return false
	}
	last := imp.List[len(imp.List)-1]
	return last.Name != "default" && last.Name != "*"
}

// Semicolons reports whether a script ends its statements with `;`: the
// majority of its top-level statements that can end with one (as the
// config reader's Style votes); false when none can.
func Semicolons(f *File, s *ast.Script) bool {
	yes, no := 0, 0
	for _, st := range s.Program.List {
		switch st.Kind {
		case ast.JSFunction, ast.JSClass, ast.JSBlock, ast.JSIf, ast.JSFor, ast.JSForIn, ast.JSWhile, ast.JSTry, ast.JSSwitch, ast.JSEmpty, ast.JSTypeDecl, ast.JSLabeled:
			continue
		case ast.JSExport:
			if st.X != nil && (st.X.Kind == ast.JSFunction || st.X.Kind == ast.JSClass || st.X.Kind == ast.JSTypeDecl) {
				continue
			}
		}
		if st.Loc.End > st.Loc.Start && f.Text[st.Loc.End-1] == ';' {
			yes++
		} else {
			no++
		}
	}
	return yes > no
}

// TypeRefs returns where the TypeScript scripts of f name one of names
// outside strings, comments and regular expressions, where the name is not
// a property (after `.`, or a key before `:`), and f neither declares nor
// imports it: the uses of a type f takes from an auto-import. Type
// annotations are not in the code tree, so this reads the scripts' text;
// a value of that name is found by Free instead. The spans are in source
// order per name.
func TypeRefs(f *File, names map[string]bool) map[string][]ast.Span {
	out := map[string][]ast.Span{}
	if f.Code == nil || len(names) == 0 {
		return out
	}
	for _, s := range f.Code.Scripts {
		if !s.TS {
			continue
		}
		loc := s.Program.Loc
		scanIdents(f.Text[loc.Start:loc.End], func(start, end int, member, key bool) {
			name := string(f.Text[loc.Start+start : loc.Start+end])
			if !names[name] || member || key || f.Code.Module.Lookup(name) != nil || declaresType(f.Text[loc.Start:loc.End], name) {
				return
			}
			out[name] = append(out[name], ast.Span{Start: loc.Start + start, End: loc.Start + end})
		})
	}
	return out
}

// declaresType reports whether a script declares a type, interface, class
// or enum of that name (which then needs no import).
func declaresType(text []byte, name string) bool {
	for _, kw := range []string{"type ", "interface ", "class ", "enum "} {
		for i := 0; ; {
			j := bytes.Index(text[i:], []byte(kw+name))
			if j < 0 {
				break
			}
			at := i + j + len(kw) + len(name)
			if (i+j == 0 || !identByte(text[i+j-1])) && (at == len(text) || !identByte(text[at])) {
				return true
			}
			i = at
		}
	}
	return false
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// scanIdents calls fn for every identifier of a script's text outside
// strings, template text, comments and regular expressions, with whether a
// `.` precedes it (a property access) and whether a `:` follows it (an
// object key or a label; `?:` too). A lexer's approximation: a `/` is a
// regular expression where an operand is expected.
func scanIdents(text []byte, fn func(start, end int, member, key bool)) {
	var braces []int // per open template substitution, its brace depth
	depth := 0
	operand := true // a `/` here starts a regular expression
	lastDot := false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := bytes.Index(text[i+2:], []byte("*/"))
			if end < 0 {
				return
			}
			i += end + 4
		case c == '\'' || c == '"':
			i = skipQuoted(text, i)
			operand, lastDot = false, false
		case c == '`':
			i = skipTemplate(text, i+1)
			if i < 0 {
				return
			}
			if i > 0 && i <= len(text) && text[i-1] == '{' {
				braces = append(braces, depth)
				depth++
				operand = true
			} else {
				operand = false
			}
			lastDot = false
		case c == '}' && len(braces) > 0 && depth-1 == braces[len(braces)-1]:
			// The end of a template's substitution: its text goes on.
			braces = braces[:len(braces)-1]
			depth--
			i = skipTemplate(text, i+1)
			if i < 0 {
				return
			}
			if text[i-1] == '{' {
				braces = append(braces, depth)
				depth++
				operand = true
			} else {
				operand = false
			}
		case c == '/' && operand:
			i = skipRegExp(text, i+1)
			operand = false
		case identByte(c) && !(c >= '0' && c <= '9'):
			start := i
			for i < len(text) && identByte(text[i]) {
				i++
			}
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			key := j < len(text) && (text[j] == ':' && !(j+1 < len(text) && text[j+1] == ':') || text[j] == '?' && j+1 < len(text) && text[j+1] == ':')
			fn(start, i, lastDot, key)
			word := string(text[start:i])
			operand = word == "return" || word == "typeof" || word == "case" || word == "in" || word == "of" || word == "new" || word == "delete" || word == "void" || word == "throw" || word == "yield" || word == "await" || word == "instanceof"
			lastDot = false
		case c >= '0' && c <= '9':
			for i < len(text) && (identByte(text[i]) || text[i] == '.') {
				i++
			}
			operand, lastDot = false, false
		default:
			switch c {
			case '{':
				depth++
			case '}':
				depth--
			}
			lastDot = c == '.' && !(i+1 < len(text) && text[i+1] == '.')
			if c == '?' && i+1 < len(text) && text[i+1] == '.' {
				lastDot = true
				i++
			}
			operand = c != ')' && c != ']' && c != '}'
			i++
		}
	}
}

// skipQuoted returns the offset after the string that starts at i.
func skipQuoted(text []byte, i int) int {
	q := text[i]
	for i++; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case q, '\n':
			return i + 1
		}
	}
	return len(text)
}

// skipTemplate returns the offset after a template's text that starts at
// i: after its closing backquote, or after the `${` of a substitution
// (text[result-1] is then '{'); -1 when it does not end.
func skipTemplate(text []byte, i int) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '`':
			return i + 1
		case '$':
			if i+1 < len(text) && text[i+1] == '{' {
				return i + 2
			}
		}
	}
	return -1
}

// skipRegExp returns the offset after a regular expression literal's body
// that starts at i (its flags are read as an identifier after it).
func skipRegExp(text []byte, i int) int {
	class := false
	for ; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '[':
			class = true
		case ']':
			class = false
		case '\n':
			return i
		case '/':
			if !class {
				return i + 1
			}
		}
	}
	return len(text)
}

// ImplicitAnyVisitor is f's visitor (in a shared walk) that counts, by the
// code the type checker reports, the parameters it types as implicitly
// any in the functions passed to a call of one of callees, a name f uses
// without declaring or importing it (which the checker then does not
// know, so the functions get no type from it): TS7006 for a parameter,
// TS7031 for each name a destructured one binds, TS7019 for a rest
// parameter, each without a type annotation or a default. Only in
// TypeScript scripts (noImplicitAny is part of strict). done receives the
// counts once the walk is over.
func ImplicitAnyVisitor(f *File, callees map[string]bool, done func(map[string]int)) *Visitor {
	counts := map[string]int{}
	return &Visitor{
		ScriptsOnly: true,
		Visit: func(n *ast.JSNode, up []*ast.JSNode, _ *ast.TemplateExpr) bool {
			if len(up) == 0 {
				for _, s := range f.Code.Scripts {
					if s.Program == n && !s.TS {
						return false
					}
				}
			}
			if n.Kind != ast.JSCall || n.X == nil || n.X.Kind != ast.JSIdent || !callees[n.X.Name] || n.X.Resolve() != nil {
				return true
			}
			for _, a := range n.List {
				if a.Kind != ast.JSArrow && a.Kind != ast.JSFunction {
					continue
				}
				for _, p := range a.List {
					implicitAny(f, p, counts)
				}
			}
			return true
		},
		Done: func() { done(counts) },
	}
}

// implicitAny counts the implicitly-any names of the parameter p.
func implicitAny(f *File, p *ast.JSNode, counts map[string]int) {
	annotated := func(n *ast.JSNode) bool {
		rest := bytes.TrimLeft(f.Text[n.Loc.End:], " \t\r\n?")
		return len(rest) > 0 && rest[0] == ':'
	}
	switch p.Kind {
	case ast.JSIdent:
		if p.Name != "this" && !annotated(p) {
			counts["TS7006"]++
		}
	case ast.JSSpread:
		if !annotated(p) {
			counts["TS7019"]++
		}
	case ast.JSObject, ast.JSArray:
		if annotated(p) {
			return
		}
		ast.WalkJS(p, func(n *ast.JSNode, up []*ast.JSNode) bool {
			if n.Kind == ast.JSDefault && n != p {
				return false // `{ a = 1 }`: a takes the default's type
			}
			if n.Kind == ast.JSIdent && n.DeclBinding() != nil {
				counts["TS7031"]++
			}
			return true
		})
	}
}
