package migrate_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// denseTree writes a generated app of n source files (appgen.Dense) on
// major 3 at dir: dense in what the code rules look for, and in layout B,
// so that apply moves it, bumps fw and fixes code.
func denseTree(t *testing.T, dir string, n int) {
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	for name, src := range appgen.Dense(n) {
		files[name] = string(src)
	}
	testtree.Map(t, dir, files)
}

// corpusProjects writes the corpus's archives under dir and loads the
// project of each one's config at its root.
func corpusProjects(t *testing.T, dir string) []*project.Project {
	l := project.NewLoader()
	var ps []*project.Project
	for _, a := range corpusArchives(t) {
		testtree.Map(t, filepath.Join(dir, a.name), a.files)
		ps = append(ps, l.Load(filepath.Join(dir, a.name, a.cfg), a.name+"/"+a.cfg))
	}
	return ps
}

// corpusArchive is an archive of the corpus with a config at its root:
// its name (without .txtar), its files, and that config.
type corpusArchive struct {
	name, cfg string
	files     map[string]string
}

// corpusArchives reads the corpus's archives that have a config at their
// root.
func corpusArchives(tb testing.TB) []corpusArchive {
	names, _ := filepath.Glob("../testdata/corpus/*.txtar")
	if len(names) == 0 {
		tb.Fatal("no corpus")
	}
	var as []corpusArchive
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		a := corpusArchive{name: strings.TrimSuffix(filepath.Base(name), ".txtar"), files: map[string]string{}}
		for _, f := range ar.Files {
			a.files[f.Name] = string(f.Data)
			if a.cfg == "" && !strings.Contains(f.Name, "/") && compat.IsConfigName(f.Name) {
				a.cfg = f.Name
			}
		}
		if a.cfg != "" {
			as = append(as, a)
		}
	}
	return as
}

// sameResults fails unless a and b say the same, value for value: the
// findings (followed through their pointers), the fixes and their reasons,
// the patch, the notes.
func sameResults(t *testing.T, what string, a, b []*migrate.Result) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d results, %d", what, len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		for _, f := range []struct {
			name string
			x, y any
		}{
			{"Found", x.Found, y.Found}, {"Fixed", x.Fixed, y.Fixed}, {"NotFixed", x.NotFixed, y.NotFixed},
			{"ByMove", x.ByMove, y.ByMove}, {"Remaining", x.Remaining, y.Remaining}, {"Settled", x.Settled, y.Settled},
			{"ToTest", x.ToTest, y.ToTest}, {"Notes", x.Notes, y.Notes}, {"Diff", x.Diff, y.Diff},
			{"Unsafe", x.Unsafe, y.Unsafe}, {"Fatal", x.Fatal, y.Fatal}, {"Err", x.Err, y.Err}, {"Bumped", x.Bumped, y.Bumped},
		} {
			if !reflect.DeepEqual(f.x, f.y) {
				t.Errorf("%s: %s: %s differs", what, x.Project.ConfigDisplay, f.name)
			}
		}
	}
}

// TestSharedFindings: the later checks' findings share Found's values
// (share.go), and the results are those of the three sets held apart,
// value for value, on a generated app and on the corpus.
func TestSharedFindings(t *testing.T) {
	dir := t.TempDir()
	denseTree(t, filepath.Join(dir, "dense"), 48)
	ps := []*project.Project{project.NewLoader().Load(filepath.Join(dir, "dense", "fw.config.ts"), "dense/fw.config.ts")}
	if !testing.Short() {
		ps = append(ps, corpusProjects(t, filepath.Join(dir, "corpus"))...)
	}
	run := func(share bool) []*migrate.Result {
		defer func(was bool) { knobs.ShareFindings = was }(knobs.ShareFindings)
		knobs.ShareFindings = share
		return migrate.Run(ps, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, DryRun: true})
	}
	apart, shared := run(false), run(true)
	sameResults(t, "shared", apart, shared)

	// The dense app's code fixes are made from the last check: shared,
	// they are Found's values; apart, none is.
	in := func(r *migrate.Result) int {
		found := map[*rules.Diagnostic]bool{}
		for _, d := range r.Found {
			found[d] = true
		}
		n := 0
		for _, f := range r.Fixed {
			if found[f.D] {
				n++
			}
		}
		return n
	}
	a, s := apart[0], shared[0]
	if a.Bumped != 4 || len(a.CodeEdits) == 0 {
		t.Fatalf("the dense app is not bumped with code fixes: bumped %d, %d code files", a.Bumped, len(a.CodeEdits))
	}
	if n := in(a); n != 0 || a.Shared != 0 {
		t.Errorf("apart: %d fixes are Found's values, %d shared", n, a.Shared)
	}
	if n := in(s); n < len(s.Fixed)*9/10 || s.Shared < len(s.Found)*9/10 {
		t.Errorf("shared: %d of %d fixes are Found's values, %d of the later findings shared (Found: %d)", n, len(s.Fixed), s.Shared, len(s.Found))
	}
}

// TestStreamDryRun: with Stream, a dry run of a monorepo reports each
// project before the projects after it are planned (one CPU: strictly one
// at a time; more: never more than one per CPU ahead), releases it once
// reported, and reports what the run that plans everything first does.
func TestStreamDryRun(t *testing.T) {
	dir := t.TempDir()
	const n = 4
	l := project.NewLoader()
	var ps []*project.Project
	for k := 0; k < n; k++ {
		rel := fmt.Sprintf("p%d", k)
		denseTree(t, filepath.Join(dir, rel), 12)
		ps = append(ps, l.Load(filepath.Join(dir, rel, "fw.config.ts"), rel+"/fw.config.ts"))
	}
	o := migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, DryRun: true}
	whole := migrate.Run(ps, nil, o)

	for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
		t.Run(fmt.Sprintf("procs=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			var (
				mu                sync.Mutex
				events            []string
				planned, streamed int
			)
			var got []*migrate.Result
			oo := o
			oo.Planned = func(r *migrate.Result) {
				mu.Lock() // called on the workers
				defer mu.Unlock()
				planned++
				events = append(events, "plan "+r.Project.ConfigDisplay)
			}
			oo.Stream = func(r *migrate.Result) {
				mu.Lock()
				streamed++
				events = append(events, "stream "+r.Project.ConfigDisplay)
				if planned > streamed+procs-1 {
					t.Errorf("%d planned when %d is streamed: %s", planned, streamed, strings.Join(events, ", "))
				}
				mu.Unlock()
				c := *r // what Stream sees, before Release
				got = append(got, &c)
			}
			rs := migrate.Run(ps, nil, oo)
			if procs == 1 {
				var want []string
				for _, p := range ps {
					want = append(want, "plan "+p.ConfigDisplay, "stream "+p.ConfigDisplay)
				}
				if strings.Join(events, "\n") != strings.Join(want, "\n") {
					t.Errorf("events:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
				}
			}
			sameResults(t, "streamed", whole, got)
			for _, r := range rs {
				if r.Plan != nil || r.Found != nil || r.Diff != "" || !r.Changed() {
					t.Errorf("%s: not released after it was streamed, or no longer Changed", r.Project.ConfigDisplay)
				}
			}
		})
	}
}
