package compat

import (
	"math"
	"strings"
	"unicode/utf8"
)

// Typo suggestions: the one home of "which known word did the user mean".
// Option paths and hook names (Suggest, SuggestHook) and the short words
// rules suggest among (SuggestWord, Transposed, Ties) all measure with
// Distance, letter case ignored.

// nearest returns the candidate nearest to word by Distance (letter case
// ignored) if it is at most limit edits away, the first among equals; ""
// when none is. word itself and the candidates skip rejects are passed
// over.
func nearest(word string, candidates []string, limit int, skip func(c string) bool) string {
	best, bestD := "", limit+1
	lower := strings.ToLower(word)
	n := utf8.RuneCountInString(word)
	for _, c := range candidates {
		if c == word || skip != nil && skip(c) {
			continue
		}
		// The distance is at least the difference in length.
		if m := utf8.RuneCountInString(c); m-n >= bestD || n-m >= bestD {
			continue
		}
		if d := distanceBelow(lower, strings.ToLower(c), bestD); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// closest returns the candidate nearest to name, if it is near enough to be
// a typo of an option or hook name: distance at most 1 for short names, a
// quarter of the length for long ones. Special $ keys are offered only for
// names that start with $.
func closest(name string, candidates []string) string {
	dollar := strings.HasPrefix(name, "$")
	return nearest(name, candidates, max(1, utf8.RuneCountInString(name)/4), func(c string) bool {
		return strings.HasPrefix(c, "$") != dollar
	})
}

// SuggestWord returns the candidate closest to word by edit distance
// (letter case ignored), or "" when none is close enough to be a likely
// typo: at most 1 edit for words up to 4 characters, 2 up to 8, 3 beyond.
// Rules use it for the short words a value is one of (enum members,
// builders, HTTP methods, variable names).
func SuggestWord(word string, candidates []string) string {
	limit := 3
	switch n := utf8.RuneCountInString(word); {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	return nearest(word, candidates, limit, nil)
}

// Transposed returns the candidate that word is with two adjacent letters
// swapped (letter case ignored), the typo plain edit distance counts twice
// (prot: port), or "".
func Transposed(word string, candidates []string) string {
	w := []rune(strings.ToLower(word))
	for _, c := range candidates {
		// Lower-casing keeps the number of runes: compare it first.
		if utf8.RuneCountInString(c) != len(w) || strings.HasPrefix(c, "$") {
			continue
		}
		r := []rune(strings.ToLower(c))
		diff := -1
		ok := true
		for i := range w {
			if w[i] == r[i] {
				continue
			}
			if diff == -1 && i+1 < len(w) && w[i] == r[i+1] && w[i+1] == r[i] && w[i] != w[i+1] {
				diff = i
				continue
			}
			if diff >= 0 && diff == i-1 {
				continue
			}
			ok = false
			break
		}
		if ok && diff >= 0 {
			return c
		}
	}
	return ""
}

// Ties returns meant and the other candidates exactly as close to word as
// meant is (by Distance, letter case ignored): when there are several, the
// suggestion is a coin toss and no fix should pick one.
func Ties(word, meant string, candidates []string) []string {
	out := []string{meant}
	lower := strings.ToLower(word)
	d := Distance(lower, strings.ToLower(meant))
	for _, c := range candidates {
		if c != meant && c != word && Distance(lower, strings.ToLower(c)) == d {
			out = append(out, c)
		}
	}
	return out
}

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int { return distanceBelow(a, b, math.MaxInt) }

// distanceBelow is Distance(a, b) when that is less than bound, else some
// value not less than bound: it stops as soon as a row's minimum reaches
// bound (a row's minimum never decreases).
func distanceBelow(a, b string, bound int) int {
	// Option names are short: keep the runes and the two rows on the stack.
	var abuf, bbuf [48]rune
	var pbuf, cbuf [49]int
	ra, rb := appendRunes(abuf[:0], a), appendRunes(bbuf[:0], b)
	prev, cur := pbuf[:0], cbuf[:0]
	if len(rb)+1 > len(pbuf) {
		prev, cur = make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1)
	}
	prev, cur = prev[:len(rb)+1], cur[:len(rb)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low >= bound {
			return low
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}
