package lsp

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Code actions: every fix of the diagnostics under the cursor, made the
// way `fwmigrate apply` makes it, and a fwmigrate-ignore comment. Each is
// a WorkspaceEdit for the editor to apply: the server writes nothing.

func (s *Server) codeActions(p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return out
	}
	s.mu.Lock()
	set := map[string]bool{}
	for c := range s.published[path] {
		set[c] = true
	}
	if d := s.docs[path]; d != nil && d.owner != "" {
		set[d.owner] = true
	}
	disabled := s.caps.TextDocument.CodeAction.DisabledSupport
	s.mu.Unlock()
	cfgs := make([]string, 0, len(set))
	for c := range set {
		cfgs = append(cfgs, c)
	}
	sort.Strings(cfgs)
	seen := map[string]bool{}
	add := func(a CodeAction) {
		if !seen[a.Title] {
			seen[a.Title] = true
			out = append(out, a)
		}
	}
	for _, cfg := range cfgs {
		res := s.current(cfg)
		if res == nil {
			continue
		}
		// No change can come while a request is handled (the connection
		// hands over one message at a time): the buffers are those the
		// check read.
		snap := s.snapshot()
		s.mu.Lock()
		uri := s.uriOf(path)
		s.mu.Unlock()
		for _, d := range res.byFile[path] {
			ld := s.toLSP(d, uri, res.texts[path])
			if !overlaps(ld.Range, p.Range) {
				continue
			}
			if d.Fix != nil && len(d.Fix.Ops) > 0 {
				a := CodeAction{Title: fixTitle(d), Kind: KindQuickFix, Diagnostics: []Diagnostic{ld}}
				a.IsPreferred = d.Fix.Applicability == rules.Safe && d.Fix.Layout == rules.AnyLayout
				edit, why, err := s.fixEdit(res, d, snap)
				switch {
				case err != nil:
					s.logf("fwmigrate lsp: %s: fix of %s: %v", path, d.Code, err)
				case why != "":
					if disabled {
						a.IsPreferred = false
						a.Disabled = &Disabled{Reason: why}
						add(a)
					}
				default:
					a.Edit = edit
					add(a)
				}
			}
			if a := s.suppressAction(res, d, path); a != nil {
				a.Diagnostics = []Diagnostic{ld}
				add(*a)
			}
		}
	}
	return out
}

// overlaps reports whether two ranges share a position (their ends count:
// a cursor just after a key is on its diagnostic).
func overlaps(a, b Range) bool {
	before := func(x, y Position) bool { return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character }
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// fixTitle names a fix as the editor lists it: its description, its rule,
// "(unsafe)" for a fix that changes behaviour, and the layout choice it
// assumes.
func fixTitle(d *rules.Diagnostic) string {
	t := fmt.Sprintf("%s (%s)", upperFirst(d.Fix.Description), d.Code)
	if d.Fix.Applicability == rules.Unsafe {
		t += " (unsafe)"
	}
	switch d.Fix.Layout {
	case rules.MoveOnly:
		t += " (once the sources are in app/)"
	case rules.KeepOnly:
		t += " (keeps layout B)"
	}
	return t
}

func upperFirst(s string) string {
	if s != "" && 'a' <= s[0] && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// fixEdit makes d's fix as apply makes it (fix.One, on the texts the
// check read and the editor's buffers), as one workspace edit. why says why
// a fix cannot be made (an op apply would skip); err is a fix that fails
// its own checks (a bug).
func (s *Server) fixEdit(res *checked, d *rules.Diagnostic, snap snapshot) (edit *WorkspaceEdit, why string, err error) {
	edits, why, err := fix.One(res.project, d, snap.read)
	if err != nil || why != "" {
		return nil, why, err
	}
	edit = &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{}}
	for _, e := range edits {
		s.mu.Lock()
		uri := s.uriOf(e.Path)
		s.mu.Unlock()
		edit.Changes[uri] = textEdits(e.Old, e.New)
	}
	return edit, "", nil
}

// textEdits are the edits that turn before into after, as the editor's
// ranges in before.
func textEdits(before, after []byte) []TextEdit {
	lines := ast.NewLines(before)
	edits := udiff.Strings(string(before), string(after))
	out := make([]TextEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, TextEdit{Range: Range{Start: position(lines, e.Start), End: position(lines, e.End)}, NewText: e.New})
	}
	return out
}

// Suppression comments: where the line above a finding can take a
// fwmigrate-ignore comment, in which form, and the proof that what is
// inserted is a comment there. The check reads these comments in the
// config (rules/suppress.go: suppressions), in .env files, and in the app
// code the code rules read and tsconfig.json (otherSuppressions).

// suppressFile is a file a suppression comment may go in, as the check
// read it.
type suppressFile struct {
	kind int    // one of the sf constants
	name string // for the readers' messages
	text []byte
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
		return &suppressFile{kind: sfConfig, name: p.ConfigDisplay, text: p.File.Src}
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

// codesRE matches the codes of a fwmigrate-ignore comment (group 1 of an
// ownLines pattern) as rules/suppress.go reads them.
const codesRE = `[ \t]*fwmigrate-ignore)([ \t]+[A-Za-z0-9_\-, \t]*[A-Za-z0-9_\-])?[ \t]*`

// ownLines are the fwmigrate-ignore comments alone on their line that a
// code can be added to, by the opener of a new one in the same file: the
// codes are group 2.
var ownLines = map[string][]*regexp.Regexp{
	"//": {
		regexp.MustCompile(`^([ \t]*//` + codesRE + `(?::.*)?$`),
		regexp.MustCompile(`^([ \t]*/\*` + codesRE + `(?::.*?)?[ \t]*\*/[ \t]*$`),
	},
	"#":    {regexp.MustCompile(`^([ \t]*#` + codesRE + `(?::.*)?$`)},
	"<!--": {regexp.MustCompile(`^([ \t]*<!--` + codesRE + `(?::.*?)?[ \t]*-->[ \t]*$`)},
}

// suppressAction is the action that hides d with a fwmigrate-ignore
// comment on the line above (`//` in a config, a script, tsconfig.json or
// a .vue file's script, `<!-- -->` in a .vue template, `#` in a .env
// file), or adds d's code to such a comment already there. It is offered
// only where the inserted text is proven a comment (verify).
func (s *Server) suppressAction(res *checked, d *rules.Diagnostic, path string) *CodeAction {
	// FW903 is about a fwmigrate-ignore comment: another comment cannot
	// hide it (remove the one it names).
	if d.Line <= 0 || !rules.Suppressible(d.Code) || d.Code == rules.CodeUnusedSuppression {
		return nil
	}
	f := suppressFileOf(res.project, path)
	if f == nil {
		return nil
	}
	text := f.text
	lines := ast.NewLines(text)
	start := lines.Offset(d.Line, 1)
	opener := f.opener(start)
	if opener == "" {
		return nil
	}
	var at int
	var insert string
	if prev := d.Line - 1; prev >= 1 {
		ps := lines.Offset(prev, 1)
		line := bytes.TrimRight(text[ps:start], "\r\n")
		for _, re := range ownLines[opener] {
			if m := re.FindSubmatchIndex(line); m != nil {
				if m[4] < 0 {
					return nil // it covers every rule: d is not what it hides
				}
				at, insert = ps+m[5], ", "+d.Code
				break
			}
		}
		if insert == "" && bytes.Contains(line, []byte("fwmigrate-ignore")) {
			// Another suppression on the line above, in a form that takes
			// no code: a line inserted below it would move what it covers.
			return nil
		}
	}
	if insert == "" {
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
		at, insert = start, string(text[start:indent])+opener+" fwmigrate-ignore "+d.Code+": <reason>"+closer+eol
	}
	next := make([]byte, 0, len(text)+len(insert))
	next = append(append(append(next, text[:at]...), insert...), text[at:]...)
	if !f.verify(next, at, len(insert), opener) {
		return nil
	}
	pos := position(lines, at)
	s.mu.Lock()
	uri := s.uriOf(path)
	s.mu.Unlock()
	return &CodeAction{
		Title: fmt.Sprintf("Suppress %s on this line (fwmigrate-ignore comment)", d.Code),
		Kind:  KindQuickFix,
		Edit:  &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{uri: {{Range: Range{Start: pos, End: pos}, NewText: insert}}}},
	}
}

// verify reports whether next, the file's text with n bytes inserted at
// at, still reads as before and has those bytes in a comment of opener's
// kind. When in doubt, no.
func (f *suppressFile) verify(next []byte, at, n int, opener string) bool {
	switch f.kind {
	case sfEnv:
		return true // a line of its own that starts with # is a comment
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
	c, err := ast.ReadCode(f.name, next)
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
			return strings.HasPrefix(body, "fwmigrate-ignore")
		}
	}
	return false
}
