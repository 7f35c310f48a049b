package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleDataNullCheck = &Rule{
	Code:     "FW601",
	Name:     "data-null-check",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a strict comparison of a data composable's data or error with null, which version 4 starts as undefined",
		Why: `Until data arrives (and after clear), the data and error refs of useAsyncData,
useFetch, useLazyAsyncData and useLazyFetch hold null on version 3 and undefined
on version 4 (experimental.defaults.useAsyncData.value and .errorValue, which
framework major 4 no longer has). A strict check for null (data.value === null,
data.value !== null, Object.is(data.value, null), typeof data.value === 'object')
then gives the other answer: a loading state that never shows, an error branch
that always runs. Loose checks (== null, !data.value, data.value ?? fallback,
data.value?.x) and calls that pass a default are not affected. The results are
followed through destructuring (const { data: posts } = await useFetch(...)), as
a whole (r.data.value), through the project's composables that return them, and
into the template, where refs are unwrapped (v-if="data === null").`,
		Example: `<script setup lang="ts">
const { data: posts } = await useFetch('/api/posts')
</script>
<template>
  <p v-if="posts === null">Loading</p>
</template>`,
		Fix: `Safe: x === null becomes x == null, x !== null becomes x != null, and
Object.is(x, null) becomes x == null. A loose comparison with null is true for
null and for undefined, so it gives the same answer on both majors and can be
made before the upgrade. (=== undefined would break version 3.) A typeof check
has no fix: say what is meant.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.defaults.useAsyncData.value", "experimental.defaults.useAsyncData.errorValue"},
}

func init() {
	ruleDataNullCheck.scan = func(ci *codeIndex) *fileScan { return perFileUses(ci, dataNullCheck) }
	Register(ruleDataNullCheck)
}

// dataNullCheck judges one use of data or error: compared with null.
func dataNullCheck(u *code.DataUse, out *[]*site) {
	if u.Val == nil || u.Field != "data" && u.Field != "error" {
		return
	}
	flip := "experimental.defaults.useAsyncData.value"
	if u.Field == "error" {
		flip = "experimental.defaults.useAsyncData.errorValue"
	}
	f := u.File
	text := f.Code.Text(u.Val.Loc)
	p := u.Parent()
	switch {
	case p == nil:
	case p.Kind == ast.JSBinary && (p.Op == "===" || p.Op == "!==") && isNullNode(code.OtherOperand(p, u.Val)):
		s := &site{file: f, span: p.Loc, option: flip}
		s.msg = "`" + f.Code.Text(p.Loc) + "` compares the " + u.Field + " of `" + u.Call.Name + "` strictly with null: on version 4 it starts as undefined, so this is " + map[string]string{"===": "false", "!==": "true"}[p.Op] + " before the " + u.Field + " arrives"
		loose := map[string]string{"===": "==", "!==": "!="}[p.Op]
		if op, _, ok := code.OperatorSpan(f.Text, p, p.Op); ok {
			s.fix = codeFix(f, "compare loosely: `"+loose+" null` is true for null and undefined, on both majors", Safe, edit(op, loose))
		}
		*out = append(*out, s)
	case p.Kind == ast.JSCall && ast.MemberPath(p.X) == "Object.is" && len(p.List) == 2 && (p.List[0] == u.Val && isNullNode(p.List[1]) || p.List[1] == u.Val && isNullNode(p.List[0])):
		s := &site{file: f, span: p.Loc, option: flip}
		s.msg = "`" + f.Code.Text(p.Loc) + "` is true only for null: on version 4 the " + u.Field + " of `" + u.Call.Name + "` starts as undefined"
		s.fix = codeFix(f, "write `"+text+" == null`, true for null and undefined on both majors", Safe, edit(p.Loc, text+" == null"))
		*out = append(*out, s)
	case p.Kind == ast.JSUnary && p.Op == "typeof" && len(u.Up) >= 2:
		b := u.Up[len(u.Up)-2]
		if b.Kind == ast.JSBinary && (b.Op == "===" || b.Op == "!==" || b.Op == "==" || b.Op == "!=") {
			if o := code.OtherOperand(b, p); o != nil && o.Kind == ast.JSString && o.Name == "object" {
				s := &site{file: f, span: b.Loc, option: flip}
				s.msg = "`" + f.Code.Text(b.Loc) + "` counts null as an object: the " + u.Field + " of `" + u.Call.Name + "` is null before it arrives on version 3, undefined on version 4"
				s.notes = []string{"say what is meant: `" + text + " != null` for \"has arrived\", or a check of the value's shape"}
				*out = append(*out, s)
			}
		}
	}
}

func isNullNode(n *ast.JSNode) bool { return n != nil && n.Kind == ast.JSNull }
