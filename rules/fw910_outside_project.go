package rules

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
)

// CodeOutsideProject is reported for a config that is a symlink to a file
// outside its project.
const CodeOutsideProject = "FW910"

var ruleOutsideProject = &Rule{
	Code:     CodeOutsideProject,
	Name:     "config-outside-project",
	Category: Tool,
	Severity: Info,
	Doc: Doc{
		Summary: "the config is a symlink to a file outside the project: checked, never rewritten (not read at all outside the checkout)",
		Why: `The framework reads a symlinked config through the link and runs it with the
link's directory as rootDir, so fwmigrate checks it against that project's
tree and package.json. But the file itself belongs elsewhere (a config shared
by several apps): apply never rewrites a file outside the project it was
pointed at, and never moves sources for it, so nothing of this project is
written. Migrate the shared file where it lives, or replace the link by a
copy.

A link that leads outside the checkout (the git work tree, or the folder
given to the run when there is no git) is not read at all, and this finding
is a warning: a repository must not make fwmigrate quote a file that lies
beside it, such as ~/.npmrc.`,
		Example: "ln -s ../shared/fw.config.ts apps/web/fw.config.ts",
		Fix:     "",
	},
}

func init() { Register(ruleOutsideProject) }

// outsideProject is the FW910 diagnostic of p.
func outsideProject(p *project.Project) *Diagnostic {
	target := p.ConfigOutside
	if rel, err := filepath.Rel(filepath.Dir(p.ConfigPath), target); err == nil {
		target = rel
	}
	var oe *project.OutsideError
	if errors.As(p.Err, &oe) {
		d := ruleOutsideProject.Diagnose(p.ConfigDisplay, ast.Span{}, "",
			fmt.Sprintf("%s is a symlink to %s, outside the checkout: not read, so not checked", filepath.Base(p.ConfigPath), target))
		d.Severity = Warning
		d.Notes = []string{fmt.Sprintf("fwmigrate reads nothing outside %s (the git work tree, or the folder given when there is none): a repository must not make it quote files beside the checkout. Check the config where it lives, or replace the link by a copy", text.Escape(oe.Checkout))}
		return d
	}
	return ruleOutsideProject.Diagnose(p.ConfigDisplay, ast.Span{}, "",
		fmt.Sprintf("%s is a symlink to %s, outside the project: it is checked, but apply never rewrites it or moves anything for it", filepath.Base(p.ConfigPath), target))
}
