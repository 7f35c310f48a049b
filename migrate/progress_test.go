package migrate_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// progressTree is a layout-B project on major 3 whose pages have a safe
// code fix (FW601) and code that depends on a default version 4 changes
// (FW603: useAsyncData's deep).
func progressTree(t *testing.T) string {
	dir := t.TempDir()
	page := "<script setup lang=\"ts\">\nconst { data: posts } = await useFetch('/api/posts')\nconst ready = posts.value !== null\nfunction add(p) { posts.value.push(p) }\n</script>\n"
	testtree.Map(t, dir, map[string]string{
		"package.json":    `{"dependencies": {"fw": "^3.12.0"}}`,
		"fw.config.ts":    "export default defineFwConfig({})\n",
		"pages/index.vue": page,
		"pages/about.vue": page,
	})
	return dir
}

func runTree(dir string, o migrate.Options) []*migrate.Result {
	p := project.NewLoader().Load(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	o.Rules = rules.Options{Target: 4}
	o.Layout = migrate.LayoutMove
	o.AllowDirty = true
	return migrate.Run([]*project.Project{p}, nil, o)
}

// TestConfirm: Confirm is asked once everything is planned and before
// anything is written; false writes nothing, true writes what it was
// shown.
func TestConfirm(t *testing.T) {
	for _, yes := range []bool{false, true} {
		dir := progressTree(t)
		before := testtree.Snapshot(t, dir)
		asked := 0
		var shown *migrate.Result
		results := runTree(dir, migrate.Options{Confirm: func(rs []*migrate.Result) bool {
			asked++
			if got := testtree.Snapshot(t, dir); !equalTrees(got, before) {
				t.Errorf("written before Confirm")
			}
			shown = rs[0]
			return yes
		}})
		if asked != 1 {
			t.Fatalf("Confirm asked %d times", asked)
		}
		r := results[0]
		// The code edits: both pages and package.json (FW701's bump).
		if r != shown || r.Plan == nil || len(r.Fixed) == 0 || len(r.CodeEdits) != 3 {
			t.Fatalf("Confirm was not shown the plan: %+v", shown)
		}
		after := testtree.Snapshot(t, dir)
		if yes != !equalTrees(after, before) || r.Written != yes {
			t.Errorf("answer %v: written %v (tree changed %v)", yes, r.Written, !equalTrees(after, before))
		}
	}
	// Not asked with DryRun.
	dir := progressTree(t)
	runTree(dir, migrate.Options{DryRun: true, Confirm: func([]*migrate.Result) bool { t.Error("asked with DryRun"); return false }})
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestProgressEvents: a run tells its steps in order, with their counts.
func TestProgressEvents(t *testing.T) {
	var mu sync.Mutex
	var steps []string
	last := map[string]migrate.Event{}
	record := func(ev migrate.Event) {
		mu.Lock()
		defer mu.Unlock()
		if len(steps) == 0 || steps[len(steps)-1] != ev.Step {
			steps = append(steps, ev.Step)
		}
		last[ev.Step] = ev
	}
	runTree(progressTree(t), migrate.Options{Progress: record})
	if got, want := strings.Join(steps, " "), "plan check edit ready write"; got != want {
		t.Errorf("steps %q, want %q", got, want)
	}
	// Both pages and package.json (FW701's bump of fw).
	if ev := last[migrate.StepEdit]; ev.Done != 3 || ev.Total != 3 || ev.Project != "fw.config.ts" {
		t.Errorf("edit: %+v, want 3 of 3 files of fw.config.ts", ev)
	}
	// The move of pages/ and the edits of package.json and both pages:
	// with the bump to major 4, the config has nothing to change (its
	// compatibility version 4 is the default there).
	if ev := last[migrate.StepWrite]; ev.Done != ev.Total || ev.Total != 4 {
		t.Errorf("write: %+v, want 4 of 4", ev)
	}
	steps = nil
	runTree(progressTree(t), migrate.Options{Progress: record, DryRun: true})
	if got, want := strings.Join(steps, " "), "plan check edit ready diff"; got != want {
		t.Errorf("dry run: steps %q, want %q", got, want)
	}
}

// TestAffectedPins: the pins --pin=affected would add are those of the
// defaults whose sites are still in the code.
func TestAffectedPins(t *testing.T) {
	results := runTree(progressTree(t), migrate.Options{DryRun: true})
	pins, cannot := results[0].AffectedPins(migrate.Options{})
	var got []string
	for _, d := range pins {
		got = append(got, d.Option+" = "+d.Fix.Description)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "experimental.defaults.useAsyncData.deep = pin `experimental.defaults.useAsyncData.deep: true`") {
		t.Errorf("pins %q, want useAsyncData's deep pinned to true", got)
	}
	if len(cannot) != 0 {
		t.Errorf("cannot %+v", cannot)
	}
}

// TestConfirmAfterGitGuard: Confirm is shown the git guard's answer (issue
// 24): a project with uncommitted changes is refused in the plan, with the
// reason apply gives without a question, and a yes writes nothing of it.
func TestConfirmAfterGitGuard(t *testing.T) {
	dir := progressTree(t)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "init")
	testtree.WriteMap(t, dir, map[string]string{"fw.config.ts": "export default defineFwConfig({})\n// edited\n"})
	before := testtree.Snapshot(t, dir)
	var shown string
	results := runGuarded(dir, migrate.Options{Confirm: func(rs []*migrate.Result) bool {
		shown = rs[0].Err
		return true
	}})
	const want = "not written: uncommitted changes in fw.config.ts (commit or stash them first, or use --allow-dirty)"
	if shown != want || results[0].Err != want || !results[0].Fatal || results[0].Written {
		t.Errorf("shown %q, result %q (fatal %v, written %v), want %q", shown, results[0].Err, results[0].Fatal, results[0].Written, want)
	}
	if after := testtree.Snapshot(t, dir); !equalTrees(after, before) {
		t.Errorf("written after the guard refused")
	}
	// Without a question, the same answer.
	if r := runGuarded(dir, migrate.Options{})[0]; r.Err != want || !r.Fatal {
		t.Errorf("without Confirm: %q (fatal %v)", r.Err, r.Fatal)
	}
}

// runGuarded is runTree with the git guard on.
func runGuarded(dir string, o migrate.Options) []*migrate.Result {
	p := project.NewLoader().Load(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	o.Rules = rules.Options{Target: 4}
	o.Layout = migrate.LayoutMove
	return migrate.Run([]*project.Project{p}, nil, o)
}
