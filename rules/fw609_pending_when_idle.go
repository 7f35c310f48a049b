package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var rulePendingWhenIdle = &Rule{
	Code:     "FW609",
	Name:     "pending-when-idle",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "pending of a data composable called with immediate: false, which version 4 keeps false until the request starts",
		Why: `On version 3, pending is true from the start, also while a call made with
immediate: false waits for execute() (experimental.pendingWhenIdle: true). On
version 4 (false) pending is true only while a request runs: status is 'idle'
before. A spinner shown with v-if="pending", a button disabled by it, or logic
that waits for it to turn false then behaves differently before the first
execute(). Found through destructuring with aliases, whole results
(r.pending.value), the project's composables and the template. Calls whose
options are not an object literal, or do not set immediate: false, are not
reported (they start at once on both majors).`,
		Example: `const { data, pending, execute } = useFetch('/api/report', { immediate: false })
<template><Spinner v-if="pending" /></template>`,
		Fix: `None automatic: what the code means decides. status === 'pending' is "a
request runs" (version 4's pending); status === 'pending' || status === 'idle'
keeps version 3's meaning on both majors.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.pendingWhenIdle"},
}

func init() {
	rulePendingWhenIdle.scan = func(ci *codeIndex) *fileScan { return perFileUses(ci, pendingWhenIdle) }
	Register(rulePendingWhenIdle)
}

// pendingWhenIdle judges one use of pending, of a call that does not run
// at once.
func pendingWhenIdle(u *code.DataUse, out *[]*site) {
	if u.Field != "pending" || !code.NotImmediate(u.Call) {
		return
	}
	f := u.File
	at := u.Ref
	if u.Val != nil {
		at = u.Val
	}
	status, take := "status", " (take `status` from the same call)"
	if u.Ref.Kind == ast.JSMember {
		take = ""
		status = f.Code.Text(u.Ref.X.Loc) + ".status" // r.pending -> r.status
	}
	if u.Tx == nil || u.Val != nil && u.Val != u.Ref {
		status += ".value" // a script, or a ref the template does not unwrap
	}
	*out = append(*out, &site{file: f, span: at.Loc,
		msg: "`" + f.Code.Text(at.Loc) + "` is the pending of `" + u.Call.Name + "` called with `immediate: false`: on version 3 it is true until the request starts and while it runs, on version 4 only while it runs",
		notes: []string{
			"say what is meant: `" + status + " === 'pending'` for \"a request runs\", `" + status + " === 'pending' || " + status + " === 'idle'` for version 3's meaning" + take,
		},
	})
}
