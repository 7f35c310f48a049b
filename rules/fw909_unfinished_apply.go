package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/txn"
)

// CodeUnfinishedApply is reported for a project that an interrupted apply
// left half written.
const CodeUnfinishedApply = "FW909"

var ruleUnfinishedApply = &Rule{
	Code:           CodeUnfinishedApply,
	Name:           "unfinished-apply",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "an interrupted `fwmigrate apply` left the project half written",
		Why: `apply writes a project through a journal (.fw-migrate/journal under the
project's root): every move and edit is recorded before the first write, and
the journal goes once all of them are done. A journal still there means the
run was interrupted (killed, a full disk, a power cut) with some sources moved
and some imports not yet rewritten: the project does not build as it is. Every
check of the project reports it first, with exit status 2, until
'fwmigrate apply' completes the recorded steps or 'fwmigrate apply --rollback'
undoes them.`,
		Example: "kill -9 $(pgrep fwmigrate)   # while apply writes",
		Fix:     "",
	},
}

func init() { Register(ruleUnfinishedApply) }

// unfinishedApply is the FW909 diagnostic of p, with the commands that
// complete or undo the interrupted apply.
func unfinishedApply(p *project.Project) *Diagnostic {
	dir := filepath.Dir(p.ConfigDisplay)
	journal := filepath.Join(dir, txn.JournalDir, txn.JournalFile)
	d := ruleUnfinishedApply.Diagnose(p.ConfigDisplay, ast.Span{}, "",
		fmt.Sprintf("an interrupted `fwmigrate apply` left this project half written (%s): run `fwmigrate apply %s` to finish it, or `fwmigrate apply --rollback %s` to undo it", journal, shellWord(dir), shellWord(dir)))
	d.Notes = []string{"until then the project does not build as it is: some files are moved or rewritten and others not yet"}
	return d
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	for _, c := range s {
		if !(c == '/' || c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
