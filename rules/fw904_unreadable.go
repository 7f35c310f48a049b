package rules

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

// CodeIO is reported when a file of the project cannot be read.
const CodeIO = "FW904"

var ruleIO = &Rule{
	Code:           CodeIO,
	Name:           "unreadable-file",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "a config, .env file or project directory cannot be read",
		Why: `A config that cannot be read (permission denied, deleted during the run, a
directory where a file was expected) cannot be checked; the run exits with
status 2 and the other projects are still checked. So does a .env file that
cannot be read (or is binary): the framework would fail to load it too. A
package.json that is not valid JSON is an error at its line and column when
the framework major cannot be known without it (--framework supplies it, and
it is then a warning). A .env line that does not parse and a directory that
cannot be listed are warnings: the checks that need them are skipped.`,
		Example: "chmod 000 fw.config.ts",
		Fix:     "",
	},
}

func init() { Register(ruleIO) }

// packageDiagnostic reports a package.json the framework major cannot be
// read from: an error, unless --framework gives the major.
func packageDiagnostic(p *project.Project, err error, opts Options) *Diagnostic {
	file := filepath.Join(filepath.Dir(p.ConfigDisplay), "package.json")
	msg := err.Error()
	var pe *compat.PackageError
	if errors.As(err, &pe) {
		msg = pe.Msg
	}
	d := ruleIO.Diagnose(file, ast.Span{}, "", msg)
	if pe != nil && pe.Line > 0 {
		d.Line, d.Column, d.ColumnUTF16 = pe.Line, pe.Column, pe.Column
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = pe.Line, pe.Column, pe.Column
	}
	d.Path = "package.json"
	if opts.Framework != 0 {
		d.Severity = Warning
		d.Message += fmt.Sprintf("; the framework major is taken from --framework (%d)", opts.Framework)
	} else {
		d.Message += "; the framework major cannot be known: fix package.json, or give --framework"
	}
	return d
}
