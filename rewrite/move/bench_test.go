package move

import (
	"fmt"
	"os"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// benchProject returns a generated layout-B project of n source files whose
// imports cross the move in every direction: moved to moved (unchanged),
// moved to staying and staying to moved (rewritten), ~/ into staying
// folders (rewritten to ~~/), and stores/ found through ~/.
func benchProject(n int) map[string]string {
	files := map[string]string{
		"fw.config.ts":  "export default defineFwConfig({})\n",
		"app.vue":       "<template><FwPage /></template>\n",
		"tsconfig.json": "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		".fwignore":     "components/legacy/**\n*.log\n",
	}
	share := []struct {
		dir  string
		part int // per mille of n
		gen  func(i int) (string, string)
	}{
		{"components", 400, func(i int) (string, string) {
			return fmt.Sprintf("components/c%d/C%d.vue", i%40, i), fmt.Sprintf(`<script setup lang="ts">
import { u } from '../../utils/u%d'
import { useX } from '~/composables/use%d'
import type { Row } from '~/server/types'
const label = "import x from '../nope'"
</script>
<template><p>{{ u }} don't</p></template>
<style scoped>
.c { background: url(../../assets/img.png); }
</style>
`, i%100, i%100)
		}},
		{"pages", 100, func(i int) (string, string) {
			return fmt.Sprintf("pages/p%d.vue", i), fmt.Sprintf(`<script setup>
import C from '../components/c%d/C%d.vue'
import { s } from '~/stores/s%d'
</script>
<template><C /></template>
`, i%40, i, i%60)
		}},
		{"composables", 100, func(i int) (string, string) {
			return fmt.Sprintf("composables/use%d.ts", i), fmt.Sprintf(`import { u } from '../utils/u%d'
import type { Row } from '../server/types'
export const useX = (): Row => ({ id: u })
`, i%100)
		}},
		{"utils", 100, func(i int) (string, string) {
			return fmt.Sprintf("utils/u%d.ts", i), "export const u = `${1 / 2}` // import('../no')\n"
		}},
		{"stores", 60, func(i int) (string, string) {
			return fmt.Sprintf("stores/s%d.ts", i), "import { u } from '~/utils/u1'\nexport const s = u\n"
		}},
		{"server", 140, func(i int) (string, string) {
			return fmt.Sprintf("server/api/a%d.ts", i), fmt.Sprintf(`import { u } from '../../utils/u%d'
import { s } from '~/stores/s%d'
export default defineEventHandler(() => u + s)
`, i%100, i%60)
		}},
		{"assets", 100, func(i int) (string, string) {
			return fmt.Sprintf("assets/css/s%d.css", i), "@import '../base.css';\n.a { background: url(../../public/bg.png) }\n"
		}},
	}
	for _, s := range share {
		for i := 0; i < n*s.part/1000; i++ {
			name, data := s.gen(i)
			files[name] = data
		}
	}
	files["server/types.ts"] = "export interface Row { id: string }\n"
	files["assets/base.css"] = "body {}\n"
	files["assets/img.png"] = ""
	files["public/bg.png"] = ""
	return files
}

// BenchmarkPlanAndExecute migrates a generated project of 5,000 source
// files: planning (walk, read, lex every file, rewrite) plus executing (the
// renames and the atomic rewrites). The target is under 1 s per operation.
func BenchmarkPlanAndExecute(b *testing.B) {
	files := benchProject(5000)
	b.ReportMetric(float64(len(files)), "files")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		testtree.Map(b, dir, files)
		b.StartTimer()
		p, err := PlanMove(defaultInput(dir))
		if err != nil || len(p.Conflicts) > 0 {
			b.Fatal(err, p.Conflicts)
		}
		if err := p.Execute(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if i == 0 {
			b.ReportMetric(float64(len(p.Edits)), "edited")
		}
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// BenchmarkPlan is the planning half alone (what --dry-run costs).
func BenchmarkPlan(b *testing.B) {
	dir := b.TempDir()
	testtree.Map(b, dir, benchProject(5000))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := PlanMove(defaultInput(dir)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchProject keeps the benchmark honest: its project migrates, the
// edits it expects happen, and a second plan is empty.
func TestBenchProject(t *testing.T) {
	if testing.Short() {
		t.Skip("a generated project of 500 files: not with -short")
	}
	dir := t.TempDir()
	testtree.Map(t, dir, benchProject(500))
	p, err := PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	// components (~/server), composables (../server), server/api
	// (../../utils), assets (../../public), tsconfig, .fwignore.
	if want := 200 + 50 + 70 + 50 + 2; len(p.Edits) != want {
		t.Errorf("%d edits, want %d", len(p.Edits), want)
	}
	if err := p.Execute(); err != nil {
		t.Fatal(err)
	}
	in := defaultInput(dir)
	in.SrcDir = in.Target
	p2, err := PlanMove(in)
	if err != nil || !p2.Empty() {
		t.Fatalf("second run: %v\n%s", err, p2.Diff())
	}
}
