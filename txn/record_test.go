package txn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// placed writes a journal for a plan of root and puts it in place, bound
// by its run record, as a run that stops right after its journal is
// durable leaves it; it returns the journal's text.
func placed(t *testing.T, root string) []byte {
	t.Helper()
	h, herr := journalHome(root)
	o, err := prepare(root, h, herr, "fw.config.ts", &Plan{Root: root}, nil)
	must(t, err)
	must(t, syncAll(o.texts()...))
	must(t, o.placeJournal())
	data, err := os.ReadFile(h.journal)
	must(t, err)
	return data
}

// TestRunRecord: a run writes its record as a link whose target is the
// record's text (short enough to be kept in the link's inode), and a
// journal is bound by it, by a file holding the same text (where no link
// can be made), or by the record of earlier versions; by nothing else.
func TestRunRecord(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	data := placed(t, root)
	rec, err := runRecord(root)
	must(t, err)
	target, err := os.Readlink(rec)
	if err != nil {
		if canLink(t) {
			t.Fatalf("the run record is not a link: %v", err)
		}
		// No link can be made here: the record is a file.
		b, rerr := os.ReadFile(rec)
		must(t, rerr)
		target = string(b)
	}
	if target != recordText(data) || len(target) >= 60 {
		t.Fatalf("the record's text is %q (%d bytes), want %q, under 60 bytes", target, len(target), recordText(data))
	}
	h, err := journalHome(root)
	must(t, err)
	j, err := readJournal(root, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		text  string
		bound bool
	}{
		{"a file with the link's text", recordText(data), true},
		{"the record of earlier versions", string(encodeRun(j.id, root, data)), true},
		{"another journal's record", recordText([]byte("another journal")), false},
		{"the record of earlier versions, another id", string(encodeRun("0123", root, data)), false},
		{"empty", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			must(t, os.Remove(rec))
			must(t, os.WriteFile(rec, []byte(c.text), 0o600))
			_, err := Pending(root)
			var re *RefusedError
			switch {
			case c.bound && err != nil:
				t.Errorf("refused: %v", err)
			case !c.bound && (!errors.As(err, &re) || !strings.Contains(re.Reason, "names another")):
				t.Errorf("got %v, want a refusal naming another journal", err)
			}
		})
	}
	t.Run("another link", func(t *testing.T) {
		if !canLink(t) {
			t.Skip("no link can be made here")
		}
		must(t, os.Remove(rec))
		must(t, os.Symlink(recordText([]byte("another journal")), rec))
		if _, err := Pending(root); err == nil {
			t.Error("a journal bound by another journal's record is not refused")
		}
	})
	t.Run("a folder", func(t *testing.T) {
		must(t, os.Remove(rec))
		must(t, os.Mkdir(rec, 0o700))
		var re *RefusedError
		if _, err := Pending(root); !errors.As(err, &re) || !strings.Contains(re.Reason, "is not a run record") {
			t.Errorf("got %v, want a refusal", err)
		}
	})
}

// canLink reports whether a symbolic link can be made here (not on
// Windows without the privilege).
func canLink(t *testing.T) bool {
	return os.Symlink("x", filepath.Join(t.TempDir(), "link")) == nil
}
