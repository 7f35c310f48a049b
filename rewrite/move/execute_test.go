package move

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// faultyFS fails the failAt-th mutating operation (1-based) with EACCES,
// and every one after it when failAll is set (so that the rollback fails
// too).
type faultyFS struct {
	FS
	n       atomic.Int64 // edits are written concurrently
	failAt  int64
	failAll bool
}

func (f *faultyFS) fail(op, path string) error {
	n := f.n.Add(1)
	if n == f.failAt || f.failAll && n > f.failAt {
		return &fs.PathError{Op: op, Path: path, Err: syscall.EACCES}
	}
	return nil
}

func (f *faultyFS) Mkdir(name string, perm fs.FileMode) error {
	if err := f.fail("mkdir", name); err != nil {
		return err
	}
	return f.FS.Mkdir(name, perm)
}

func (f *faultyFS) Remove(name string) error {
	if err := f.fail("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

func (f *faultyFS) Rename(oldpath, newpath string) error {
	if err := f.fail("rename", oldpath); err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EACCES}
	}
	return f.FS.Rename(oldpath, newpath)
}

func (f *faultyFS) WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error {
	if err := f.fail("write", name); err != nil {
		return err
	}
	return f.FS.WriteNew(name, data, perm, sync)
}

func fixtureTree(t *testing.T, name string) string {
	ar, err := txtar.ParseFile(filepath.Join("testdata", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testtree.Write(t, dir, ar, "in/")
	return dir
}

// TestRollback makes each step of a real plan fail in turn (a rename, a
// mkdir, a rmdir, a write): every time, the tree must be byte for byte as
// before, modes included. With -short, the plain fixture only.
func TestRollback(t *testing.T) {
	for _, fixture := range []struct{ name, src string }{{"plain", ""}, {"srcdir-src", "src"}} {
		if testing.Short() && fixture.name != "plain" {
			continue
		}
		t.Run(fixture.name, func(t *testing.T) {
			dir := fixtureTree(t, fixture.name)
			// Modes the rewrite must keep.
			must(t, os.Chmod(filepath.Join(dir, "tsconfig.json"), 0o600))
			must(t, os.Chmod(filepath.Join(dir, filepath.FromSlash(map[string]string{"plain": "utils", "srcdir-src": "src/utils"}[fixture.name])), 0o750))
			before := snapshot(t, dir)
			in := Input{Root: dir, SrcDir: filepath.Join(dir, fixture.src), Target: filepath.Join(dir, "app")}
			steps := 0
			for failAt := int64(1); ; failAt++ {
				p, err := PlanMove(in)
				if err != nil || len(p.Conflicts) > 0 {
					t.Fatal(err, p.Conflicts)
				}
				f := &faultyFS{FS: OS, failAt: failAt}
				err = p.ExecuteFS(f)
				if err == nil {
					steps = int(failAt - 1)
					break
				}
				if !errors.Is(err, syscall.EACCES) || !strings.Contains(err.Error(), "rolled back") {
					t.Fatalf("step %d: %v", failAt, err)
				}
				if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
					t.Fatalf("failure at step %d left the tree changed:\n%s", failAt, d)
				}
			}
			if steps < 10 {
				t.Fatalf("only %d steps exercised", steps)
			}
			after := snapshot(t, dir)
			if after["tsconfig.json"][:len("file -rw-------")] != "file -rw-------" {
				t.Errorf("tsconfig.json lost its mode: %s", after["tsconfig.json"][:20])
			}
		})
	}
}

// TestRollbackFails reports a rollback that cannot finish instead of
// claiming the tree is intact.
func TestRollbackFails(t *testing.T) {
	dir := fixtureTree(t, "plain")
	p, err := PlanMove(Input{Root: dir, SrcDir: dir, Target: filepath.Join(dir, "app")})
	if err != nil {
		t.Fatal(err)
	}
	err = p.ExecuteFS(&faultyFS{FS: OS, failAt: 4, failAll: true})
	if err == nil || !strings.Contains(err.Error(), "needs repair") {
		t.Fatalf("got %v", err)
	}
}

// TestStalePlan refuses to execute a plan when the tree changed after it
// was made.
func TestStalePlan(t *testing.T) {
	for _, change := range []struct {
		name string
		fn   func(dir string) error
	}{
		{"edited file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "server/api/hello.ts"), []byte("changed"), 0o644)
		}},
		{"target appeared", func(dir string) error { return os.MkdirAll(filepath.Join(dir, "app/pages"), 0o755) }},
		{"source gone", func(dir string) error { return os.RemoveAll(filepath.Join(dir, "layouts")) }},
	} {
		t.Run(change.name, func(t *testing.T) {
			dir := fixtureTree(t, "plain")
			p, err := PlanMove(Input{Root: dir, SrcDir: dir, Target: filepath.Join(dir, "app")})
			if err != nil {
				t.Fatal(err)
			}
			must(t, change.fn(dir))
			before := snapshot(t, dir)
			if err := p.Execute(); err == nil || !strings.Contains(err.Error(), "changed since") {
				t.Fatalf("got %v", err)
			}
			if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
				t.Fatalf("tree changed:\n%s", d)
			}
		})
	}
}

// TestConflicts covers what txtar cannot hold (symlinks) and the input
// checks.
func TestConflicts(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) Input
		want  []string // substrings of the conflicts, in order; none: no conflict
	}{
		{"moved symlink with a relative target", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "shared-ui/A.vue")
			must(t, os.Symlink("shared-ui", filepath.Join(dir, "components")))
			return defaultInput(dir)
		}, []string{"components: symlink to shared-ui would point elsewhere"}},
		{"symlink inside a moved dir, to a moved file", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "utils/x.ts")
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("../utils/x.ts", filepath.Join(dir, "components/x.ts")))
			return defaultInput(dir)
		}, nil},
		{"symlink inside a moved dir, to a staying file", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "server/x.ts")
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("../server/x.ts", filepath.Join(dir, "components/x.ts")))
			return defaultInput(dir)
		}, []string{"components/x.ts: symlink to ../server/x.ts would point elsewhere"}},
		{"absolute symlink to a file outside", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink("/etc/hostname", filepath.Join(dir, "components/host")))
			return defaultInput(dir)
		}, nil},
		{"absolute symlink to a moved file", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "components/A.vue")
			must(t, os.Symlink(filepath.Join(dir, "components/A.vue"), filepath.Join(dir, "components/B.vue")))
			return defaultInput(dir)
		}, []string{"components/B.vue: symlink to"}},
		{"target is a symlink", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "pages/index.vue")
			mkfile(t, dir, "elsewhere/.keep")
			must(t, os.Symlink("elsewhere", filepath.Join(dir, "app")))
			return defaultInput(dir)
		}, []string{"app: is a symlink"}},
		{"target is a file", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "pages/index.vue")
			mkfile(t, dir, "app")
			return defaultInput(dir)
		}, []string{"app: is not a directory"}},
		{"dir outside the root", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "pages/index.vue")
			in := defaultInput(dir)
			in.Dirs = map[string]string{"layouts": filepath.Join(filepath.Dir(dir), "shared-layouts")}
			return in
		}, []string{"dir.layouts resolves outside the project root"}},
		{"also escapes", func(t *testing.T, dir string) Input {
			mkfile(t, dir, "pages/index.vue")
			in := defaultInput(dir)
			in.Also = []string{"../x", "server", "missing"}
			return in
		}, []string{"--also takes folders inside srcDir", "--also=server: server stays", "--also=missing"}},
		{"target outside the root", func(t *testing.T, dir string) Input {
			in := defaultInput(dir)
			in.Target = filepath.Dir(dir)
			return in
		}, []string{"the target must be a folder inside the project root"}},
		{"a layer inside a moved folder", func(t *testing.T, dir string) Input {
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
			p, err := PlanMove(in)
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
			var ce *ConflictError
			if err := p.Execute(); !errors.As(err, &ce) {
				t.Fatalf("Execute: %v", err)
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
	p, err := PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	must(t, p.Execute())
	dest, err := os.Readlink(filepath.Join(dir, "app/components/x.ts"))
	if err != nil || dest != "../utils/x.ts" {
		t.Fatalf("link: %q, %v", dest, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "app/components/x.ts")); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidInput(t *testing.T) {
	for _, in := range []Input{
		{Root: "rel", SrcDir: "/x", Target: "/x/app"},
		{Root: "/x/", SrcDir: "/x", Target: "/x/app"},
		{Root: "/x", SrcDir: "", Target: "/x/app"},
	} {
		if _, err := PlanMove(in); err == nil {
			t.Errorf("%+v: no error", in)
		}
	}
	if _, err := PlanMove(Input{Root: "/nonexistent-fwmigrate", SrcDir: "/nonexistent-fwmigrate", Target: "/nonexistent-fwmigrate/app"}); err == nil {
		t.Error("missing root: no error")
	}
}

func defaultInput(dir string) Input {
	return Input{Root: dir, SrcDir: dir, Target: filepath.Join(dir, "app")}
}

// mkfile writes the file name (slash-separated) under dir, with one line.
func mkfile(t *testing.T, dir, name string) {
	t.Helper()
	testtree.Map(t, dir, map[string]string{name: "x\n"})
}

// TestOldAppOfKeptSrcDir: a custom srcDir that stays (the target is srcDir
// itself): its old dir.app folder merges into srcDir and goes, and a failure
// at any step restores it with its mode.
func TestOldAppOfKeptSrcDir(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "src/pages/index.vue")
	mkfile(t, dir, "src/app/router.options.ts")
	must(t, os.Chmod(filepath.Join(dir, "src/app"), 0o700))
	src := filepath.Join(dir, "src")
	before := snapshot(t, dir)
	p, err := PlanMove(Input{Root: dir, SrcDir: src, Target: src})
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	want := "move src/app/router.options.ts -> src/router.options.ts\nrmdir src/app/\n"
	if got := p.Diff(); got != want {
		t.Fatalf("plan:\n%s\nwant:\n%s", got, want)
	}
	for failAt := int64(1); failAt <= 2; failAt++ {
		if err := p.ExecuteFS(&faultyFS{FS: OS, failAt: failAt}); err == nil {
			t.Fatalf("step %d did not fail", failAt)
		}
		if d := diffSnapshots(before, snapshot(t, dir)); d != "" {
			t.Fatalf("step %d:\n%s", failAt, d)
		}
	}
	must(t, p.Execute())
	if _, err := os.Stat(filepath.Join(src, "router.options.ts")); err != nil {
		t.Fatal(err)
	}
}
