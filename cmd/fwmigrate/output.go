package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/term"

	"github.com/fwmigrate/fwmigrate/internal/gitx"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/rules"
)

// report is everything a run found, ready to print.
type report struct {
	// findings are the findings with the source lines of their code
	// frames (frameLine): the line alone, not the file's text, so that a
	// run over many projects holds no project's texts for its report.
	findings *findings
	counts   summary // the findings by severity and fix
	files    int     // config files checked
	fatal    bool    // a file could not be checked: exit status 2
	failing  bool    // a finding at or above its project's failOn: exit status 1
	errs     []error // bad settings or baselines, directories without configs
	// baselined counts the findings known to a baseline (not shown), stale
	// the baseline entries no longer found.
	baselined, stale int
	// With --update-baseline: the findings of each baseline, and the files
	// each baseline's projects cover.
	toBaseline []baselineFindings
	covered    map[string]map[string]bool
}

// textOptions shape the text and concise formats.
type textOptions struct {
	color      bool
	quiet      bool // the findings only: no summary
	statistics bool // a count per rule instead of the findings
	width      int  // the terminal's width; 0 when not a terminal
}

type summary struct {
	Files    int `json:"files"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// Fixable counts the findings `fwmigrate apply` fixes (safe fixes);
	// UnsafeFixable those whose fix needs `apply --unsafe`.
	Fixable       int `json:"fixable"`
	UnsafeFixable int `json:"unsafeFixable"`
}

func (r *report) summary() summary {
	s := r.counts
	s.Files = r.files
	return s
}

// countOf counts diags by severity and fix.
func countOf(diags []*rules.Diagnostic) summary {
	var s summary
	for _, d := range diags {
		switch d.Severity {
		case rules.Error:
			s.Errors++
		case rules.Warning:
			s.Warnings++
		default:
			s.Infos++
		}
		switch {
		case d.Fix == nil:
		case d.Fix.Applicability == rules.Safe:
			s.Fixable++
		default:
			s.UnsafeFixable++
		}
	}
	return s
}

func (s *summary) add(o summary) {
	s.Files += o.Files
	s.Errors += o.Errors
	s.Warnings += o.Warnings
	s.Infos += o.Infos
	s.Fixable += o.Fixable
	s.UnsafeFixable += o.UnsafeFixable
}

var formats = []string{"text", "concise", "json", "sarif", "github", "markdown"}

// writeReport writes r in format; an error reading the findings back
// (findings) is its error.
func writeReport(w io.Writer, r *report, format string, o textOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10) // the github format writes a line at a time
	err := writeFormat(bw, r, format, o)
	if err == nil {
		err = bw.Flush()
	}
	if r.findings.err != nil {
		return r.findings.err
	}
	return err
}

func writeFormat(w io.Writer, r *report, format string, o textOptions) error {
	if o.statistics {
		return writeStatistics(w, r, o)
	}
	switch format {
	case "text":
		return writeText(w, r, o)
	case "concise":
		return writeConcise(w, r, o)
	case "json":
		return writeJSON(w, r)
	case "sarif":
		return writeSARIF(w, r)
	case "github":
		return writeGitHub(w, r)
	case "markdown":
		return writeMarkdown(w, r, false)
	}
	return fmt.Errorf("unknown format %q", format)
}

// header is a finding's first line. Its file name and message come from
// the tree (a folder may be named with escapes or a newline and a workflow
// command): both are escaped, here and in every format.
func header(d *rules.Diagnostic) string {
	return fmt.Sprintf("%s: %s %s [%s] %s", position(d), d.Severity, d.Code, d.Name, text.Escape(d.Message))
}

// position is a finding's file:line:col, the file name escaped.
func position(d *rules.Diagnostic) string {
	pos := text.Escape(d.File)
	if d.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", pos, d.Line, d.Column)
	}
	return pos
}

func writeConcise(w io.Writer, r *report, o textOptions) error {
	b := escapedBlocks{w: w, color: o.color}
	for d := range r.findings.all {
		if err := b.next(); err != nil {
			return err
		}
		b.WriteString(header(d))
		b.WriteByte('\n')
	}
	if !o.quiet {
		b.WriteString(checkSummary(r))
	}
	return b.flush()
}

// escapedBlocks writes a report a block at a time, escaped (EscapeLines):
// a large report is not one string. Each block ends a line, and escaping
// works line by line, so the output is what escaping the whole would give.
type escapedBlocks struct {
	strings.Builder
	w     io.Writer
	color bool
}

// next writes the block so far once it is large; the next finding starts
// a line.
func (b *escapedBlocks) next() error {
	if b.Len() < 64<<10 {
		return nil
	}
	return b.flush()
}

func (b *escapedBlocks) flush() error {
	_, err := io.WriteString(b.w, text.EscapeLines(b.String(), b.color))
	b.Reset()
	return err
}

// writeStatistics prints the number of findings per rule, most first, as
// ruff's --statistics does: count, code, name, and [*] for a safe fix.
func writeStatistics(w io.Writer, r *report, o textOptions) error {
	type stat struct {
		code, name string
		n, fixable int
	}
	byCode := map[string]*stat{}
	var stats []*stat
	for d := range r.findings.all {
		s := byCode[d.Code]
		if s == nil {
			s = &stat{code: d.Code, name: d.Name}
			byCode[d.Code] = s
			stats = append(stats, s)
		}
		s.n++
		if d.Fix != nil && d.Fix.Applicability == rules.Safe {
			s.fixable++
		}
	}
	sort.SliceStable(stats, func(i, j int) bool {
		if stats[i].n != stats[j].n {
			return stats[i].n > stats[j].n
		}
		return stats[i].code < stats[j].code
	})
	digits, nameWidth := 1, 0
	for _, s := range stats {
		digits = max(digits, len(strconv.Itoa(s.n)))
		nameWidth = max(nameWidth, len(s.name))
	}
	var b strings.Builder
	for _, s := range stats {
		fix := ""
		switch {
		case s.fixable == s.n:
			fix = "[*]"
		case s.fixable > 0:
			fix = fmt.Sprintf("[*] %d of them", s.fixable)
		}
		b.WriteString(strings.TrimRight(fmt.Sprintf("%*d  %s  %-*s  %s", digits, s.n, s.code, nameWidth, s.name, fix), " "))
		b.WriteByte('\n')
	}
	if !o.quiet {
		if len(stats) > 0 {
			b.WriteString("[*] fixable with `fwmigrate apply`\n")
		}
		b.WriteString(checkSummary(r))
	}
	_, err := io.WriteString(w, text.EscapeLines(b.String(), false))
	return err
}

// esbuildLocation matches the location line esbuild prints above its code
// frame ("    file:12:2:", with a 0-based column).
var esbuildLocation = lazyregexp.New(`^\s+\S.*:\d+:\d+:$`)

// codeFrame renders the source line of d with its span underlined, using
// esbuild's formatter so that our messages look like esbuild's syntax errors.
// esbuild's own header and location line are dropped: the header we print
// says the same with a 1-based column and our severity and code.
func codeFrame(d *rules.Diagnostic, fs frameSource, color bool, width int) string {
	if !fs.ok {
		return ""
	}
	kind := api.WarningMessage
	if d.Severity == rules.Error {
		kind = api.ErrorMessage
	}
	msgs := api.FormatMessages([]api.Message{{
		Text: d.Message,
		Location: &api.Location{
			File:     text.Escape(d.File),
			Line:     d.Line,
			Column:   d.Column - 1,
			Length:   fs.length,
			LineText: printable(fs.line),
		},
	}}, api.FormatMessagesOptions{Kind: kind, Color: color, TerminalWidth: frameWidth(width)})
	if len(msgs) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimRight(msgs[0], "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == 0 || l == "" || esbuildLocation().MatchString(stripANSI(l)) {
			continue
		}
		// esbuild prints the source line in white (37), which is invisible
		// on a light background: the terminal's own colour instead.
		b.WriteString(strings.ReplaceAll(l, "\x1b[37m", "\x1b[39m"))
		b.WriteByte('\n')
	}
	return b.String()
}

// maskSpan returns line with the bytes [start,end) (a secret's value)
// replaced by '*', keeping the quotes around it: the frame still shows
// where the secret is, never what it is.
func maskSpan(line []byte, start, end int) []byte {
	start, end = max(start, 0), min(end, len(line))
	if start >= end {
		return line
	}
	out := append([]byte(nil), line...)
	if q := out[start]; (q == '\'' || q == '"' || q == '`') && end-start >= 2 && out[end-1] == q {
		start, end = start+1, end-1
	}
	for i := start; i < end; i++ {
		out[i] = '*'
	}
	return out
}

// frameSource is what a code frame shows of a diagnostic's file: its line
// (a copy) and the length of the span on it.
type frameSource struct {
	line   []byte
	length int
	ok     bool
}

// frameLine takes d's line out of src, its file's text (nil: none).
func frameLine(d *rules.Diagnostic, src []byte) frameSource {
	if d.Line <= 0 || src == nil {
		return frameSource{}
	}
	lineStart := d.Span.Start - (d.Column - 1)
	if lineStart < 0 || lineStart > len(src) {
		return frameSource{}
	}
	lineEnd := lineStart
	for lineEnd < len(src) && src[lineEnd] != '\n' && src[lineEnd] != '\r' {
		lineEnd++
	}
	length := d.Span.End - d.Span.Start
	if d.Span.End > lineEnd {
		length = lineEnd - d.Span.Start
	}
	if length < 0 {
		length = 0
	}
	line := bytes.Clone(src[lineStart:lineEnd])
	if r := rules.Find(d.Code); r != nil && r.Secret {
		line = maskSpan(line, d.Span.Start-lineStart, d.Span.Start-lineStart+length)
	}
	return frameSource{line: line, length: length, ok: true}
}

// printable is a source line as a code frame shows it: control bytes, C1
// controls and bidi overrides (a terminal would obey them, or reorder what
// the reader sees) become "?", one byte for one so that columns still point
// where they did.
func printable(line []byte) string {
	b := []byte(string(line))
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' || c == 0x7f {
				b[i] = '?'
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && text.Escape(string(r)) != string(r) {
			for j := i; j < i+n; j++ {
				b[j] = '?'
			}
		}
		i += n
	}
	return string(b)
}

var ansi = lazyregexp.New("\x1b\\[[0-9;]*m")

func stripANSI(s string) string { return ansi().ReplaceAllString(s, "") }

type palette struct{ on bool }

func (p palette) wrap(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p palette) severity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return p.wrap("1;31", "error")
	case rules.Warning:
		return p.wrap("1;33", "warning")
	}
	return p.wrap("1;36", "info")
}

func writeText(w io.Writer, r *report, o textOptions) error {
	p := palette{o.color}
	b := escapedBlocks{w: w, color: o.color}
	for d, frame := range r.findings.all {
		if err := b.next(); err != nil {
			return err
		}
		// The headline is wrapped at the terminal's width, as the notes
		// are (not in a pipe: one line per finding there, for grep).
		b.WriteString(wrapLine(fmt.Sprintf("%s: %s %s [%s] %s", p.wrap("1", position(d)), p.severity(d.Severity), p.wrap("1", d.Code), d.Name, text.Escape(d.Message)), o.width))
		b.WriteByte('\n')
		b.WriteString(codeFrame(d, frame, o.color, o.width))
		if d.Path != "" && d.Line > 0 {
			fmt.Fprintf(&b, "  = path: %s\n", text.Escape(d.Path))
		}
		for _, n := range d.Notes {
			b.WriteString(wrapNote("  = note: ", text.EscapeLines(n, false), o.width))
		}
		if d.Fix != nil {
			b.WriteString(wrapNote(fmt.Sprintf("  = fix (%s): ", d.Fix.Applicability), text.Escape(d.Fix.Description), o.width))
		}
		b.WriteByte('\n')
	}
	if !o.quiet {
		b.WriteString(wrapLines(checkSummary(r), o.width))
	}
	return b.flush()
}

// checkSummary is the last line of the text and concise formats.
func checkSummary(r *report) string {
	var b strings.Builder
	s := r.summary()
	total := s.Errors + s.Warnings + s.Infos
	if total == 0 {
		fmt.Fprintf(&b, "No findings in %s", text.Plural(s.Files, "project"))
	} else {
		// Infos are findings, not problems; each config checked is a
		// project (a layer's config too).
		fmt.Fprintf(&b, "%s: %s, %s, %s in %s", text.Plural(total, "finding"), text.Plural(s.Errors, "error"), text.Plural(s.Warnings, "warning"), text.Plural(s.Infos, "info"), text.Plural(s.Files, "project"))
		if s.Fixable > 0 {
			fmt.Fprintf(&b, "; %d fixable with `fwmigrate apply`", s.Fixable)
		}
		if s.UnsafeFixable > 0 {
			fmt.Fprintf(&b, "; %d more with `fwmigrate apply --unsafe` (they change behaviour: review them)", s.UnsafeFixable)
		}
	}
	if r.baselined > 0 {
		fmt.Fprintf(&b, "; %s in the baseline, not shown", text.Plural(r.baselined, "known finding"))
	}
	if r.stale > 0 {
		fmt.Fprintf(&b, "; %s no longer found (--update-baseline drops them)", text.Plural(r.stale, "baseline entry"))
	}
	b.WriteString(".\n")
	return b.String()
}

// wrapNote writes text after prefix, wrapped at width (when it is a
// terminal's), continuation lines indented under the text. Newlines in
// the text are kept.
func wrapNote(prefix, text string, width int) string {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var b strings.Builder
	b.WriteString(prefix)
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteString("\n" + indent)
		}
		if width <= len(indent)+20 {
			b.WriteString(para)
			continue
		}
		col := len(indent)
		for j, word := range strings.Split(para, " ") {
			n := utf8.RuneCountInString(word)
			if j > 0 {
				if col+1+n > width {
					b.WriteString("\n" + indent)
					col = len(indent)
				} else {
					b.WriteByte(' ')
					col++
				}
			}
			b.WriteString(word)
			col += n
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// jsonDiagnostic is the stable JSON shape documented in README.md.
type jsonDiagnostic struct {
	Code      string   `json:"code"`
	Name      string   `json:"name"`
	Category  string   `json:"category"`
	Severity  string   `json:"severity"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"endLine"`
	EndColumn int      `json:"endColumn"`
	Option    string   `json:"option"`
	Path      string   `json:"path"`
	Message   string   `json:"message"`
	Notes     []string `json:"notes"`
	Fix       *jsonFix `json:"fix"`
}

type jsonFix struct {
	Applicability string `json:"applicability"`
	Description   string `json:"description"`
}

// toJSONDiagnostic is the diagnostic shape of `check --format=json`.
func toJSONDiagnostic(d *rules.Diagnostic) jsonDiagnostic {
	jd := jsonDiagnostic{
		Code: d.Code, Name: d.Name, Category: string(d.Category), Severity: d.Severity.String(),
		File: filepath.ToSlash(d.File), Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
		Option: d.Option, Path: filepath.ToSlash(d.Path), Message: d.Message, Notes: d.Notes,
	}
	if jd.Notes == nil {
		jd.Notes = []string{}
	}
	if d.Fix != nil {
		jd.Fix = &jsonFix{Applicability: d.Fix.Applicability.String(), Description: d.Fix.Description}
	}
	return jd
}

func writeJSON(w io.Writer, r *report) error {
	out := struct {
		Version     int              `json:"version"`
		Diagnostics []jsonDiagnostic `json:"diagnostics"`
		Summary     summary          `json:"summary"`
	}{Version: 1, Diagnostics: []jsonDiagnostic{}, Summary: r.summary()}
	return encodeJSONList(w, out, "diagnostics", func(emit func(any) error) error {
		for d := range r.findings.all {
			if err := emit(toJSONDiagnostic(d)); err != nil {
				return err
			}
		}
		return nil
	})
}

// encodeJSON writes v as indented JSON. encoding/json escapes control bytes
// and U+2028/U+2029 but writes bidi controls as they are, and a JSON report
// is read in logs too: they are written as \u escapes, and so is the "[" of
// "##[" (the Actions runner's older command syntax, obeyed anywhere in a
// line): the same strings to a JSON reader.
func encodeJSON(w io.Writer, v any) error {
	return encodeJSONHTML(w, v, true)
}

// encodeJSONHTML is encodeJSON with encoding/json's escaping of <, > and &
// chosen (inspect shows code, where they are common).
func encodeJSONHTML(w io.Writer, v any, escapeHTML bool) error {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, jsonSafe(out.String()))
	return err
}

// jsonSafe escapes what encodeJSON's output must not hold raw.
func jsonSafe(js string) string {
	var b strings.Builder
	js = strings.ReplaceAll(js, "##[", `##\u005b`)
	for _, r := range js {
		if r >= 0x80 && text.Escape(string(r)) != string(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// encodeJSONList writes v as encodeJSON does, with the elements of its
// array field key (empty in v) given one at a time by list through emit:
// a monorepo's report is written without holding it whole, three times
// over (the values, their JSON, its escaped copy). The bytes are
// encodeJSON's with the elements in v.
func encodeJSONList(w io.Writer, v any, key string, list func(emit func(any) error) error) error {
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	js := doc.String()
	mark := strconv.Quote(key) + ": []"
	at := strings.Index(js, mark)
	if at < 0 || strings.Count(js, mark) != 1 {
		return fmt.Errorf("internal error: no single %s in the JSON report", mark)
	}
	lineStart := strings.LastIndexByte(js[:at], '\n') + 1
	indent := js[lineStart:at] // the key's indentation
	prefix := indent + "  "    // its elements'
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(jsonSafe(js[:at+len(mark)-1]))
	n := 0
	err := list(func(elem any) error {
		b, err := json.MarshalIndent(elem, prefix, "  ")
		if err != nil {
			return err
		}
		sep := ",\n"
		if n == 0 {
			sep = "\n"
		}
		n++
		bw.WriteString(sep + prefix)
		_, err = bw.WriteString(jsonSafe(string(b)))
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n" + indent)
	}
	bw.WriteString(jsonSafe(js[at+len(mark)-1:]))
	return bw.Flush()
}

// GitHub workflow commands: https://docs.github.com/actions/reference/workflow-commands-for-github-actions
func writeGitHub(w io.Writer, r *report) error {
	for d := range r.findings.all {
		cmd := "notice"
		switch d.Severity {
		case rules.Error:
			cmd = "error"
		case rules.Warning:
			cmd = "warning"
		}
		// GitHub's escapes cover only % CR LF : and ,: the rest of what the
		// tree may hold (ESC, bidi controls, "##[") is escaped first.
		props := []string{"file=" + ghProperty(text.Escape(filepath.ToSlash(d.File)))}
		if d.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Line), fmt.Sprintf("col=%d", d.Column))
			if d.EndLine > 0 {
				props = append(props, fmt.Sprintf("endLine=%d", d.EndLine), fmt.Sprintf("endColumn=%d", d.EndColumn))
			}
		}
		props = append(props, "title="+ghProperty(text.Escape(d.Code+" "+d.Name)))
		msg := text.Escape(d.Message)
		for _, n := range d.Notes {
			msg += "\n" + text.EscapeLines(n, false)
		}
		if d.Fix != nil {
			msg += fmt.Sprintf("\nfix (%s): %s", d.Fix.Applicability, text.Escape(d.Fix.Description))
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(msg)); err != nil {
			return err
		}
	}
	return nil
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// colorEnabled decides colour from --color, then FORCE_COLOR (not empty,
// "0" or "false": colour even into a pipe, as CI logs want; "0" or
// "false": none), then NO_COLOR, then CLICOLOR_FORCE (not empty nor "0":
// colour), then whether w is a terminal.
func colorEnabled(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if v := os.Getenv("FORCE_COLOR"); v != "" {
			return v != "0" && v != "false", nil
		}
		if os.Getenv("NO_COLOR") != "" { // no-color.org: present and not empty
			return false, nil
		}
		if v := os.Getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
			return true, nil
		}
		return isTerminal(w) && os.Getenv("TERM") != "dumb", nil
	}
	return false, fmt.Errorf("--color must be auto, always or never, not %q", mode)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the width notes are wrapped at: COLUMNS when set (as
// shells export it), else the terminal's, else 0 (not a terminal: no
// wrapping, so that logs and pipes get one line per note).
func terminalWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// frameWidth is the width esbuild fits a code frame's long lines to.
func frameWidth(width int) int {
	if width <= 0 {
		return 100
	}
	return width
}

// repoRoot is the root of the git work tree holding dir, or "" when dir is
// not in one (or git is not installed). SARIF URIs are relative to it. git
// runs as gitx runs it, and not at all where no .git is above, or where a
// folder on the way looks like a git directory.
func repoRoot(dir string) string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	top := gitx.Top(real)
	if top == "" || gitx.Embedded(real, top) != "" {
		return ""
	}
	cmd := gitx.Command(dir, top, "rev-parse", "--show-toplevel")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
