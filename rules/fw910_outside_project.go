package rules

import (
	"fmt"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
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
		Summary: "the config is a symlink to a file outside the project: checked, never rewritten",
		Why: `The framework reads a symlinked config through the link and runs it with the
link's directory as rootDir, so fwmigrate checks it against that project's
tree and package.json. But the file itself belongs elsewhere (a config shared
by several apps): apply never rewrites a file outside the project it was
pointed at, and never moves sources for it, so nothing of this project is
written. Migrate the shared file where it lives, or replace the link by a
copy.`,
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
	return ruleOutsideProject.Diagnose(p.ConfigDisplay, ast.Span{}, "",
		fmt.Sprintf("%s is a symlink to %s, outside the project: it is checked, but apply never rewrites it or moves anything for it", filepath.Base(p.ConfigPath), target))
}
