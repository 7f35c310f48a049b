package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// BenchmarkCheckApp checks a generated app of 1,000 source files
// (internal/appgen) with every rule, the code rules' reading of the app
// included: one op is one whole check of the project.
func BenchmarkCheckApp(b *testing.B) {
	dir := b.TempDir()
	files := appgen.Files(1000)
	files["fw.config.ts"] = []byte("export default defineFwConfig({})\n")
	files["package.json"] = []byte(`{"dependencies": {"fw": "^3.12.0"}}`)
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "fw.config.ts")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := project.LoadProject(cfg, "fw.config.ts")
		rules.Check(p, rules.Options{Target: 4})
	}
}
