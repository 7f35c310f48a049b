package txn

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// The tests' transaction is made by hand over a small tree, with every kind
// of step the move into app/ makes: directories created (nested), moved
// directories, files and symlinks, emptied directories removed (with modes
// a rollback must give back), and edits at moved and staying paths whose
// permission bits must survive. (Set-user-ID, set-group-ID and sticky bits
// are never written: TestNoSpecialBits.) gen files are edited where they move: from syncBatch
// edits on, they are written in two passes around one syncfs.

// writeTree writes the tests' tree under dir, with gen generated files.
func writeTree(tb testing.TB, dir string, gen int) {
	tb.Helper()
	files := map[string]string{
		"components/A.vue":          "<template>a</template>\n",
		"components/nested/B.vue":   "<template>b</template>\n",
		"utils/x.ts":                "export const x = 1\n",
		"app.vue":                   "<template><A /></template>\n",
		"lib/util.ts":               "import { x } from '../utils/x'\n",
		"src/layouts/default.vue":   "<template><slot /></template>\n",
		"server/api/a.ts":           "import { x } from '../../utils/x'\n",
		"tsconfig.json":             "{ \"include\": [\"components\"] }\n",
		"bin/run.sh":                "#!/bin/sh\n",
		"public/theme.css":          "body {}\n",
		"components/gen/.gitignore": "",
	}
	for i := range gen {
		src := fmt.Sprintf("<script>import '../../utils/x' // %d</script>\n", i)
		if i%10 == 2 && i < 100 {
			// Files of 64 KB: g002, g012, ..., the edit at the middle
			// of the big plan (edits/2) among them.
			src += "<!-- " + strings.Repeat("x", 64<<10) + " -->\n"
		}
		files[fmt.Sprintf("components/gen/g%03d.vue", i)] = src
	}
	testtree.Map(tb, dir, files)
	for name, mode := range map[string]fs.FileMode{
		"utils": 0o750, "lib": 0o700, "src": 0o750,
		"tsconfig.json": 0o600, "bin/run.sh": 0o755,
	} {
		if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
			tb.Fatal(err)
		}
	}
	for link, dest := range map[string]string{"components/x.ts": "../utils/x.ts", "theme.css": "public/theme.css"} {
		if err := os.Symlink(dest, filepath.Join(dir, link)); err != nil {
			tb.Fatal(err)
		}
	}
}

// planTree is the tests' transaction over the tree writeTree wrote in dir,
// read from it as a planner reads it.
func planTree(dir string) (*Plan, error) {
	at := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	p := &Plan{Root: dir, Mkdirs: []string{at("app"), at("app/lib")}}
	for _, mv := range []struct {
		from, to string
		dir      bool
		link     bool
	}{
		{"components", "app/components", true, false},
		{"utils", "app/utils", true, false},
		{"app.vue", "app/app.vue", false, false},
		{"theme.css", "app/theme.css", false, true},
		{"lib/util.ts", "app/lib/util.ts", false, false},
		{"src/layouts", "app/layouts", true, false},
	} {
		p.Moves = append(p.Moves, Move{From: at(mv.from), To: at(mv.to), Dir: mv.dir, Link: mv.link})
	}
	for _, d := range []string{"lib", "src"} {
		st, err := os.Lstat(at(d))
		if err != nil {
			return nil, err
		}
		p.Rmdirs = append(p.Rmdirs, Rmdir{Path: at(d), Mode: st.Mode().Perm()})
	}
	edit := func(name, newName string) error {
		st, err := os.Lstat(at(name))
		if err != nil {
			return err
		}
		old, err := os.ReadFile(at(name))
		if err != nil {
			return err
		}
		p.Edits = append(p.Edits, Edit{Path: at(name), NewPath: at(newName), Old: old,
			New: []byte(strings.ReplaceAll(string(old), "utils/x", "app/utils/x") + "// edited\n"), Mode: st.Mode()})
		return nil
	}
	for _, e := range [][2]string{
		{"components/A.vue", "app/components/A.vue"},
		{"app.vue", "app/app.vue"},
		{"lib/util.ts", "app/lib/util.ts"},
		{"server/api/a.ts", "server/api/a.ts"},
		{"tsconfig.json", "tsconfig.json"},
		{"bin/run.sh", "bin/run.sh"},
	} {
		if err := edit(e[0], e[1]); err != nil {
			return nil, err
		}
	}
	gen, err := os.ReadDir(at("components/gen"))
	if err != nil {
		return nil, err
	}
	for _, g := range gen {
		if strings.HasSuffix(g.Name(), ".vue") {
			if err := edit("components/gen/"+g.Name(), "app/components/gen/"+g.Name()); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// freshPlan writes the tests' tree in a new directory and plans it.
func freshPlan(t *testing.T, gen int) (string, *Plan) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, gen)
	p, err := planTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}

func snapshot(t *testing.T, dir string) map[string]string { return testtree.Snapshot(t, dir) }

// diffTrees is testtree.DiffSnapshots, cut to its first lines.
// recoverJournal brings the tree of j to the start of its plan (back: Undo,
// which must keep no file) or to its end (Complete), and removes it.
func recoverJournal(t *testing.T, j *Journal, back bool) {
	t.Helper()
	if back {
		kept, err := j.Undo()
		must(t, err)
		if len(kept) > 0 {
			t.Fatalf("kept %q", kept)
		}
	} else {
		must(t, j.Complete())
	}
	must(t, j.Finish())
}

func diffTrees(want, got map[string]string) string {
	lines := strings.Split(testtree.DiffSnapshots(want, got), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("and %d more lines", len(lines)-20))
	}
	return strings.Join(lines, "\n")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// faultyFS fails the failAt-th mutating operation (1-based) with EACCES,
// and every one after it when failAll is set (so that the rollback fails
// too, as when the disk goes away). It syncs nothing.
type faultyFS struct {
	FS
	n       atomic.Int64 // edits are written concurrently
	failAt  int64
	failAll bool
	// errno is the error given (EACCES when 0); writesOnly makes failAll
	// fail the writes alone, as a full disk does (renames and removals
	// still work).
	errno      syscall.Errno
	writesOnly bool
	// noLinks makes every link fail with ENOTSUP, as on a file system
	// without hard links (not counted as an operation).
	noLinks bool
}

func (f *faultyFS) fail(op, path string) error {
	n := f.n.Add(1)
	if n == f.failAt || f.failAll && n > f.failAt && (!f.writesOnly || op == "write") {
		errno := f.errno
		if errno == 0 {
			errno = syscall.EACCES
		}
		return &fs.PathError{Op: op, Path: path, Err: errno}
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
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err.(*fs.PathError).Err}
	}
	return f.FS.Rename(oldpath, newpath)
}

// Link is not a write: it takes no room for data (a full disk lets it
// be), like a rename.
func (f *faultyFS) Link(oldname, newname string) error {
	if f.noLinks {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.ENOTSUP}
	}
	if err := f.fail("link", oldname); err != nil {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: err.(*fs.PathError).Err}
	}
	return f.FS.Link(oldname, newname)
}

func (f *faultyFS) WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error {
	if err := f.fail("write", name); err != nil {
		return err
	}
	return f.FS.WriteNew(name, data, perm, false)
}

// The syncs are skipped: they change nothing a test can look at short of
// a power cut, and on a shared disk they are most of the tests' time. Run
// with Exec.Sync, the steps still take the paths a durable run takes.
func (f *faultyFS) SyncDir(name string) error { return nil }
func (f *faultyFS) SyncFS(path string) error  { return nil }

// TestPlanTree keeps the tests' transaction honest: run whole, it gives
// the tree it is meant to, modes included.
func TestPlanTree(t *testing.T) {
	dir, p := freshPlan(t, 3)
	must(t, p.Run(Exec{Sync: true}))
	got := snapshot(t, dir)
	for name, want := range map[string]string{
		"app/components/A.vue":          "file -rw-r--r-- \"<template>a</template>\\n// edited\\n\"",
		"app/components/x.ts":           "link ../utils/x.ts",
		"app/theme.css":                 "link public/theme.css",
		"app/utils":                     "dir drwxr-x---",
		"app/lib/util.ts":               "file -rw-r--r-- \"import { x } from '../app/utils/x'\\n// edited\\n\"",
		"app/layouts/default.vue":       "file -rw-r--r-- \"<template><slot /></template>\\n\"",
		"tsconfig.json":                 "file -rw------- \"{ \\\"include\\\": [\\\"components\\\"] }\\n// edited\\n\"",
		"bin/run.sh":                    "file -rwxr-xr-x \"#!/bin/sh\\n// edited\\n\"",
		"app/components/gen/g001.vue":   "file -rw-r--r-- \"<script>import '../../app/utils/x' // 1</script>\\n// edited\\n\"",
		"server/api/a.ts":               "file -rw-r--r-- \"import { x } from '../../app/utils/x'\\n// edited\\n\"",
		"app/components/nested/B.vue":   "file -rw-r--r-- \"<template>b</template>\\n\"",
		"app/components/gen/.gitignore": "file -rw-r--r-- \"\"",
	} {
		if got[name] != want {
			t.Errorf("%s: %s, want %s", name, got[name], want)
		}
	}
	for _, gone := range []string{"components", "utils", "lib", "src", "app.vue", "theme.css"} {
		if _, ok := got[gone]; ok {
			t.Errorf("%s is still there", gone)
		}
	}
}
