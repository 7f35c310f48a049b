package rules

import (
	"errors"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
)

// CodeCodeNotRead is reported, once per file, for an application or module
// file the code rules could not read fully.
const CodeCodeNotRead = "FW908"

var ruleCodeNotRead = &Rule{
	Code:     CodeCodeNotRead,
	Name:     "code-not-read",
	Category: Tool,
	Severity: Info,
	Doc: Doc{
		Summary: "an application or module file that the code rules could not read fully",
		Why: `The code rules (FW6xx) read the project's .vue, .ts and .js files to find the
code that version 4 changes. A file they cannot read fully (a syntax error, a
template language other than HTML, a script language other than JavaScript or
TypeScript, a file that cannot be opened) is reported once, here, and never
edited. What could be read (the code before a syntax error, the script of a
.vue file whose template is Pug) is still checked and its sites reported,
without fixes; the sites in the part that could not be read are not known.`,
		Example: `<template lang="pug">
p(v-if="data === null") Loading
</template>`,
	},
	Run: runCodeNotRead,
}

func init() { Register(ruleCodeNotRead) }

func runCodeNotRead(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	for _, f := range pass.Index.code().Failed {
		if errors.As(f.Err, new(*project.BudgetError)) {
			continue // not read past the project's budget: FW911 says so, once
		}
		var se *ast.SyntaxError
		span, msg := ast.Span{}, ""
		switch {
		case errors.As(f.Err, &se):
			span = ast.Span{Start: se.Offset, End: se.Offset}
			msg = se.Text
		default:
			msg = ioMessage(f.Err)
		}
		format := "the code rules cannot read all of this file (%s): what they could not read is not checked, the sites in the rest are still reported, and no fix edits the file"
		if f.Code == nil {
			format = "the code rules cannot read this file (%s): its code is not checked"
		}
		d := pass.reportCode(f, span, "", format, strings.TrimSuffix(msg, "."))
		if f.Config {
			d.Notes = append(d.Notes, "the config's hooks and inline modules are not checked")
		}
	}
}
