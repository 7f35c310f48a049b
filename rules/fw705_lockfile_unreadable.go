package rules

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleLockfileUnreadable = &Rule{
	Code:     "FW705",
	Name:     "lockfile-unreadable",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "the project's lockfile cannot be read",
		Why: `The deps rules (FW701-FW704) take the version of each dependency from
node_modules, else from the lockfile (package-lock.json, npm-shrinkwrap.json,
pnpm-lock.yaml, yarn.lock, bun.lock), else from package.json's range alone.
A lockfile that does not read (invalid JSON, a tab in YAML's indentation, an
unterminated quote, a file too large or a symlink out of the project) leaves
them with less to go on: the finding names the position of the failure.
The package manager would fail on it too.`,
		Example: `// pnpm-lock.yaml
lockfileVersion: '9.0'
	importers:`,
		Fix: "None: regenerate the lockfile with the package manager's install.",
	},
	Run: runLockfileUnreadable,
}

func init() { Register(ruleLockfileUnreadable) }

func runLockfileUnreadable(pass *Pass) {
	if pass.File == nil {
		return
	}
	ps := pass.Project.Packages()
	if ps.Manifest == nil || ps.LockErr == nil {
		return
	}
	display := filepath.Join(filepath.Dir(pass.Project.ConfigDisplay), ps.Lockfile)
	msg := ps.LockErr.Error()
	var le *project.LockError
	if errors.As(ps.LockErr, &le) {
		msg = le.Msg
	}
	d := pass.Report(ast.Span{}, "", "%s cannot be read: %s; the versions of the dependencies come from node_modules, else from package.json's ranges", ps.Lockfile, msg)
	d.File, d.Path = display, ps.Lockfile
	if le != nil && le.Line > 0 {
		d.Line, d.Column, d.ColumnUTF16 = le.Line, le.Column, le.Column
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = le.Line, le.Column, le.Column
	} else {
		// A whole-file finding: no position.
		d.Notes = append(d.Notes, fmt.Sprintf("run `%s` to write it again", ps.Manager.InstallCommand()))
	}
}
