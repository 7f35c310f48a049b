package migrate

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// A project's checks run up to three times in apply: on the files on disk
// (Result.Found), as a project of the major FW701's bump moves it to, and
// on each new text of the config (fix.Rounds). On an app most findings are
// in code files the rounds do not touch, and each check makes them anew,
// equal to the first: tens of thousands of values, each set as large as the
// first. sharer keeps one: a finding of a later check that is equal in
// every field to one of the first is replaced by it, so that the later
// sets hold pointers into Found, and what the rounds, the code fixes and
// the report keep (Fixed, NotFixed, Remaining) is Found's values where
// nothing changed, and new values only where the text did.
// knobs.ShareFindings turns the sharing on (the tests compare the results
// with and without).

// sharer wraps a check: its first result is kept as the values to share,
// and the findings of every later result that are equal to one of them
// (reflect.DeepEqual over the whole Diagnostic, its fix and notes
// included) are replaced by it. Within one result each value of the first
// is used once at most: two equal findings stay two (the code fixes and
// joinFolders tell findings apart by pointer). The first result is
// indexed by a sorted list of its places (4 bytes a finding: an app has
// tens of thousands), not a map of keys.
type sharer struct {
	check func(*project.Project, rules.Options) []*rules.Diagnostic
	first []*rules.Diagnostic
	order []int32 // first's indexes, by shareLess
	ran   bool
	// shared counts the findings replaced, for the tests.
	shared int
}

// shareCmp orders findings by what narrows the search: file, place,
// code, option, message.
func shareCmp(a, b *rules.Diagnostic) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Span.End, b.Span.End); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	if c := strings.Compare(a.Option, b.Option); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

func (s *sharer) run(p *project.Project, o rules.Options) []*rules.Diagnostic {
	diags := s.check(p, o)
	if !s.ran {
		s.ran = true
		s.first = diags
		s.order = make([]int32, len(diags))
		for i := range s.order {
			s.order[i] = int32(i)
		}
		slices.SortStableFunc(s.order, func(a, b int32) int { return shareCmp(diags[a], diags[b]) })
		return diags
	}
	used := map[int32]bool{}
	for i, d := range diags {
		at, _ := slices.BinarySearchFunc(s.order, d, func(k int32, d *rules.Diagnostic) int { return shareCmp(s.first[k], d) })
		for ; at < len(s.order) && shareCmp(s.first[s.order[at]], d) == 0; at++ {
			k := s.order[at]
			if f := s.first[k]; f != d && !used[k] && reflect.DeepEqual(f, d) {
				diags[i] = f
				used[k] = true
				s.shared++
				break
			}
		}
	}
	return diags
}
