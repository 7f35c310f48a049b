package move_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// TestGitDiffQuotedNames: files whose names git quotes in patch headers (a
// quote, a backslash, a newline, a tab, non-ASCII bytes) are renamed and
// edited by `git apply` of GitDiff exactly as its transaction moves and edits them.
func TestGitDiffQuotedNames(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	names := []string{"q\"uote", "back\\slash", "new\nline", "tab\there", "caf\u00e9", "sp ace"}
	files := map[string]string{
		"fw.config.ts":    "export default defineFwConfig({})\n",
		"server/types.ts": "export interface Row { id: string }\n",
	}
	for _, n := range names {
		files["components/"+n+".ts"] = "import type { Row } from '../server/types'\nexport const x: Row = { id: '' }\n"
		files["pages/"+n+".vue"] = "<template><p /></template>\n"
	}
	mk := func() string {
		dir := t.TempDir()
		writeTree(t, dir, files)
		return dir
	}
	want := mk()
	p, err := move.PlanMove(defaultInput(want))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	must(t, execute(p))

	dir := mk()
	gitc := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s\n%s", args, err, out, stdin)
		}
	}
	gitc("", "init", "-q")
	p, err = move.PlanMove(defaultInput(dir))
	if err != nil {
		t.Fatal(err)
	}
	diff, err := p.GitDiff(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diff, `rename from "components/q\"uote.ts"`) || !strings.Contains(diff, `"b/app/components/new\nline.ts"`) {
		t.Errorf("names not quoted as git quotes them:\n%s", diff)
	}
	gitc(diff, "apply", "-")
	os.RemoveAll(filepath.Join(dir, ".git"))
	compareTrees(t, treeFiles(t, dir), treeFiles(t, want))
}
