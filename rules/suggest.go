package rules

import "strings"

// Suggest returns the candidate closest to word by edit distance (case
// folded), or "" when none is close enough to be a likely typo: at most 1
// edit for words up to 4 characters, 2 up to 8, 3 beyond.
func Suggest(word string, candidates []string) string {
	limit := 3
	switch n := len([]rune(word)); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	lw := strings.ToLower(word)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		if d := Levenshtein(lw, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Levenshtein is the edit distance between a and b, in runes.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
