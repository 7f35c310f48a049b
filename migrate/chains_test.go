package migrate_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
)

// TestWriteChains: projects whose roots are one or nest are written in one
// chain, in the run's order; others in chains of their own. A sibling
// whose name starts like the folder's ("a-x" beside "a") is not inside it.
func TestWriteChains(t *testing.T) {
	roots := []string{"/r/a/b", "/r/a-x", "/r/c", "/r/a", "/r/a/b/d", "/r/ab", "/r/a"}
	var rs []*migrate.Result
	for _, root := range roots {
		rs = append(rs, &migrate.Result{Project: &project.Project{RealRoot: root}})
	}
	chains := migrate.WriteChains(rs)
	var got [][]string
	for _, c := range chains {
		var names []string
		for _, r := range c {
			names = append(names, r.Project.RealRoot)
		}
		got = append(got, names)
	}
	want := [][]string{{"/r/a/b", "/r/a", "/r/a/b/d", "/r/a"}, {"/r/a-x"}, {"/r/ab"}, {"/r/c"}}
	if len(got) != len(want) {
		t.Fatalf("chains %q, want %q", got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("chains %q, want %q", got, want)
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("chains %q, want %q", got, want)
			}
		}
	}
}
