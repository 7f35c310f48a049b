package move_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

type corpusWant uint8

const (
	corpusEmpty corpusWant = iota
	corpusMoves
	corpusRefused
)

// corpusCases are the expectations of the corpus trees that are not layout
// A: run is as in fixtures ("" is root=., layout B, srcDir = root).
var corpusCases = map[string]struct {
	run  string
	want corpusWant
}{
	"001": {"", corpusMoves}, "005": {"", corpusMoves}, "008": {"", corpusMoves}, "009": {"", corpusMoves},
	"012": {"dirs.public=static", corpusMoves}, "014": {"", corpusMoves}, "017": {"", corpusMoves}, "018": {"", corpusMoves},
	"021": {"", corpusMoves}, "023": {"", corpusMoves}, "024": {"", corpusMoves}, "026": {"dirs.public=static", corpusMoves},
	"028": {"", corpusMoves}, "029": {"", corpusMoves}, "032": {"", corpusMoves}, "033": {"", corpusMoves},
	"036": {"v4paths", corpusMoves}, "037": {"v4paths", corpusMoves}, "039": {"", corpusMoves},
	// No app/ and no sources of its own but app.config.ts: layout B
	// today, which the move turns into layout A.
	"022": {"v4paths", corpusMoves},
	// A monorepo root with no app files.
	"019": {"", corpusEmpty},
	// Custom srcDir.
	"025": {"src=src", corpusMoves},
	"027": {"src=src/client", corpusMoves},
	"030": {"src=src build=src/.fw", corpusMoves},
	"035": {"src=src/app server=src/server v4paths dirs.public=../public dirs.modules=../modules dirs.shared=../shared", corpusMoves},
	// dir.pages and dir.layouts nested in src/app.
	"034": {"dirs.pages=src/app/routes dirs.layouts=src/app/layouts dirs.public=src/app/public", corpusRefused},
}

// corpusTree writes the corpus archive name into a temporary directory and
// returns it with the move's input and expectation (layout A trees: an
// empty plan).
func corpusTree(t *testing.T, name string) (string, move.Input, corpusWant) {
	ar, err := txtar.ParseFile(name)
	if err != nil {
		t.Fatal(err)
	}
	id := filepath.Base(name)[:3]
	c, ok := corpusCases[id]
	if !ok && !strings.Contains(string(ar.Comment), "# layout: A") {
		t.Fatalf("corpus case %s has no expectation", id)
	}
	dir := t.TempDir()
	testtree.Write(t, dir, ar, "")
	in := defaultInput(dir)
	if !ok {
		c.want = corpusEmpty
		in.SrcDir, in.V4Paths = filepath.Join(dir, "app"), true
	}
	for _, f := range strings.Fields(c.run) {
		k, v, _ := strings.Cut(f, "=")
		switch {
		case k == "src":
			in.SrcDir = filepath.Join(dir, v)
		case k == "server":
			in.ServerDir = filepath.Join(dir, v)
		case k == "build":
			in.BuildDir = filepath.Join(dir, v)
		case k == "v4paths":
			in.V4Paths = true
		case strings.HasPrefix(k, "dirs."):
			if in.Dirs == nil {
				in.Dirs = map[string]string{}
			}
			in.Dirs[k[5:]] = filepath.Join(in.SrcDir, v)
		}
	}
	return dir, in, c.want
}

// TestCorpusEdits keeps the move's plan of every corpus tree (the renames,
// the edits as a patch, the notes and the conflicts) as a golden
// (testdata/corpus-move.golden): every change in what the move does to
// real trees shows up in review, and a note that is a false alarm is
// caught there. It plans only (TestCorpus executes), so it runs whole with
// -short, and checks that every tree has its expectation. Refresh with
// -update.
func TestCorpusEdits(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/corpus/*.txtar")
	if len(names) == 0 {
		t.Skip("no corpus")
	}
	var b strings.Builder
	for _, name := range names {
		dir, in, _ := corpusTree(t, name)
		p, err := move.PlanMove(in)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "# %s\n%s", strings.TrimSuffix(filepath.Base(name), ".txtar"), p.Diff())
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "note: %s\n", strings.ReplaceAll(n, dir+string(filepath.Separator), ""))
		}
		b.WriteString(relConflicts(dir, p.Conflicts))
	}
	golden.Check(t, "testdata/corpus-move.golden", []byte(b.String()))
}

// TestCorpus plans (and performs) the move on every real-world tree of
// testdata/corpus. The resolved paths come from reading each config by hand
// (the caller will get them from compat.Detect): layout A trees give an
// empty plan, layout B trees move and then plan nothing, and the custom
// layouts move or are refused with reasons. Never half. With -short, one
// tree in two is moved (every tree must still have its expectation).
func TestCorpus(t *testing.T) {
	names, _ := filepath.Glob("../../testdata/corpus/*.txtar")
	if len(names) == 0 {
		t.Skip("no corpus")
	}
	for i, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			if testing.Short() && i%2 != 0 {
				t.Skip("one corpus tree in two with -short")
			}
			dir, in, want := corpusTree(t, name)
			before := snapshot(t, dir)
			p, err := move.PlanMove(in)
			if err != nil {
				t.Fatal(err)
			}
			switch want {
			case corpusEmpty:
				if !p.Empty() || len(p.Conflicts) > 0 {
					t.Fatalf("want an empty plan, got\n%s%v", p.Diff(), p.Conflicts)
				}
				return
			case corpusRefused:
				if len(p.Conflicts) == 0 {
					t.Fatalf("want conflicts, got\n%s", p.Diff())
				}
				if err := execute(p); err == nil {
					t.Fatal("a plan with conflicts executed")
				}
				if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
					t.Fatalf("tree changed:\n%s", d)
				}
				return
			}
			if len(p.Conflicts) > 0 || len(p.Moves) == 0 {
				t.Fatalf("want moves, got\n%s%v", p.Diff(), p.Conflicts)
			}
			if err := execute(p); err != nil {
				t.Fatal(err)
			}
			if src := detectSrcDir(dir, "", nil); src != in.Target {
				t.Errorf("after the move srcDir detects as %s", src)
			}
			in2 := defaultInput(dir)
			in2.SrcDir, in2.V4Paths, in2.BuildDir = in.Target, true, in.BuildDir
			if in.ServerDir != "" {
				in2.ServerDir = in.ServerDir
			}
			p2, err := move.PlanMove(in2)
			if err != nil {
				t.Fatal(err)
			}
			if !p2.Empty() || len(p2.Conflicts) > 0 {
				t.Errorf("second run not empty:\n%s%v", p2.Diff(), p2.Conflicts)
			}
		})
	}
}
