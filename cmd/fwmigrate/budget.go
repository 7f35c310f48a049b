package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/project"
)

// budgetFlags raise the budget of each project's check (project.Budget):
// check, apply and check --fix take them.
type budgetFlags struct {
	files, readMB, fileMB int
	timeout               time.Duration
}

func (b *budgetFlags) register(cmd *cobra.Command) {
	d := project.DefaultBudget
	names := project.BudgetFlags
	flag := func(name string) string { return name[2:] }
	cmd.Flags().IntVar(&b.files, flag(names.Files), d.Files, "the most files and folders the source walk of one project visits; past it the project is not fully checked (FW911, exit status 2)")
	cmd.Flags().IntVar(&b.readMB, flag(names.Bytes), int(d.Bytes>>20), "the most megabytes of source one project's check reads (FW911 past it)")
	cmd.Flags().IntVar(&b.fileMB, flag(names.FileSize), int(d.FileSize>>20), "the largest source file read, in megabytes (a larger one is reported alone, FW908)")
	cmd.Flags().DurationVar(&b.timeout, flag(names.Time), d.Time, "the longest one project's load and check may take (FW911 past it)")
}

// value returns the budget the flags give, or a usage error.
func (b *budgetFlags) value() (project.Budget, error) {
	names := project.BudgetFlags
	for _, f := range []struct {
		name string
		v    int64
	}{{names.Files, int64(b.files)}, {names.Bytes, int64(b.readMB)}, {names.FileSize, int64(b.fileMB)}, {names.Time, int64(b.timeout)}} {
		if f.v <= 0 {
			return project.Budget{}, usageError{fmt.Errorf("%s must be more than 0", f.name)}
		}
	}
	return project.Budget{Files: b.files, Bytes: int64(b.readMB) << 20, FileSize: int64(b.fileMB) << 20, Time: b.timeout}, nil
}
