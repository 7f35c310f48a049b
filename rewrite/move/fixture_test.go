package move_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// A fixture is a txtar archive: in/ holds the tree before, out/ the tree
// after (absent when the plan must be refused), and the goldens "plan" (the
// dry-run output), "notes" and "conflicts". Its comment holds one line per
// run (several for a monorepo):
//
//	run: root=apps/a target=apps/a/app also=stores workspace=. src=src dirs.pages=routes
//	     layers=base v4paths server=src/server after.src=src
//
// Paths are relative to the archive root; root defaults to ".", src to
// root, target to root/app. after.src is the config's srcDir after the
// migration ("" when the config sets none), for the second run.
type run struct {
	in       move.Input
	afterSrc string // config srcDir after, relative to root
}

func parseRuns(t *testing.T, comment, dir string) []run {
	var runs []run
	for _, line := range strings.Split(comment, "\n") {
		rest, ok := strings.CutPrefix(line, "run:")
		if !ok {
			continue
		}
		kv := map[string]string{}
		for _, f := range strings.Fields(rest) {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
		root := abs(kv["root"])
		r := run{in: move.Input{Root: root, SrcDir: root, Target: filepath.Join(root, "app")}}
		for k, v := range kv {
			switch {
			case k == "root":
			case k == "src":
				r.in.SrcDir = filepath.Join(root, v)
			case k == "target":
				r.in.Target = filepath.Join(root, v)
			case k == "also":
				r.in.Also = strings.Split(v, ",")
			case k == "workspace":
				r.in.Workspace = abs(v)
			case k == "layers":
				for _, l := range strings.Split(v, ",") {
					r.in.Layers = append(r.in.Layers, filepath.Join(root, l))
				}
			case k == "v4paths":
				r.in.V4Paths = true
			case k == "server":
				r.in.ServerDir = filepath.Join(root, v)
			case k == "after.src":
				r.afterSrc = v
			case strings.HasPrefix(k, "dirs."):
				if r.in.Dirs == nil {
					r.in.Dirs = map[string]string{}
				}
				r.in.Dirs[k[5:]] = filepath.Join(r.in.SrcDir, v)
			default:
				t.Fatalf("unknown run key %q", k)
			}
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		t.Fatal("no run: line")
	}
	return runs
}

// snapshot lists every path under dir with its type, mode and content.
func snapshot(t *testing.T, dir string) map[string]string { return testtree.Snapshot(t, dir) }

func diffSnapshots(a, b map[string]string) string { return testtree.DiffSnapshots(a, b) }

// treeFiles returns the regular files under dir, as a txtar prefix tree.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// detectSrcDir is the version 4 srcDir detection of migration-facts §1, for
// checking that a migrated tree is layout A.
func detectSrcDir(root, configSrc string, dirs map[string]string) string {
	if configSrc != "" {
		return filepath.Join(root, configSrc)
	}
	app := filepath.Join(root, "app")
	if !isDir(app) {
		return root
	}
	ents, _ := os.ReadDir(app)
	n := 0
	for _, e := range ents {
		if e.Name() != "spa-loading-template.html" && !strings.HasPrefix(e.Name(), "router.options") {
			n++
		}
	}
	if n == 0 {
		for _, f := range []string{"app.vue", "App.vue"} {
			if _, err := os.Stat(filepath.Join(root, f)); err == nil {
				return root
			}
		}
		for _, k := range []string{"assets", "layouts", "middleware", "pages", "plugins"} {
			v := k
			if d, ok := dirs[k]; ok {
				v, _ = filepath.Rel(root, d)
			}
			if _, err := os.Stat(filepath.Join(root, v)); err == nil {
				return root
			}
		}
	}
	return app
}

func relConflicts(dir string, cs []move.Conflict) string {
	var b strings.Builder
	for _, c := range cs {
		r, err := filepath.Rel(dir, c.Path)
		if err != nil || strings.HasPrefix(r, "..") {
			r = c.Path
		}
		b.WriteString(filepath.ToSlash(r) + ": " + strings.ReplaceAll(c.Reason, dir+string(filepath.Separator), "") + "\n")
	}
	return b.String()
}

func TestFixtures(t *testing.T) {
	names, _ := filepath.Glob("testdata/*.txtar")
	if len(names) == 0 {
		t.Fatal("no fixtures")
	}
	for _, name := range names {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar := golden.Open(t, name)
			ar.Order = golden.ByRank(goldenRank)
			dir := t.TempDir()
			testtree.Write(t, dir, ar.Archive, "in/")
			before := snapshot(t, dir)
			runs := parseRuns(t, string(ar.Comment), dir)
			srcBefore := func(root string) string {
				for _, r := range runs {
					if r.in.Root == root {
						return r.in.SrcDir
					}
				}
				return root
			}
			okBefore, brokenBefore := resolveAll(t, dir, srcBefore, true)
			var plans, notes, conflicts strings.Builder
			refused := false
			for _, r := range runs {
				p, err := move.PlanMove(r.in)
				if err != nil {
					t.Fatal(err)
				}
				if len(runs) > 1 {
					rel, _ := filepath.Rel(dir, r.in.Root)
					fmt.Fprintf(&plans, "# %s\n", filepath.ToSlash(rel))
				}
				plans.WriteString(p.Diff())
				for _, n := range p.Notes {
					notes.WriteString(strings.ReplaceAll(n, dir+string(filepath.Separator), "") + "\n")
				}
				conflicts.WriteString(relConflicts(dir, p.Conflicts))
				err = execute(p)
				if len(p.Conflicts) > 0 {
					refused = true
					var ce *move.ConflictError
					if !errors.As(err, &ce) {
						t.Fatalf("execute of a plan with conflicts: %v", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got := map[string][]byte{}
			if refused {
				if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
					t.Fatalf("a refused plan changed the tree:\n%s", d)
				}
			} else {
				got = treeFiles(t, dir)
			}
			goldens := map[string][]byte{}
			for k, g := range map[string]string{"plan": plans.String(), "notes": notes.String(), "conflicts": conflicts.String()} {
				if g != "" {
					goldens[k] = []byte(g)
				}
			}
			for n, data := range got {
				goldens["out/"+n] = data
			}
			ar.Check(t, func(name string) bool { return goldenRank(name) > 0 }, goldens)
			if refused {
				return
			}

			// The second run plans nothing, and the tree is layout A.
			for _, r := range runs {
				src := detectSrcDir(r.in.Root, r.afterSrc, nil)
				if src != r.in.Target {
					t.Errorf("after the move, srcDir detects as %s, want %s", src, r.in.Target)
				}
				in := r.in
				in.SrcDir, in.Also, in.Dirs, in.ServerDir, in.V4Paths = src, nil, nil, "", true
				p, err := move.PlanMove(in)
				if err != nil {
					t.Fatal(err)
				}
				if !p.Empty() || len(p.Conflicts) > 0 {
					t.Errorf("second run is not empty:\n%s%v", p.Diff(), p.Conflicts)
				}
			}
			// Every import that resolved before resolves after.
			srcAfter := func(root string) string {
				for _, r := range runs {
					if r.in.Root == root {
						return r.in.Target
					}
				}
				return root
			}
			okAfter, brokenAfter := resolveAll(t, dir, srcAfter, false)
			if len(okAfter) < len(okBefore) || len(brokenAfter) > len(brokenBefore) || len(brokenAfter) > 0 && testing.Verbose() {
				t.Errorf("imports resolved before: %d (broken %q); after: %d (broken %q)", len(okBefore), brokenBefore, len(okAfter), brokenAfter)
			}
			checkSyntax(t, ar.Archive, got)
			checkGitApply(t, ar.Archive, runs, dir, got)
		})
	}
}

func compareTrees(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	for n, w := range want {
		if g, ok := got[n]; !ok {
			t.Errorf("missing %s", n)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s:\n--- got\n%s--- want\n%s", n, g, w)
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("unexpected %s", n)
		}
	}
}

// goldenRank orders a fixture's sections: the tree before (0), then the
// goldens plan, notes and conflicts, then the tree after.
func goldenRank(name string) int {
	switch {
	case name == "plan":
		return 1
	case name == "notes":
		return 2
	case name == "conflicts":
		return 3
	case strings.HasPrefix(name, "out/"):
		return 4
	}
	return 0
}

// checkSyntax passes every script the move edited through esbuild: an edit
// must never break a file.
func checkSyntax(t *testing.T, ar *txtar.Archive, got map[string][]byte) {
	loaders := map[string]api.Loader{".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS, ".tsx": api.LoaderTSX,
		".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS, ".jsx": api.LoaderJSX, ".css": api.LoaderCSS}
	for n, data := range got {
		loader, ok := loaders[filepath.Ext(n)]
		if !ok || slices.ContainsFunc(ar.Files, func(f txtar.File) bool { return f.Name == "in/"+n && bytes.Equal(f.Data, data) }) {
			continue
		}
		res := api.Transform(string(data), api.TransformOptions{Loader: loader, Sourcefile: n, LogLevel: api.LogLevelSilent})
		for _, e := range res.Errors {
			t.Errorf("%s: esbuild: %s", n, e.Text)
		}
	}
}

// checkGitApply replays the plan on a fresh copy the way a user would with
// the dry-run output: the moves by hand, then git apply of the diff. The
// result must be the tree execute produced.
func checkGitApply(t *testing.T, ar *txtar.Archive, runs []run, dir string, want map[string][]byte) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Log("git not found; dry-run output not checked with git apply")
		return
	}
	copyDir := t.TempDir()
	testtree.Write(t, copyDir, ar, "in/")
	for _, r := range runs {
		in := r.in
		re := func(p string) string {
			if p == "" {
				return ""
			}
			rel, _ := filepath.Rel(dir, p)
			return filepath.Join(copyDir, rel)
		}
		in.Root, in.SrcDir, in.Target, in.Workspace, in.ServerDir = re(in.Root), re(in.SrcDir), re(in.Target), re(in.Workspace), re(in.ServerDir)
		for i := range in.Layers {
			in.Layers[i] = re(in.Layers[i])
		}
		if in.Dirs != nil {
			dirs := map[string]string{}
			for k, v := range in.Dirs {
				dirs[k] = re(v)
			}
			in.Dirs = dirs
		}
		p, err := move.PlanMove(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range p.Mkdirs {
			must(t, os.Mkdir(d, 0o755))
		}
		for _, mv := range p.Moves {
			must(t, os.Rename(mv.From, mv.To))
		}
		for _, d := range p.Rmdirs {
			must(t, os.Remove(d))
		}
		diff := p.Diff()
		if !strings.Contains(diff, "diff --git") {
			continue
		}
		cmd := exec.Command(git, "apply", "--unsafe-paths", "-p1", "-")
		// Diff's paths are relative to the workspace when the root is in
		// it, else to the root (PlanMove).
		cmd.Dir = in.Root
		if in.Workspace != "" && pathx.WithinClean(in.Root, in.Workspace) {
			cmd.Dir = in.Workspace
		}
		cmd.Stdin = strings.NewReader(diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git apply: %v\n%s\n%s", err, out, diff)
		}
	}
	compareTrees(t, treeFiles(t, copyDir), want)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func isDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}
