package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

func init() { commands = append(commands, newApplyCmd) }

// runApply loads the projects under args and applies their fixes. The
// results are in discovery order, then the layers they extend from
// outside args.
func runApply(args []string, o migrate.Options) []*migrate.Result {
	found := discover(args)
	projects := make([]*project.Project, len(found))
	l := newLoader()
	par.For(len(found), func(i int) {
		projects[i] = loadOne(l, found[i])
		projects[i].Via = found[i].via
	})
	return migrate.Run(projects, l.LayerProjects(), o)
}

func newApplyCmd() *cobra.Command {
	var (
		filter ruleFilter
		o      migrate.Options
		format string
	)
	cmd := &cobra.Command{
		Use:   "apply --to=4 [paths...]",
		Short: "Apply the fixes: rewrite fw.config files for version 4",
		Long: `Apply runs the checks of 'fwmigrate check' on every fw.config.* under the given
paths and applies their fixes to the config files: the safe ones, and the
unsafe ones too with --unsafe. Only the bytes a fix must change are changed:
comments, quotes, indentation, line endings and the rest of the file stay as
they are. Every rewritten file is parsed again and checked to hold the
intended values before it is written, atomically; a file that fails this is
left untouched and reported as FW999.

The version step is rule FW206: on framework major 3 it sets
future.compatibilityVersion to 4 (creating future), on major 4 it removes the
redundant setting. The major comes from the fw dependency in package.json,
else from --framework; when neither says, the project is treated as major 3.

Fixes that cannot be made (a value computed at run time, a spread, a
computed key, a config that is not an object literal) are listed with the
reason and stay as diagnostics. Running apply twice changes nothing the
second time.

In a git work tree, config files with uncommitted changes are refused
unless --allow-dirty, so that 'git diff' shows exactly what apply did.

Each project is written through a journal, .fw-migrate/journal under its
root, which records every move and edit before the first write and goes
once all are durable. A run that was interrupted (killed, a full disk, a
power cut) is finished by the next apply, or undone by apply --rollback;
until then check reports the project (FW907). Nothing is written outside a
project's root, nor through a symlink that leads out of it.

Exit status: 0 when done (--dry-run: nothing would change), 1 with --dry-run
when there are changes to make, 2 for usage errors, files that cannot be read
or parsed, refused or unwritable files, and internal errors (FW999).`,
		Example: `  fwmigrate apply --to=4
  fwmigrate apply --to=4 --dry-run | git apply --check
  fwmigrate apply --to=4 apps/web --unsafe
  fwmigrate apply --to=4 --select=FW2 --framework=3`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := filter.options()
			if err != nil {
				return err
			}
			o.Rules = opts
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			if o.Layout != migrate.LayoutMove && o.Layout != migrate.LayoutKeep {
				return usageError{fmt.Errorf("--layout must be move or keep, not %q", o.Layout)}
			}
			for _, a := range o.Also {
				if a == "" || filepath.IsAbs(a) || strings.Contains(filepath.ToSlash(a), "..") {
					return usageError{fmt.Errorf("--also takes folder names relative to the project root, not %q", a)}
				}
			}
			o.Framework = opts.Framework
			results := runApply(args, o)
			out, report := cmd.OutOrStdout(), cmd.OutOrStdout()
			if o.DryRun && format == "text" {
				// The diff alone goes to stdout, so that it can be piped
				// to `git apply`; the report goes to stderr.
				report = cmd.ErrOrStderr()
			}
			var werr error
			if format == "json" {
				werr = writeApplyJSON(out, results, o)
			} else {
				werr = writeApplyText(out, report, results, o)
			}
			if werr != nil {
				return werr
			}
			changed := false
			for _, r := range results {
				if r.Fatal {
					return exitCodeError{exitError}
				}
				if r.Changed() {
					changed = true
				}
			}
			if o.DryRun && changed {
				return exitCodeError{exitFindings}
			}
			return nil
		},
	}
	filter.register(cmd)
	cmd.Flags().BoolVar(&o.Unsafe, "unsafe", false, "also apply fixes that change behaviour (review them)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "write nothing; print a unified diff of the changes (exit status 1 when there are any)")
	cmd.Flags().BoolVar(&o.AllowDirty, "allow-dirty", false, "rewrite config files that have uncommitted changes in git")
	cmd.Flags().StringVar(&o.Layout, "layout", migrate.LayoutMove, "move: move layout-B sources into app/ and fix the paths that follow; keep: pin layout B (srcDir: '.', dir.app: 'app') instead")
	cmd.Flags().StringSliceVar(&o.Also, "also", nil, "more root folders to move into app/ (e.g. stores,types), besides those found through ~/ imports")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&o.Rollback, "rollback", false, "undo the apply that was interrupted in each project (its .fw-migrate/journal) and nothing else")
	return cmd
}

func frameworkText(r *migrate.Result) string {
	switch r.FrameworkFrom {
	case "":
		return "framework major unknown (no fw dependency in package.json, no --framework): treated as 3"
	}
	return fmt.Sprintf("framework major %d (from %s)", r.Framework, r.FrameworkFrom)
}

func writeApplyText(out, report io.Writer, results []*migrate.Result, o migrate.Options) error {
	var b strings.Builder
	var changed, fixed, notFixed, remaining, unsafe int
	verb := "fixed"
	if o.DryRun {
		verb = "would fix"
	}
	for _, r := range results {
		fixed += len(r.Fixed)
		notFixed += len(r.NotFixed)
		remaining += len(r.Remaining)
		unsafe += r.Unsafe
		if r.Changed() {
			changed++
		}
		if len(r.Fixed) == 0 && len(r.NotFixed) == 0 && len(r.Remaining) == 0 && r.Err == "" && r.Plan == nil && len(r.Notes) == 0 && r.Recovered == "" {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", r.Project.ConfigDisplay, summaryLine(r, o))
		if r.Project.File != nil {
			fmt.Fprintf(&b, "  %s\n", frameworkText(r))
		}
		if r.FrameworkNote != "" {
			fmt.Fprintf(&b, "  %s\n", r.FrameworkNote)
		}
		for _, f := range r.Fixed {
			fmt.Fprintf(&b, "  %s %s %s: %s\n", verb, f.D.Code, optionOf(f.D), f.D.Fix.Description)
		}
		if r.Plan != nil && !r.Fatal {
			moved := "moved into app/"
			if o.DryRun {
				moved = "would move into app/"
			}
			fmt.Fprintf(&b, "  %s: %s", moved, strings.Join(r.MovedNames(), ", "))
			if n := r.EditedOthers(); n > 0 {
				fmt.Fprintf(&b, " (and %s whose paths follow the move)", plural(n, "edited file"))
			}
			b.WriteByte('\n')
		}
		if line := journalLine(r); line != "" {
			fmt.Fprintf(&b, "  %s\n", line)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
		// What could not be changed, with why; the remaining diagnostics
		// that have no fix are only counted (check lists them).
		var notFixed, unsafeLeft, tool []*rules.Diagnostic
		others := 0
		for _, d := range r.Remaining {
			switch {
			case d.Category == rules.Tool: // unreadable, unparsable, not a literal, internal errors
				tool = append(tool, d)
			case r.NotFixedReason(d) != "":
				notFixed = append(notFixed, d)
			case d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.Unsafe:
				unsafeLeft = append(unsafeLeft, d)
			default:
				others++
			}
		}
		for _, d := range tool {
			fmt.Fprintf(&b, "  %s\n", header(d))
			for _, n := range d.Notes {
				fmt.Fprintf(&b, "    = note: %s\n", strings.ReplaceAll(n, "\n", "\n            "))
			}
		}
		if len(notFixed) > 0 {
			b.WriteString("  not fixed:\n")
		}
		for _, d := range notFixed {
			fmt.Fprintf(&b, "    %s\n      = %s: %s\n", header(d), d.Fix.Description, r.NotFixedReason(d))
		}
		if len(unsafeLeft) > 0 {
			b.WriteString("  not applied without --unsafe:\n")
		}
		for _, d := range unsafeLeft {
			fmt.Fprintf(&b, "    %s\n      = fix: %s\n", header(d), d.Fix.Description)
		}
		if others > 0 {
			fmt.Fprintf(&b, "  %s without an automatic fix (see 'fwmigrate check')\n", plural(others, "other diagnostic"))
		}
		b.WriteByte('\n')
	}
	files := "file"
	if changed != 1 {
		files = "files"
	}
	if o.DryRun {
		fmt.Fprintf(&b, "Would apply %s to %d %s of %s", plural(fixed, "fix"), changed, files, plural(len(results), "config file"))
	} else {
		fmt.Fprintf(&b, "Applied %s to %d %s of %s", plural(fixed, "fix"), changed, files, plural(len(results), "config file"))
	}
	if notFixed > 0 {
		fmt.Fprintf(&b, "; %s could not be made", plural(notFixed, "fix"))
	}
	if unsafe > 0 {
		fmt.Fprintf(&b, "; %s left for --unsafe", plural(unsafe, "unsafe fix"))
	}
	if remaining > 0 {
		fmt.Fprintf(&b, "; %s remaining", plural(remaining, "diagnostic"))
	}
	b.WriteString(".\n")
	if o.DryRun {
		for _, r := range results {
			if _, err := io.WriteString(out, r.Diff); err != nil {
				return err
			}
		}
	}
	_, err := io.WriteString(report, b.String())
	return err
}

func summaryLine(r *migrate.Result, o migrate.Options) string {
	switch {
	case r.Err != "":
		return r.Err
	case r.Recovered != "":
		return r.Recovered + " the interrupted apply"
	case r.Outside:
		return "not rewritten: a layer the projects extend from outside the paths given"
	case r.Project.File == nil:
		return "not checked"
	case r.Plan != nil && r.Written:
		return "migrated to layout A"
	case r.Plan != nil && o.DryRun:
		return "would be migrated to layout A"
	case r.New == nil:
		return "unchanged"
	case r.Written:
		return "rewritten"
	case o.DryRun:
		return "would be rewritten"
	}
	return "unchanged"
}

func optionOf(d *rules.Diagnostic) string {
	if d.Option != "" {
		return d.Option
	}
	return d.Name
}

type jsonApplyFix struct {
	Code        string `json:"code"`
	Name        string `json:"name"`
	Option      string `json:"option"`
	Description string `json:"description"`
	Reason      string `json:"reason,omitempty"`
}

type jsonApplyFile struct {
	File string `json:"file"`
	// Framework is the major the checks ran with, 0 when unknown (treated
	// as 3); FrameworkSource is "package.json", "--framework", "the projects
	// that extend it" (a layer) or "".
	Framework       int              `json:"framework"`
	FrameworkSource string           `json:"frameworkSource"`
	Changed         bool             `json:"changed"`
	Written         bool             `json:"written"`
	Fixed           []jsonApplyFix   `json:"fixed"`
	NotFixed        []jsonApplyFix   `json:"notFixed"`
	Diagnostics     []jsonDiagnostic `json:"diagnostics"`
	Error           string           `json:"error,omitempty"`
	Diff            string           `json:"diff,omitempty"`
	// Moves are the renames of the layout move (project-relative), Edited
	// the other files it edits, Notes what it left for a person.
	Moves  []jsonMove `json:"moves"`
	Edited []string   `json:"edited"`
	Notes  []string   `json:"notes"`
	// Journal is the journal apply wrote through or found (an interrupted
	// apply), JournalKept that it is still there, Recovered what this run
	// did with an interrupted apply: "completed" or "rolled back".
	Journal     string `json:"journal,omitempty"`
	JournalKept bool   `json:"journalKept,omitempty"`
	Recovered   string `json:"recovered,omitempty"`
}

type jsonMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type jsonApplySummary struct {
	Files     int `json:"files"`
	Changed   int `json:"changed"`
	Fixed     int `json:"fixed"`
	NotFixed  int `json:"notFixed"`
	Remaining int `json:"remaining"`
}

func writeApplyJSON(w io.Writer, results []*migrate.Result, o migrate.Options) error {
	out := struct {
		Version int              `json:"version"`
		DryRun  bool             `json:"dryRun"`
		Files   []jsonApplyFile  `json:"files"`
		Summary jsonApplySummary `json:"summary"`
	}{Version: 1, DryRun: o.DryRun, Files: []jsonApplyFile{}}
	for _, r := range results {
		jf := jsonApplyFile{
			File: filepath.ToSlash(r.Project.ConfigDisplay), Framework: r.Framework, FrameworkSource: r.FrameworkFrom,
			Changed: r.Changed(), Written: r.Written, Error: r.Err, Diff: r.Diff,
			Fixed: []jsonApplyFix{}, NotFixed: []jsonApplyFix{}, Diagnostics: []jsonDiagnostic{},
			Moves: []jsonMove{}, Edited: []string{}, Notes: r.Notes,
			Journal: filepath.ToSlash(r.Journal), JournalKept: r.JournalKept, Recovered: r.Recovered,
		}
		if jf.Notes == nil {
			jf.Notes = []string{}
		}
		if r.Plan != nil && !r.Fatal {
			for _, mv := range r.Plan.Moves {
				jf.Moves = append(jf.Moves, jsonMove{relSlashTo(r.Project.Root, mv.From), relSlashTo(r.Project.Root, mv.To)})
			}
			for _, e := range r.Plan.Edits {
				jf.Edited = append(jf.Edited, relSlashTo(r.Project.Root, e.NewPath))
			}
		}
		for _, f := range r.Fixed {
			jf.Fixed = append(jf.Fixed, jsonApplyFix{f.D.Code, f.D.Name, f.D.Option, f.D.Fix.Description, ""})
		}
		for _, f := range r.NotFixed {
			jf.NotFixed = append(jf.NotFixed, jsonApplyFix{f.D.Code, f.D.Name, f.D.Option, f.D.Fix.Description, f.Reason})
		}
		for _, d := range r.Remaining {
			jf.Diagnostics = append(jf.Diagnostics, toJSONDiagnostic(d))
		}
		out.Files = append(out.Files, jf)
		out.Summary.Files++
		if jf.Changed {
			out.Summary.Changed++
		}
		out.Summary.Fixed += len(jf.Fixed)
		out.Summary.NotFixed += len(jf.NotFixed)
		out.Summary.Remaining += len(jf.Diagnostics)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func relSlashTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
