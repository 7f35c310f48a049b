package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The CLI's behaviour end to end (exit codes, formats, discovery) is tested
// with testscript: each testdata/script/*.txtar is a script plus the files
// it works on, and `fwmigrate` in a script runs this binary's Main.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fwmigrate": func() { os.Exit(Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
