package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
)

// CodeNotFullyChecked is reported for a project whose check went past its
// budget (project.Budget): its sources were not all read.
const CodeNotFullyChecked = "FW911"

var ruleNotFullyChecked = &Rule{
	Code:           CodeNotFullyChecked,
	Name:           "not-fully-checked",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "a project went past its budget (files, bytes of source, time): it was not fully checked",
		Why: `fwmigrate runs where trust is thin, in CI on pull requests from forks: a
repository must not be able to hold the run with millions of files, a tree
thousands of folders deep, gigabytes of sources, or a text that some check
handles slowly. Each project gets a budget: the entries its source folders
hold (200,000 files and folders), the bytes of source its check reads
(1024 MB), the size of one source file (32 MB; a larger file is not read and
is reported alone, FW908), and the time from its load to the end of its check
(5 minutes). The defaults are far above real apps: a generated app of 20,000
files is checked in seconds.

A project that goes past a limit stops being read there: what was read is
still checked and reported, and this finding says which limit was hit, where,
and which flag raises it. The project was not fully checked, so it never
passes silently: the run exits with status 2 (the other projects are still
checked and reported), and apply writes nothing for it.`,
		Example: "fwmigrate check --max-files=500000 --max-read-mb=4096 --project-timeout=20m",
		Fix:     "",
	},
}

func init() { Register(ruleNotFullyChecked) }

// notFullyChecked is the FW911 diagnostic of p, nil when its check kept
// within its budget.
func notFullyChecked(p *project.Project) *Diagnostic {
	e := p.BudgetExceeded()
	if e == nil {
		return nil
	}
	d := ruleNotFullyChecked.Diagnose(p.ConfigDisplay, ast.Span{}, "", "this project was "+e.Error())
	if e.At != "" {
		d.Notes = append(d.Notes, "the limit was reached at "+text.Escape(p.ShowPath(e.At)))
	}
	b := project.DefaultBudget
	d.Notes = append(d.Notes, fmt.Sprintf("the limits by default: %d files and folders (%s), %d MB of source (%s), %d MB a file (%s), %s (%s)",
		b.Files, project.BudgetFlags.Files, b.Bytes>>20, project.BudgetFlags.Bytes, b.FileSize>>20, project.BudgetFlags.FileSize, b.Time, project.BudgetFlags.Time))
	return d
}
