package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
)

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
		if d := compat.Distance(lw, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
