package migrate_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// guardTree writes a repository of projects in layout B (a move and code
// fixes each), commits it, and leaves uncommitted changes in some: a
// modified config, a staged one, an untracked file in a folder the move
// takes, a modified page the code fixes edit, an untracked project.
func guardTree(t *testing.T, dir string) []string {
	t.Helper()
	files := map[string]string{}
	var names []string
	for i := 0; i < 8; i++ {
		name := fmt.Sprintf("p%d", i)
		names = append(names, name)
		for f, src := range testtree.LayoutB(12) {
			files[name+"/"+f] = src
		}
		files[name+"/package.json"] = `{"dependencies": {"fw": "^3.12.0"}}`
		files[name+"/pages/data.vue"] = "<script setup>\nconst { data } = await useFetch('/api')\nconst ok = data.value === null\n</script>\n"
	}
	testtree.WriteMap(t, dir, files)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "init")
	appendTo := func(rel, text string) {
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	appendTo("p1/fw.config.ts", "// edited\n")
	appendTo("p2/fw.config.ts", "// staged\n")
	git(t, dir, "add", "p2/fw.config.ts")
	testtree.WriteMap(t, dir, map[string]string{"p3/components/New.vue": "<template><p/></template>\n", "p7/fw.config.ts": "export default defineFwConfig({})\n", "p7/pages/x.vue": "<template><p/></template>\n"})
	appendTo("p4/pages/data.vue", "<!-- edited -->\n")
	return names
}

// applyTree applies every project of dir and returns what the report says
// of each, and how many times git status ran.
func applyTree(t *testing.T, dir string, names []string) string {
	t.Helper()
	var projects []*project.Project
	l := project.NewLoader()
	for _, n := range names {
		projects = append(projects, l.Load(filepath.Join(dir, n, "fw.config.ts"), n+"/fw.config.ts"))
	}
	res := migrate.Run(projects, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove})
	var b strings.Builder
	for _, r := range res {
		fmt.Fprintf(&b, "%s written %v fatal %v err %q\n", r.Project.ConfigDisplay, r.Written, r.Fatal, r.Err)
	}
	return b.String()
}

// TestGitGuardOneStatus: apply over a monorepo asks git status once for
// the repository, and each project is written or refused, with the same
// words, as when each was asked about alone.
func TestGitGuardOneStatus(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	alone, one := t.TempDir(), t.TempDir()
	names := guardTree(t, alone)
	guardTree(t, one)

	knobs.PerProjectGuard = true
	want := applyTree(t, alone, names)
	knobs.PerProjectGuard = false

	// A git that logs its subcommands.
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in status|rev-parse) echo \"$a\" >> '" + log + "';; esac; done\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	got := applyTree(t, one, names)
	if got != want {
		t.Errorf("one status:\n%s\nalone:\n%s", got, want)
	}
	for _, p := range []string{"p0", "p5", "p6"} {
		if !strings.Contains(want, p+"/fw.config.ts written true") {
			t.Errorf("%s was not written:\n%s", p, want)
		}
	}
	for _, p := range []string{"p1", "p2", "p3", "p4", "p7"} {
		if !strings.Contains(want, p+"/fw.config.ts written false fatal true err \"not written: uncommitted changes in ") {
			t.Errorf("%s was not refused:\n%s", p, want)
		}
	}
	b, _ := os.ReadFile(log)
	runs := strings.Fields(string(b))
	status := strings.Count(string(b), "status")
	// One status of the repository, one of each refused project (its
	// words), one rev-parse of each of those and one for the repository.
	if status != 1+5 || len(runs)-status != 1+5 {
		t.Errorf("git ran %v", runs)
	}
}
