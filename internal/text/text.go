// Package text holds the small rules of English that fwmigrate's messages
// and reports share.
package text

import (
	"strconv"
	"strings"
)

// Plural writes n and word, with the plural ending when n is not 1:
// "1 file", "3 files", "2 fixes".
func Plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	switch {
	case n == 1:
		return s
	case strings.HasSuffix(word, "x"):
		return s + "es"
	}
	return s + "s"
}
