package rules

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// Options select what Check runs.
type Options struct {
	// Target is the compatibility version to check against (default 4).
	Target int
	// Select and Ignore filter rules by code ("FW201"), code prefix ("FW2"),
	// name ("generate-routes") or category ("version"). An empty Select
	// selects everything; Ignore wins over Select.
	Select, Ignore []string
	// Framework is the framework major (3 or 4) of projects whose
	// package.json does not say (--framework); 0 leaves it unknown.
	Framework int
}

// Selected reports whether opts select rule r.
func (o Options) Selected(r *Rule) bool {
	if len(o.Select) > 0 && !matchesAny(r, o.Select) {
		return false
	}
	return !matchesAny(r, o.Ignore)
}

func matchesAny(r *Rule, pats []string) bool {
	for _, p := range pats {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
		case strings.EqualFold(p, "all"):
			return true
		case strings.EqualFold(p, r.Name), strings.EqualFold(p, string(r.Category)):
			return true
		case len(p) >= 2 && strings.HasPrefix(strings.ToUpper(r.Code), strings.ToUpper(p)) && strings.HasPrefix(strings.ToUpper(p), "FW"):
			return true
		}
	}
	return false
}

// ValidateSelectors returns an error naming the first selector that matches
// no rule, so that a typo in --select or --ignore is not silently ignored.
func ValidateSelectors(sels []string) error {
	for _, s := range sels {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, r := range All() {
			if matchesAny(r, []string{s}) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%q matches no rule code, name or category (see 'fwmigrate rules')", s)
		}
	}
	return nil
}

// Check runs the selected rules on one project and returns its diagnostics
// with positions filled in, suppressions applied, sorted by file, position
// and code. Reading and syntax errors come back as FW901/FW904 diagnostics
// (Fatal reports whether the project had one).
func Check(p *project.Project, opts Options) []*Diagnostic {
	if opts.Target == 0 {
		opts.Target = 4
	}
	if p.Framework == 0 && opts.Framework != 0 {
		p.Framework, p.FrameworkSource = opts.Framework, "--framework"
	}
	var diags []*Diagnostic
	if p.File == nil {
		diags = append(diags, loadErrorDiagnostic(p))
		finish(p, diags)
		return diags
	}
	index := NewIndex(p, p.File, opts.Target)
	for _, r := range All() {
		if r.Run == nil || !opts.Selected(r) {
			continue
		}
		pass := &Pass{Rule: r, Project: p, File: p.File, Config: index.config, Target: opts.Target, Index: index}
		runRule(pass)
		diags = append(diags, pass.diags...)
	}
	diags = append(diags, engineDiagnostics(p, opts)...)
	finish(p, diags)
	diags = applySuppressions(p, diags, opts)
	sortDiagnostics(diags)
	return diags
}

// Fatal reports whether diags hold an error that makes the run fail with
// exit status 2: a config that could not be read or parsed, an extends
// cycle, an internal error. The same codes at a lower severity (an
// unreadable .env file is a warning) do not.
func Fatal(diags []*Diagnostic) bool {
	for _, d := range diags {
		if d.Severity != Error {
			continue
		}
		switch d.Code {
		case CodeSyntax, CodeIO, CodeInternal, CodeExtendsCycle:
			return true
		}
	}
	return false
}

// runRule runs one rule, turning a panic into an internal-error diagnostic:
// a bug in one rule must not take the whole run down.
func runRule(pass *Pass) {
	defer func() {
		if e := recover(); e != nil {
			d := pass.Report(ast.Span{}, "", "internal error in rule %s (%s): %v", pass.Rule.Code, pass.Rule.Name, e)
			d.Code, d.Name, d.Category, d.Severity = CodeInternal, ruleInternal.Name, Tool, Error
			d.Notes = append(d.Notes, "please report this with the config that triggers it", firstFrames(string(debug.Stack()), 12))
		}
	}()
	pass.Rule.Run(pass)
}

func firstFrames(stack string, n int) string {
	lines := strings.Split(stack, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func loadErrorDiagnostic(p *project.Project) *Diagnostic {
	d := &Diagnostic{File: p.ConfigDisplay, Category: Tool, Severity: Error}
	var se *ast.SyntaxError
	switch {
	case errors.As(p.Err, &se):
		d.Code, d.Name = CodeSyntax, ruleSyntax.Name
		d.Message = se.Text
		d.Line, d.Column = se.Line, se.Column
		d.EndLine, d.EndColumn = se.Line, se.Column
		d.Span = ast.Span{Start: se.Offset, End: se.Offset}
	default:
		d.Code, d.Name = CodeIO, ruleIO.Name
		d.Message = ioMessage(p.Err)
	}
	return d
}

// ioMessage says what went wrong with a file without repeating its path,
// which the diagnostic already names.
func ioMessage(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("cannot %s: %v", pe.Op, pe.Err)
	}
	return fmt.Sprint(err)
}

// engineDiagnostics are the tool's own findings about a parsed project.
func engineDiagnostics(p *project.Project, opts Options) []*Diagnostic {
	var out []*Diagnostic
	f := p.File
	if f.Config == nil && opts.Selected(ruleNotLiteral) {
		span := f.ReasonSpan
		if span.Len() == 0 {
			span = f.ExportSpan
		}
		reason := f.Reason
		if reason == "" {
			reason = "the exported config is not an object literal"
		}
		out = append(out, &Diagnostic{
			Code: CodeNotLiteral, Name: ruleNotLiteral.Name, Category: Tool, Severity: Info,
			File: p.ConfigDisplay, Span: span,
			Message: "cannot check: " + reason,
			Notes:   []string{"fwmigrate checks and rewrites configs written as an object literal (export default defineFwConfig({...}))"},
		})
	}
	for _, ef := range p.Env {
		if ef.Err != nil && opts.Selected(ruleIO) {
			out = append(out, &Diagnostic{
				Code: CodeIO, Name: ruleIO.Name, Category: Tool, Severity: Warning,
				File: ef.Display, Path: ef.Name,
				Message: fmt.Sprintf("%s: %s", ef.Name, ioMessage(ef.Err)),
			})
		}
	}
	if p.DetectErr != nil && opts.Selected(ruleIO) {
		out = append(out, &Diagnostic{
			Code: CodeIO, Name: ruleIO.Name, Category: Tool, Severity: Warning,
			File:    p.ConfigDisplay,
			Message: fmt.Sprintf("cannot read the project's directory layout: %v", p.DetectErr),
			Notes:   []string{"layout checks were skipped"},
		})
	}
	return out
}

// finish fills in positions from spans.
func finish(p *project.Project, diags []*Diagnostic) {
	for _, d := range diags {
		if d.Line != 0 {
			continue
		}
		var src []byte
		var f *ast.File
		if d.File == p.ConfigDisplay {
			f = p.File
		} else {
			for _, ef := range p.Env {
				if ef.Display == d.File {
					src = ef.Src
				}
			}
		}
		if f == nil && src == nil {
			continue
		}
		var start, end ast.Position
		if f != nil {
			start, end = f.Position(d.Span.Start), f.Position(d.Span.End)
		} else {
			lines := ast.NewLines(src)
			start, end = lines.Position(d.Span.Start), lines.Position(d.Span.End)
		}
		d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	}
}

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
			s.file = p.ConfigDisplay
			s.span = c.Loc
			s.at = p.File.Position(c.Loc.Start)
			s.line = s.at.Line
			if strings.TrimSpace(string(p.File.Src[p.File.LineStart(c.Loc.Start):c.Loc.Start])) == "" {
				s.line++ // own line: covers the next one
			}
			out = append(out, s)
		}
	}
	for _, ef := range p.Env {
		off := 0
		for lineNo := 1; off < len(ef.Src); lineNo++ {
			end := strings.IndexByte(string(ef.Src[off:]), '\n')
			if end < 0 {
				end = len(ef.Src)
			} else {
				end += off
			}
			line := string(ef.Src[off:end])
			if hash := strings.Index(line, "#"); hash >= 0 {
				if s := parseSuppression(strings.TrimSpace(line[hash+1:])); s != nil {
					s.file = ef.Display
					s.span = ast.Span{Start: off + hash, End: end}
					s.at = ast.NewLines(ef.Src).Position(off + hash)
					s.line = lineNo
					if strings.TrimSpace(line[:hash]) == "" {
						s.line++
					}
					out = append(out, s)
				}
			}
			off = end + 1
		}
	}
	return out
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
func applySuppressions(p *project.Project, diags []*Diagnostic, opts Options) []*Diagnostic {
	sups := suppressions(p)
	if len(sups) == 0 {
		return diags
	}
	kept := diags[:0]
	for _, d := range diags {
		suppressed := false
		if d.Code != CodeSyntax && d.Code != CodeIO && d.Code != CodeInternal {
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
		kept = append(kept, &Diagnostic{
			Code: CodeUnusedSuppression, Name: ruleUnusedSuppression.Name, Category: Tool, Severity: Warning,
			File: s.file, Span: s.span,
			Line: s.at.Line, Column: s.at.Column, ColumnUTF16: s.at.ColumnUTF16,
			EndLine: s.at.Line, EndColumn: s.at.Column, EndColumnUTF16: s.at.ColumnUTF16,
			Message: "unused suppression: " + strings.Join(unused, ", "),
			Notes:   []string{"nothing on the covered line was reported for it; remove it or correct the code"},
		})
	}
	return kept
}

func sortDiagnostics(diags []*Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// SortDiagnostics sorts diagnostics from many projects into the
// deterministic output order.
func SortDiagnostics(diags []*Diagnostic) { sortDiagnostics(diags) }
