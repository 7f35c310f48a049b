package ast_test

import (
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fwmigrate/fwmigrate/ast"
)

// benchInputs are the largest corpus config and a generated 1 MB config.
func benchInputs(b testing.TB) []corpusConfig {
	var largest corpusConfig
	for _, c := range corpusConfigs(b) {
		if len(c.src) > len(largest.src) {
			largest = c
		}
	}
	return []corpusConfig{
		{id: "corpus-largest", name: largest.name, src: largest.src},
		{id: "generated-1MB", name: "fw.config.ts", src: generateConfig(1 << 20)},
	}
}

func BenchmarkParse(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.id, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := ast.Parse(in.name, in.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseUnchecked(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.id, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := ast.ParseUnchecked(in.name, in.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEsbuildTransform is the yardstick: esbuild's Transform of the
// same input, which Parse runs as its gate.
func BenchmarkEsbuildTransform(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.id, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res := api.Transform(string(in.src), api.TransformOptions{Loader: loaderFor(in.name), LogLevel: api.LogLevelSilent})
				if len(res.Errors) > 0 {
					b.Fatal(res.Errors[0].Text)
				}
			}
		})
	}
}
