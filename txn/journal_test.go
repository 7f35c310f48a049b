package txn

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestJournalFormat: the journal of a plan is the text the format
// describes, byte for byte (so the journals earlier versions left are read
// as they were written), and it reads back as the same plan.
func TestJournalFormat(t *testing.T) {
	root := t.TempDir()
	at := func(name string) string { return filepath.Join(root, filepath.FromSlash(name)) }
	p := &Plan{
		Root:   root,
		Mkdirs: []string{at("app")},
		Moves: []Move{
			{From: at("components"), To: at("app/components"), Dir: true},
			{From: at("app.vue"), To: at("app/app.vue")},
			{From: at("theme.css"), To: at("app/theme.css"), Link: true},
		},
		Rmdirs: []Rmdir{{Path: at("src"), Mode: 0o750 | fs.ModeSetgid}},
		Edits: []Edit{
			{Path: at("app.vue"), NewPath: at("app/app.vue"), Old: []byte("a\n"), New: []byte("b\n"), Mode: 0o644},
			{Path: at("tab\t\"q\".ts"), NewPath: at("tab\t\"q\".ts"), Old: []byte("x\n"), New: []byte{}, Mode: 0o755 | fs.ModeSetuid},
		},
	}
	j := &Journal{root: root, id: "0123456789abcdef", config: "fw.config.ts", plan: p}
	data, err := j.encode()
	must(t, err)
	want := `fwmigrate journal 1
id 0123456789abcdef
config "fw.config.ts"
mkdir "app"
move "components" "app/components" dir
move "app.vue" "app/app.vue" file
move "theme.css" "app/theme.css" link
rmdir "src" 2750
edit "app.vue" "app/app.vue" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2
edit "tab\t\"q\".ts" "tab\t\"q\".ts" 4755 73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac 2 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 0
data
a
b
x
`
	if string(data) != want {
		t.Fatalf("journal:\n%s\nwant:\n%s", data, want)
	}
	back, err := decodeJournal(root, data)
	must(t, err)
	if back.id != j.id || back.config != j.config {
		t.Errorf("id %q config %q, want %q %q", back.id, back.config, j.id, j.config)
	}
	if !reflect.DeepEqual(back.plan, p) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", back.plan, p)
	}
}

// TestJournalDamaged: a journal that is not whole, or not this format's, is
// refused with the line at fault, before any step runs.
func TestJournalDamaged(t *testing.T) {
	root := t.TempDir()
	head := journalMagic + "\nid 0123\nconfig \"fw.config.ts\"\n"
	edit := "edit \"a.ts\" \"a.ts\" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2\n"
	for _, c := range []struct{ name, text, want string }{
		{"another format", "fwmigrate journal 2\nid 0123\ndata\n", "line 1: not a journal of this version"},
		{"no data section", head + "mkdir \"app\"\n", "no data section"},
		{"no id", journalMagic + "\nmkdir \"app\"\ndata\n", "no id"},
		{"unknown step", head + "chown \"app\"\ndata\n", "line 4: unknown step \"chown\""},
		{"bad mode", head + "rmdir \"src\" 0999\ndata\n", "invalid mode"},
		{"bad move kind", head + "move \"a\" \"b\" fifo\ndata\n", "unknown kind"},
		{"data cut short", head + edit + "data\na\n", "cut short"},
		{"data changed", head + edit + "data\na\nc\n", "does not match its hash"},
		{"data left over", head + edit + "data\na\nb\nmore", "left over"},
	} {
		_, err := decodeJournal(root, []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "the journal is damaged") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestJournalConfined: a journal naming a path outside the root (or
// through a symlink out of it) is refused whole, before any step runs; a
// name that merely starts with two dots is inside.
func TestJournalConfined(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(root, "out")))
	for _, step := range []string{
		`mkdir "../x"`,
		`mkdir ".."`,
		`mkdir "/etc/x"`,
		`move "a" "out/a" file`,
		`mkdir "a/../../x"`,
		`mkdir "./a"`,
	} {
		data := journalMagic + "\nid 0123\nconfig \"fw.config.ts\"\n" + step + "\ndata\n"
		if _, err := decodeJournal(root, []byte(data)); err == nil {
			t.Errorf("%s: accepted", step)
		}
	}
	for _, step := range []string{`mkdir "app"`, `mkdir "..x"`, `move "..a/b" "app/..b" file`} {
		data := journalMagic + "\nid 0123\nconfig \"fw.config.ts\"\n" + step + "\ndata\n"
		if _, err := decodeJournal(root, []byte(data)); err != nil {
			t.Errorf("%s: %v", step, err)
		}
	}
}

// TestJournalModes: the modes a journal records come back whole,
// set-user-ID, set-group-ID and sticky included, so that recovery keeps
// them as a run does.
func TestJournalModes(t *testing.T) {
	for _, m := range []fs.FileMode{0o644, 0o600, 0o755 | fs.ModeSetgid, 0o640 | fs.ModeSetuid | fs.ModeSticky, 0o777 | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky} {
		if got, ok := parseMode(fmt.Sprintf("%04o", unixMode(m))); !ok || got != m {
			t.Errorf("journal mode %v comes back as %v", m, got)
		}
	}
	for _, s := range []string{"10000", "0x1ff", "-1", "", "0o644"} {
		if _, ok := parseMode(s); ok {
			t.Errorf("%q read as a mode", s)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		want   bool
	}{
		{"/a", "/a", true},
		{"/a/b", "/a", true},
		{"/a/..x", "/a", true},
		{"/a/..", "/a/..", true},
		{"/ab", "/a", false},
		{"/a", "/a/b", false},
		{"/b/a", "/a", false},
		{"/a", "/", true},
	} {
		if got := within(c.p, c.dir); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.p, c.dir, got)
		}
	}
}

// TestCommit: a plan committed gives the tree a run gives, and leaves no
// journal; a second commit while a journal is there is refused.
func TestCommit(t *testing.T) {
	ref, p := freshPlan(t, 3)
	must(t, p.Run(Exec{}))
	want := snapshot(t, ref)

	dir, p := freshPlan(t, 3)
	kept, err := Commit(p, "fw.config.ts", nil)
	if err != nil || kept {
		t.Fatalf("kept %v, %v", kept, err)
	}
	if d := diffTrees(want, snapshot(t, dir)); d != "" {
		t.Fatalf("committed:\n%s", d)
	}
	if Pending(dir) != "" {
		t.Fatal("the journal is left")
	}

	dir, p = freshPlan(t, 3)
	must(t, os.MkdirAll(filepath.Join(dir, JournalDir), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, JournalDir, JournalFile), nil, 0o644))
	before := snapshot(t, dir)
	if _, err := Commit(p, "fw.config.ts", nil); err == nil || !strings.Contains(err.Error(), ".fw-migrate/journal exists: another apply is running") {
		t.Fatalf("got %v", err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("tree changed:\n%s", d)
	}
}

// TestCommitRollsBack: a file saved while the plan runs stops it; Commit
// undoes every step, keeps the saved file, says so, and removes its
// journal. In the batched run the other edits' temporaries are written by
// then.
func TestCommitRollsBack(t *testing.T) {
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			dir, p := freshPlan(t, size.gen)
			before := snapshot(t, dir)
			saved := p.Edits[0] // components/A.vue, written at app/components/A.vue
			_, err := Commit(p, "fw.config.ts", func(point string, i int) {
				if point == "replace" && p.Edits[i].Path == saved.Path {
					must(t, os.WriteFile(saved.NewPath, []byte("saved\n"), 0o644))
				}
			})
			want := "app/components/A.vue: changed since apply read it (edited while apply ran?): not overwritten; everything written was undone (kept as they are now: components/A.vue)"
			if err == nil || err.Error() != want {
				t.Fatalf("got %v\nwant %s", err, want)
			}
			before["components/A.vue"] = fmt.Sprintf("file -rw-r--r-- %q", "saved\n")
			if d := diffTrees(before, snapshot(t, dir)); d != "" {
				t.Fatalf("not undone:\n%s", d)
			}
		})
	}
}

// TestCommitConfined: a plan that reaches outside its root, through a
// symlink out of it, or writes through a symlink, is refused before its
// journal is written.
func TestCommitConfined(t *testing.T) {
	outside := t.TempDir()
	for _, c := range []struct {
		name string
		plan func(dir string) *Plan
		want string
	}{
		{"outside", func(dir string) *Plan {
			return &Plan{Root: dir, Mkdirs: []string{filepath.Join(dir, "../x")}}
		}, "lies outside the project"},
		{"prefix", func(dir string) *Plan {
			return &Plan{Root: dir, Mkdirs: []string{dir + "x"}}
		}, "lies outside the project"},
		{"through a symlink", func(dir string) *Plan {
			must(t, os.Symlink(outside, filepath.Join(dir, "out")))
			return &Plan{Root: dir, Moves: []Move{{From: filepath.Join(dir, "app.vue"), To: filepath.Join(dir, "out/app.vue")}}}
		}, "resolves to"},
		{"an edited symlink", func(dir string) *Plan {
			link := filepath.Join(dir, "theme.css")
			return &Plan{Root: dir, Edits: []Edit{{Path: link, NewPath: link, Old: []byte("body {}\n"), New: []byte("")}}}
		}, "is a symlink: apply does not write through it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, 0)
			p := c.plan(dir)
			before := snapshot(t, dir)
			if _, err := Commit(p, "fw.config.ts", nil); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if d := diffTrees(before, snapshot(t, dir)); d != "" {
				t.Fatalf("tree changed:\n%s", d)
			}
		})
	}
	// A name that starts with two dots is inside.
	dir := t.TempDir()
	p := &Plan{Root: dir, Mkdirs: []string{filepath.Join(dir, "..x")}}
	if _, err := Commit(p, "fw.config.ts", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "..x")); err != nil {
		t.Fatal(err)
	}
}

// The crash tests kill a run at chosen points and check what Open, then
// Complete or Undo, make of the tree. A crash must be a kill -9: no
// deferred function runs, no buffer is flushed, the other workers stop in
// the middle of whatever they do. So the run that crashes is a child
// process (this test binary again, see TestMain) whose hook calls os.Exit
// at the chosen point.

const (
	envCrashDir  = "FWMIGRATE_TXN_CRASH_DIR"  // the tree the child commits the tests' plan in
	envCrashAt   = "FWMIGRATE_TXN_CRASH_AT"   // point:index at which the child exits
	envCrashUndo = "FWMIGRATE_TXN_CRASH_UNDO" // the child undoes the journal there instead
	crashStatus  = 77                         // the child's exit status at the point
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envCrashDir); dir != "" {
		os.Exit(crashChild(dir))
	}
	os.Exit(m.Run())
}

// crashChild commits the tests' plan in dir (or undoes the journal left
// there), exiting with crashStatus at the point named by envCrashAt. It
// returns 0 when the run ends without reaching the point, 2 when it fails.
func crashChild(dir string) int {
	point, idx, _ := strings.Cut(os.Getenv(envCrashAt), ":")
	at, _ := strconv.Atoi(idx)
	hook := func(p string, i int) {
		if p == point && i == at {
			os.Exit(crashStatus)
		}
	}
	var err error
	if os.Getenv(envCrashUndo) != "" {
		var j *Journal
		if j, err = Open(dir, hook); err == nil {
			if _, err = j.Undo(); err == nil {
				err = j.Finish()
			}
		}
	} else {
		var p *Plan
		if p, err = planTree(dir); err == nil {
			_, err = Commit(p, "fw.config.ts", hook)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

// crashAt runs the child in dir, dying at point:i, and fails the test
// unless it did and left its journal.
func crashAt(t *testing.T, dir, point string, i int, undo bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashDir+"="+dir, fmt.Sprintf("%s=%s:%d", envCrashAt, point, i))
	if undo {
		cmd.Env = append(cmd.Env, envCrashUndo+"=1")
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != crashStatus {
		t.Fatalf("the child did not crash at %s:%d: %v\n%s", point, i, err, out)
	}
	if Pending(dir) == "" {
		t.Fatalf("crash at %s:%d left no journal", point, i)
	}
}

// TestCrash: a run killed at each kind of point (right after the journal,
// among the mkdirs, the moves, the rmdirs, the edits before a temporary is
// written and between writing it and renaming it, before the final syncs,
// before the journal is removed) is completed by Complete to the tree an
// uninterrupted run makes, byte for byte, and undone by Undo to the tree
// it found. An undo killed in its turn is finished by the next one, which
// RollingBack tells the next run to go on with. The batched plan's edits
// are written in two passes, as a big project's are.
func TestCrash(t *testing.T) {
	gen := syncBatch + 6
	ref, p := freshPlan(t, gen)
	before := snapshot(t, ref)
	if _, err := Commit(p, "fw.config.ts", nil); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, ref)
	edits := len(p.Edits)
	type point struct {
		name string
		i    int
	}
	points := []point{{"journal", 0}, {"mkdir", 1}, {"move", 3}, {"rmdir", 1}, {"edit", edits / 2}, {"replace", edits / 2}, {"sync", 0}, {"cleanup", 0}}
	undos := []point{{"undo-replace", edits / 2}, {"undo-move", 3}}
	if testing.Short() {
		points = []point{{"journal", 0}, {"move", 3}, {"replace", edits / 2}, {"cleanup", 0}}
		undos = undos[1:]
	}
	for _, pt := range points {
		for _, back := range []bool{false, true} {
			name := fmt.Sprintf("%s:%d", pt.name, pt.i)
			if back {
				name += "/undo"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				writeTree(t, dir, gen)
				crashAt(t, dir, pt.name, pt.i, false)
				j, err := Open(dir, nil)
				must(t, err)
				want := after
				if back {
					kept, err := j.Undo()
					must(t, err)
					if len(kept) > 0 {
						t.Errorf("kept %q", kept)
					}
					want = before
				} else {
					must(t, j.Complete())
				}
				must(t, j.Finish())
				if d := diffTrees(want, snapshot(t, dir)); d != "" {
					t.Fatalf("after the crash at %s:\n%s", name, d)
				}
			})
		}
	}
	for _, u := range undos {
		t.Run(fmt.Sprintf("%s:%d", u.name, u.i), func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, gen)
			crashAt(t, dir, "sync", 0, false) // every step done
			crashAt(t, dir, u.name, u.i, true)
			j, err := Open(dir, nil)
			must(t, err)
			if !j.RollingBack() {
				t.Error("the journal does not say a rollback began")
			}
			_, err = j.Undo()
			must(t, err)
			must(t, j.Finish())
			if d := diffTrees(before, snapshot(t, dir)); d != "" {
				t.Fatalf("after the crashed undo:\n%s", d)
			}
		})
	}
}
