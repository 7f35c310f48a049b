package rules_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/tsoracle"
	"github.com/fwmigrate/fwmigrate/internal/tsoracle/compare"
)

// TestTypesOracle runs the real type checker (internal/tsoracle) on the
// cases of testdata/tsoracle: every error cause it reports must be
// predicted by a types finding (same code, same file, same count), and
// once the safe fixes are applied it must report exactly what the
// remaining findings predict (the causes to fix by hand). Full runs only;
// skipped where npm is missing. tools/tscompare runs the same by hand.
func TestTypesOracle(t *testing.T) {
	tl := tsoracle.Setup(t)
	cases, err := compare.LoadCases("../testdata/tsoracle")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/tsoracle")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			rep, err := compare.Run(tl, t.TempDir(), c)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Before.Match() {
				t.Errorf("before the fixes: predicted %s\nreported %s\nfindings %q", rep.Before.Predicted, rep.Before.Reported, rep.Before.Findings)
			}
			if !rep.After.Match() {
				t.Errorf("after the safe fixes (%q): predicted %s\nreported %s\nfindings %q", rep.Fixed, rep.After.Predicted, rep.After.Reported, rep.After.Findings)
			}
			if len(rep.Before.Reported) == 0 {
				t.Error("the case reports no error before the fixes: it checks nothing")
			}
			if t.Failed() {
				t.Log(rep.Output)
			}
		})
	}
}
