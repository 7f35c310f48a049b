package rules_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/tsoracle/compare"
)

// TestTypesOracleFW85x holds what the oracle cases of FW850 and FW851
// (testdata/tsoracle: engine-compat5, unchecked-index) must predict, so
// that TestTypesOracle, which compares every prediction with what the type
// checker reports (full runs), cannot pass them by predicting nothing: the
// lost auto-imports' TS2304 (and the callbacks' TS7006) file by file,
// the index reads' TS2532, TS18048 and TS2322, and after the safe fixes
// only the TS2304 of the engine's helper, whose module fwmigrate does not
// know. No npm needed: the rules alone.
func TestTypesOracleFW85x(t *testing.T) {
	cases, err := compare.LoadCases("../testdata/tsoracle")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ before, after string }{
		"engine-compat5": {
			before: "TS2304 server/api/hello.ts ×7; TS7006 server/api/hello.ts; TS2304 server/api/store.ts ×2; TS2304 server/utils/thing.ts; TS2304 shared/utils/label.ts",
			after:  "TS2304 server/api/store.ts",
		},
		"unchecked-index": {
			before: "TS2532 app/components/List.vue ×2; TS18048 app/utils/format.ts ×2; TS2322 app/utils/format.ts ×2; TS2532 app/utils/format.ts ×5; TS2532 server/api/item.ts; TS2322 shared/utils/pick.ts",
			after:  "none",
		},
	}
	seen := 0
	for _, c := range cases {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		seen++
		rep, err := compare.Predict(t.TempDir(), c)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got := rep.Before.Predicted.String(); got != w.before {
			t.Errorf("%s: before the fixes, predicted\n  %s\nwant\n  %s\nfindings %q", c.Name, got, w.before, rep.Before.Findings)
		}
		if got := rep.After.Predicted.String(); got != w.after {
			t.Errorf("%s: after the fixes (%q), predicted\n  %s\nwant\n  %s", c.Name, rep.Fixed, got, w.after)
		}
		for _, f := range rep.Before.Findings {
			if !strings.HasPrefix(f, "FW85") {
				t.Errorf("%s: a finding of another rule: %s", c.Name, f)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d cases", seen, len(want))
	}
}
