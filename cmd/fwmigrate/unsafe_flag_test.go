package main

import (
	"io"
	"slices"
	"testing"

	"github.com/fwmigrate/fwmigrate/migrate"
)

// TestUnsafeFlag: bare --unsafe (and =all, =true) is every unsafe fix, as
// it was when the flag was a bool; codes name the rules (case-insensitive,
// repeated flags add up); =false undoes it; a code that is no rule, a
// rule's name or nothing is refused, and the command line is a usage error
// (exit 2).
func TestUnsafeFlag(t *testing.T) {
	for _, c := range []struct {
		in    []string
		all   bool
		codes []string
		bad   bool
	}{
		{in: []string{"all"}, all: true},
		{in: []string{"true"}, all: true},
		{in: []string{"all", "false"}},
		{in: []string{"fw501"}, codes: []string{"FW501"}},
		{in: []string{"FW501, FW203", "FW501"}, codes: []string{"FW501", "FW203"}},
		{in: []string{"FW5X1"}, bad: true},
		{in: []string{"public-secret"}, bad: true},
		{in: []string{""}, bad: true},
	} {
		var o migrate.Options
		f := unsafeFlag{&o}
		var err error
		for _, s := range c.in {
			if err = f.Set(s); err != nil {
				break
			}
		}
		if (err != nil) != c.bad || err == nil && (o.Unsafe != c.all || !slices.Equal(o.UnsafeRules, c.codes)) {
			t.Errorf("--unsafe=%q: Unsafe %v, UnsafeRules %q, error %v", c.in, o.Unsafe, o.UnsafeRules, err)
		}
	}
	for _, args := range [][]string{
		{"apply", "--to=4", "--dry-run", "--unsafe=FW501,FW5X1", "."},
		{"check", "--fix", "--unsafe=nope", "."},
	} {
		if code := run(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
