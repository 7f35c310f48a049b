package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
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
		Summary: "an interrupted `fwmigrate apply` left the project half written, or a journal was found that is never run",
		Why: `apply writes a project through a journal: every move and edit is recorded
before the first write, and the journal goes once all of them are done. The
journal lives outside the project's tree, where no repository can put one: in
the repository's git directory (.git/fwmigrate/) and, outside git, in the
user's state folder ($XDG_STATE_HOME/fwmigrate/), bound to the run that wrote
it by a record in that folder. A journal still there means the run was
interrupted (killed, a full disk, a power cut) with some sources moved and some
imports not yet rewritten: the project does not build as it is. Every check of
the project reports it first, with exit status 2, until 'fwmigrate apply'
completes the recorded steps or 'fwmigrate apply --rollback' undoes them.

A journal is a program (completing it moves and rewrites files), so one that
could have come from anyone else is never run, and the project is reported
with exit status 2 until it is removed: a journal in the project's tree
(.fw-migrate/journal, where earlier versions kept it, and which a repository
can commit), and one in its home that no run of this user wrote, that names a
path in a .git folder or outside the project, that sets a set-user-ID,
set-group-ID or sticky bit, or whose steps do not hang together as apply plans
them. The finding says why and which folder to remove.`,
		Example: "kill -9 $(pgrep fwmigrate)   # while apply writes",
		Fix:     "",
	},
}

func init() { Register(ruleUnfinishedApply) }

// unfinishedApply is the FW909 diagnostic of p: the commands that complete
// or undo the interrupted apply, or why the journal found is not run and
// how to remove it.
func unfinishedApply(p *project.Project) *Diagnostic {
	dir := filepath.Dir(p.ConfigDisplay)
	if re := p.JournalRefused; re != nil {
		d := ruleUnfinishedApply.Diagnose(p.ConfigDisplay, ast.Span{}, "", re.Explain(p.ShowPath))
		d.Notes = []string{"fwmigrate keeps its journal outside the project's tree (in the git directory, or in the user's state folder), bound to the run that wrote it: this one was not written by a run of fwmigrate on this machine for this user, or was changed since, and apply refuses the project until it is removed"}
		if re.Legacy {
			d.Notes = []string{"fwmigrate keeps its journal outside the project's tree (in the git directory, or in the user's state folder): one in the tree was committed or copied there, or left by an earlier version of fwmigrate, and apply refuses the project until it is removed"}
		}
		return d
	}
	d := ruleUnfinishedApply.Diagnose(p.ConfigDisplay, ast.Span{}, "",
		fmt.Sprintf("an interrupted `fwmigrate apply` left this project half written (%s): run `fwmigrate apply %s` to finish it, or `fwmigrate apply --rollback %s` to undo it", p.ShowPath(p.Journal), shellWord(dir), shellWord(dir)))
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
