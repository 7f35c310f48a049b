package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps the errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}

// setUpdate sets -update for one test.
func setUpdate(t *testing.T, on bool) {
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, path, []byte("a\nb\nc\n"))
	if len(r.errs) != 0 {
		t.Fatalf("equal: %q", r.errs)
	}
	Check(r, path, []byte("a\nB\nc\n"))
	if len(r.errs) != 1 {
		t.Fatalf("different: %q", r.errs)
	}
	for _, want := range []string{"-b\n+B\n", "go test ./internal/golden -run TestCheck -update"} {
		if !strings.Contains(r.errs[0], want) {
			t.Errorf("the report lacks %q:\n%s", want, r.errs[0])
		}
	}
	Check(r, path+".missing", nil)
	if len(r.errs) != 2 || !strings.Contains(r.errs[1], "no golden file") {
		t.Errorf("missing file: %q", r.errs)
	}

	setUpdate(t, true)
	Check(t, path, []byte("new\n"))
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("-update wrote %q", b)
	}
}

const archive = `comment
-- in/a --
input
-- out/b --
old b
-- out/stale --
stale
-- want --
old want
`

func TestArchive(t *testing.T) {
	isGolden := func(n string) bool { return n == "want" || strings.HasPrefix(n, "out/") }
	got := map[string][]byte{"want": []byte("new want\n"), "out/b": []byte("old b\n"), "out/a": []byte("a\n")}
	path := filepath.Join(t.TempDir(), "x.txtar")
	if err := os.WriteFile(path, []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}

	r := &recorder{TB: t}
	a := Open(r, path)
	if d, ok := a.Section("in/a"); !ok || string(d) != "input\n" {
		t.Errorf("Section(in/a) = %q, %v", d, ok)
	}
	a.Check(r, isGolden, got)
	joined := strings.Join(r.errs, "\n")
	for _, want := range []string{"no section out/a", "section want differs", "-old want\n+new want\n", "section out/stale is not produced any more"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the report lacks %q:\n%s", want, joined)
		}
	}
	if len(r.errs) != 3 {
		t.Errorf("%d errors, want 3:\n%s", len(r.errs), joined)
	}

	t.Run("update", func(t *testing.T) {
		setUpdate(t, true)
		a := Open(t, path)
		a.Order = ByRank(func(n string) int {
			switch {
			case strings.HasPrefix(n, "out/"):
				return 1
			case n == "want":
				return 2
			}
			return 0
		})
		a.Check(t, isGolden, got)
	})
	b, _ := os.ReadFile(path)
	want := "comment\n-- in/a --\ninput\n-- out/a --\na\n-- out/b --\nold b\n-- want --\nnew want\n"
	if string(b) != want {
		t.Errorf("-update wrote\n%s\nwant\n%s", b, want)
	}
	r = &recorder{TB: t}
	Open(r, path).Check(r, isGolden, got)
	if len(r.errs) != 0 {
		t.Errorf("after -update: %q", r.errs)
	}
}

func TestDiff(t *testing.T) {
	if d := Diff("f", []byte("x\r\n"), []byte("x\n")); !strings.Contains(d, "-x\r\n+x\n") && !strings.Contains(d, `"x\r\n"`) {
		t.Errorf("a line-ending change is not shown: %q", d)
	}
	long := strings.Repeat("line\n", 500)
	if d := Diff("f", nil, []byte(long)); strings.Count(d, "\n") > maxDiffLines+1 || !strings.Contains(d, "more lines") {
		t.Errorf("a long diff is not cut: %d lines", strings.Count(d, "\n"))
	}
}
