// Command tscompare runs the comparison of the types rules (FW8xx) with
// the real type checker by hand: for each case of a directory of txtar
// fixtures (testdata/tsoracle by default), it prints what the findings
// predict and what vue-tsc or tsc reports, before and after the safe
// fixes, and exits 1 when they differ. It installs typescript and vue-tsc
// from npm (internal/tsoracle) on first use.
//
//	go run ./tools/tscompare [-v] [dir]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fwmigrate/fwmigrate/internal/tsoracle"
	"github.com/fwmigrate/fwmigrate/internal/tsoracle/compare"
)

func main() {
	verbose := flag.Bool("v", false, "print the checker's output and the findings")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tscompare [-v] [dir of *.txtar cases, default testdata/tsoracle]")
		flag.PrintDefaults()
	}
	flag.Parse()
	dir := "testdata/tsoracle"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	os.Exit(run(dir, *verbose))
}

func run(dir string, verbose bool) int {
	cases, err := compare.LoadCases(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tscompare:", err)
		return 2
	}
	if len(cases) == 0 {
		fmt.Fprintf(os.Stderr, "tscompare: no *.txtar case in %s\n", dir)
		return 2
	}
	tl, err := tsoracle.Install()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tscompare:", err)
		return 2
	}
	fmt.Printf("TypeScript %s, vue-tsc %s\n", tsoracle.TypeScriptVersion, tsoracle.VueTSCVersion)
	failed := 0
	for _, c := range cases {
		tmp, err := os.MkdirTemp("", "tscompare-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "tscompare:", err)
			return 2
		}
		rep, err := compare.Run(tl, tmp, c)
		os.RemoveAll(tmp)
		if err != nil {
			fmt.Printf("%s: error: %v\n", c.Name, err)
			failed++
			continue
		}
		status := "ok"
		if !rep.Before.Match() || !rep.After.Match() {
			status = "DIFFERS"
			failed++
		}
		fmt.Printf("\n%s: %s\n", c.Name, status)
		fmt.Printf("  before: predicted %s\n          reported  %s\n", rep.Before.Predicted, rep.Before.Reported)
		for _, f := range rep.Fixed {
			fmt.Printf("  fixed:  %s\n", f)
		}
		fmt.Printf("  after:  to fix by hand %s\n          reported       %s\n", rep.After.Predicted, rep.After.Reported)
		if verbose {
			for _, f := range rep.Before.Findings {
				fmt.Printf("  finding: %s\n", f)
			}
			fmt.Println(rep.Output)
		}
	}
	if failed > 0 {
		fmt.Printf("\n%d of %d cases differ\n", failed, len(cases))
		return 1
	}
	fmt.Printf("\n%d cases: the findings predict what the checker reports\n", len(cases))
	return 0
}
