package txn

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestForwardDirs checks that CommitAll's barrier after the renames covers
// every directory whose entries a forward pass changes (forwardDirs): each
// directory of the tree is listed, with the inode of every entry, before
// and after Forward, directories known by their inode (a moved one is the
// same directory), and every one whose list differs (an entry added,
// removed, or replaced by another file) or that is new must be in
// forwardDirs, which names only directories that exist once the pass is
// done or that it removes.
func TestForwardDirs(t *testing.T) {
	dir, p := freshPlan(t, 3)
	before := dirEntries(t, dir)
	must(t, p.Forward(Exec{Tag: newTag()}))
	after := dirEntries(t, dir)
	paths := map[string]bool{}
	var want []string
	for ino, d := range after {
		paths[d.path] = true
		if b, ok := before[ino]; !ok || b.list != d.list {
			want = append(want, d.path)
		}
	}
	for _, rd := range p.Rmdirs {
		paths[rd.Path] = true // gone: the barrier passes over it
	}
	got := map[string]bool{}
	for _, d := range p.forwardDirs() {
		got[d] = true
		if !paths[d] {
			t.Errorf("forwardDirs names %s, which is neither a directory after the pass nor one it removes", d)
		}
	}
	var missing []string
	for _, d := range want {
		if !got[d] {
			missing = append(missing, d)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("directories changed by the pass but not synced by CommitAll's barrier: %s", strings.Join(missing, ", "))
	}
	if len(want) < 5 {
		t.Errorf("only %d directories changed: the plan does not exercise the barrier", len(want))
	}
}

type dirList struct{ path, list string }

// dirEntries lists every directory under root (root included) by its inode
// number, with its path and the names and inode numbers of its entries.
func dirEntries(t *testing.T, root string) map[uint64]dirList {
	t.Helper()
	ino := func(info os.FileInfo) uint64 {
		s, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			t.Skip("no inode numbers here")
		}
		return s.Ino
	}
	out := map[uint64]dirList{}
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || !info.IsDir() {
			return err
		}
		ents, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, e := range ents {
			st, err := os.Lstat(filepath.Join(path, e.Name()))
			if err != nil {
				return err
			}
			b.WriteString(e.Name() + "@" + strconv.FormatUint(ino(st), 10) + "\n")
		}
		out[ino(info)] = dirList{path, b.String()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMkdirAllMade: mkdirAll returns the parent of each folder it made
// (nothing for a folder already there), and prepare keeps them for the
// first barrier: on the first run in a state folder, the state folder's
// entries for fwmigrate/, journals/ and runs/ are synced with the texts.
func TestMkdirAllMade(t *testing.T) {
	dir := t.TempDir()
	made, err := mkdirAll(filepath.Join(dir, "a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{dir, filepath.Join(dir, "a"), filepath.Join(dir, "a", "b")}
	sort.Strings(made)
	if !reflect.DeepEqual(made, want) {
		t.Errorf("made %q, want %q", made, want)
	}
	if made, err := mkdirAll(filepath.Join(dir, "a", "b")); err != nil || len(made) != 0 {
		t.Errorf("a folder already there: made %q, %v", made, err)
	}

	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	root := t.TempDir()
	home, herr := journalHome(root)
	o, err := prepare(root, home, herr, "fw.config.ts", &Plan{Root: root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer o.fail(nil)
	got := map[string]bool{}
	for _, d := range append(o.recMade, o.homeMade...) {
		got[d] = true
	}
	for _, d := range []string{state, filepath.Join(state, "fwmigrate")} {
		if !got[d] {
			t.Errorf("prepare made folders in %s without noting it: %q %q", d, o.recMade, o.homeMade)
		}
	}
}
