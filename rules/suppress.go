package rules

import (
	"bytes"
	"maps"
	"sort"
	"strings"

	"github.com/joho/godotenv"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/project"
)

// Suppressions: `// fwmigrate-ignore CODE: reason` comments in configs, in
// the app code the code rules read (also `/* */`, and `<!-- -->` in a .vue
// template) and in tsconfig.json, and `# fwmigrate-ignore CODE` lines in
// .env files drop the diagnostics on the line they cover; one that drops
// nothing is reported (FW903). A comment standing first on its line covers
// the next line; any other covers its own. `fwmigrate-ignore-file CODE`
// covers its whole file, wherever it stands. This file is the one home of
// that grammar and placement: the check reads the comments here, and
// SuppressEdit writes one for the editor's action.

// suppression is one `fwmigrate-ignore` comment.
type suppression struct {
	file  string
	line  int      // the line it covers
	codes []string // codes or names; empty means every rule
	span  ast.Span
	at    ast.Position
	used  map[string]bool
	// opener is the comment's opener: "//", "/*", "<!--" or "#".
	opener string
	// own says it stands first on its line, so that it covers the next.
	own bool
	// codesEnd is the offset just after its last code (after its marker
	// when it has none): where SuppressEdit adds another.
	codesEnd int
	// whole says it is a `fwmigrate-ignore-file` comment: it covers every
	// line of its file, wherever it stands.
	whole bool
}

const suppressMarker = "fwmigrate-ignore"

var suppressRE = lazyregexp.New(`^fwmigrate-ignore(-file)?(?:[ \t]+([A-Za-z0-9_\-, \t]+?))?[ \t]*(?::.*)?$`)

// suppressions finds the fwmigrate-ignore comments of the config and the
// .env files.
func suppressions(p *project.Project) []*suppression {
	var out []*suppression
	if p.File != nil {
		out = configSuppressions(p.ConfigDisplay, p.File)
	}
	for _, ef := range p.Env {
		out = append(out, envSuppressions(ef.Display, ef.Src)...)
	}
	return out
}

// configSuppressions finds `// fwmigrate-ignore CODE[, CODE...]: reason`
// (or `/* */`) comments among the comments the config's parser kept.
func configSuppressions(name string, f *ast.File) []*suppression {
	var out []*suppression
	for _, c := range f.Comments {
		text := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"), "*/"))
		if !strings.HasPrefix(text, suppressMarker) {
			continue
		}
		// The text is the comment's after its opener and blanks, so the
		// first marker in the comment is the one parsed.
		s := parseSuppression(text, c.Loc.Start+strings.Index(c.Text, suppressMarker))
		if s == nil {
			continue
		}
		opener := "//"
		if c.Block {
			opener = "/*"
		}
		own := strings.TrimSpace(string(f.Src[f.LineStart(c.Loc.Start):c.Loc.Start])) == ""
		out = append(out, s.place(name, opener, c.Loc, f.Position(c.Loc.Start), own))
	}
	return out
}

// envSuppressions finds `# fwmigrate-ignore ...` comments in a .env file:
// the first # of a line starts one.
func envSuppressions(name string, src []byte) []*suppression {
	if !bytes.Contains(src, []byte(suppressMarker)) {
		return nil
	}
	var out []*suppression
	lines := ast.NewLines(src)
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := string(src[off:end])
		if hash := strings.Index(line, "#"); hash >= 0 {
			rest := line[hash+1:]
			if text := strings.TrimSpace(rest); strings.HasPrefix(text, suppressMarker) {
				if s := parseSuppression(text, off+hash+1+strings.Index(rest, suppressMarker)); s != nil {
					own := strings.TrimSpace(line[:hash]) == ""
					out = append(out, s.place(name, "#", ast.Span{Start: off + hash, End: end}, lines.Position(off+hash), own))
				}
			}
		}
		off = end + 1
	}
	return out
}

// otherSuppressions finds the fwmigrate-ignore comments of the files other
// than the config and the .env files that the check read: the code files
// and tsconfig.json (files).
func otherSuppressions(files []*project.TextFile) []*suppression {
	var out []*suppression
	for _, f := range files {
		out = append(out, codeSuppressions(f.Display, f.Src)...)
	}
	return out
}

// codeSuppressions finds the fwmigrate-ignore comments of a code file or
// tsconfig.json. A comment is found by its opener (`//`, `/*`, `<!--`)
// right before the marker on a line: the code reader keeps no comments,
// and a marker inside a string that looks like a comment is rare enough to
// be taken as meant (SuppressEdit proves its own comments are comments).
func codeSuppressions(name string, src []byte) []*suppression {
	if !bytes.Contains(src, []byte(suppressMarker)) {
		return nil
	}
	var out []*suppression
	lines := ast.NewLines(src)
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(suppressMarker))
		if i < 0 {
			break
		}
		at := off + i
		off = at + 1
		ls := lines.LineStart(at)
		before := strings.TrimRight(string(src[ls:at]), " \t")
		opener := ""
		for _, o := range []string{"//", "/*", "<!--"} {
			if strings.HasSuffix(before, o) {
				opener = o
				break
			}
		}
		if opener == "" {
			continue
		}
		le := bytes.IndexByte(src[at:], '\n')
		if le < 0 {
			le = len(src) - at
		}
		body := strings.TrimRight(string(src[at:at+le]), " \t\r")
		body = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(body, "-->"), "*/"))
		sup := parseSuppression(body, at)
		if sup == nil {
			continue
		}
		start := ls + len(before) - len(opener)
		own := strings.TrimSpace(string(src[ls:start])) == ""
		out = append(out, sup.place(name, opener, ast.Span{Start: start, End: at + le}, lines.Position(start), own))
	}
	return out
}

// place puts s in file at span, whose start is at, covering its own line,
// or the next one when it stands first on its line (own).
func (s *suppression) place(file, opener string, span ast.Span, at ast.Position, own bool) *suppression {
	s.file, s.opener, s.span, s.at, s.line, s.own = file, opener, span, at, at.Line, own
	if own {
		s.line++
	}
	return s
}

// parseSuppression reads text, a comment's from its marker on, which is at
// offset marker of its file; nil when it is no suppression.
func parseSuppression(text string, marker int) *suppression {
	if !strings.HasPrefix(text, suppressMarker) {
		return nil
	}
	m := suppressRE().FindStringSubmatchIndex(text)
	if m == nil {
		return nil
	}
	s := &suppression{used: map[string]bool{}, codesEnd: marker + m[0] + len(suppressMarker), whole: m[2] >= 0}
	if s.whole {
		s.codesEnd = marker + m[3]
	}
	if m[4] >= 0 {
		codes := text[m[4]:m[5]]
		s.codes = strings.FieldsFunc(codes, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		// A trailing comma is no code: the next one goes before it.
		s.codesEnd = marker + m[4] + len(strings.TrimRight(codes, ", \t"))
	}
	return s
}

func (s *suppression) covers(d *Diagnostic) (string, bool) {
	if d.File != s.file || d.Line != s.line && !s.whole {
		return "", false
	}
	if len(s.codes) == 0 {
		return "*", true
	}
	for _, c := range s.codes {
		if strings.EqualFold(c, d.Code) || strings.EqualFold(c, d.Name) {
			return c, true
		}
	}
	return "", false
}

// applySuppressions drops suppressed diagnostics and reports unused
// suppressions (FW903). Diagnostics of the tool itself about unreadable or
// unparsable input cannot be suppressed.
func applySuppressions(p *project.Project, diags []*Diagnostic, opts Options, other []*project.TextFile) []*Diagnostic {
	sups := append(suppressions(p), otherSuppressions(other)...)
	if len(sups) == 0 {
		return diags
	}
	// By file and line: a committed .env can hold a million findings and
	// as many comments, and trying each comment on each finding was
	// quadratic.
	type fileLine struct {
		file string
		line int
	}
	byLine := map[fileLine][]*suppression{}
	byFile := map[string][]*suppression{} // the fwmigrate-ignore-file ones
	for _, s := range sups {
		if s.whole {
			byFile[s.file] = append(byFile[s.file], s)
			continue
		}
		k := fileLine{s.file, s.line}
		byLine[k] = append(byLine[k], s)
	}
	kept := diags[:0]
	for _, d := range diags {
		suppressed := false
		if Suppressible(d.Code) {
			for _, s := range append(byLine[fileLine{d.File, d.Line}], byFile[d.File]...) {
				if c, ok := s.covers(d); ok {
					s.used[strings.ToUpper(c)] = true
					suppressed = true
				}
			}
		}
		if !suppressed {
			kept = append(kept, d)
		}
	}
	if !opts.Selected(ruleUnusedSuppression) {
		return kept
	}
	for _, s := range sups {
		var unused []string
		if len(s.codes) == 0 {
			if !s.used["*"] {
				unused = append(unused, "(all)")
			}
		} else {
			for _, c := range s.codes {
				r := Find(c)
				switch {
				case r == nil:
					unused = append(unused, c+" (no such rule)")
				case !r.Suppressible():
					unused = append(unused, c+" (cannot be suppressed: it says that a file could not be checked)")
				case !s.used[strings.ToUpper(c)] && opts.Selected(r):
					// A suppression for a rule that was not run this time
					// (--select/--ignore) is not known to be unused.
					unused = append(unused, c)
				}
			}
		}
		if len(unused) == 0 {
			continue
		}
		d := ruleUnusedSuppression.Diagnose(s.file, s.span, "", "unused suppression: "+strings.Join(unused, ", "))
		d.Line, d.Column, d.ColumnUTF16 = s.at.Line, s.at.Column, s.at.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = s.at.Line, s.at.Column, s.at.ColumnUTF16
		d.Notes = []string{"nothing on the covered line was reported for it; remove it or correct the code"}
		if s.whole {
			d.Notes = []string{"nothing in this file was reported for it; remove it or correct the code"}
		}
		kept = append(kept, d)
	}
	return kept
}

// suppressedAt reports whether a fwmigrate-ignore comment of the config
// covers the line of offset for the pass's rule: a rule that groups sites
// into one diagnostic reports such a site on its own instead, so that the
// suppression applies to it.
func (p *Pass) suppressedAt(offset int) bool {
	line := p.File.Position(offset).Line
	probe := &Diagnostic{Code: p.Rule.Code, Name: p.Rule.Name, File: p.Project.ConfigDisplay, Line: line}
	x := p.Index
	x.supOnce.Do(func() {
		// The config's comments only (a .env's never cover the config),
		// found once per check rather than once per site.
		x.configSups = map[int][]*suppression{}
		if p.Project.File != nil {
			for _, s := range configSuppressions(p.Project.ConfigDisplay, p.Project.File) {
				x.configSups[s.line] = append(x.configSups[s.line], s)
			}
		}
	})
	for _, s := range x.configSups[line] {
		if _, ok := s.covers(probe); ok {
			return true
		}
	}
	return false
}

// Insertion is an edit that inserts Text at byte Offset of a file's text;
// At is Offset's position there (an editor counts UTF-16 columns).
type Insertion struct {
	Offset int
	At     ast.Position
	Text   string
}

// SuppressEdit is the edit that hides d, a finding in the file at path of
// p, with a fwmigrate-ignore comment: a new comment line above d's line,
// with that line's indentation and the file's line ending, in the form
// the place takes (`//` in a config, a script, tsconfig.json or a .vue
// file's script, `<!-- -->` in a .vue template, `#` in a .env file); or
// d's code added to such a comment standing first on the line above. ok
// is false where no edit is made: d may not be hidden (Suppressible; and
// FW903, about a comment, which another comment cannot hide), path is no
// file the check reads suppressions in, the comment above covers every
// rule already, or the inserted text is not proven a comment there
// (inside a multi-line string, a start tag, a template literal or JSX text
// it would be text): verify.
func SuppressEdit(p *project.Project, d *Diagnostic, path string) (edit Insertion, ok bool) {
	if d.Line <= 0 || !Suppressible(d.Code) || d.Code == CodeUnusedSuppression {
		return Insertion{}, false
	}
	f := suppressFileOf(p, path)
	if f == nil {
		return Insertion{}, false
	}
	text := f.text
	lines := ast.NewLines(text)
	start := lines.Offset(d.Line, 1)
	opener := f.opener(start)
	if opener == "" {
		return Insertion{}, false
	}
	if prev := d.Line - 1; prev >= 1 && bytes.Contains(text[lines.Offset(prev, 1):start], []byte(suppressMarker)) {
		var above *suppression
		for _, s := range f.suppressions() {
			if s.at.Line == prev && s.own && !s.whole && takes(opener, s.opener) {
				above = s
				break
			}
		}
		switch {
		case above == nil:
			// A marker above in another form, or not first on its line:
			// rather than reason about what a line inserted below it
			// would do, no edit.
			return Insertion{}, false
		case len(above.codes) == 0:
			return Insertion{}, false // it covers every rule: d is not what it hides
		}
		edit.Offset, edit.Text = above.codesEnd, ", "+d.Code
	} else {
		indent := start
		for indent < len(text) && (text[indent] == ' ' || text[indent] == '\t') {
			indent++
		}
		eol := "\n"
		if bytes.Contains(text, []byte("\r\n")) {
			eol = "\r\n"
		}
		closer := ""
		if opener == "<!--" {
			closer = " -->"
		}
		edit.Offset, edit.Text = start, string(text[start:indent])+opener+" "+suppressMarker+" "+d.Code+closer+eol
	}
	next := make([]byte, 0, len(text)+len(edit.Text))
	next = append(append(append(next, text[:edit.Offset]...), edit.Text...), text[edit.Offset:]...)
	if !f.verify(next, edit.Offset, len(edit.Text), opener) {
		return Insertion{}, false
	}
	edit.At = lines.Position(edit.Offset)
	return edit, true
}

// takes reports whether a comment with opener has can take the code of a
// new comment that would be written with opener want.
func takes(want, has string) bool {
	return has == want || want == "//" && has == "/*"
}

// suppressFile is a file a suppression comment may go in, as the check
// read it.
type suppressFile struct {
	kind int    // one of the sf constants
	name string // for the readers' messages
	text []byte
	cfg  *ast.File // the parsed config, for sfConfig
}

const (
	sfConfig = iota
	sfEnv
	sfTSConfig
	sfScript // a script file: .ts .tsx .js .jsx .mjs .cjs .mts .cts
	sfVue
)

// suppressFileOf finds path among the files of p the check reads
// suppressions in; nil when it is none of them (or cannot be read now).
func suppressFileOf(p *project.Project, path string) *suppressFile {
	if p.File != nil && path == p.ConfigPath {
		return &suppressFile{kind: sfConfig, name: p.ConfigDisplay, text: p.File.Src, cfg: p.File}
	}
	for _, ef := range p.Env {
		if ef.Path == path && ef.Err == nil {
			return &suppressFile{kind: sfEnv, name: ef.Display, text: ef.Src}
		}
	}
	if p.TSConfig != nil && path == p.TSConfig.Path {
		return &suppressFile{kind: sfTSConfig, name: p.TSConfig.Display, text: p.TSConfig.Src}
	}
	// A code file: the sources as the code rules read them (the overlay's
	// text for an open document, which is the text the check read).
	srcs := p.Sources()
	i := sort.Search(len(srcs), func(i int) bool { return srcs[i].Path >= path })
	if i == len(srcs) || srcs[i].Path != path || srcs[i].Lang() == "" {
		return nil
	}
	text, err := srcs[i].Read()
	if err != nil {
		return nil
	}
	kind := sfScript
	if srcs[i].Lang() == "vue" {
		kind = sfVue
	}
	return &suppressFile{kind: kind, name: srcs[i].Path, text: text}
}

// suppressions are the fwmigrate-ignore comments the check reads in f.
func (f *suppressFile) suppressions() []*suppression {
	switch f.kind {
	case sfConfig:
		return configSuppressions(f.name, f.cfg)
	case sfEnv:
		return envSuppressions(f.name, f.text)
	}
	return codeSuppressions(f.name, f.text)
}

// opener is the comment opener a new suppression line at offset start (a
// line's start) is written with: `//`, `#`, or `<!--` in a .vue template;
// "" when none fits there (outside a .vue file's script and template
// contents, or in a template not written in HTML).
func (f *suppressFile) opener(start int) string {
	switch f.kind {
	case sfEnv:
		return "#"
	case sfVue:
		blocks, ok := ast.SFCBlocks(f.text)
		if !ok {
			return ""
		}
		for _, b := range blocks {
			if b.Content.Start > start || start >= b.Content.End {
				continue
			}
			switch {
			case b.Tag == "script":
				return "//"
			case b.Tag == "template" && (b.Lang == "" || b.Lang == "html"):
				return "<!--"
			}
			return ""
		}
		return ""
	}
	return "//"
}

// verify reports whether next, f's text with n bytes inserted at at, still
// reads as before and has those bytes in a comment of opener's kind. When
// in doubt, no.
func (f *suppressFile) verify(next []byte, at, n int, opener string) bool {
	switch f.kind {
	case sfEnv:
		// A line starting with # is a comment, unless it is inside a
		// quoted value that spans lines: the values must read as before.
		before, err1 := godotenv.UnmarshalBytes(f.text)
		after, err2 := godotenv.UnmarshalBytes(next)
		return err1 == nil && err2 == nil && maps.Equal(before, after)
	case sfConfig:
		return configCommentAt(f.name, next, at, n)
	case sfTSConfig:
		// JSON strings do not span lines: a line's start is between
		// tokens or in a comment. The members must read as they did.
		before, ok1 := jsonc.Members(f.text)
		after, ok2 := jsonc.Members(next)
		if !ok1 || !ok2 || len(before) != len(after) {
			return false
		}
		for i := range before {
			if before[i].Key(f.text) != after[i].Key(next) {
				return false
			}
		}
		return true
	}
	return codeCommentAt(f.name, next, at, n, opener)
}

// codeCommentAt reports whether the code file name, as next, still reads
// and has the n bytes inserted at at outside any string, template literal
// or JSX text of its scripts, or, for opener "<!--", in a comment of its
// template (templateCommentAt).
func codeCommentAt(name string, next []byte, at, n int, opener string) bool {
	c, err := ast.ReadCode(name, next)
	if err != nil {
		return false
	}
	spans := func(l ast.Span) bool { return l.Start < at+n && at < l.End }
	if opener == "<!--" {
		return c.Template != nil && templateCommentAt(c.Template, next, at, spans)
	}
	ok := true
	for _, sc := range c.Scripts {
		ast.WalkJS(sc.Program, func(node *ast.JSNode, _ []*ast.JSNode) bool {
			switch {
			case !ok || !spans(node.Loc):
				return false
			case node.Kind == ast.JSString || node.Kind == ast.JSTemplate || node.Kind == ast.JSJSX:
				// In a string, a template literal or JSX text the
				// comment would be text.
				ok = false
				return false
			}
			return true
		})
	}
	return ok
}

// templateCommentAt reports whether an HTML comment inserted at at (spans
// says whether a span holds it) is one in the template t: not inside a
// start tag, an interpolation, another comment, or a raw-text element.
func templateCommentAt(t *ast.VueTemplate, src []byte, at int, spans func(ast.Span) bool) bool {
	content := t.Block.Content
	ls := at
	for ls > content.Start && src[ls-1] != '\n' {
		ls--
	}
	// A comment open before the line (the inserted text may be added to
	// one on this line).
	if open := bytes.LastIndex(src[content.Start:ls], []byte("<!--")); open >= 0 &&
		!bytes.Contains(src[content.Start+open:ls], []byte("-->")) {
		return false
	}
	for _, x := range t.Exprs {
		if spans(x.Loc) {
			return false
		}
	}
	ok := true
	var walk func(e *ast.Element)
	walk = func(e *ast.Element) {
		for _, ch := range e.Children {
			if !ok || !spans(ch.Loc) {
				continue
			}
			// The start tag runs to the ">" after its name and attributes.
			end := ch.TagLoc.End
			for _, a := range ch.Attrs {
				end = max(end, a.NameLoc.End, a.ValueLoc.End)
			}
			if gt := bytes.IndexByte(src[end:], '>'); gt < 0 || spans(ast.Span{Start: ch.Loc.Start, End: end + gt + 1}) {
				ok = false
				return
			}
			switch strings.ToLower(ch.Tag) {
			case "textarea", "title", "script", "style":
				ok = false // raw text: a comment there is text
				return
			}
			walk(ch)
		}
	}
	walk(t.Root)
	return ok
}

// configCommentAt reports whether the config text next still parses and
// has a fwmigrate-ignore comment holding the n bytes inserted at at.
func configCommentAt(name string, next []byte, at, n int) bool {
	f, err := ast.Parse(name, next)
	if err != nil {
		return false
	}
	for _, c := range f.Comments {
		if c.Loc.Start < at+n && at < c.Loc.End {
			body := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"))
			return strings.HasPrefix(body, suppressMarker)
		}
	}
	return false
}
