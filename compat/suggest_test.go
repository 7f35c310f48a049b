package compat

import "testing"

func TestTransposed(t *testing.T) {
	cands := []string{"port", "host", "modules", "$env", "GET", "POST"}
	for _, tc := range []struct{ word, want string }{
		{"prot", "port"},
		{"modlues", "modules"},
		{"PSOT", "POST"},
		{"GTE", "GET"},
		{"hsot", "host"},
		{"port", ""},     // equal is not a typo
		{"potr", "port"}, // last two swapped
		{"tpor", ""},     // two swaps
		{"ports", ""},    // other length
		{"nev$", ""},     // $ keys are never offered
		{"pport", ""},
	} {
		if got := Transposed(tc.word, cands); got != tc.want {
			t.Errorf("Transposed(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestSuggestWord(t *testing.T) {
	cands := []string{"GET", "POST", "PATCH", "bundlerA", "bundlerB", "staging"}
	for _, tc := range []struct{ word, want string }{
		{"GTE", ""},              // 2 edits in a word of 3: too far
		{"PST", "POST"},          // 1 edit
		{"PATCH", ""},            // equal is not a typo
		{"bundlerX", "bundlerA"}, // a tie: the first
		{"stagign", "staging"},   // 2 edits in 7
		{"stgaign", ""},          // 3 edits in 7
		{"patch", "PATCH"},       // letter case ignored
	} {
		if got := SuggestWord(tc.word, cands); got != tc.want {
			t.Errorf("SuggestWord(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if got := Ties("bundlerX", "bundlerA", cands); len(got) != 2 || got[1] != "bundlerB" {
		t.Errorf("Ties = %q", got)
	}
}
