package move_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// globPlan plans the move of a layout-B tree with components/, pages/,
// composables/, app.vue and error.vue moving and server/, tests/ staying.
func globPlan(t testing.TB) *move.Plan {
	dir := t.TempDir()
	files := map[string]string{}
	for _, f := range []string{"components/A.vue", "pages/index.vue", "composables/use.ts", "app.vue", "error.vue", "server/api/x.ts", "tests/a.test.ts"} {
		files[f] = "x\n"
	}
	testtree.Map(t, dir, files)
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	return p
}

func TestRewriteGlob(t *testing.T) {
	p := globPlan(t)
	checkRewrites(t, "rewriteGlob", p.RewriteGlob, []rewriteCase{
		// Rewritten.
		{"./components/**/*.vue", "./app/components/**/*.vue", ""},
		{"components/**", "app/components/**", ""},
		{"components/", "app/components/", ""},
		{"./components", "./app/components", ""},
		{"./app.vue", "./app/app.vue", ""},
		{"!./pages/drafts/**", "!./app/pages/drafts/**", ""},
		{"{components,pages}/**/*.vue", "app/{components,pages}/**/*.vue", ""},
		{"./{components,pages}/**", "./app/{components,pages}/**", ""},
		{"{components,server}/**/*.ts", "{app/components,server}/**/*.ts", ""},
		{"{components/ui,tests}/*.ts", "{app/components/ui,tests}/*.ts", ""},
		{"pages/**/*.{vue,ts}", "app/pages/**/*.{vue,ts}", ""},
		// The clean look-alikes: left as they are, silently.
		{"./**/*.vue", "./**/*.vue", ""},
		{"**/components/**", "**/components/**", ""},
		{"server/**", "server/**", ""},
		{"{server,tests}/**", "{server,tests}/**", ""},
		{"./fw.config.{js,ts}", "./fw.config.{js,ts}", ""},
		{"components", "components", ""}, // a bare word
		{"pages", "pages", ""},
		{"/components/x", "/components/x", ""}, // absolute
		{"../components/**", "../components/**", ""},
		{"https://x.test/components/a", "https://x.test/components/a", ""},
		{"see components/ for details", "see components/ for details", ""},
		{"*.md", "*.md", ""},
		{"s*/api/*.ts", "s*/api/*.ts", ""}, // matches server/ only
		{"", "", ""},
		{"!", "!", ""},
		{"{", "{", ""},
		// Reported: cannot be rewritten exactly.
		{"./*.vue", "./*.vue", "matches moved app.vue"},
		{"*.vue", "*.vue", "matches moved"},
		{"c*/**", "c*/**", "matches moved components"},
		{"{components,*}/**", "{components,*}/**", "too complex"},
	})
}

type rewriteCase struct{ in, want, note string }

// checkRewrites runs a rewrite of patterns (rewriteGlob, RewriteIgnore)
// on cases: the result, whether it changed, and the note (empty, or
// containing the case's).
func checkRewrites(t *testing.T, name string, rewrite func(string) (string, bool, string), cases []rewriteCase) {
	t.Helper()
	for _, tt := range cases {
		got, changed, note := rewrite(tt.in)
		if got != tt.want || changed != (got != tt.in) || !strings.Contains(note, tt.note) || (tt.note == "") != (note == "") {
			t.Errorf("%s(%q) = %q, %v, note %q; want %q, note containing %q", name, tt.in, got, changed, note, tt.want, tt.note)
		}
	}
}

// FuzzRewriteGlob: any string, no panic; a rewrite only inserts app/
// prefixes (the glob keeps its text), and the rewritten glob is left alone
// by the plan of the migrated tree's second run (it is not rewritten
// twice: app/ does not move).
func FuzzRewriteGlob(f *testing.F) {
	for _, s := range []string{"./components/**/*.vue", "{components,server}/**", "!pages/x", "./*.vue", "{a,{b,c}}/d", "c*/**", "components/{a,b}/**"} {
		f.Add(s)
	}
	p := globPlan(f)
	f.Fuzz(func(t *testing.T, s string) {
		out, changed, _ := p.RewriteGlob(s)
		if !changed {
			if out != s {
				t.Fatalf("%q: unchanged but %q", s, out)
			}
			return
		}
		if strings.ReplaceAll(out, "app/", "") != strings.ReplaceAll(s, "app/", "") {
			t.Fatalf("%q -> %q: more than app/ prefixes changed", s, out)
		}
		if again, changed2, _ := p.RewriteGlob(out); changed2 && strings.Contains(again, "app/app/") {
			t.Fatalf("%q -> %q -> %q", s, out, again)
		}
	})
}

// TestValidEdits: string edits that would leave a tool config unreadable
// are dropped, each with its position; a config that did not read before
// is not held to it.
func TestValidEdits(t *testing.T) {
	p := globPlan(t)
	src := []byte("export default { content: ['./components/**'] }\n")
	path := filepath.Join(p.Root, "tailwind.config.js")
	at := strings.Index(string(src), "./components")
	good := []udiff.Edit{{Start: at, End: at + len("./components/**"), New: "./app/components/**"}}
	bad := []udiff.Edit{{Start: at, End: at + len("./components/**"), New: "x'y"}}
	if !p.ValidToolEdits(path, src, false, nil, good) || len(p.Notes) != 0 {
		t.Fatalf("a valid edit dropped: %q", p.Notes)
	}
	if p.ValidToolEdits(path, src, false, nil, bad) || len(p.Notes) != 1 || !strings.HasPrefix(p.Notes[0], "tailwind.config.js:1:29: ") {
		t.Fatalf("an edit that breaks the file was kept, or not noted: %q", p.Notes)
	}
	broken := []byte("export default { content: ['./components/**'] \n")
	if !p.ValidToolEdits(path, broken, false, nil, good) {
		t.Fatal("a file that did not read before is held to reading after")
	}
}
