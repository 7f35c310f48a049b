package move

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestCorpus plans (and performs) the move on every real-world tree of
// testdata/corpus. The resolved paths come from reading each config by hand
// (the caller will get them from compat.Detect): layout A trees give an
// empty plan, layout B trees move and then plan nothing, and the custom
// layouts move or are refused with reasons. Never half. With -short, one
// tree in two is moved (every tree must still have its expectation).
func TestCorpus(t *testing.T) {
	type want uint8
	const (
		empty want = iota
		moves
		refused
	)
	cases := map[string]struct {
		run  string // as in fixtures; "" is root=. (layout B, srcDir = root)
		want want
	}{
		"001": {"", moves}, "005": {"", moves}, "008": {"", moves}, "009": {"", moves},
		"012": {"dirs.public=static", moves}, "014": {"", moves}, "017": {"", moves}, "018": {"", moves},
		"021": {"", moves}, "023": {"", moves}, "024": {"", moves}, "026": {"dirs.public=static", moves},
		"028": {"", moves}, "029": {"", moves}, "032": {"", moves}, "033": {"", moves},
		"036": {"v4paths", moves}, "037": {"v4paths", moves}, "039": {"", moves},
		// No app/ and no sources of its own but app.config.ts: layout B
		// today, which the move turns into layout A.
		"022": {"v4paths", moves},
		// A monorepo root with no app files.
		"019": {"", empty},
		// Custom srcDir.
		"025": {"src=src", moves},
		"027": {"src=src/client", moves},
		"030": {"src=src build=src/.fw", moves},
		"035": {"src=src/app server=src/server v4paths dirs.public=../public dirs.modules=../modules dirs.shared=../shared", moves},
		// dir.pages and dir.layouts nested in src/app.
		"034": {"dirs.pages=src/app/routes dirs.layouts=src/app/layouts dirs.public=src/app/public", refused},
	}
	names, _ := filepath.Glob("../../testdata/corpus/*.txtar")
	if len(names) == 0 {
		t.Skip("no corpus")
	}
	for i, name := range names {
		id := filepath.Base(name)[:3]
		t.Run(filepath.Base(name), func(t *testing.T) {
			ar, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := cases[id]
			layoutA := strings.Contains(string(ar.Comment), "# layout: A")
			if !ok && !layoutA {
				t.Fatalf("corpus case %s has no expectation", id)
			}
			if testing.Short() && i%2 != 0 {
				t.Skip("one corpus tree in two with -short")
			}
			dir := t.TempDir()
			testtree.Write(t, dir, ar, "")
			before := snapshot(t, dir)
			in := defaultInput(dir)
			if !ok {
				c.want = empty
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
			p, err := PlanMove(in)
			if err != nil {
				t.Fatal(err)
			}
			switch c.want {
			case empty:
				if !p.Empty() || len(p.Conflicts) > 0 {
					t.Fatalf("want an empty plan, got\n%s%v", p.Diff(), p.Conflicts)
				}
				return
			case refused:
				if len(p.Conflicts) == 0 {
					t.Fatalf("want conflicts, got\n%s", p.Diff())
				}
				if err := p.Execute(); err == nil {
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
			if err := p.Execute(); err != nil {
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
			p2, err := PlanMove(in2)
			if err != nil {
				t.Fatal(err)
			}
			if !p2.Empty() || len(p2.Conflicts) > 0 {
				t.Errorf("second run not empty:\n%s%v", p2.Diff(), p2.Conflicts)
			}
		})
	}
}
