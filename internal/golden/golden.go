// Package golden compares what tests produce with golden files, and with the
// golden sections of txtar archives, and rewrites them when the tests run
// with -update:
//
//	go test ./rules -run TestFixtures -update
//
// It owns the one -update flag of the module's tests: a test binary that
// registered "update" twice would panic, so no test registers its own. A
// mismatch is reported as a unified diff (want → got) with the command that
// accepts the new output; read the diff of the rewritten files before
// committing them.
package golden

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files and golden archive sections instead of comparing with them")

// Check compares got with the golden file at path. With -update it writes
// got to path instead (when they differ).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *update {
		if err == nil && bytes.Equal(want, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
		return
	}
	if err != nil {
		t.Errorf("no golden file %s (%v); %s", path, err, hint(t))
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs; %s\n%s", path, hint(t), Diff(path, want, got))
	}
}

// Archive is a txtar archive some of whose sections are goldens. Its other
// sections (the inputs) are only read. Its methods are not safe for
// concurrent use: a test checks its archive from one goroutine.
type Archive struct {
	Path string
	*txtar.Archive
	// Order, when set, sorts the sections (stably) whenever -update
	// changes the archive, so that a test keeps each archive in the order
	// its readers expect. Without it, a new golden section goes last.
	Order func(a, b string) int

	changed bool
}

// Open parses the archive at path. With -update, it is written back once,
// when t and its subtests end, if a Check changed it.
func Open(t testing.TB, path string) *Archive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a := &Archive{Path: path, Archive: ar}
	if *update {
		t.Cleanup(func() {
			if !a.changed {
				return
			}
			if a.Order != nil {
				slices.SortStableFunc(a.Files, func(x, y txtar.File) int { return a.Order(x.Name, y.Name) })
			}
			if err := os.WriteFile(a.Path, txtar.Format(a.Archive), 0o644); err != nil {
				t.Error(err)
			}
			t.Logf("updated %s", a.Path)
		})
	}
	return a
}

// Section returns the data of the section name, and whether there is one.
func (a *Archive) Section(name string) ([]byte, bool) {
	i := a.index(name)
	if i < 0 {
		return nil, false
	}
	return a.Files[i].Data, true
}

func (a *Archive) index(name string) int {
	return slices.IndexFunc(a.Files, func(f txtar.File) bool { return f.Name == name })
}

// Check compares the golden sections of the archive, the ones isGolden
// accepts, with got (section name to data): a name of got without its
// section, a section whose data differs, and a golden section that got
// does not name are errors. With -update it makes the archive's golden
// sections those of got instead: it sets their data, adds the missing ones
// and removes the others.
func (a *Archive) Check(t testing.TB, isGolden func(name string) bool, got map[string][]byte) {
	t.Helper()
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !isGolden(name) {
			t.Fatalf("%s: section %s is not a golden section of the test", a.Path, name)
		}
		i := a.index(name)
		switch {
		case *update && i < 0:
			a.Files = append(a.Files, txtar.File{Name: name, Data: got[name]})
			a.changed = true
		case *update:
			if !bytes.Equal(a.Files[i].Data, got[name]) {
				a.Files[i].Data = got[name]
				a.changed = true
			}
		case i < 0:
			t.Errorf("%s: no section %s; %s\n%s", a.Path, name, hint(t), Diff(name, nil, got[name]))
		case !bytes.Equal(a.Files[i].Data, got[name]):
			t.Errorf("%s: section %s differs; %s\n%s", a.Path, name, hint(t), Diff(name, a.Files[i].Data, got[name]))
		}
	}
	kept := a.Files[:0]
	for _, f := range a.Files {
		if _, ok := got[f.Name]; ok || !isGolden(f.Name) {
			kept = append(kept, f)
			continue
		}
		if !*update {
			t.Errorf("%s: section %s is not produced any more; %s\n%s", a.Path, f.Name, hint(t), Diff(f.Name, f.Data, nil))
			kept = append(kept, f)
			continue
		}
		a.changed = true
	}
	clear(a.Files[len(kept):])
	a.Files = kept
}

// CheckSection is Check of the one golden section name.
func (a *Archive) CheckSection(t testing.TB, name string, got []byte) {
	t.Helper()
	a.Check(t, func(n string) bool { return n == name }, map[string][]byte{name: got})
}

// ByRank returns an Order for Archive: sections by rank, then (among
// golden ranks, those above 0) by name; rank 0 sections keep their order.
func ByRank(rank func(name string) int) func(a, b string) int {
	return func(a, b string) int {
		ra, rb := rank(a), rank(b)
		if ra != rb || ra == 0 {
			return cmp.Compare(ra, rb)
		}
		return strings.Compare(a, b)
	}
}

// maxDiffLines bounds a reported diff: a whole-corpus golden can change
// everywhere at once.
const maxDiffLines = 200

// Diff is the unified diff from want to got, labelled with name; at most
// maxDiffLines lines of it.
func Diff(name string, want, got []byte) string {
	d := udiff.Unified("want/"+name, "got/"+name, string(want), string(got))
	if d == "" && !bytes.Equal(want, got) {
		return fmt.Sprintf("(no line differs)\nwant %q\ngot  %q\n", want, got)
	}
	lines := strings.SplitAfter(d, "\n")
	if len(lines) > maxDiffLines {
		d = strings.Join(lines[:maxDiffLines], "") + fmt.Sprintf("... and %d more lines\n", len(lines)-maxDiffLines)
	}
	return d
}

// pkg is the test's package relative to the module's root ("./rules"),
// found from the working directory when the test binary starts (tests may
// change directory later).
var pkg = func() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}()

// hint is the command that accepts the new output: the test's package and
// its name.
func hint(t testing.TB) string {
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	run := strings.Join(parts, "/")
	if strings.ContainsAny(run, ` \'"$*?()[]{}|&;<>`) {
		run = "'" + strings.ReplaceAll(run, "'", `'\''`) + "'"
	}
	return fmt.Sprintf("if the new output is right, run: go test %s -run %s -update (and read the diff)", pkg, run)
}
