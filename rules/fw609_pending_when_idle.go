package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
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
	rulePendingWhenIdle.detect = detectPendingWhenIdle
	Register(rulePendingWhenIdle)
}

func detectPendingWhenIdle(ci *codeIndex) []*site {
	var out []*site
	for _, u := range ci.data.uses {
		if u.field != "pending" || !notImmediate(u.call) {
			continue
		}
		f := u.file
		at := u.ref
		if u.val != nil {
			at = u.val
		}
		status, take := "status", " (take `status` from the same call)"
		if u.ref.Kind == ast.JSMember {
			take = ""
			status = f.code.Text(u.ref.X.Loc) + ".status" // r.pending -> r.status
		}
		if u.tx == nil || u.val != nil && u.val != u.ref {
			status += ".value" // a script, or a ref the template does not unwrap
		}
		out = append(out, &site{file: f, span: at.Loc,
			msg: "`" + f.code.Text(at.Loc) + "` is the pending of `" + u.call.name + "` called with `immediate: false`: on version 3 it is true until the request starts and while it runs, on version 4 only while it runs",
			notes: []string{
				"say what is meant: `" + status + " === 'pending'` for \"a request runs\", `" + status + " === 'pending' || " + status + " === 'idle'` for version 3's meaning" + take,
			},
		})
	}
	return out
}

// notImmediate reports whether a data call sets immediate: false in its
// options object literal.
func notImmediate(c *dataCall) bool {
	prop, _ := c.option("immediate")
	if prop == nil {
		return false
	}
	v, ok := boolValue(prop.Y)
	return ok && !v
}
