package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/rules"
)

// The guided apply (issue 24, point 8): on a terminal, `fwmigrate apply`
// without --yes shows the plan once every project is planned (what moves,
// the fixes by rule, the unsafe fixes by rule, the pins that would keep
// the version-3 behaviour) and asks before it writes anything. In CI (CI
// set), in a pipe (stdin or stdout not a terminal), with --dry-run,
// --rollback, --yes or another format than text, it runs as it always
// did: without a question.

// guided says whether apply asks before writing.
func guided(in io.Reader, out io.Writer, o migrate.Options, format string, yes bool) bool {
	if yes || o.DryRun || o.Rollback || format != "text" || os.Getenv("CI") != "" {
		return false
	}
	r, ok := in.(*os.File)
	return ok && isTerminal(r) && isTerminal(out)
}

// errDeclined is the answer no: nothing was written.
var errDeclined = errors.New("nothing written")

// asker asks its questions on a terminal: the plan and the question on
// out, the answer a line of in.
type asker struct {
	in    *bufio.Reader
	out   io.Writer
	width int
	prog  *progress // paused while a question waits
}

func newAsker(in io.Reader, out io.Writer, prog *progress) *asker {
	return &asker{in: bufio.NewReader(in), out: out, width: terminalWidth(out), prog: prog}
}

// ask prints question and reads the answer: yes for "y" or "yes" (any
// case), no for anything else, an empty line and the end of the input.
func (a *asker) ask(question string) bool {
	a.prog.pause()
	defer a.prog.resume()
	fmt.Fprintf(a.out, "%s [y/N] ", question)
	line, err := a.in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(a.out)
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// confirmRecovery asks before an interrupted apply is finished: the
// projects named hold one, which this run completes before anything else.
func (a *asker) confirmRecovery(configs []string) bool {
	a.prog.pause()
	var b strings.Builder
	fmt.Fprintf(&b, "An interrupted apply left %s half written; this run finishes it first (as its journal recorded it), then plans the rest:\n", text.Plural(len(configs), "project"))
	for _, c := range configs {
		fmt.Fprintf(&b, "  %s\n", text.Escape(c))
	}
	b.WriteString("('fwmigrate apply --rollback' undoes it instead.)\n")
	io.WriteString(a.out, wrapLines(text.EscapeLines(b.String(), false), a.width))
	if a.ask("Finish it?") {
		return true
	}
	fmt.Fprintln(a.out, "Nothing written.")
	return false
}

// confirm is migrate's Options.Confirm: it shows the plan of results and
// asks. A run with nothing to write asks nothing.
func (a *asker) confirm(o migrate.Options) func([]*migrate.Result) bool {
	return func(results []*migrate.Result) bool {
		writable := 0
		for _, r := range results {
			if !r.Fatal && r.Changed() && r.Recovered == "" {
				writable++
			}
		}
		if writable == 0 {
			return true
		}
		a.prog.pause()
		io.WriteString(a.out, wrapLines(text.EscapeLines(planText(results, o), false), a.width))
		if a.ask("Write these changes?") {
			return true
		}
		fmt.Fprintln(a.out, "Nothing written.")
		return false
	}
}

// ruleCount is a rule's count in the plan.
type ruleCount struct {
	code, name string
	n          int
}

// countByRule counts diags by rule, in code order.
func countByRule(diags []*rules.Diagnostic) []ruleCount {
	var out []ruleCount
	for _, g := range groupByRule(diags) {
		out = append(out, ruleCount{g.code, g.name, len(g.diags)})
	}
	return out
}

func writeCounts(b *strings.Builder, counts []ruleCount) {
	width := 0
	for _, c := range counts {
		width = max(width, len(c.code)+1+len(c.name))
	}
	for _, c := range counts {
		fmt.Fprintf(b, "    %-*s %6d\n", width, c.code+" "+c.name, c.n)
	}
}

// planText is the plan of a run before it writes: per project what moves,
// then over all projects the fixes by rule, the unsafe fixes by rule (made
// with --unsafe, or left for it), the code files edited, the pins that
// would keep the version-3 behaviour, and the projects refused.
func planText(results []*migrate.Result, o migrate.Options) string {
	var b strings.Builder
	var written, refused []*migrate.Result
	for _, r := range results {
		switch {
		case r.Outside || r.Recovered != "":
		case r.Fatal:
			refused = append(refused, r)
		case r.Changed():
			written = append(written, r)
		}
	}
	fmt.Fprintf(&b, "The plan: %s to rewrite", text.Plural(len(written), "project"))
	if len(refused) > 0 {
		fmt.Fprintf(&b, ", %d refused (nothing of them is written)", len(refused))
	}
	b.WriteString(".\n")

	// What moves, project by project (the first ones of a big monorepo).
	const most = 10
	var moves []string
	for _, r := range written {
		if r.Plan == nil {
			continue
		}
		line := fmt.Sprintf("  %s: move %s (%s) into app/: %s", text.Escape(r.Project.ConfigDisplay), text.Plural(len(r.Plan.Moves), "entry"), text.Plural(r.MovedFiles, "file"), text.Escape(strings.Join(r.MovedNames(), ", ")))
		if paths, files := r.PathEdits(); paths > 0 {
			line += fmt.Sprintf(", and rewrite %s in %s to follow", text.Plural(paths, "path"), text.Plural(files, "file"))
		}
		moves = append(moves, line)
	}
	if len(moves) > 0 {
		b.WriteString("Moves:\n")
		for i, m := range moves {
			if i == most {
				fmt.Fprintf(&b, "  and %s more\n", text.Plural(len(moves)-most, "project"))
				break
			}
			b.WriteString(m + "\n")
		}
	}

	// The fixes by rule, safe and unsafe apart; what is left for --unsafe.
	var safe, unsafe, left []*rules.Diagnostic
	var pinned []*rules.Diagnostic
	codeFiles, byMove := 0, 0
	for _, r := range written {
		for _, f := range r.Fixed {
			switch {
			case f.D.Code == "FW204" && strings.HasPrefix(f.D.Fix.Description, "pin "):
				pinned = append(pinned, f.D)
			case f.D.Fix.Applicability == rules.Unsafe:
				unsafe = append(unsafe, f.D)
			default:
				safe = append(safe, f.D)
			}
		}
		byMove += len(r.ByMove)
		safe = append(safe, r.ByMove...)
		codeFiles += len(r.CodeEdits)
		left = append(left, leftOf(r, o).unsafe...)
	}
	if len(safe) > 0 {
		b.WriteString("Fixes, by rule:\n")
		writeCounts(&b, countByRule(safe))
	}
	if len(unsafe) > 0 {
		b.WriteString("Unsafe fixes (--unsafe: they change behaviour), by rule:\n")
		writeCounts(&b, countByRule(unsafe))
	}
	if codeFiles > 0 {
		fmt.Fprintf(&b, "The code fixes edit %s.\n", text.Plural(codeFiles, "code file"))
	}
	if len(left) > 0 {
		b.WriteString("Left for --unsafe (they change behaviour; not made in this run), by rule:\n")
		writeCounts(&b, countByRule(left))
	}

	// The pins: made (--pin), or those --pin=affected would make.
	if len(pinned) > 0 {
		b.WriteString("Pins of the version-3 behaviour (--pin):\n")
		for _, d := range pinned {
			fmt.Fprintf(&b, "  %s: %s\n", text.Escape(d.File), text.Escape(strings.TrimPrefix(d.Fix.Description, "pin ")))
		}
	} else if len(o.Pin) == 0 {
		type pin struct {
			what   string
			places int
		}
		var pins []pin
		var cannot []string
		for _, r := range written {
			ps, no := r.AffectedPins(o)
			places := map[string]int{}
			for _, d := range r.Remaining {
				if d.Category == rules.Code && d.Option != "" {
					places[d.Option]++
				}
			}
			for _, d := range ps {
				what := strings.TrimSuffix(strings.TrimPrefix(d.Fix.Description, "pin "), " to keep the version-3 behaviour while the code is changed")
				if len(written) > 1 {
					what = r.Project.ConfigDisplay + ": " + what
				}
				pins = append(pins, pin{what, places[d.Option]})
			}
			for _, f := range no {
				cannot = append(cannot, fmt.Sprintf("`%s`: %s", f.D.Option, f.Reason))
			}
		}
		sort.SliceStable(pins, func(i, j int) bool { return pins[i].what < pins[j].what })
		if len(pins) > 0 {
			b.WriteString("The code still depends on version-3 defaults here; these pins would keep them while it is changed (--pin=affected, or --pin=OPTION):\n")
			for _, p := range pins {
				fmt.Fprintf(&b, "  %s (%s in the code)\n", text.Escape(p.what), text.Plural(p.places, "place"))
			}
		}
		if len(cannot) > 0 {
			b.WriteString("Defaults the code depends on that no pin can keep:\n")
			for _, c := range cannot {
				fmt.Fprintf(&b, "  %s\n", text.Escape(c))
			}
		}
	}
	for _, r := range refused {
		fmt.Fprintf(&b, "Refused: %s: %s\n", text.Escape(r.Project.ConfigDisplay), text.Escape(applyStatus(r, stateRefused, o)))
	}
	return b.String()
}
