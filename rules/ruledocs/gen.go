//go:build ignore

// gen writes the rules' pages: go generate ./rules runs it. It is a file of
// its own, out of every build, so that building the module's commands
// (pre-commit's go install ./...) does not build it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

func main() {
	out := flag.String("o", "../docs/rules", "directory of the pages")
	flag.Parse()
	if err := ruledocs.Write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "ruledocs:", err)
		os.Exit(1)
	}
}
