package txn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreflightNames: a file whose temporary's name would be too long is
// refused before anything is written, by its project path.
func TestPreflightNames(t *testing.T) {
	dir, p := freshPlan(t, 3)
	long := filepath.Join(dir, strings.Repeat("n", 240)+".vue")
	if err := os.WriteFile(long, []byte("a"), 0o644); err != nil {
		t.Skip(err) // a file system with shorter names
	}
	p.Edits = append(p.Edits, Edit{Path: long, NewPath: long, Old: []byte("a"), New: []byte("b"), Mode: 0o644})
	before := snapshot(t, dir)
	err := p.Run(Exec{})
	if err == nil || !strings.Contains(err.Error(), "nothing written: ") || !strings.Contains(err.Error(), "its name is too long to be replaced safely") || !strings.Contains(err.Error(), "nnnn.vue") {
		t.Fatalf("got %v", err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("the tree changed:\n%s", d)
	}
}

// TestPreflightWritable: a folder the plan must write in and cannot is
// refused before anything is written. Root may write anywhere: the test
// needs another user.
func TestPreflightWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("as root every folder is writable")
	}
	dir, p := freshPlan(t, 3)
	ro := filepath.Dir(p.Edits[0].Path)
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(ro, 0o755)
	before := snapshot(t, dir)
	err := p.Run(Exec{})
	if err == nil || !strings.Contains(err.Error(), "cannot write in this folder") {
		t.Fatalf("got %v", err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("the tree changed:\n%s", d)
	}
}
