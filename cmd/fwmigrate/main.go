// Command fwmigrate checks fw.config.* files and migrates projects to the
// framework's version 4 (layout A).
//
// This package is the CLI only: flags, discovery, output formats and exit
// codes. The knowledge lives in compat/, the checks in rules/, the edits in
// rewrite/, and the parser in ast/.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/text"
)

// Exit statuses. They are part of the CLI's contract with CI scripts.
const (
	exitOK       = 0 // nothing to report at or above --fail-on; apply --dry-run: no change
	exitFindings = 1 // diagnostics at or above --fail-on; apply --dry-run: changes pending
	exitError    = 2 // usage, parse or I/O errors
)

// exitCodeError carries an exit status out of a command without printing
// anything more: the command has already said what it had to say.
type exitCodeError struct{ code int }

func (e exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError marks an error in the command line itself (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// commands holds the constructors of the subcommands; each subcommand's file
// appends its own in an init function, so that every run (and every test)
// builds a fresh command tree with fresh flag values.
var commands []func() *cobra.Command

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "fwmigrate",
		Short: "Check fw.config files and migrate projects to version 4",
		Long: `fwmigrate checks a project for the framework's version-4 upgrade: its
fw.config.{ts,js,mjs,cjs,mts,cts} against the configuration reference, its
.env files and directory layout, and its app and module code (.vue files and
scripts) where version 4 changes what runs. It reports what breaks or changes
meaning under compatibility version 4 and layout A, with positions, rule codes
and fixes, and 'fwmigrate apply' makes the safe fixes and moves the sources
into app/.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{HiddenDefaultCmd: false},
		Version:           buildVersion,
	}
	root.SetVersionTemplate("fwmigrate {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	for _, newCmd := range commands {
		root.AddCommand(newCmd())
	}
	return root
}

// Main runs fwmigrate with the process's arguments and returns its exit status.
func Main() int {
	return run(os.Args[1:], os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ec exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	msg := err.Error()
	if m := unknownCommand().FindStringSubmatch(msg); m != nil {
		// cobra's "unknown command "chek" for "fwmigrate"\n\nDid you mean
		// this?\n\tcheck\n", on one line like the other errors.
		msg = fmt.Sprintf("unknown command %q", m[1])
		if m[2] != "" {
			msg += " (did you mean " + strings.Join(strings.Fields(m[2]), " or ") + "?)"
		}
	}
	// An error may name a file of the tree (an os error quotes its path).
	fmt.Fprintf(stderr, "fwmigrate: %s\n", text.Escape(msg))
	var ue usageError
	if errors.As(err, &ue) || strings.HasPrefix(msg, "unknown command") {
		fmt.Fprintln(stderr, "Run 'fwmigrate --help' for usage.")
	}
	return exitError
}

var unknownCommand = lazyregexp.New(`^unknown command "([^"]*)" for "[^"]*"(?:\s+Did you mean this\?\s+((?:\S+\s*)+))?`)

func main() {
	os.Exit(Main())
}
