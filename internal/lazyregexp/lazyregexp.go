// Package lazyregexp compiles a package-level regular expression at its
// first use instead of at init: every fwmigrate process (every `check`,
// every script line of the tests) runs the inits of every package it
// links, most of whose expressions that run never matches.
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr once, at its first call, and
// returns it (regexp.MustCompile: an expression that does not compile
// panics there, where the tests that use it run).
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
