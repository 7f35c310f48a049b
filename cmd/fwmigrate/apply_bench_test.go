package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
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
