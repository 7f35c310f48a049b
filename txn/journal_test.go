package txn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/crashtest"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestJournalFormat: the journal of a plan is the text the format
// describes, byte for byte, and it reads back as the same plan. Modes are
// permission bits only: a set-user-ID bit of the plan is not written.
func TestJournalFormat(t *testing.T) {
	root := t.TempDir()
	at := func(name string) string { return filepath.Join(root, filepath.FromSlash(name)) }
	p := &Plan{
		Root:   root,
		Mkdirs: []string{at("app")},
		Moves: []Move{
			{From: at("components"), To: at("app/components"), Dir: true},
			{From: at("app.vue"), To: at("app/app.vue")},
			{From: at("src/theme.css"), To: at("app/theme.css"), Link: true},
		},
		Rmdirs: []Rmdir{{Path: at("src"), Mode: 0o750}},
		Edits: []Edit{
			{Path: at("app.vue"), NewPath: at("app/app.vue"), Old: []byte("a\n"), New: []byte("b\n"), Mode: 0o644},
			{Path: at("tab\t\"q\".ts"), NewPath: at("tab\t\"q\".ts"), Old: []byte("x\n"), New: []byte{}, Mode: 0o755 | fs.ModeSetuid},
		},
	}
	j := &Journal{root: root, id: "0123456789abcdef", config: "fw.config.ts", plan: p}
	data, err := j.encode()
	must(t, err)
	want := `fwmigrate journal 2
id 0123456789abcdef
root ` + strconv.Quote(root) + `
config "fw.config.ts"
mkdir "app"
move "components" "app/components" dir
move "app.vue" "app/app.vue" file
move "src/theme.css" "app/theme.css" link
rmdir "src" 0750
edit "app.vue" "app/app.vue" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2
edit "tab\t\"q\".ts" "tab\t\"q\".ts" 0755 73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac 2 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 0
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
	p.Edits[1].Mode = 0o755
	if !reflect.DeepEqual(back.plan, p) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", back.plan, p)
	}
}

// journalHead is the start of a journal for root, before its steps.
func journalHead(root string) string {
	return journalMagic + "\nid 0123\nroot " + strconv.Quote(root) + "\nconfig \"fw.config.ts\"\n"
}

// TestJournalDamaged: a journal that is not whole, not this format's, for
// another root, or whose steps are not a plan apply makes (a step in .git,
// a set-user-ID mode, a file written where no move puts it, a directory
// made or removed for no move) is refused with the line or step at fault,
// before any step runs.
func TestJournalDamaged(t *testing.T) {
	root := t.TempDir()
	head := journalHead(root)
	edit := "edit \"a.ts\" \"a.ts\" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2\n"
	for _, c := range []struct{ name, text, want string }{
		{"the format of 1", "fwmigrate journal 1\nid 0123\ndata\n", "line 1: not a journal of this version"},
		{"no data section", head + "mkdir \"app\"\n", "no data section"},
		{"no id", journalMagic + "\nroot " + strconv.Quote(root) + "\ndata\n", "no id"},
		{"no root", journalMagic + "\nid 0123\ndata\n", "no root"},
		{"another root", journalMagic + "\nid 0123\nroot \"/elsewhere\"\ndata\n", "is for the project \"/elsewhere\""},
		{"unknown step", head + "chown \"app\"\ndata\n", "line 5: unknown step \"chown\""},
		{"bad mode", head + "rmdir \"src\" 0999\ndata\n", "invalid mode"},
		{"setuid", head + "edit \"a.ts\" \"a.ts\" 4755 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2\ndata\na\nb\n", "sets the set-user-ID"},
		{"sticky dir", head + "move \"src/a\" \"a\" file\nrmdir \"src\" 1777\ndata\n", "sets the set-user-ID, set-group-ID or sticky bit"},
		{"into .git", head + "move \"hook.sh\" \".git/hooks/post-checkout\" file\ndata\n", "lies in a git directory (.git)"},
		{"into .GIT", head + "move \"hook.sh\" \"sub/.GIT/hooks/x\" file\ndata\n", "lies in a git directory (.GIT)"},
		{"edit in .git", head + "edit \".git/config\" \".git/config\" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2\ndata\na\nb\n", "lies in a git directory"},
		{"edit moved by no move", head + "edit \"a.ts\" \"b.ts\" 0644 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2\ndata\na\nb\n", "where no move puts it"},
		{"mkdir for no move", head + "mkdir \"bin\"\ndata\n", "a directory created for no move into it"},
		{"rmdir no move empties", head + "move \"a\" \"app/a\" file\nrmdir \"src\" 0755\ndata\n", "a directory removed that no move empties"},
		{"data cut short", head + edit + "data\na\n", "cut short"},
		{"data changed", head + edit + "data\na\nc\n", "does not match its hash"},
		{"data left over", head + edit + "data\na\nb\nmore", "left over"},
	} {
		_, err := decodeJournal(root, []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
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
		`move "a" "../x" file`,
		`move "a" ".." file`,
		`move "a" "/etc/x" file`,
		`move "a" "out/a" file`,
		`move "a" "a/../../x" file`,
		`move "a" "./x" file`,
	} {
		data := journalHead(root) + step + "\ndata\n"
		if _, err := decodeJournal(root, []byte(data)); err == nil {
			t.Errorf("%s: accepted", step)
		}
	}
	for _, steps := range []string{"mkdir \"app\"\nmove \"a\" \"app/a\" file", "mkdir \"..x\"\nmove \"..a/b\" \"..x/b\" file", `move "..a/b" "app/..b" file`} {
		data := journalHead(root) + steps + "\ndata\n"
		if _, err := decodeJournal(root, []byte(data)); err != nil {
			t.Errorf("%s: %v", steps, err)
		}
	}
}

// TestJournalModes: a journal's modes are permission bits; one with the
// set-user-ID, set-group-ID or sticky bit is refused.
func TestJournalModes(t *testing.T) {
	for _, m := range []fs.FileMode{0o644, 0o600, 0o755, 0o777, 0} {
		if got, err := parseMode(fmt.Sprintf("%04o", m)); err != nil || got != m {
			t.Errorf("journal mode %v comes back as %v (%v)", m, got, err)
		}
	}
	for _, s := range []string{"4755", "2755", "1777", "7777", "10000", "0x1ff", "-1", "", "0o644"} {
		if _, err := parseMode(s); err == nil {
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

// TestCommit: a plan committed gives the tree a run gives, keeps its
// journal outside the tree while it runs, and leaves none; a commit while a
// journal is pending is refused, and so is one in a tree that holds a
// journal of its own (.fw-migrate/journal), which is neither run nor
// touched.
func TestCommit(t *testing.T) {
	ref, p := freshPlan(t, 3)
	must(t, p.Run(Exec{}))
	want := snapshot(t, ref)

	dir, p := freshPlan(t, 3)
	home, err := JournalPath(dir)
	must(t, err)
	if pathx.Within(home, dir) {
		t.Fatalf("the journal %s lies in the tree %s", home, dir)
	}
	sawJournal := false
	kept, err := Commit(p, "fw.config.ts", func(point string, i int) {
		if point == "journal" {
			_, err := os.Stat(home)
			sawJournal = err == nil
		}
	})
	if err != nil || kept {
		t.Fatalf("kept %v, %v", kept, err)
	}
	if !sawJournal {
		t.Errorf("no journal at %s while the plan ran", home)
	}
	if d := diffTrees(want, snapshot(t, dir)); d != "" {
		t.Fatalf("committed:\n%s", d)
	}
	if j, err := Pending(dir); j != "" || err != nil {
		t.Fatalf("the journal is left: %q %v", j, err)
	}
	if _, err := os.Stat(filepath.Dir(home)); err == nil {
		t.Errorf("the journal's home %s is left", filepath.Dir(home))
	}

	dir, p = freshPlan(t, 3)
	j, err := begin(dir, "fw.config.ts", p, nil)
	must(t, err)
	j.close()
	before := snapshot(t, dir)
	if _, err := Commit(p, "fw.config.ts", nil); err == nil || !strings.Contains(err.Error(), "exists: another apply is running") {
		t.Fatalf("got %v", err)
	}
	if d := diffTrees(before, snapshot(t, dir)); d != "" {
		t.Fatalf("tree changed:\n%s", d)
	}
	must(t, j.Finish())

	dir, p = freshPlan(t, 3)
	must(t, os.MkdirAll(filepath.Join(dir, ".fw-migrate"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(LegacyJournal)), nil, 0o644))
	before = snapshot(t, dir)
	var re *RefusedError
	if _, err := Commit(p, "fw.config.ts", nil); !errors.As(err, &re) || !re.Legacy || !strings.Contains(err.Error(), "it lies in the project's tree") {
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
			size.use(t)
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
		{"through a symlink below a folder", func(dir string) *Plan {
			must(t, os.Symlink(outside, filepath.Join(dir, "utils", "out")))
			return &Plan{Root: dir, Moves: []Move{{From: filepath.Join(dir, "app.vue"), To: filepath.Join(dir, "utils/out/deeper/app.vue")}}}
		}, "resolves to"},
		{"through a symlink that leads nowhere", func(dir string) *Plan {
			must(t, os.Symlink(filepath.Join(outside, "gone"), filepath.Join(dir, "nowhere")))
			return &Plan{Root: dir, Moves: []Move{{From: filepath.Join(dir, "app.vue"), To: filepath.Join(dir, "nowhere/app.vue")}}}
		}, "is a symlink that leads nowhere"},
		{"an edited symlink", func(dir string) *Plan {
			link := filepath.Join(dir, "theme.css")
			return &Plan{Root: dir, Edits: []Edit{{Path: link, NewPath: link, Old: []byte("body {}\n"), New: []byte("")}}}
		}, "is a symlink: apply does not write through it"},
		{"into .git", func(dir string) *Plan {
			return &Plan{Root: dir, Mkdirs: []string{filepath.Join(dir, ".git/hooks")}, Moves: []Move{{From: filepath.Join(dir, "app.vue"), To: filepath.Join(dir, ".git/hooks/post-checkout")}}}
		}, "lies in a git directory (.git): fwmigrate never writes there"},
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
	must(t, os.WriteFile(filepath.Join(dir, "a"), nil, 0o644))
	p := &Plan{Root: dir, Mkdirs: []string{filepath.Join(dir, "..x")}, Moves: []Move{{From: filepath.Join(dir, "a"), To: filepath.Join(dir, "..x", "a")}}}
	if _, err := Commit(p, "fw.config.ts", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "..x", "a")); err != nil {
		t.Fatal(err)
	}
}

// The crash tests kill a run at chosen points and check what Open, then
// Complete or Undo, make of the tree. A crash must be a kill -9: no
// deferred function runs, no buffer is flushed, the other workers stop in
// the middle of whatever they do. So the run that crashes is a child
// process (this test binary again, see TestMain) whose hook calls os.Exit
// at the chosen point.

func TestMain(m *testing.M) {
	if dir := os.Getenv(envPreflightChild); dir != "" {
		os.Exit(preflightChild(dir))
	}
	crashtest.Main(m, crashChild)
}

// crashChild commits the tests' plan in dir (or, with undo, undoes the
// journal left there; or, when dir holds the batch tests' projects,
// commits them together), with the hook that exits at the chosen point.
func crashChild(dir string, undo bool, hook func(string, int)) int {
	var err error
	if isBatch(dir) {
		err = batchChild(dir, hook)
	} else if undo {
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
	crashtest.Crash(t, dir, point, i, undo)
	if j, err := Pending(dir); j == "" || err != nil {
		t.Fatalf("crash at %s:%d left no journal: %v", point, i, err)
	}
}

// TestCrash: a run killed at each kind of point (right after the journal,
// among the mkdirs, the moves, the rmdirs, the edits before a temporary is
// written, between writing it and renaming it and between the file's
// backup (its second name) and the rename, before the final syncs, before
// the backups are removed, before the journal is removed) is completed by Complete to the tree an
// uninterrupted run makes, byte for byte, and undone by Undo to the tree
// it found. An undo killed in its turn is finished by the next one, which
// RollingBack tells the next run to go on with. The batched plan's edits
// are written in two passes, as a big project's are.
func TestCrash(t *testing.T) {
	gen := bigGen
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
	// Edit edits/2 is a big file's (writeTree), which keeps a backup, and
	// edits/2+1 a small one's, which keeps none: its undo writes the old
	// text the journal holds.
	points := []point{{"journal", 0}, {"mkdir", 1}, {"move", 3}, {"rmdir", 1}, {"edit", edits / 2}, {"replace", edits / 2}, {"kept", edits / 2},
		{"edit", edits/2 + 1}, {"replace", edits/2 + 1}, {"sync", 0}, {"backups", 0}, {"cleanup", 0}}
	undos := []point{{"undo-replace", edits / 2}, {"undo-move", 3}}
	if testing.Short() {
		points = []point{{"journal", 0}, {"move", 3}, {"replace", edits / 2}, {"kept", edits / 2}, {"cleanup", 0}}
		undos = undos[1:]
	}
	crashtest.Points(t, points, func(pt point) (string, int) { return pt.name, pt.i }, "undo", func(t *testing.T, name string, pt point, back bool) {
		dir := t.TempDir()
		writeTree(t, dir, gen)
		crashAt(t, dir, pt.name, pt.i, false)
		j, err := Open(dir, nil)
		must(t, err)
		recoverJournal(t, j, back)
		want := after
		if back {
			want = before
		}
		if d := diffTrees(want, snapshot(t, dir)); d != "" {
			t.Fatalf("after the crash at %s:\n%s", name, d)
		}
	})
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

// TestCrashBackups: every edited file keeps a backup (a second name of
// the old file) until the run is over, small or big, so that its undo is
// a rename that needs no free space. Killed once every file is replaced
// (before the folders' syncs), the tree holds every edited file's backup
// and no other, the undo gives back every file, byte for byte and mode
// for mode, and the completion removes the backups.
func TestCrashBackups(t *testing.T) {
	_, p := freshPlan(t, bigGen)
	edited := map[string]bool{}
	for _, e := range p.Edits {
		edited[filepath.Base(e.NewPath)] = true
	}
	before := snapshot(t, p.Root)
	for _, back := range []bool{true, false} {
		dir := t.TempDir()
		writeTree(t, dir, bigGen)
		crashAt(t, dir, "sync", 0, false)
		backups := map[string]bool{}
		must(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") && strings.Contains(name, ".fwmigrate-") && strings.HasSuffix(name, ".old") {
				backups[strings.TrimPrefix(name[:strings.Index(name, ".fwmigrate-")], ".")] = true
			}
			return nil
		}))
		if fmt.Sprint(backups) != fmt.Sprint(edited) {
			t.Fatalf("backups of %v, want those of every edited file %v", backups, edited)
		}
		j, err := Open(dir, nil)
		must(t, err)
		recoverJournal(t, j, back)
		got := snapshot(t, dir)
		if back {
			if d := diffTrees(before, got); d != "" {
				t.Fatalf("after the undo:\n%s", d)
			}
			continue
		}
		for name := range got {
			if strings.HasSuffix(name, ".old") {
				t.Fatalf("the completion left %s", name)
			}
		}
	}
}

// gitTree makes dir the top of a git work tree as git lays one out (a .git
// folder with HEAD, objects/ and refs/), without git.
func gitTree(t *testing.T, dir string) string {
	t.Helper()
	gd := filepath.Join(dir, ".git")
	for _, d := range []string{"objects", "refs/heads"} {
		must(t, os.MkdirAll(filepath.Join(gd, d), 0o755))
	}
	must(t, os.WriteFile(filepath.Join(gd, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	return gd
}

// TestJournalHome: the journal lives outside the tree: in the git
// directory of the work tree (the .git folder, or the one a .git file
// names outside the tree), keyed by the project's root, and outside git,
// or when the .git file names a folder inside the tree, in the user's
// state folder.
func TestJournalHome(t *testing.T) {
	state, err := stateDir()
	must(t, err)
	top := t.TempDir()
	gd := gitTree(t, top)
	root := filepath.Join(top, "apps", "shop")
	must(t, os.MkdirAll(root, 0o755))
	key := rootKey(root)
	for _, c := range []struct {
		name  string
		setup func()
		want  string
	}{
		{"the .git folder", func() {}, filepath.Join(gd, "fwmigrate", key+".journal")},
		{"a linked work tree", func() {
			linked := filepath.Join(t.TempDir(), "worktrees", "shop")
			for _, d := range []string{"objects", "refs"} {
				must(t, os.MkdirAll(filepath.Join(linked, d), 0o755))
			}
			must(t, os.WriteFile(filepath.Join(linked, "HEAD"), []byte("0123\n"), 0o644))
			must(t, os.RemoveAll(gd))
			must(t, os.WriteFile(gd, []byte("gitdir: "+linked+"\n"), 0o644))
		}, ""},
		{"a .git file into the tree", func() {
			inside := filepath.Join(top, "fake")
			gitTree(t, inside)
			must(t, os.Remove(gd))
			must(t, os.WriteFile(gd, []byte("gitdir: fake/.git\n"), 0o644))
		}, filepath.Join(state, "journals", key+".journal")},
		{"outside git", func() { must(t, os.Remove(gd)) }, filepath.Join(state, "journals", key+".journal")},
	} {
		c.setup()
		got, err := JournalPath(root)
		must(t, err)
		if c.want == "" {
			// the linked work tree's git directory, whatever its temporary name
			if !strings.HasSuffix(got, filepath.Join("worktrees", "shop", "fwmigrate", key+".journal")) {
				t.Errorf("%s: %s", c.name, got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// TestHostileJournal: a journal is run only when the run record of this
// user names it. A committed one in the tree, one planted in its home with
// no record or with the record of another journal, and one changed after
// it was written are refused by Pending and Open with why and which files
// or folder to remove, and nothing of the tree changes. One that moves a
// script into .git/hooks and makes a file set-user-ID is refused by its
// checks alone, even bound to a run. The same holds for a journal planted
// in a folder of its own, where versions before the shared homes' folder
// kept it (<folder>/<key>/journal).
func TestHostileJournal(t *testing.T) {
	hostile := func(root string) []byte {
		return []byte(journalHead(root) + `mkdir ".git/hooks"
move "hook.sh" ".git/hooks/post-checkout" file
edit "run.sh" "run.sh" 4755 87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7 2 0263829989b6fd954f72baaf2fc64bc2e2f01d692d4de72986ea808f6e99813f 2
data
a
b
`)
	}
	setup := func(t *testing.T, old bool) (dir, journal, rec string) {
		dir = t.TempDir()
		gitTree(t, dir)
		testtree.Map(t, dir, map[string]string{"hook.sh": "#!/bin/sh\ntouch pwned\n", "run.sh": "a\n"})
		h, err := journalHome(dir)
		must(t, err)
		if old {
			h = h.oldHome()
		}
		rec, err = runRecord(dir)
		must(t, err)
		must(t, os.MkdirAll(filepath.Dir(h.journal), 0o700))
		must(t, os.MkdirAll(filepath.Dir(rec), 0o700))
		return dir, h.journal, rec
	}
	// A journal in its home, well formed and coherent, that no run wrote.
	planted := func(root string) []byte {
		return []byte(journalHead(root) + "mkdir \"app\"\nmove \"hook.sh\" \"app/hook.sh\" file\ndata\n")
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir, journal, rec string)
		want  string
	}{
		{"in the tree", func(t *testing.T, dir, journal, rec string) {
			must(t, os.RemoveAll(filepath.Dir(journal)))
			must(t, os.MkdirAll(filepath.Join(dir, ".fw-migrate"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, ".fw-migrate", "journal"), hostile(dir), 0o644))
		}, "it lies in the project's tree"},
		{"no run record", func(t *testing.T, dir, journal, rec string) {
			must(t, os.WriteFile(journal, planted(dir), 0o600))
		}, "no run of fwmigrate by this user wrote it"},
		{"another journal's record", func(t *testing.T, dir, journal, rec string) {
			must(t, os.WriteFile(journal, planted(dir), 0o600))
			must(t, os.WriteFile(rec, encodeRun("0123", dir, []byte("another journal")), 0o600))
		}, "names another"},
		{"changed since", func(t *testing.T, dir, journal, rec string) {
			data := planted(dir)
			must(t, os.WriteFile(rec, encodeRun("0123", dir, data), 0o600))
			changed := strings.Replace(string(data), `config "fw.config.ts"`, `config "fw.config.js"`, 1)
			must(t, os.WriteFile(journal, []byte(changed), 0o600))
		}, "names another"},
		{"hooks and set-user-ID, bound", func(t *testing.T, dir, journal, rec string) {
			data := hostile(dir)
			must(t, os.WriteFile(rec, encodeRun("0123", dir, data), 0o600))
			must(t, os.WriteFile(journal, data, 0o600))
		}, "lies in a git directory (.git)"},
	} {
		for _, old := range []bool{false, true} {
			name := c.name
			if old {
				name += ", in its own folder"
			}
			t.Run(name, func(t *testing.T) {
				dir, journal, rec := setup(t, old)
				c.setup(t, dir, journal, rec)
				before := snapshot(t, dir)
				// The remedy: the journal's files in the shared folder,
				// else the folder that is its own.
				remove := "remove the files " + strings.TrimSuffix(journal, ".journal") + ".* (the journal and its progress)"
				if old || c.name == "in the tree" {
					remove = "remove the folder"
				}
				var re *RefusedError
				if j, err := Pending(dir); j != "" || !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), remove) {
					t.Fatalf("Pending: %q, %v; want a refusal with %q and %q", j, err, c.want, remove)
				}
				if _, err := Open(dir, nil); !errors.As(err, &re) {
					t.Fatalf("Open: %v", err)
				}
				if d := diffTrees(before, snapshot(t, dir)); d != "" {
					t.Fatalf("tree changed:\n%s", d)
				}
				if _, err := os.Stat(filepath.Join(dir, ".git", "hooks", "post-checkout")); err == nil {
					t.Fatal("the hook was installed")
				}
				// apply refuses it too, and writes nothing.
				run := filepath.Join(dir, "run.sh")
				p := &Plan{Root: dir, Edits: []Edit{{Path: run, NewPath: run, Old: []byte("a\n"), New: []byte("b\n"), Mode: 0o644}}}
				if _, err := Commit(p, "fw.config.ts", nil); !errors.As(err, &re) {
					t.Fatalf("Commit: %v", err)
				}
				if d := diffTrees(before, snapshot(t, dir)); d != "" {
					t.Fatalf("Commit changed the tree:\n%s", d)
				}
			})
		}
	}
}
