package rules_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestRelease: FW501 withholds the move of a public key that browser code
// reads (its fix is held, not made); Options.Release naming FW501 makes the
// held fix the diagnostic's fix, described with the reads it breaks, and
// says so in the note that said why it was withheld. Naming another rule
// releases nothing, and a key no browser code reads is moved either way.
func TestRelease(t *testing.T) {
	ar := txtar.Parse([]byte(`-- fw.config.ts --
export default defineFwConfig({
  runtimeConfig: {
    public: {
      stripeSecretKey: '',
      mailPassword: '',
    },
  },
})
-- pages/pay.vue --
<script setup lang="ts">
const config = useRuntimeConfig()
const stripe = loadStripe(config.public.stripeSecretKey)
</script>
`))
	dir := t.TempDir()
	testtree.Write(t, dir, ar, "")
	cfg := filepath.Join(dir, "fw.config.ts")
	check := func(release ...string) map[string]*rules.Diagnostic {
		out := map[string]*rules.Diagnostic{}
		for _, d := range rules.Check(project.LoadProject(cfg, cfg), rules.Options{Target: 4, Select: []string{"FW501"}, Release: release}) {
			out[d.Option] = d
		}
		return out
	}
	const read, unread = "runtimeConfig.public.stripeSecretKey", "runtimeConfig.public.mailPassword"
	for _, release := range [][]string{nil, {"FW203"}} {
		ds := check(release...)
		d := ds[read]
		if d == nil || d.Fix != nil || d.Held == nil || d.Withheld == "" || !strings.Contains(strings.Join(d.Notes, "\n"), "no automatic fix: ") {
			t.Fatalf("Release %q: the move of the key code reads is not held: %+v", release, d)
		}
		if ds[unread] == nil || ds[unread].Fix == nil {
			t.Errorf("Release %q: the key no code reads has no fix", release)
		}
	}
	ds := check("FW501")
	d := ds[read]
	if d == nil || d.Fix == nil || d.Held != nil || d.Withheld != "" || d.Fix.Applicability != rules.Unsafe {
		t.Fatalf("Release FW501: the held fix is not made: %+v", d)
	}
	if !strings.Contains(d.Fix.Description, "as --unsafe=FW501 asks, although client code reads it: pages/pay.vue:3:27 `config.public.stripeSecretKey`") {
		t.Errorf("the released fix does not name the reads: %s", d.Fix.Description)
	}
	notes := strings.Join(d.Notes, "\n")
	if strings.Contains(notes, "no automatic fix") || !strings.Contains(notes, "fix made as --unsafe=FW501 asks, although the code above reads it in the browser") {
		t.Errorf("the notes still say the fix is withheld:\n%s", notes)
	}
	if ds[unread] == nil || ds[unread].Fix == nil || strings.Contains(ds[unread].Fix.Description, "asks") {
		t.Errorf("the key no code reads: %+v", ds[unread])
	}
}
