package ignore

import (
	"reflect"
	"testing"
)

func TestLines(t *testing.T) {
	src := "# comment\n\ncomponents/**  \r\nfoo\\ \n  \t\n!pages/x\t\r\nlast"
	var got []string
	var lines []int
	Lines([]byte(src), func(s, e, line int) {
		got = append(got, src[s:e])
		lines = append(lines, line)
	})
	want := []string{"components/**", `foo\ `, "!pages/x", "last"}
	// A line of white space only is blank.
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(lines, []int{3, 4, 6, 7}) {
		t.Fatalf("got %q at %v, want %q at [3 4 6 7]", got, lines, want)
	}
}

func TestGit(t *testing.T) {
	var root *Git
	g := root.Child("", []byte("dist/\n*.log\n/build\n!keep.log\n"))
	sub := g.Child("pkg", []byte("gen/\n"))
	for _, tc := range []struct {
		g     *Git
		rel   string
		dir   bool
		wants bool
	}{
		{root, "dist", true, false},
		{g, "dist", true, true},
		{g, "dist", false, false},
		{g, "a/b.log", false, true},
		{g, "keep.log", false, false},
		{g, "build", true, true},
		{g, "a/build", true, false},
		{sub, "pkg/gen", true, true},
		{sub, "gen", true, false},
		{g.Child("x", nil), "y.log", false, true},
	} {
		if got := tc.g.Ignored(tc.rel, tc.dir); got != tc.wants {
			t.Errorf("Ignored(%q, dir %v) = %v", tc.rel, tc.dir, got)
		}
	}
}
