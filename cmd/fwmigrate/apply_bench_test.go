package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// BenchmarkApplyCommand runs `apply --dry-run` (every rule, the rewrite,
// Verify, the diff; no writes) on a tree of 1,000 projects made from the
// corpus, cycled.
func BenchmarkApplyCommand(b *testing.B) {
	files, err := filepath.Glob("../../testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		b.Fatal("no corpus")
	}
	dir := b.TempDir()
	for i := 0; i < 1000; i++ {
		testtree.WriteFile(b, filepath.Join(dir, fmt.Sprintf("p%04d", i)), files[i%len(files)], "")
	}
	b.Chdir(dir)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"apply", "--to=4", "--dry-run", "--format=json", "."}, io.Discard, io.Discard); code != 1 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkApplyDense runs `apply` and `apply --dry-run` on generated apps
// as dense in findings as real pages (appgen.Dense) of 500 and 2,000
// files, each run on a fresh copy: the report must be linear in the
// findings (ns/finding the same at both sizes), and a dry run no slower
// than the apply it describes. cpu-ns/finding is the CPU time the process
// used (the test's own included): on a machine shared with other work it
// moves least.
func BenchmarkApplyDense(b *testing.B) {
	for _, n := range []int{500, 2000} {
		files := map[string]string{
			"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
			"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
		}
		for name, src := range appgen.Dense(n) {
			files[name] = string(src)
		}
		findings := 0
		for _, mode := range []string{"dry-run", "apply"} {
			b.Run(fmt.Sprintf("%s-%d", mode, n), func(b *testing.B) {
				var cpu time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					dir := b.TempDir()
					testtree.Map(b, dir, files)
					if findings == 0 {
						rep := runCheck([]string{dir}, workspace.New(settings.Flags{}), checkRun{})
						findings = len(rep.findings.list())
					}
					args := []string{"apply", "--to=4", "--format=json", dir}
					if mode == "dry-run" {
						args = append(args, "--dry-run")
					}
					b.StartTimer()
					start := testtree.CPUTime()
					if code := run(args, io.Discard, io.Discard); code > 1 {
						b.Fatalf("exit %d", code)
					}
					cpu += testtree.CPUTime() - start
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(findings), "ns/finding")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(findings), "cpu-ns/finding")
				b.ReportMetric(float64(findings), "findings")
			})
		}
	}
}
