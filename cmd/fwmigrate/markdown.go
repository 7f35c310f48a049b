package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// The Markdown formats: a summary to paste into the pull request of a
// migration (apply --format=markdown), or of what a migration needs (check
// --format=markdown), and the summary of a GitHub Actions step (check
// --format=github appends check's to $GITHUB_STEP_SUMMARY).
//
// Every name and value from the tree goes through internal/text's
// Markdown escapers: file names and positions as code spans, messages and
// fix descriptions with their quoted parts as code spans and the rest
// literal, every table cell with its "|" escaped. Rule codes link to their
// pages in docs/rules (ruledocs.URL, as SARIF's helpUri).

// firstPlaces is how many places of a rule the summaries show (--verbose:
// all of them).
const firstPlaces = 3

// md builds a Markdown document from blocks.
type md struct{ b strings.Builder }

func (m *md) heading(level int, s string) {
	m.block(strings.Repeat("#", level) + " " + s)
}

// block writes one block (a paragraph, a list, a table), blank lines
// between blocks.
func (m *md) block(s string) {
	if m.b.Len() > 0 {
		m.b.WriteByte('\n')
	}
	m.b.WriteString(s)
	m.b.WriteByte('\n')
}

// table writes a table; cells are inline Markdown, made safe for a cell
// here. right says which columns are numbers.
func (m *md) table(head []string, right []bool, rows [][]string) {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + text.MarkdownCell(c) + " |")
		}
		b.WriteByte('\n')
	}
	row(head)
	b.WriteString("|")
	for i := range head {
		if i < len(right) && right[i] {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteByte('\n')
	for _, r := range rows {
		row(r)
	}
	m.block(strings.TrimSuffix(b.String(), "\n"))
}

// list writes a list of inline Markdown items.
func (m *md) list(items []string, ordered bool) {
	if len(items) == 0 {
		return
	}
	var b strings.Builder
	for i, it := range items {
		if ordered {
			fmt.Fprintf(&b, "%d. %s\n", i+1, it)
		} else {
			fmt.Fprintf(&b, "- %s\n", it)
		}
	}
	m.block(strings.TrimSuffix(b.String(), "\n"))
}

// ruleLink is a rule's code linked to its page, and its name.
func ruleLink(code, name string) string {
	link := fmt.Sprintf("[%s](%s)", text.MarkdownText(code), ruledocs.URL(code))
	if name == "" {
		return link
	}
	return link + " " + text.MarkdownText(name)
}

// mdPlace is a finding's place as a code span: file:line:col.
func mdPlace(d *rules.Diagnostic) string {
	pos := filepath.ToSlash(d.File)
	if d.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", pos, d.Line, d.Column)
	}
	return text.MarkdownCode(pos)
}

// mdPlaces are the first places of diags (all with verbose), and how many
// more there are.
func mdPlaces(diags []*rules.Diagnostic, verbose bool) string {
	n := len(diags)
	if !verbose {
		n = min(n, firstPlaces)
	}
	return placesOf(diags[:n], len(diags))
}

// placesOf lists the places of shown, the first of total findings.
func placesOf(shown []*rules.Diagnostic, total int) string {
	var out []string
	for _, d := range shown {
		out = append(out, mdPlace(d))
	}
	s := strings.Join(out, ", ")
	if more := total - len(shown); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// ruleGroup is the findings of one rule.
type ruleGroup struct {
	code, name string
	diags      []*rules.Diagnostic
}

// groupByRule groups diags by rule, in code order; each group keeps the
// order of diags.
func groupByRule(diags []*rules.Diagnostic) []*ruleGroup {
	by := map[string]*ruleGroup{}
	var out []*ruleGroup
	for _, d := range diags {
		g := by[d.Code]
		if g == nil {
			g = &ruleGroup{code: d.Code, name: d.Name}
			by[d.Code] = g
			out = append(out, g)
		}
		g.diags = append(g.diags, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out
}

// distinct returns the distinct strings of list in their order, the first
// most of them, and how many more there are.
func distinct(list []string, most int) ([]string, int) {
	seen := map[string]bool{}
	var out []string
	more := 0
	for _, s := range list {
		if seen[s] {
			continue
		}
		seen[s] = true
		if len(out) < most {
			out = append(out, s)
		} else {
			more++
		}
	}
	return out, more
}

// joinInline renders fwmigrate's sentences that quote the tree between
// backticks, joined by "; ", and says how many others there are (kind:
// "fix", "message").
func joinInline(list []string, more int, kind string) string {
	var out []string
	for _, s := range list {
		out = append(out, text.MarkdownInline(s))
	}
	s := strings.Join(out, "; ")
	if more > 0 {
		s += fmt.Sprintf(" (and %s)", text.Plural(more, "other "+kind))
	}
	return s
}

// fixesByRule are the fixes made (or, with --dry-run, to make) in the
// projects written, by rule: the findings the move resolves among them.
type fixGroup struct {
	code, name string
	n          int
	what       []string
}

func fixesByRule(results []*migrate.Result) []*fixGroup {
	by := map[string]*fixGroup{}
	var out []*fixGroup
	add := func(code, name, what string) {
		g := by[code]
		if g == nil {
			g = &fixGroup{code: code, name: name}
			by[code] = g
			out = append(out, g)
		}
		g.n++
		g.what = append(g.what, what)
	}
	for _, r := range results {
		if stateOf(r) != stateWritten {
			continue
		}
		for _, f := range r.Fixed {
			add(f.D.Code, f.D.Name, f.D.Fix.Description)
		}
		for _, d := range r.ByMove {
			add(d.Code, d.Name, "by the move into `app/`")
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out
}

// writeApplyMarkdown writes apply's report as Markdown, for the pull
// request of the migration: the summary, what moved, the fixes by rule,
// what is left and why, the behaviour to test and the next steps. The
// counts are the text report's.
func writeApplyMarkdown(w io.Writer, results []*migrate.Result, o migrate.Options, verbose bool) error {
	var m md
	t := tallyApply(results, o)
	title := "Migration to compatibility version 4 (fwmigrate)"
	if o.DryRun {
		title = "Migration to compatibility version 4 (fwmigrate, dry run: nothing written)"
	}
	m.heading(2, title)
	// The totals are fwmigrate's words and counts, nothing of the tree:
	// Markdown as they are, with the names of folders and flags as code.
	m.block(strings.NewReplacer("app/", "`app/`", "--unsafe", "`--unsafe`").Replace(applyTotalsLine(t, o)))

	// What moved.
	var moves [][]string
	for _, r := range results {
		if r.Plan == nil || stateOf(r) != stateWritten {
			continue
		}
		var names []string
		for _, n := range r.MovedNames() {
			names = append(names, text.MarkdownCode(n))
		}
		follow := "none"
		if paths, files := r.PathEdits(); paths > 0 {
			follow = fmt.Sprintf("%s in %s", text.Plural(paths, "path"), text.Plural(files, "file"))
		}
		moves = append(moves, []string{text.MarkdownCode(r.Project.ConfigDisplay), strings.Join(names, ", "), strconv.Itoa(r.MovedFiles), follow})
	}
	if len(moves) > 0 {
		h := "Moved into `app/`"
		if o.DryRun {
			h = "To move into `app/`"
		}
		m.heading(3, h)
		m.table([]string{"Project", "Moved", "Files", "Paths rewritten to follow"}, []bool{false, false, true, false}, moves)
	}

	// The fixes, by rule.
	if fixes := fixesByRule(results); len(fixes) > 0 {
		h := "Fixes by rule"
		if o.DryRun {
			h = "Fixes to make, by rule"
		}
		m.heading(3, h)
		var rows [][]string
		for _, g := range fixes {
			what, more := distinct(g.what, 2)
			rows = append(rows, []string{ruleLink(g.code, g.name), strconv.Itoa(g.n), joinInline(what, more, "fix")})
		}
		m.table([]string{"Rule", "Fixes", "What"}, []bool{false, true, false}, rows)
		var edited []string
		for _, r := range results {
			if stateOf(r) == stateWritten && len(r.CodeEdits) > 0 {
				edited = append(edited, fmt.Sprintf("%s in the project of %s", text.Plural(len(r.CodeEdits), "code file"), text.MarkdownCode(r.Project.ConfigDisplay)))
			}
		}
		if len(edited) > 0 {
			verb := "The code fixes edited"
			if o.DryRun {
				verb = "The code fixes edit"
			}
			m.block(verb + " " + strings.Join(edited, ", ") + ".")
		}
	}

	// What is left, and why.
	var unsafe, byHand, none []*rules.Diagnostic
	var notFixed []migrate.FixReport
	var refused [][]string
	for _, r := range results {
		if stateOf(r) == stateRefused {
			refused = append(refused, []string{text.MarkdownCode(r.Project.ConfigDisplay), text.MarkdownInline(applyStatus(r, stateRefused, o))})
			continue
		}
		l := leftOf(r, o)
		unsafe = append(unsafe, l.unsafe...)
		byHand = append(byHand, l.byHand...)
		none = append(none, l.tool...)
		none = append(none, l.none...)
		notFixed = append(notFixed, r.NotFixed...)
	}
	if len(refused) > 0 || len(unsafe)+len(byHand)+len(none)+len(notFixed) > 0 {
		m.heading(3, "Left to do")
	}
	if len(refused) > 0 {
		m.heading(4, "Not written")
		m.table([]string{"Project", "Why"}, nil, refused)
	}
	leftTable := func(heading, why string, groups []*ruleGroup, whyOf func(*ruleGroup) string) {
		if len(groups) == 0 {
			return
		}
		m.heading(4, heading)
		if why != "" {
			m.block(why)
		}
		var rows [][]string
		for _, g := range groups {
			rows = append(rows, []string{ruleLink(g.code, g.name), strconv.Itoa(len(g.diags)), whyOf(g), mdPlaces(g.diags, verbose)})
		}
		m.table([]string{"Rule", "Count", "What", "Where"}, []bool{false, true, false, false}, rows)
	}
	fixWhat := func(g *ruleGroup) string {
		var list []string
		for _, d := range g.diags {
			list = append(list, d.Fix.Description)
		}
		what, more := distinct(list, 1)
		return joinInline(what, more, "fix")
	}
	messages := func(g *ruleGroup) string {
		var list []string
		for _, d := range g.diags {
			list = append(list, d.Message)
		}
		what, more := distinct(list, 1)
		return joinInline(what, more, "message")
	}
	leftTable("Fixes left for `--unsafe`", "They change behaviour: review them with `fwmigrate apply --to=4 --unsafe --dry-run`.", groupByRule(unsafe), fixWhat)
	if len(notFixed) > 0 {
		var ds []*rules.Diagnostic
		reason := map[*rules.Diagnostic]string{}
		for _, f := range notFixed {
			ds = append(ds, f.D)
			reason[f.D] = f.Reason
		}
		leftTable("Fixes that cannot be made", "", groupByRule(ds), func(g *ruleGroup) string {
			var list []string
			for _, d := range g.diags {
				list = append(list, d.Fix.Description+": not made: "+reason[d])
			}
			what, more := distinct(list, 1)
			return joinInline(what, more, "fix")
		})
	}
	leftTable("To edit by hand", "", groupByRule(byHand), messages)
	leftTable("Without an automatic fix", "They need a person's decision: each rule's page says what to do.", groupByRule(none), messages)

	// The behaviour to test, and the next steps.
	if len(t.toTest) > 0 {
		m.heading(3, "Behaviour to test")
		m.block("The version step changes these here; no tool can tell from the code alone whether the app still does what it should:")
		var items []string
		for _, line := range t.toTest {
			items = append(items, text.MarkdownInline(line))
		}
		m.list(items, false)
	}
	if steps := applyNextSteps(results, t, o); len(steps) > 0 {
		m.heading(3, "Next steps")
		m.list(steps, true)
	}
	_, err := io.WriteString(w, m.b.String())
	return err
}

// applyNextSteps are the steps after apply, in order: review (or apply),
// the fixes left, bump the framework, install, typecheck, test.
func applyNextSteps(results []*migrate.Result, t applyTally, o migrate.Options) []string {
	var steps []string
	switch {
	case o.DryRun && t.changed > 0:
		steps = append(steps, "Make the changes: `fwmigrate apply --to=4` (it writes what this summary lists).")
	case t.changed > 0 && t.moved > 0:
		steps = append(steps, "Review: `git status`, then `git add -A && git diff --staged -M` (the moves show as renames).")
	case t.changed > 0:
		steps = append(steps, "Review: `git status` and `git diff`.")
	}
	if t.unsafe > 0 {
		steps = append(steps, "Review the fixes left for `--unsafe` (they change behaviour): `fwmigrate apply --to=4 --unsafe --dry-run`.")
	}
	if t.notFixable+t.none > 0 {
		steps = append(steps, "Fix what is left by hand: `fwmigrate check` lists it, with the reasons.")
	}
	// The projects to bump, install and test: those migrated (or to be),
	// and those already clean; not the refused ones nor the layers outside.
	var bump, dirs []string
	install := map[string][]string{} // command -> project folders
	var installs []string
	typecheck := map[string]bool{}
	var typechecks []string
	for _, r := range results {
		st := stateOf(r)
		if st == stateRefused || st == stateOutside || r.Project.File == nil {
			continue
		}
		dir := filepath.ToSlash(filepath.Dir(r.Project.ConfigDisplay))
		dirs = append(dirs, dir)
		if r.Framework < 4 && r.Bumped < 4 {
			bump = append(bump, text.MarkdownCode(filepath.ToSlash(filepath.Join(dir, "package.json"))))
		}
		mgr := r.Project.Packages().Manager
		cmd := mgr.InstallCommand()
		if install[cmd] == nil {
			installs = append(installs, cmd)
		}
		install[cmd] = append(install[cmd], dir)
		if tc := typecheckCommand(mgr.Name); !typecheck[tc] {
			typecheck[tc] = true
			typechecks = append(typechecks, tc)
		}
	}
	if len(dirs) == 0 {
		return steps
	}
	if len(bump) > 0 {
		to := "`^4`"
		if rel := compat.Eco().HighestRelease(4, nil); rel != nil {
			to = fmt.Sprintf("`^%s` (the newest 4.x that fwmigrate knows)", rel.Version)
		}
		bump, more := distinct(bump, 5)
		where := strings.Join(bump, ", ")
		if more > 0 {
			where += fmt.Sprintf(" and %d more", more)
		}
		steps = append(steps, fmt.Sprintf("Bump the framework to major 4: set `fw` to %s in %s.", to, where))
	}
	var cmds []string
	for _, c := range installs {
		s := text.MarkdownCode(c)
		if len(installs) > 1 || len(dirs) > 1 {
			shown, more := distinct(install[c], 3)
			for i := range shown {
				shown[i] = text.MarkdownCode(shown[i])
			}
			s += " in " + strings.Join(shown, ", ")
			if more > 0 {
				s += fmt.Sprintf(" and %d more", more)
			}
		}
		cmds = append(cmds, s)
	}
	steps = append(steps, "Install: "+strings.Join(cmds, "; ")+".")
	for i := range typechecks {
		typechecks[i] = text.MarkdownCode(typechecks[i])
	}
	steps = append(steps, "Typecheck: "+strings.Join(typechecks, " or ")+" (or the project's own `typecheck` script).")
	test := "Test: run the tests, the dev server and the production build"
	if len(t.toTest) > 0 {
		test += ", and check the behaviour listed above"
	}
	steps = append(steps, test+".")
	return steps
}

// typecheckCommand runs the framework's typecheck with the package
// manager's runner.
func typecheckCommand(manager string) string {
	switch manager {
	case "pnpm":
		return "pnpm exec fw typecheck"
	case "yarn":
		return "yarn fw typecheck"
	case "bun":
		return "bunx fw typecheck"
	}
	return "npx fw typecheck"
}

// writeMarkdown writes check's report as Markdown: the summary, the
// findings by rule with their fixes and first places, and the next steps.
func writeMarkdown(w io.Writer, r *report, verbose bool) error {
	_, err := io.WriteString(w, checkMarkdown(r, verbose))
	return err
}

func checkMarkdown(r *report, verbose bool) string {
	var m md
	m.heading(2, "What version 4 needs (fwmigrate check)")
	// fwmigrate's words and counts, nothing of the tree.
	m.block(strings.TrimSuffix(checkSummary(r), "\n"))
	s := r.summary()
	// One pass over the findings, keeping per rule what the table shows:
	// a monorepo's findings are not held whole (findings).
	type group struct {
		code, name   string
		sev          []string
		seen         map[rules.Severity]bool
		n, safe, bad int
		shown        []*rules.Diagnostic
	}
	by := map[string]*group{}
	var groups []*group
	for d := range r.findings.all {
		g := by[d.Code]
		if g == nil {
			g = &group{code: d.Code, name: d.Name, seen: map[rules.Severity]bool{}}
			by[d.Code] = g
			groups = append(groups, g)
		}
		g.n++
		if !g.seen[d.Severity] {
			g.seen[d.Severity] = true
			g.sev = append(g.sev, d.Severity.String())
		}
		switch {
		case d.Fix == nil:
		case d.Fix.Applicability == rules.Safe:
			g.safe++
		default:
			g.bad++
		}
		if verbose || len(g.shown) < firstPlaces {
			g.shown = append(g.shown, d)
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].code < groups[j].code })
	if len(groups) > 0 {
		m.heading(3, "Findings by rule")
		var rows [][]string
		for _, g := range groups {
			rows = append(rows, []string{ruleLink(g.code, g.name), strings.Join(g.sev, ", "), strconv.Itoa(g.n), fixCounts(g.n, g.safe, g.bad), placesOf(g.shown, g.n)})
		}
		m.table([]string{"Rule", "Severity", "Findings", "Fix", "Where"}, []bool{false, false, true, false, false}, rows)
	}
	var steps []string
	if s.Fixable > 0 {
		steps = append(steps, "Make the safe fixes and move the sources into `app/`: `fwmigrate apply --to=4` (see them first with `--dry-run`).")
	}
	if s.UnsafeFixable > 0 {
		steps = append(steps, "Review the fixes that change behaviour: `fwmigrate apply --to=4 --unsafe --dry-run`.")
	}
	if total := s.Errors + s.Warnings + s.Infos; total > s.Fixable+s.UnsafeFixable {
		steps = append(steps, "Fix the findings without an automatic fix by hand: each rule's page (or `fwmigrate explain FWxxx`) says how.")
	}
	to := "`^4`"
	if rel := compat.Eco().HighestRelease(4, nil); rel != nil {
		to = fmt.Sprintf("`^%s`", rel.Version)
	}
	bump := false // apply's safe fixes bump fw (FW701)
	for d := range r.findings.all {
		bump = bump || d.Code == "FW701" && d.Fix != nil && d.Fix.Applicability == rules.Safe
	}
	if bump {
		steps = append(steps,
			"`fwmigrate apply` also sets `fw` to "+to+" in `package.json` (FW701): then install, typecheck (`npx fw typecheck`) and run the tests.")
	} else {
		steps = append(steps,
			"Where the framework is still on major 3: set `fw` to "+to+" in `package.json`, install, typecheck (`npx fw typecheck`) and run the tests.")
	}
	m.heading(3, "Next steps")
	m.list(steps, true)
	return m.b.String()
}

// fixCounts says what fixes a rule's findings have: "safe", "unsafe",
// "none", or the counts when they differ.
func fixCounts(n, safe, unsafe int) string {
	switch n {
	case safe:
		return "safe"
	case unsafe:
		return "unsafe"
	case n - safe - unsafe:
		return "none"
	}
	var parts []string
	if safe > 0 {
		parts = append(parts, fmt.Sprintf("%d safe", safe))
	}
	if unsafe > 0 {
		parts = append(parts, fmt.Sprintf("%d unsafe", unsafe))
	}
	if none := n - safe - unsafe; none > 0 {
		parts = append(parts, fmt.Sprintf("%d none", none))
	}
	return strings.Join(parts, ", ")
}

// appendStepSummary appends check's Markdown to the file GitHub Actions
// names in $GITHUB_STEP_SUMMARY (check --format=github). The path comes
// from the environment: it is opened to append only, never through a
// symlink, without blocking on a FIFO, and written only when it is a
// regular file; a problem is said on errOut and does not change the exit
// status.
func appendStepSummary(errOut io.Writer, path string, r *report) {
	if err := appendRegular(path, checkMarkdown(r, false)); err != nil {
		fmt.Fprintf(errOut, "fwmigrate: GITHUB_STEP_SUMMARY: %s\n", text.Escape(err.Error()))
	}
}

// appendRegular appends s to the regular file at path (created when
// missing), and to nothing else.
func appendRegular(path, s string) error {
	if path == "" {
		return errors.New("empty path")
	}
	f, err := openAppendNoFollow(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: nothing written", path)
	}
	if _, err := io.WriteString(f, s); err != nil {
		return err
	}
	return f.Close()
}
