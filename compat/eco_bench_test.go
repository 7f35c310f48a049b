package compat

import "testing"

// BenchmarkEco is what a process pays for the ecosystem data the first
// time it asks for it (Eco's lazy reading), and for one module of it.
func BenchmarkEco(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e, err := parseEcosystem(ecosystemJSON, true)
		if err != nil {
			b.Fatal(err)
		}
		if e.Module("@pinia/nuxt") == nil {
			b.Fatal("no @pinia/nuxt")
		}
	}
}

// BenchmarkParseEcosystem reads all of the data at once.
func BenchmarkParseEcosystem(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseEcosystem(ecosystemJSON); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseEcosystemStd is the reading by encoding/json that
// ParseEcosystem replaced.
func BenchmarkParseEcosystemStd(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseEcosystemStd(ecosystemJSON); err != nil {
			b.Fatal(err)
		}
	}
}
