package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
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
		ar, err := txtar.ParseFile(files[i%len(files)])
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range ar.Files {
			p := filepath.Join(dir, fmt.Sprintf("p%04d", i), filepath.FromSlash(f.Name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if filepath.Base(p) != ".keep" {
				os.WriteFile(p, f.Data, 0o644)
			}
		}
	}
	b.Chdir(dir)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"apply", "--to=4", "--dry-run", "--format=json", "."}, io.Discard, io.Discard); code != 1 {
			b.Fatalf("exit %d", code)
		}
	}
}
