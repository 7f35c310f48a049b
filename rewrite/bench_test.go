package rewrite_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// BenchmarkApply measures what apply does per file: parse, apply the
// migration ops, verify. "largest" is the biggest corpus config;
// "1000-configs" runs 1,000 configs (the corpus, cycled) per iteration.
func BenchmarkApply(b *testing.B) {
	all := corpus(b)
	largest := all[0]
	for _, c := range all {
		if len(c.src) > len(largest.src) {
			largest = c
		}
	}
	// Moves of whole subtrees on top of the migration ops, so that the
	// large file has real work to do.
	ops := append(append([]rewrite.Op(nil), migration...), rewrite.Op{Kind: rewrite.OpMove, Path: ast.Path{"engine"}, To: ast.Path{"server", "engine"}},
		rewrite.Op{Kind: rewrite.OpMove, Path: ast.Path{"bundlerA"}, To: ast.Path{"bundlers", "a"}})
	run := func(b *testing.B, c corpusConfig) {
		f, err := ast.Parse(c.file, c.src)
		if err != nil {
			b.Fatal(err)
		}
		res, err := rewrite.Apply(f, ops)
		if err != nil {
			b.Fatal(err)
		}
		if err := rewrite.Verify(c.file, f, res.Src, res.Applied); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("largest", func(b *testing.B) {
		b.Logf("%s: %d bytes", largest.name, len(largest.src))
		b.SetBytes(int64(len(largest.src)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			run(b, largest)
		}
	})
	b.Run("1000-configs", func(b *testing.B) {
		var bytes int64
		for i := 0; i < 1000; i++ {
			bytes += int64(len(all[i%len(all)].src))
		}
		b.SetBytes(bytes)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for j := 0; j < 1000; j++ {
				run(b, all[j%len(all)])
			}
		}
	})
}
