package project_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

func TestExcerpt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", `"short"`},
		{"a\x01b\x00", `"a\x01b\x00"`},
		{"first\nsecond", `"first"...`},
		{strings.Repeat("x", 100), `"` + strings.Repeat("x", 40) + `"...`},
		{"\xff\xfe", `"\xff\xfe"`},
		{strings.Repeat("é", 50), `"` + strings.Repeat("é", 40) + `"...`},
	} {
		if got := project.Excerpt(c.in); got != c.want {
			t.Errorf("Excerpt(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
