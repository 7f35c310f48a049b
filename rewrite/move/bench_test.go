package move_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// benchProject is the generated layout-B project of the benchmarks
// (testtree.LayoutB).
func benchProject(n int) map[string]string { return testtree.LayoutB(n) }

func writeTree(tb testing.TB, dir string, files map[string]string) { testtree.WriteMap(tb, dir, files) }

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
		p, err := move.PlanMove(defaultInput(dir))
		if err != nil || len(p.Conflicts) > 0 {
			b.Fatal(err, p.Conflicts)
		}
		if err := execute(p); err != nil {
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
		if _, err := move.PlanMove(defaultInput(dir)); err != nil {
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
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	// components (~/server), composables (../server), server/api
	// (../../utils), assets (../../public), .fwignore; tsconfig.json is
	// FW211's, not the move's.
	if want := 200 + 50 + 70 + 50 + 1; len(p.Edits) != want {
		t.Errorf("%d edits, want %d", len(p.Edits), want)
	}
	if err := execute(p); err != nil {
		t.Fatal(err)
	}
	in := defaultInput(dir)
	in.SrcDir = in.Target
	p2, err := move.PlanMove(in)
	if err != nil || !p2.Empty() {
		t.Fatalf("second run: %v\n%s", err, p2.Diff())
	}
}

// BenchmarkPlanAssets is BenchmarkPlan on the same project with a relative
// asset URL in every component's template, which has each template read
// (ast.ReadCode) for its asset URLs: its ratio to BenchmarkPlan is what
// the template scan costs.
func BenchmarkPlanAssets(b *testing.B) {
	files := benchProject(5000)
	for name, text := range files {
		if strings.HasPrefix(name, "components/") && strings.HasSuffix(name, ".vue") {
			files[name] = strings.Replace(text, "<template>", `<template><img src="../../public/logo.png" alt="">`, 1)
		}
	}
	dir := b.TempDir()
	testtree.Map(b, dir, files)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := move.PlanMove(defaultInput(dir)); err != nil {
			b.Fatal(err)
		}
	}
}
