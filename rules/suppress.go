package rules

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// Suppressions: `// fwmigrate-ignore CODE: reason` comments in configs, in
// the app code the code rules read (also `/* */`, and `<!-- -->` in a .vue
// template) and in tsconfig.json, and `# fwmigrate-ignore CODE` lines in
// .env files drop the diagnostics on the line they cover; one that drops
// nothing is reported (FW903).

// suppression is one `fwmigrate-ignore` comment.
type suppression struct {
	file  string
	line  int      // the line it covers
	codes []string // codes or names; empty means every rule
	span  ast.Span
	at    ast.Position
	used  map[string]bool
}

var suppressRE = regexp.MustCompile(`fwmigrate-ignore(?:[ \t]+([A-Za-z0-9_\-, \t]+?))?[ \t]*(?::.*)?$`)

// suppressions finds `// fwmigrate-ignore CODE[, CODE...]: reason` comments in
// the config and `# fwmigrate-ignore ...` lines in .env files. A comment at
// the end of a line covers that line; a comment on a line of its own covers
// the next line.
func suppressions(p *project.Project) []*suppression {
	var out []*suppression
	if p.File != nil {
		for _, c := range p.File.Comments {
			text := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"), "*/"))
			s := parseSuppression(text)
			if s == nil {
				continue
			}
			own := strings.TrimSpace(string(p.File.Src[p.File.LineStart(c.Loc.Start):c.Loc.Start])) == ""
			out = append(out, s.place(p.ConfigDisplay, c.Loc, p.File.Position(c.Loc.Start), own))
		}
	}
	for _, ef := range p.Env {
		off := 0
		for off < len(ef.Src) {
			end := strings.IndexByte(string(ef.Src[off:]), '\n')
			if end < 0 {
				end = len(ef.Src)
			} else {
				end += off
			}
			line := string(ef.Src[off:end])
			if hash := strings.Index(line, "#"); hash >= 0 {
				if s := parseSuppression(strings.TrimSpace(line[hash+1:])); s != nil {
					own := strings.TrimSpace(line[:hash]) == ""
					out = append(out, s.place(ef.Display, ast.Span{Start: off + hash, End: end}, ast.NewLines(ef.Src).Position(off+hash), own))
				}
			}
			off = end + 1
		}
	}
	return out
}

// otherSuppressions finds fwmigrate-ignore comments in the files other than
// the config and the .env files that the check read: the code files and
// tsconfig.json (files). A comment is found by its opener (`//`, `/*`,
// `<!--`) right before the marker on a line: the code reader keeps no
// comments, and a marker inside a string that looks like a comment is rare
// enough to be taken as meant.
func otherSuppressions(files []*project.TextFile) []*suppression {
	var out []*suppression
	for _, f := range files {
		src := f.Src
		if !bytes.Contains(src, []byte("fwmigrate-ignore")) {
			continue
		}
		lines := ast.NewLines(src)
		for off := 0; ; {
			i := bytes.Index(src[off:], []byte("fwmigrate-ignore"))
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
			sup := parseSuppression(body)
			if sup == nil {
				continue
			}
			start := ls + len(before) - len(opener)
			own := strings.TrimSpace(string(src[ls:start])) == ""
			out = append(out, sup.place(f.Display, ast.Span{Start: start, End: at + le}, lines.Position(start), own))
		}
	}
	return out
}

// place puts s in file at span, whose start is at, covering its own line,
// or the next one when it stands on a line of its own (own).
func (s *suppression) place(file string, span ast.Span, at ast.Position, own bool) *suppression {
	s.file, s.span, s.at, s.line = file, span, at, at.Line
	if own {
		s.line++
	}
	return s
}

func parseSuppression(text string) *suppression {
	if !strings.HasPrefix(text, "fwmigrate-ignore") {
		return nil
	}
	m := suppressRE.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	s := &suppression{used: map[string]bool{}}
	s.codes = strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	return s
}

func (s *suppression) covers(d *Diagnostic) (string, bool) {
	if d.File != s.file || d.Line != s.line {
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
	kept := diags[:0]
	for _, d := range diags {
		suppressed := false
		if Suppressible(d.Code) {
			for _, s := range sups {
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
	for _, s := range suppressions(p.Project) {
		if _, ok := s.covers(probe); ok {
			return true
		}
	}
	return false
}
