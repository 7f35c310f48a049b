package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI's behaviour end to end (exit codes, formats, discovery) is tested
// with testscript: each testdata/script/*.txtar is a script plus the files
// it works on, and `fwmigrate` in a script runs this binary's Main.
//
// FWMIGRATE_TEST_CRASH_AT=point:i makes `fwmigrate apply` in a script exit
// with status 77 at that point of its journaled write (writeHook), as a
// kill -9 would: what the next run finds is an interrupted apply.
//
// The journals of projects outside git, and the run records, go to the
// user's state folder: a temporary one for the tests and for each script.
func TestMain(m *testing.M) {
	if at := os.Getenv("FWMIGRATE_TEST_CRASH_AT"); at != "" {
		point, idx, _ := strings.Cut(at, ":")
		n, _ := strconv.Atoi(idx)
		writeHook = func(p string, i int) {
			if p == point && i == n {
				os.Exit(77)
			}
		}
	}
	var tm testscript.TestingM = m
	if os.Getenv("XDG_STATE_HOME") == "" {
		state, err := os.MkdirTemp("", "fwmigrate-state")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Setenv("XDG_STATE_HOME", state)
		tm = removeAfter{m, state}
	}
	testscript.Main(tm, map[string]func(){
		"fwmigrate": func() { os.Exit(Main()) },
	})
}

// removeAfter runs the tests, then removes dir (testscript.Main exits the
// process: no deferred call would run).
type removeAfter struct {
	m   *testing.M
	dir string
}

func (r removeAfter) Run() int {
	code := r.m.Run()
	os.RemoveAll(r.dir)
	return code
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			// The state folder lies outside $WORK: nothing of it is in
			// the project's tree.
			state, err := os.MkdirTemp("", "fwmigrate-script-state")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(state) })
			env.Setenv("XDG_STATE_HOME", state)
			env.Setenv("STATE", state)
			return nil
		},
	})
}
