package rules

import (
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
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
..., { deep: true }); also through a v-for alias of the data (v-for="todo of
todos", then @click="todo.done = true" or v-model="todo.title") and through a
function of the same file that changes inside what it is given (toggle(todo)
with function toggle(t) { t.done = !t.done }), and through v-model="todos" on a
component of the project whose defineModel value it changes inside
(model.value.splice(i, 1)). Calls that set deep themselves
keep their behaviour, and a
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
	ruleShallowData.scan = scanShallowData
	Register(ruleShallowData)
}

// scanShallowData judges the uses of data one by one (shallowData), and
// follows the data where the uses alone do not show the change: into a
// v-for alias (`v-for="todo of todos"`, then `@click="todo.done = true"`),
// and into a local function that changes what it is given
// (`toggle(todo)` with `function toggle(t) { t.done = !t.done }`).
func scanShallowData(ci *codeIndex) *fileScan {
	per := make([][]*site, len(ci.Files))
	passes := make([][]modelPass, len(ci.Files))
	return &fileScan{
		file: func(i int, f *code.File) []*code.Visitor {
			per[i], passes[i] = nil, nil
			if f.Code == nil || !f.MayBindData() {
				return nil
			}
			sf := newShallowFile(f)
			return []*code.Visitor{{Visit: sf.visit, Done: func() {
				per[i], passes[i] = sf.done(), sf.passes
			}}}
		},
		sites: func() []*site {
			out := inReadOrder(ci, per)
			return append(out, modelSites(ci, passes)...)
		},
	}
}

func newShallowFile(f *code.File) *shallowFile {
	return &shallowFile{f: f, elem: map[*ast.JSNode]bool{}, params: map[*ast.JSNode]map[int]*ast.JSNode{}}
}

// modelPass is a v-model on a component that hands it the data itself
// (`<TodoList v-model="todos" />`).
type modelPass struct {
	file  *code.File
	tag   string
	model string // the model's name: "modelValue", or v-model's argument
	call  *code.DataCall
	span  ast.Span
	text  string
}

// modelSites reports the v-models that hand data to a component of the
// project that changes inside its model (defineModel):
// `model.value.items.splice(i, 1)`. The components are read here, those
// that v-models with data name only.
func modelSites(ci *codeIndex, passes [][]modelPass) []*site {
	n := 0
	for _, ps := range passes {
		n += len(ps)
	}
	if n == 0 {
		return nil
	}
	byName := map[string]*project.Source{}
	for _, named := range componentsByOldName(ci) {
		for _, c := range named {
			if o, dup := byName[c.New]; dup && o != c.Src {
				byName[c.New] = nil // two files, one name: unknown
				continue
			}
			byName[c.New] = c.Src
		}
	}
	models := map[*project.Source]map[string]string{}
	var out []*site
	for _, ps := range passes {
		for _, p := range ps {
			name := pascalTag(p.tag)
			src, ok := byName[name]
			if !ok {
				src = byName[strings.TrimPrefix(name, "Lazy")]
			}
			if src == nil {
				continue
			}
			m, ok := models[src]
			if !ok {
				m = modelChanges(ci, src)
				models[src] = m
			}
			change, ok := m[p.model]
			if !ok {
				continue
			}
			s := &site{file: p.file, span: p.span}
			s.msg = "`" + p.text + "` hands the data of `" + p.call.Name + "` to `<" + p.tag + ">`, which changes inside it (`" + change + "` in " + src.Rel + "): on version 4 data is a shallow ref, and this change does not update the page"
			deepFix(p.call, s)
			out = append(out, s)
		}
	}
	return out
}

// modelChanges returns the models (defineModel) a component changes
// inside, each with its first change's text.
func modelChanges(ci *codeIndex, src *project.Source) map[string]string {
	c := ci.CodeOf(src)
	if c == nil {
		return nil
	}
	f := &code.File{Src: src, Path: src.Path, Rel: src.Rel, Code: c}
	sf := newShallowFile(f)
	sf.modelOf, sf.models = map[*ast.Binding]string{}, map[string]string{}
	code.Walk(f, sf.visit)
	return sf.models
}

// shallowFile is what FW603's walk of one file keeps.
type shallowFile struct {
	f *code.File
	// aliases are the template's references to v-for aliases and slot
	// props, with their ancestors and template expression.
	aliases []aliasRef
	// elem are the first alias patterns of the v-for's (the element; the
	// others are the key and the index).
	elem map[*ast.JSNode]bool
	// params maps a function of the file to the first change inside each
	// of its parameters, by parameter index.
	params map[*ast.JSNode]map[int]*ast.JSNode
	// modelOf maps the bindings of defineModel() to the model's name;
	// models are the file's models changed inside, each with its first
	// change's text (nil maps when the file calls no defineModel).
	modelOf map[*ast.Binding]string
	models  map[string]string
	// passes are the file's v-models that hand a component data.
	passes []modelPass
}

type aliasRef struct {
	n, val *ast.JSNode
	b      *ast.Binding
	up     []*ast.JSNode
	tx     *ast.TemplateExpr
}

func (sf *shallowFile) visit(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
	if tx != nil && tx.Attr != nil && tx.Attr.Directive == "for" && n == tx.Node && len(tx.Aliases) > 0 {
		sf.elem[tx.Aliases[0]] = true
	}
	if sf.modelOf != nil && n.Kind == ast.JSDeclarator && n.X != nil && n.X.Kind == ast.JSIdent {
		if c := ast.Unawait(n.Y); c != nil && c.Kind == ast.JSCall && c.X != nil && c.X.Kind == ast.JSIdent && c.X.Name == "defineModel" && c.X.Resolve() == nil {
			name := "modelValue"
			if len(c.List) > 0 && c.List[0].Kind == ast.JSString {
				name = c.List[0].Name
			}
			if b := n.X.DeclBinding(); b != nil {
				sf.modelOf[b] = name
			}
		}
	}
	if n.Kind != ast.JSIdent || n.DeclBinding() != nil {
		return true
	}
	b := n.Resolve()
	if b == nil {
		return true
	}
	if name, ok := sf.modelOf[b]; ok {
		if _, done := sf.models[name]; !done {
			var at *ast.JSNode
			if tx != nil {
				at, _ = changeInside(n, up, tx)
			} else if k := len(up) - 1; k >= 0 && up[k].Kind == ast.JSMember && up[k].X == n && up[k].Name == "value" && !up[k].Has(ast.FlagComputed) {
				at, _ = changeInside(up[k], up[:k], nil)
			}
			if at != nil {
				sf.models[name] = sf.f.Code.Text(at.Loc)
			}
		}
		return true
	}
	switch b.Kind {
	case ast.BindTemplate:
		if tx != nil {
			sf.aliases = append(sf.aliases, aliasRef{n: n, b: b, up: append([]*ast.JSNode(nil), up...), tx: tx})
		}
	case ast.BindParam:
		fn := b.Decl
		if fn == nil || fn.Kind != ast.JSFunction && fn.Kind != ast.JSArrow {
			return true
		}
		k := -1
		for j, p := range fn.List {
			if p != nil && p.Loc.Start <= b.Ident.Loc.Start && b.Ident.Loc.End <= p.Loc.End {
				k = j
			}
		}
		if k < 0 || sf.params[fn][k] != nil || reassigned(b) {
			return true
		}
		at, _ := changeInside(n, up, tx)
		if at == nil || at.Kind == ast.JSCall && returnedValue(up, at) {
			// `function sorted(list) { return list.sort(f) }`: what it
			// returns is what the caller reads.
			return true
		}
		if sf.params[fn] == nil {
			sf.params[fn] = map[int]*ast.JSNode{}
		}
		sf.params[fn][k] = at
	}
	return true
}

// done judges the file's uses of data, the references to v-for aliases
// of data, and the calls that hand either to a function that changes it.
func (sf *shallowFile) done() []*site {
	var out []*site
	vals := map[*ast.JSNode]*code.DataUse{}
	for _, u := range sf.f.Uses() {
		shallowData(u, &out)
		if u.Field == "data" && u.Val != nil && !u.Call.DeepSet() {
			sf.throughCall(u, false, &out)
			if u.Tx != nil {
				vals[u.Val] = u
				if a := u.Tx.Attr; a != nil && a.Directive == "model" && u.Tx.Node == u.Val && u.Ref == u.Val && u.Tx.Element != nil {
					model := a.Arg
					if model == "" {
						model = "modelValue"
					}
					sf.passes = append(sf.passes, modelPass{file: sf.f, tag: u.Tx.Element.Tag, model: model, call: u.Call, span: u.Tx.Loc, text: "v-model" + map[bool]string{true: ":" + a.Arg, false: ""}[a.Arg != ""] + "=\"" + sf.f.Code.Text(u.Tx.Loc) + "\""})
				}
			}
		}
	}
	judged := len(out) // the uses' sites, in the walk's order
	seen := map[*ast.Binding]*code.DataCall{}
	for _, a := range sf.aliases {
		c := sf.aliasData(a.b, vals, seen, 0)
		if c == nil {
			continue
		}
		u := &code.DataUse{File: sf.f, Call: c, Field: "data", Ref: a.n, Val: a.n, Up: a.up, Tx: a.tx}
		shallowData(u, &out)
		sf.throughCall(u, true, &out)
	}
	if len(out) > judged {
		// Sites of aliases and calls besides: all in source order.
		slices.SortStableFunc(out, func(a, b *site) int { return a.span.Start - b.span.Start })
	}
	return out
}

// aliasData returns the data call whose data a v-for alias's element is
// in (`todo` in `v-for="todo of todos"`, also over `todos.filter(...)` or
// an alias of an outer v-for), nil when it is not one of data.
func (sf *shallowFile) aliasData(b *ast.Binding, vals map[*ast.JSNode]*code.DataUse, seen map[*ast.Binding]*code.DataCall, depth int) *code.DataCall {
	if c, ok := seen[b]; ok {
		return c
	}
	seen[b] = nil
	if depth > 16 || b.Kind != ast.BindTemplate || !sf.elem[b.Decl] || b.Init == nil {
		return nil
	}
	n := b.Init
	for n != nil {
		switch {
		case n.Kind == ast.JSMember:
			n = n.X
			continue
		case n.Kind == ast.JSCall && n.X != nil && n.X.Kind == ast.JSMember && !n.X.Has(ast.FlagComputed) && sameElements[n.X.Name]:
			n = n.X.X
			continue
		}
		break
	}
	if n == nil || n.Kind != ast.JSIdent {
		return nil
	}
	var c *code.DataCall
	if u := vals[n]; u != nil {
		c = u.Call
	} else if ob := n.Resolve(); ob != nil && ob.Kind == ast.BindTemplate {
		c = sf.aliasData(ob, vals, seen, depth+1)
	}
	seen[b] = c
	return c
}

// sameElements are the array methods whose result holds the array's own
// elements.
var sameElements = map[string]bool{
	"filter": true, "slice": true, "sort": true, "reverse": true, "toSorted": true, "toReversed": true, "toSpliced": true,
}

// throughCall reports a call that hands the data (or a part of it) to a
// function of the file that changes inside what it is given.
func (sf *shallowFile) throughCall(u *code.DataUse, part bool, out *[]*site) {
	cur, i := memberTop(u.Val, u.Up)
	if i < 0 {
		return
	}
	p := u.Up[i]
	if p.Kind != ast.JSCall || p.X == cur || p.X == nil || p.X.Kind != ast.JSIdent {
		return
	}
	k := slices.Index(p.List, cur)
	if k < 0 {
		return
	}
	b := p.X.Resolve()
	if b == nil {
		return
	}
	var fn *ast.JSNode
	switch {
	case b.Kind == ast.BindFunction && b.Decl != nil && b.Decl.Kind == ast.JSFunction:
		fn = b.Decl
	case (b.Kind == ast.BindConst || b.Kind == ast.BindLet || b.Kind == ast.BindVar) && b.Decl != nil && b.Decl.Kind == ast.JSDeclarator && b.Path == nil && b.Decl.Y != nil:
		fn = b.Decl.Y
	}
	at := sf.params[fn][k]
	if fn == nil || at == nil {
		return
	}
	f := sf.f
	s := &site{file: f, span: p.Loc}
	what := "the data"
	if cur != u.Val || part {
		what = "a part of the data"
	}
	s.msg = "`" + f.Code.Text(p.Loc) + "` hands " + what + " of `" + u.Call.Name + "` to `" + p.X.Name + "`, which changes inside it (`" + f.Code.Text(at.Loc) + "`): on version 4 data is a shallow ref, and this change does not update the page"
	deepFix(u.Call, s)
	*out = append(*out, s)
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
	deepFix(u.Call, s)
	*out = append(*out, s)
}

// deepFix gives s the fix that adds deep: true to c's options, or the
// advice when it cannot be made.
func deepFix(c *code.DataCall, s *site) {
	if span, text, ok := c.AddDeep(); ok {
		s.fix = codeFix(c.File, "add `deep: true` to the options of `"+c.Name+"` in "+c.File.Rel, Unsafe, edit(span, text))
	} else {
		s.notes = append(s.notes, "set `deep: true` in the options of `"+c.Name+"`, or replace `data.value` instead of changing it")
	}
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
	at, what := changeInside(u.Val, u.Up, u.Tx)
	return at, what
}

// memberTop climbs the member chain above val (data.value.list[0].title)
// and returns its top and the index in up of the top's parent (-1 at the
// top of the expression).
func memberTop(val *ast.JSNode, up []*ast.JSNode) (*ast.JSNode, int) {
	cur := val
	i := len(up) - 1
	for ; i >= 0; i-- {
		m := up[i]
		if m.Kind != ast.JSMember || m.X != cur {
			break
		}
		cur = m
	}
	return cur, i
}

// changeInside returns the expression that changes something inside the
// value val reads (up its ancestors, tx its template expression or nil),
// and what it does; nil when it does not.
func changeInside(val *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) (*ast.JSNode, string) {
	cur, i := memberTop(val, up)
	depth := len(up) - 1 - i
	if i < 0 {
		if depth > 0 && tx != nil && tx.Attr != nil && tx.Attr.Directive == "model" && tx.Node == cur {
			return cur, "is bound with v-model"
		}
		return nil, ""
	}
	p := up[i]
	switch {
	case p.Kind == ast.JSAssign && p.X == cur && depth > 0:
		return p, "assigns"
	case p.Kind == ast.JSUpdate && p.X == cur && depth > 0:
		return p, "updates"
	case p.Kind == ast.JSUnary && p.Op == "delete" && p.X == cur && depth > 0:
		return p, "deletes"
	case p.Kind == ast.JSCall && p.X == cur && depth > 0 && cur.Kind == ast.JSMember && !cur.Has(ast.FlagComputed) && code.MutatingMethods[cur.Name]:
		if renderedIn(tx) || computedValue(up[:i+1]) {
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

// reassigned reports whether a binding is assigned after its declaration
// (`t = { ...t }`): what it holds is then not only what it was given.
func reassigned(b *ast.Binding) bool {
	for _, r := range b.Refs {
		if r.Write && r.Ident != b.Ident {
			return true
		}
	}
	return false
}

// returnedValue reports whether at, one of up, is what a function
// returns: `return list.sort(f)`, `(l) => l.sort(f)`.
func returnedValue(up []*ast.JSNode, at *ast.JSNode) bool {
	j := slices.Index(up, at)
	if j < 1 {
		return false
	}
	q := up[j-1]
	return q.Kind == ast.JSReturn && q.X == at || q.Kind == ast.JSArrow && q.Has(ast.FlagExprBody) && q.Y == at
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

// renderedIn reports whether an expression in a template is read by the render (an
// interpolation, a binding, v-if, v-for's source), not by an event handler
// or v-model: there a mutating method's result is what shows.
func renderedIn(tx *ast.TemplateExpr) bool {
	if tx == nil {
		return false
	}
	a := tx.Attr
	return a == nil || a.Directive != "on" && a.Directive != "model"
}
