package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

func init() { commands = append(commands, newCheckCmd) }

// ruleFilter holds the flags shared by check and apply.
type ruleFilter struct {
	to        int
	sel       []string
	ignore    []string
	framework int
}

func (f *ruleFilter) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.to, "to", 4, "compatibility version to check against")
	cmd.Flags().StringSliceVar(&f.sel, "select", nil, "run only these rules: codes (FW201), code prefixes (FW2), names or categories, comma-separated")
	cmd.Flags().StringSliceVar(&f.ignore, "ignore", nil, "skip these rules (same forms as --select)")
	cmd.Flags().IntVar(&f.framework, "framework", 0, "framework major (3 or 4) for projects whose package.json does not say")
}

func (f *ruleFilter) options() (rules.Options, error) {
	if f.to != 4 {
		return rules.Options{}, usageError{fmt.Errorf("--to=%d: fwmigrate migrates to compatibility version 4 only", f.to)}
	}
	if err := rules.ValidateSelectors(f.sel); err != nil {
		return rules.Options{}, usageError{fmt.Errorf("--select: %v", err)}
	}
	if err := rules.ValidateSelectors(f.ignore); err != nil {
		return rules.Options{}, usageError{fmt.Errorf("--ignore: %v", err)}
	}
	if f.framework != 0 && f.framework != 3 && f.framework != 4 {
		return rules.Options{}, usageError{fmt.Errorf("--framework must be 3 or 4, not %d", f.framework)}
	}
	return rules.Options{Target: f.to, Select: f.sel, Ignore: f.ignore, Framework: f.framework}, nil
}

func newCheckCmd() *cobra.Command {
	var (
		filter ruleFilter
		format string
		color  string
		failOn string
	)
	cmd := &cobra.Command{
		Use:   "check [paths...]",
		Short: "Report what breaks or changes meaning under version 4",
		Long: `Check finds every fw.config.* under the given paths (directories are walked,
config files are taken as given, other files are ignored; default: the
current directory) and reports options that are invalid, removed, layout-B
only, or change meaning under compatibility version 4 and layout A, with the
fix where one exists.

Exit status: 0 when nothing is reported at or above --fail-on, 1 otherwise,
2 for usage errors and for files that cannot be read or parsed (the other
files are still checked and reported).

Suppress a finding with a comment on its line or the line above:
  // fwmigrate-ignore FW201: the reason`,
		Example: `  fwmigrate check
  fwmigrate check apps/web --format=json
  fwmigrate check --select=layout,FW2 --fail-on=error
  fwmigrate check --format=sarif > fwmigrate.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := filter.options()
			if err != nil {
				return err
			}
			if !contains(formats, format) {
				return usageError{fmt.Errorf("--format must be one of %s, not %q", strings.Join(formats, ", "), format)}
			}
			threshold, never, err := parseFailOn(failOn)
			if err != nil {
				return err
			}
			useColor, err := colorEnabled(color, cmd.OutOrStdout())
			if err != nil {
				return usageError{err}
			}
			rep, fatal := runCheck(args, opts, format == "text")
			if err := writeReport(cmd.OutOrStdout(), rep, format, useColor); err != nil {
				return err
			}
			switch {
			case fatal:
				return exitCodeError{exitError}
			case never:
				return nil
			}
			for _, d := range rep.diags {
				if d.Severity >= threshold {
					return exitCodeError{exitFindings}
				}
			}
			return nil
		},
	}
	filter.register(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(formats, ", "))
	cmd.Flags().StringVar(&color, "color", "auto", "colour the text output: auto, always or never (NO_COLOR is respected)")
	cmd.Flags().StringVar(&failOn, "fail-on", "warning", "lowest severity that makes the exit status 1: info, warning, error or never")
	return cmd
}

func parseFailOn(s string) (rules.Severity, bool, error) {
	if s == "never" || s == "none" {
		return 0, true, nil
	}
	sev, err := rules.ParseSeverity(s)
	if err != nil {
		return 0, false, usageError{fmt.Errorf("--fail-on: %v", err)}
	}
	return sev, false, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// newLoader makes the Loader of a run. Tests replace it to inject read
// errors that the OS does not give a root user.
var newLoader = project.NewLoader

// loadOne loads one config discovery found (or records why it could not).
func loadOne(l *project.Loader, f found) *project.Project {
	display := filepath.Clean(f.path)
	if f.err != nil {
		return project.Failed(f.path, display, f.err)
	}
	return l.Load(f.path, display)
}

// runCheck checks every project under args. fatal reports a file that could
// not be read or parsed, an extends cycle, or an internal error. frames
// keeps the sources of the files with findings, for the code frames of the
// text format.
//
// It streams: the walk hands each config to the workers as it finds it,
// each worker loads and checks one project and keeps only what the report
// needs, and the Loader then forgets the project unless it is another's
// layer. The walk overlaps the work, and memory grows with the findings,
// not with the projects. The layers that are not projects are checked last.
func runCheck(args []string, opts rules.Options, frames bool) (*report, bool) {
	// Little stays live (the findings), so the collector may let the heap
	// grow 9x between cycles instead of 2x, under a soft limit of 256 MiB
	// that makes it collect more often on very large runs instead of
	// growing. At the defaults, collection takes about a third of a run's
	// CPU; here 1,000 projects peak at about 100 MB. GOGC and GOMEMLIMIT,
	// when set, are the user's choice.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(800))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	}

	// checked is what the report keeps of a project: the diagnostics, and
	// for code frames the sources of the config and the .env files.
	type checked struct {
		display string
		src     []byte
		env     []*project.EnvFile
		diags   []*rules.Diagnostic
	}
	var (
		mu      sync.Mutex
		results []checked
	)
	keep := func(p *project.Project, diags []*rules.Diagnostic) {
		kept := checked{display: p.ConfigDisplay, diags: diags}
		if frames && len(diags) > 0 {
			kept.src, kept.env = p.Src, p.Env
		}
		mu.Lock()
		results = append(results, kept)
		mu.Unlock()
	}
	l := newLoader()
	next := make(chan found)
	go func() {
		discoverEach(args, func(f found) { next <- f })
		close(next)
	}()
	par.Each(next, func(f found) {
		p := loadOne(l, f)
		keep(p, rules.Check(p, opts))
		l.Release(p)
	})
	layers := l.LayerProjects()
	par.For(len(layers), func(i int) {
		keep(layers[i], rules.Check(layers[i], opts))
	})

	// Workers finish in any order: sort by file before the final sort, so
	// that diagnostics that compare equal come out the same every run.
	sort.Slice(results, func(i, j int) bool { return results[i].display < results[j].display })
	rep := &report{files: len(results), sources: map[string][]byte{}}
	fatal := false
	for _, r := range results {
		if r.src != nil {
			rep.sources[r.display] = r.src
		}
		for _, ef := range r.env {
			rep.sources[ef.Display] = ef.Src
		}
		if rules.Fatal(r.diags) {
			fatal = true
		}
		rep.diags = append(rep.diags, r.diags...)
	}
	rules.SortDiagnostics(rep.diags)
	return rep, fatal
}
