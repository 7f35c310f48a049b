package move_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// TestConflicts covers what txtar cannot hold (symlinks) and the input
// checks.
func TestConflicts(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) move.Input
		want  []string // substrings of the conflicts, in order; none: no conflict
	}{
		{"moved symlink with a relative target", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "shared-ui/A.vue")
			must(t, os.Symlink("shared-ui", filepath.Join(dir, "components")))
			return defaultInput(dir)
		}, []string{"components: symlink to shared-ui would point elsewhere"}},
		{"symlink inside a moved dir, to a moved file", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "utils/x.ts")
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("../utils/x.ts", filepath.Join(dir, "components/x.ts")))
			return defaultInput(dir)
		}, nil},
		{"symlink inside a moved dir, to a staying file", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "server/x.ts")
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("../server/x.ts", filepath.Join(dir, "components/x.ts")))
			return defaultInput(dir)
		}, []string{"components/x.ts: symlink to ../server/x.ts would point elsewhere"}},
		{"absolute symlink to a file outside", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("/etc/hostname", filepath.Join(dir, "components/host")))
			return defaultInput(dir)
		}, nil},
		{"absolute symlink to a moved file", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink(filepath.Join(dir, "components/A.vue"), filepath.Join(dir, "components/B.vue")))
			return defaultInput(dir)
		}, []string{"components/B.vue: symlink to"}},
		{"target is a symlink", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "pages/index.vue")
			mkfile(t, dir, "elsewhere/.keep")
			must(t, os.Symlink("elsewhere", filepath.Join(dir, "app")))
			return defaultInput(dir)
		}, []string{"app: is a symlink"}},
		{"target is a file", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "pages/index.vue")
			mkfile(t, dir, "app")
			return defaultInput(dir)
		}, []string{"app: is not a directory"}},
		{"dir outside the root", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "pages/index.vue")
			in := defaultInput(dir)
			in.Dirs = map[string]string{"layouts": filepath.Join(filepath.Dir(dir), "shared-layouts")}
			return in
		}, []string{"dir.layouts resolves outside the project root"}},
		{"also escapes", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "pages/index.vue")
			in := defaultInput(dir)
			in.Also = []string{"../x", "server", "missing"}
			return in
		}, []string{"--also takes folders inside srcDir", "--also=server: server stays", "--also=missing"}},
		{"target outside the root", func(t *testing.T, dir string) move.Input {
			in := defaultInput(dir)
			in.Target = filepath.Dir(dir)
			return in
		}, []string{"the target must be a folder inside the project root"}},
		{"a layer inside a moved folder", func(t *testing.T, dir string) move.Input {
			mkfile(t, dir, "components/base-layer/fw.config.ts")
			in := defaultInput(dir)
			in.Layers = []string{filepath.Join(dir, "components/base-layer")}
			return in
		}, []string{"components/base-layer: a local layer cannot move"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			in := tt.setup(t, dir)
			before := snapshot(t, dir)
			p, err := move.PlanMove(in)
			if err != nil {
				t.Fatal(err)
			}
			got := relConflicts(dir, p.Conflicts)
			lines := strings.Split(strings.TrimSpace(got), "\n")
			if len(tt.want) == 0 {
				if got != "" {
					t.Fatalf("unexpected conflicts:\n%s", got)
				}
				return
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("got conflicts:\n%s\nwant %q", got, tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("conflict %d: %q lacks %q", i, lines[i], w)
				}
			}
			var ce *move.ConflictError
			if err := execute(p); !errors.As(err, &ce) {
				t.Fatalf("execute: %v", err)
			}
			if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
				t.Fatalf("tree changed:\n%s", d)
			}
		})
	}
}

// TestSymlinkMovesAsLink checks that a valid symlink inside a moved folder
// is moved as the link, still pointing at the same file.
func TestSymlinkMovesAsLink(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "utils/x.ts")
	mkfile(t, dir, "components/A.vue")
	must(t, os.Symlink("../utils/x.ts", filepath.Join(dir, "components/x.ts")))
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	must(t, execute(p))
	dest, err := os.Readlink(filepath.Join(dir, "app/components/x.ts"))
	if err != nil || dest != "../utils/x.ts" {
		t.Fatalf("link: %q, %v", dest, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "app/components/x.ts")); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidInput(t *testing.T) {
	for _, in := range []move.Input{
		{Root: "rel", SrcDir: "/x", Target: "/x/app"},
		{Root: "/x/", SrcDir: "/x", Target: "/x/app"},
		{Root: "/x", SrcDir: "", Target: "/x/app"},
	} {
		if _, err := move.PlanMove(in); err == nil {
			t.Errorf("%+v: no error", in)
		}
	}
	if _, err := move.PlanMove(move.Input{Root: "/nonexistent-fwmigrate", SrcDir: "/nonexistent-fwmigrate", Target: "/nonexistent-fwmigrate/app"}); err == nil {
		t.Error("missing root: no error")
	}
}

func defaultInput(dir string) move.Input {
	return move.Input{Root: dir, SrcDir: dir, Target: filepath.Join(dir, "app")}
}

// mkfile writes the file name (slash-separated) under dir, with one line.
func mkfile(t *testing.T, dir, name string) {
	t.Helper()
	testtree.Map(t, dir, map[string]string{name: "x\n"})
}

// TestOldAppOfKeptSrcDir: a custom srcDir that stays (the target is srcDir
// itself): its old dir.app folder merges into srcDir and goes, and the
// transaction records the folder's mode, which a rollback gives back
// (txn's TestRollback).
func TestOldAppOfKeptSrcDir(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "src/pages/index.vue")
	mkfile(t, dir, "src/app/router.options.ts")
	must(t, os.Chmod(filepath.Join(dir, "src/app"), 0o700))
	src := filepath.Join(dir, "src")
	p, err := move.PlanMove(move.Input{Root: dir, SrcDir: src, Target: src})
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	want := "move src/app/router.options.ts -> src/router.options.ts\nrmdir src/app/\n"
	if got := p.Diff(); got != want {
		t.Fatalf("plan:\n%s\nwant:\n%s", got, want)
	}
	tx, err := p.Txn()
	must(t, err)
	if len(tx.Rmdirs) != 1 || tx.Rmdirs[0].Path != filepath.Join(src, "app") || tx.Rmdirs[0].Mode.Perm() != 0o700 {
		t.Fatalf("rmdirs %+v, want src/app with mode 0700", tx.Rmdirs)
	}
	must(t, execute(p))
	if _, err := os.Stat(filepath.Join(src, "router.options.ts")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(src, "app")); err == nil {
		t.Errorf("src/app is still there")
	}
}
