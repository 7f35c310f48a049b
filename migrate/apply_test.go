package migrate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestApplyInternalError: a fix whose result does not verify is not
// written; the file gets an FW999 diagnostic and the exit status is 2.
func TestApplyInternalError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fw.config.ts")
	const src = "export default defineFwConfig({\n  ssr: true,\n})\n"
	os.WriteFile(path, []byte(src), 0o644)
	p := project.LoadProject(path, "fw.config.ts")
	if p.File == nil {
		t.Fatal(p.Err)
	}
	at := strings.Index(src, "true")
	broken := func(*project.Project, rules.Options) []*rules.Diagnostic {
		return []*rules.Diagnostic{{
			Code: "FW201", Name: "test", File: "fw.config.ts", Option: "ssr", Message: "broken fix",
			Fix: &rules.Fix{Description: "break the file", Ops: []rewrite.Op{
				{Kind: rewrite.OpReplace, Span: ast.Span{Start: at, End: at + 4}, Text: "true,,"},
			}},
		}}
	}
	r := migrate.ApplyConfig(p, migrate.Options{}, broken)
	if !r.Fatal || r.New != nil || len(r.Remaining) != 1 || r.Remaining[0].Code != rules.CodeInternal {
		t.Fatalf("fatal %v, new %q, remaining %+v", r.Fatal, r.New, r.Remaining)
	}
	if !strings.Contains(r.Remaining[0].Message, "fw.config.ts") {
		t.Errorf("the message does not name the file: %s", r.Remaining[0].Message)
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Errorf("the file changed: %s", b)
	}
}
