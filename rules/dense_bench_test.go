package rules_test

import (
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// BenchmarkCheckDense is BenchmarkCheckApp on an app of 2,000 files as
// dense in what the code rules look for as real pages (appgen.Dense):
// every file is read, and every detector finds sites in most of them.
func BenchmarkCheckDense(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	for name, src := range appgen.Dense(2000) {
		files[name] = string(src)
	}
	testtree.Map(b, dir, files)
	cfg := filepath.Join(dir, "fw.config.ts")
	b.ReportAllocs()
	n := 0
	for i := 0; i < b.N; i++ {
		p := project.LoadProject(cfg, "fw.config.ts")
		n = len(rules.Check(p, rules.Options{Target: 4}))
	}
	b.ReportMetric(float64(n), "findings")
}
