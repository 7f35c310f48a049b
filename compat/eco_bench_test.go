package compat

import "testing"

// BenchmarkEco is what a process pays for the ecosystem data the first
// time it asks for it.
func BenchmarkEco(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseEcosystem(ecosystemJSON); err != nil {
			b.Fatal(err)
		}
	}
}
