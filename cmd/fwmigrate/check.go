package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/rules"
)

func init() { commands = append(commands, newCheckCmd) }

// ruleFilter holds the flags shared by check and apply.
type ruleFilter struct {
	to     int
	sel    []string
	ignore []string
}

func (f *ruleFilter) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.to, "to", 4, "compatibility version to check against")
	cmd.Flags().StringSliceVar(&f.sel, "select", nil, "run only these rules: codes (FW201), code prefixes (FW2), names or categories, comma-separated")
	cmd.Flags().StringSliceVar(&f.ignore, "ignore", nil, "skip these rules (same forms as --select)")
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
	return rules.Options{Target: f.to, Select: f.sel, Ignore: f.ignore}, nil
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
			rep, fatal := runCheck(args, opts)
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

// loadProjects discovers and loads every project under args, in parallel,
// then the local layers they extend that are not projects themselves: each
// config is parsed once, and each is checked (and reported) once, however
// many projects extend it. The result is sorted by display path.
func loadProjects(args []string) []*rules.Project {
	return loadFound(discover(args), newLoader())
}

// newLoader makes the Loader of a run. Tests replace it to inject read
// errors that the OS does not give a root user.
var newLoader = rules.NewLoader

// loadFound loads the configs discovery found with l.
func loadFound(found []found, l *rules.Loader) []*rules.Project {
	projects := make([]*rules.Project, len(found))
	parallel(len(found), func(i int) {
		f := found[i]
		display := filepath.Clean(f.path)
		if f.err != nil {
			projects[i] = &rules.Project{ConfigPath: f.path, ConfigDisplay: display, Err: f.err}
			return
		}
		projects[i] = l.Load(f.path, display)
	})
	if layers := l.LayerProjects(); len(layers) > 0 {
		projects = append(projects, layers...)
		sort.SliceStable(projects, func(i, j int) bool { return projects[i].ConfigDisplay < projects[j].ConfigDisplay })
	}
	return projects
}

// runCheck checks every project under args. fatal reports a file that could
// not be read or parsed, an extends cycle, or an internal error.
func runCheck(args []string, opts rules.Options) (*report, bool) {
	return checkProjects(loadProjects(args), opts)
}

func checkProjects(projects []*rules.Project, opts rules.Options) (*report, bool) {
	results := make([][]*rules.Diagnostic, len(projects))
	parallel(len(projects), func(i int) {
		results[i] = rules.Check(projects[i], opts)
	})
	rep := &report{files: len(projects), sources: map[string][]byte{}}
	fatal := false
	for i, p := range projects {
		if p.Src != nil {
			rep.sources[p.ConfigDisplay] = p.Src
		}
		for _, ef := range p.Env {
			rep.sources[ef.Display] = ef.Src
		}
		if rules.Fatal(results[i]) || hasCode(results[i], rules.CodeExtendsCycle) {
			fatal = true
		}
		rep.diags = append(rep.diags, results[i]...)
	}
	rules.SortDiagnostics(rep.diags)
	return rep, fatal
}

// hasCode reports a diagnostic with the given code. An extends cycle makes
// the run fail like an unreadable file: the project cannot load.
func hasCode(diags []*rules.Diagnostic, code string) bool {
	for _, d := range diags {
		if d.Code == code {
			return true
		}
	}
	return false
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers.
func parallel(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
