package settings_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
)

// finish returns the Finish of r's options with the baseline b (nil for
// none): the severities and overrides of r, then b's known findings, as a
// check applies them to each finding.
func finish(t *testing.T, r *settings.Resolved, b *settings.Baseline) func(*rules.Diagnostic) bool {
	t.Helper()
	f := r.Options(b).Finish
	if f == nil {
		t.Fatal("the options have no Finish")
	}
	return f
}
