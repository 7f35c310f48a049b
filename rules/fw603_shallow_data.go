package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleShallowData = &Rule{
	Code:     "FW603",
	Name:     "shallow-data-mutation",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "code that changes data inside a data composable's result, which version 4 keeps in a shallow ref",
		Why: `On version 4 the data of useAsyncData and useFetch is a shallowRef
(experimental.defaults.useAsyncData.deep flips from true to false): replacing
data.value still updates the page, but changing something inside it does not.
Affected: assignments, updates and deletes below data.value (data.value.title =
..., data.value[i] = ..., delete data.value.x), mutating methods (push, splice,
sort, set, ...) on it or below, Object.assign(data.value, ...), v-model on a part
of it, template handlers that change it (@click="data.count++"), and watch(data,
..., { deep: true }). Calls that set deep themselves keep their behaviour, and a
mutating method whose result the render reads (v-for="r in rows.sort(byRank)")
shows that result on both majors.`,
		Example: `const { data: todos } = await useFetch('/api/todos')
function add(t) { todos.value.push(t) }`,
		Fix: `Unsafe: adds deep: true to the options of the call that made the data (the
third argument of useAsyncData(key, handler), the second of useFetch(url); an
options object is created when there is none). That keeps version 3's deep
reactivity for this call; the alternative is to replace data.value instead of
changing it. No fix when the call's options are not an object literal.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.defaults.useAsyncData.deep"},
}

func init() {
	ruleShallowData.scan = func(ci *codeIndex) *fileScan { return perFileUses(ci, shallowData) }
	Register(ruleShallowData)
}

// shallowData judges one use of data: a change inside its value.
func shallowData(u *code.DataUse, out *[]*site) {
	if u.Field != "data" {
		return
	}
	if u.Call.DeepSet() {
		return // the call decides deep itself, or may
	}
	at, what := mutationOf(u)
	if at == nil {
		return
	}
	f := u.File
	s := &site{file: f, span: at.Loc}
	s.msg = "`" + f.Code.Text(at.Loc) + "` " + what + " inside the data of `" + u.Call.Name + "`: on version 4 data is a shallow ref, and this change does not update the page"
	if at.Kind == ast.JSCall && u.Val == nil {
		s.msg = "`" + f.Code.Text(at.Loc) + "` watches inside the data of `" + u.Call.Name + "`: on version 4 data is a shallow ref, and changes inside it do not trigger the watcher"
	}
	if span, text, ok := u.Call.AddDeep(); ok {
		s.fix = codeFix(u.Call.File, "add `deep: true` to the options of `"+u.Call.Name+"` in "+u.Call.File.Rel, Unsafe, edit(span, text))
	} else {
		s.notes = append(s.notes, "set `deep: true` in the options of `"+u.Call.Name+"`, or replace `data.value` instead of changing it")
	}
	*out = append(*out, s)
}

// mutationOf returns the expression by which a use of data changes
// something inside the data's value, and what it does; nil when it does
// not.
func mutationOf(u *code.DataUse) (*ast.JSNode, string) {
	if u.Val == nil {
		// The ref itself: watch(data, cb, { deep: true }) needs deep
		// reactivity to see anything.
		p := u.Parent()
		if p != nil && p.Kind == ast.JSCall && ast.MemberPath(p.X) == "watch" && len(p.List) >= 3 && p.List[0] == u.Ref {
			if prop := code.ObjProp(p.List[2], "deep"); prop != nil {
				if v, ok := code.BoolValue(prop.Y); ok && v {
					return p, "watches deeply"
				}
			}
		}
		return nil, ""
	}
	// Climb the member chain below the value: data.value.list[0].title.
	cur, depth := u.Val, 0
	i := len(u.Up) - 1
	for ; i >= 0; i-- {
		m := u.Up[i]
		if m.Kind != ast.JSMember || m.X != cur {
			break
		}
		cur, depth = m, depth+1
	}
	if i < 0 {
		if depth > 0 && u.Tx != nil && u.Tx.Attr != nil && u.Tx.Attr.Directive == "model" && u.Tx.Node == cur {
			return cur, "is bound with v-model"
		}
		return nil, ""
	}
	p := u.Up[i]
	switch {
	case p.Kind == ast.JSAssign && p.X == cur && depth > 0:
		return p, "assigns"
	case p.Kind == ast.JSUpdate && p.X == cur && depth > 0:
		return p, "updates"
	case p.Kind == ast.JSUnary && p.Op == "delete" && p.X == cur && depth > 0:
		return p, "deletes"
	case p.Kind == ast.JSCall && p.X == cur && depth > 0 && cur.Kind == ast.JSMember && !cur.Has(ast.FlagComputed) && code.MutatingMethods[cur.Name]:
		if rendered(u) || computedValue(u.Up[:i+1]) {
			// `v-for="r in rows!.sort(byRank)"`, `{{ list.reverse() }}`,
			// `computed(() => rows.value?.sort(byDate))`: the render reads
			// what the call returns, the sorted array itself, on both
			// majors.
			return nil, ""
		}
		return p, "changes with `" + cur.Name + "`"
	case p.Kind == ast.JSCall && ast.MemberPath(p.X) == "Object.assign" && len(p.List) > 0 && p.List[0] == cur:
		return p, "assigns"
	}
	return nil, ""
}

// computedValue reports whether the last of up (a call) is the value a
// computed getter returns: `computed(() => list.value.sort(f))`, or
// `return list.value?.sort(f)` in its body, also as a branch of ?:, ??, ||
// or &&. The computed's value is the changed array itself, which is what
// the page reads (shelve's filteredUsers): the same on both majors.
func computedValue(up []*ast.JSNode) bool {
	cur := up[len(up)-1]
	for i := len(up) - 2; i >= 0; i-- {
		p := up[i]
		switch {
		case p.Kind == ast.JSCond && (p.Y == cur || p.Z == cur),
			p.Kind == ast.JSBinary && (p.Op == "??" || p.Op == "||" || p.Op == "&&") && (p.X == cur || p.Y == cur):
			cur = p
			continue
		case p.Kind == ast.JSReturn && p.X == cur:
			// The function the return is in.
			for j := i - 1; j >= 0; j-- {
				if k := up[j].Kind; k == ast.JSFunction || k == ast.JSArrow {
					return j > 0 && computedGetter(up[j-1], up[j])
				}
			}
			return false
		case p.Kind == ast.JSArrow && p.Has(ast.FlagExprBody) && p.Y == cur:
			return i > 0 && computedGetter(up[i-1], p)
		}
		return false
	}
	return false
}

// computedGetter reports whether fn is the getter call passes to
// computed().
func computedGetter(call, fn *ast.JSNode) bool {
	return call.Kind == ast.JSCall && ast.MemberPath(call.X) == "computed" && len(call.List) > 0 && call.List[0] == fn
}

// rendered reports whether a use in a template is read by the render (an
// interpolation, a binding, v-if, v-for's source), not by an event handler
// or v-model: there a mutating method's result is what shows.
func rendered(u *code.DataUse) bool {
	if u.Tx == nil {
		return false
	}
	a := u.Tx.Attr
	return a == nil || a.Directive != "on" && a.Directive != "model"
}
