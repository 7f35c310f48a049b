package rewrite

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/text"
)

// Result is what Apply made of a file.
type Result struct {
	// Src is the new source; it is the input slice itself when nothing
	// changed.
	Src []byte
	// Applied holds the ops that hold in Src, in order (an op whose change
	// was already made counts as applied).
	Applied []Op
	// Skipped holds the ops that were not applied, each with the reason.
	Skipped []Skip

	changed bool
}

// Skip is an op that was not applied.
type Skip struct {
	Op Op
	// Group is the index of the op's group in ApplyGroups (of the op itself
	// in Apply).
	Group int
	// Reason says why, for the user: "engine is not an object literal
	// (identifier)".
	Reason string
	// Blocked reports an op that was not tried or was undone because
	// another op of its group could not be made (Reason then names it).
	Blocked bool
}

// Changed reports whether the source was edited.
func (r *Result) Changed() bool { return r.changed }

// Apply applies ops to f's source and returns the new source. Ops are
// applied in order, each on its own: one that cannot be made is skipped with
// its reason and the others go on. OpReplace spans refer to f.Src as given;
// each path op sees the result of the ones before.
//
// An error means a bug (an edit produced text that does not parse); the
// caller must then write nothing.
func Apply(f *ast.File, ops []Op) (*Result, error) {
	groups := make([][]Op, len(ops))
	for i := range ops {
		groups[i] = ops[i : i+1]
	}
	return ApplyGroups(f, groups)
}

// ApplyGroups is Apply for ops in all-or-nothing groups (the ops of one
// rule's fix): when one op of a group cannot be made, the group's earlier
// ops are undone and every op of the group is skipped.
func ApplyGroups(f *ast.File, groups [][]Op) (res *Result, err error) {
	defer func() {
		if e := recover(); e != nil {
			res, err = nil, fmt.Errorf("%s: internal error in the rewriter: %v\n%s", f.Name, e, text.FirstLines(string(debug.Stack()), 14))
		}
	}()
	res = &Result{Src: f.Src}
	if f.Config == nil {
		reason := "the exported config is not an object literal"
		if f.Reason != "" {
			reason = "the exported config is not an object literal: " + f.Reason
		}
		for g, ops := range groups {
			for _, op := range ops {
				res.Skipped = append(res.Skipped, Skip{Op: op, Group: g, Reason: reason})
			}
		}
		return res, nil
	}
	e := newEditor(f)
	for g, ops := range groups {
		m := e.mark()
		failed := -1
		var why string
		for i, op := range ops {
			why, err = e.apply(op)
			if err != nil {
				return nil, fmt.Errorf("%s: %s %s: %w", f.Name, op.Kind, describeOp(op), err)
			}
			if why != "" {
				failed = i
				break
			}
		}
		if failed < 0 {
			res.Applied = append(res.Applied, ops...)
			continue
		}
		e.reset(m)
		for i, op := range ops {
			s := Skip{Op: op, Group: g, Reason: why}
			if i != failed {
				s.Reason = fmt.Sprintf("not applied: %s %s, part of the same fix, could not be made", ops[failed].Kind, describeOp(ops[failed]))
				s.Blocked = true
			}
			res.Skipped = append(res.Skipped, s)
		}
	}
	if len(e.steps) > 0 {
		res.Src = e.f.Src
		res.changed = true
	}
	return res, nil
}

func describeOp(op Op) string {
	switch op.Kind {
	case OpMove, OpRename:
		return op.Path.String() + " -> " + op.To.String()
	case OpReplace:
		return fmt.Sprintf("[%d,%d)", op.Span.Start, op.Span.End)
	}
	return op.Path.String()
}

// editor applies ops one step at a time: each step is a set of byte edits
// on the current text, after which the text is parsed again, so that every
// op works on exact spans of what is there now.
type editor struct {
	orig *ast.File
	l    layout
	f    *ast.File
	// steps are the edits made so far, each in the coordinates of the text
	// it was applied to; OpReplace spans are mapped through them.
	steps [][]udiff.Edit
}

type mark struct {
	f     *ast.File
	steps int
}

func newEditor(f *ast.File) *editor {
	return &editor{orig: f, l: detectLayout(f), f: f}
}

func (e *editor) mark() mark   { return mark{e.f, len(e.steps)} }
func (e *editor) reset(m mark) { e.f, e.steps = m.f, e.steps[:m.steps] }

// step applies edits (in the current text's coordinates) and parses the
// result again. A result that does not parse is a bug of the edit's author:
// it is returned as an error.
func (e *editor) step(edits []udiff.Edit) error {
	if len(edits) == 0 {
		return nil
	}
	udiff.SortEdits(edits)
	out, err := udiff.Apply(string(e.f.Src), edits)
	if err != nil {
		return err
	}
	nf, err := ast.ParseUnchecked(e.orig.Name, []byte(out))
	if err != nil {
		return fmt.Errorf("the edited text does not parse: %w", err)
	}
	if nf.Config == nil {
		return fmt.Errorf("the edited text no longer exports an object literal (%s)", nf.Reason)
	}
	e.f = nf
	e.steps = append(e.steps, edits)
	return nil
}

// apply makes one op. It returns the reason when the op cannot be made, an
// error when it went wrong.
func (e *editor) apply(op Op) (string, error) {
	if op.Kind == OpReplace {
		return e.replace(op)
	}
	if why := e.checkPath(op.Path); why != "" {
		return why, nil
	}
	if op.Kind == OpMove || op.Kind == OpRename {
		if why := e.checkPath(op.To); why != "" {
			return why, nil
		}
	}
	switch op.Kind {
	case OpSet:
		return e.set(op)
	case OpDelete:
		return e.delete(op)
	case OpMove:
		return e.move(op)
	case OpRename:
		return e.rename(op)
	}
	return fmt.Sprintf("unknown operation %d", op.Kind), nil
}

// checkPath refuses paths the engine cannot reason about: empty ones, and
// those whose top-level key a later statement may change.
func (e *editor) checkPath(p ast.Path) string {
	if len(p) == 0 {
		return "empty option path"
	}
	for _, s := range p {
		if !utf8.ValidString(s) {
			return fmt.Sprintf("option path %q is not valid UTF-8", p.String())
		}
	}
	if span, ok := e.mutation(p[0]); ok {
		return fmt.Sprintf("%s may be changed by the statement at line %d after the config is declared", p[0], e.orig.Position(span.Start).Line)
	}
	return ""
}

// mutation finds a statement after the config's declaration that may
// change its top-level key: it writes below key (`config.key = ...`,
// `Object.assign(config, {key})`), or writes a key it does not tell.
func (e *editor) mutation(key string) (ast.Span, bool) {
	w, ok := e.orig.WriteTo(key)
	return w.Stmt, ok
}

// hop is one step along an option path: the object searched and the
// property found in it (nil when the key is not there).
type hop struct {
	obj  *ast.Object
	prop *ast.Property
}

// walk follows path through the current config. hops has one entry per
// segment reached; the last hop's prop is nil when its key is missing. A
// reason is returned when the path cannot be followed safely: a key set
// twice, a spread or computed key after the property that may override it,
// a value on the way that is not an object literal.
func (e *editor) walk(path ast.Path) ([]hop, string) {
	obj := e.f.Literal // the bytes to edit; what assignments add is not there
	hops := make([]hop, 0, len(path))
	for i, seg := range path {
		var found *ast.Property
		n := 0
		for _, p := range obj.Props {
			if isNamed(p) && p.Key == seg {
				found = p
				n++
			}
		}
		hops = append(hops, hop{obj, found})
		if found == nil {
			return hops, ""
		}
		here := path[:i+1]
		if n > 1 {
			return hops, fmt.Sprintf("%s is set %d times in the same object", here, n)
		}
		if d := dynamicAfter(obj, found); d != nil {
			return hops, fmt.Sprintf("the %s at line %d may override %s", dynamicWhat(d), e.f.Position(d.Loc.Start).Line, here)
		}
		if i == len(path)-1 {
			break
		}
		if found.Value == nil {
			return hops, fmt.Sprintf("%s is a %s, not an object literal", here, found.Kind)
		}
		next, ok := ast.Unwrap(found.Value).(*ast.Object)
		if !ok {
			return hops, fmt.Sprintf("%s is not an object literal (%s)", here, e.describe(found.Value))
		}
		obj = next
	}
	return hops, ""
}

// found reports whether hops reached the whole path.
func found(hops []hop, path ast.Path) bool {
	return len(hops) == len(path) && hops[len(hops)-1].prop != nil
}

func isNamed(p *ast.Property) bool {
	return p.Kind != ast.PropSpread && p.KeyKind != ast.KeyComputed && p.KeyKind != ast.KeyNone
}

func isDynamic(p *ast.Property) bool {
	return p.Kind == ast.PropSpread || p.KeyKind == ast.KeyComputed
}

func dynamicAfter(o *ast.Object, p *ast.Property) *ast.Property {
	after := false
	for _, q := range o.Props {
		if q == p {
			after = true
		} else if after && isDynamic(q) {
			return q
		}
	}
	return nil
}

func dynamicIn(o *ast.Object) *ast.Property {
	for _, q := range o.Props {
		if isDynamic(q) {
			return q
		}
	}
	return nil
}

func dynamicWhat(p *ast.Property) string {
	if p.Kind == ast.PropSpread {
		return "spread"
	}
	return "computed key"
}

// describe names a value for a reason: "identifier engineConfig", "call".
func (e *editor) describe(n ast.Node) string {
	switch n := ast.Unwrap(n).(type) {
	case *ast.Ident:
		return "identifier " + n.Name
	case *ast.Expr:
		if n.Hint != "" {
			return n.Hint + " expression"
		}
		return "expression"
	case nil:
		return "nothing"
	default:
		return n.Kind().String()
	}
}

// object returns the object literal at path in the current config (the
// config itself for an empty path), or nil.
func (e *editor) object(path ast.Path) *ast.Object {
	if len(path) == 0 {
		return e.f.Literal
	}
	hops, why := e.walk(path)
	if why != "" || !found(hops, path) {
		return nil
	}
	p := hops[len(hops)-1].prop
	if p.Value == nil {
		return nil
	}
	o, _ := ast.Unwrap(p.Value).(*ast.Object)
	return o
}

// property returns the property at path in the current config, or nil.
func (e *editor) property(path ast.Path) *ast.Property {
	hops, why := e.walk(path)
	if why != "" || !found(hops, path) {
		return nil
	}
	return hops[len(hops)-1].prop
}

// set writes op.Value at op.Path.
func (e *editor) set(op Op) (string, error) {
	if _, err := e.l.value(op.Value, "", false); err != nil {
		return "cannot write the value: " + err.Error(), nil
	}
	hops, why := e.walk(op.Path)
	if why != "" {
		return why, nil
	}
	if found(hops, op.Path) {
		p := hops[len(hops)-1].prop
		obj := hops[len(hops)-1].obj
		indent := e.f.LineIndent(p.Loc.Start)
		oneLine := !e.multiline(obj.Loc)
		text, _ := e.l.value(op.Value, indent, oneLine)
		switch p.Kind {
		case ast.PropInit:
			v, bad := ast.Static(p.Value)
			if bad != nil {
				return fmt.Sprintf("%s is set by %s, not a literal: not replaced", op.Path, e.describe(bad)), nil
			}
			if equalValues(v, op.Value) {
				return "", nil
			}
			s := p.Value.Span()
			return "", e.step([]udiff.Edit{{Start: s.Start, End: s.End, New: text}})
		case ast.PropShorthand:
			return fmt.Sprintf("%s is set by the variable %s: not replaced", op.Path, p.Key), nil
		}
		return fmt.Sprintf("%s is a %s: not replaced", op.Path, p.Kind), nil
	}
	i := len(hops) - 1 // the first missing segment
	obj := hops[i].obj
	if i < len(op.Path)-1 {
		if d := dynamicIn(obj); d != nil {
			return fmt.Sprintf("the %s at line %d may already set %s; adding it would replace that value", dynamicWhat(d), e.f.Position(d.Loc.Start).Line, op.Path[:i+1]), nil
		}
	}
	leaf, err := e.valueProp(op.Path[len(op.Path)-1], op.Value)
	if err != nil {
		return "cannot write the value: " + err.Error(), nil
	}
	np, err := e.chain(op.Path[i:len(op.Path)-1], leaf)
	if err != nil {
		return err.Error(), nil
	}
	return e.insert(op.Path[:i], np, "")
}

// delete removes the property at op.Path, and the parents it leaves empty.
func (e *editor) delete(op Op) (string, error) {
	hops, why := e.walk(op.Path)
	if why != "" {
		return why, nil
	}
	if !found(hops, op.Path) {
		return e.absent(op.Path, hops), nil
	}
	return e.remove(op.Path)
}

// absent explains why a property to delete, move or rename is not there.
func (e *editor) absent(path ast.Path, hops []hop) string {
	obj := hops[len(hops)-1].obj
	if d := dynamicIn(obj); d != nil {
		return fmt.Sprintf("%s is not in the config as a literal (the %s at line %d may set it)", path, dynamicWhat(d), e.f.Position(d.Loc.Start).Line)
	}
	return fmt.Sprintf("%s is not in the config", path)
}

// remove deletes the property at path, which must exist, climbing to the
// highest parent the deletion leaves empty (never the config itself).
func (e *editor) remove(path ast.Path) (string, error) {
	hops, why := e.walk(path)
	if why != "" {
		return why, nil
	}
	if !found(hops, path) {
		return e.absent(path, hops), nil
	}
	k := len(hops) - 1
	for k > 0 && len(hops[k].obj.Props) == 1 {
		k--
	}
	obj, p := hops[k].obj, hops[k].prop
	edits := e.deleteEdits(obj, p)
	if k < len(hops)-1 {
		// The parents the deletion empties go, but not the comments
		// written on or in them (`// static generation` above generate,
		// a commented-out option inside it): they stay where the parent
		// was, at its indentation. The property's own comments go with
		// it (a move writes them at its new place).
		var ok bool
		if edits, ok = e.keepComments(edits, p.Extent(e.f), hops[len(hops)-1].prop.Extent(e.f)); !ok {
			return fmt.Sprintf("deleting the emptied %s would lose the comments in it: move them by hand first", path[:k+1]), nil
		}
	}
	return "", e.step(edits)
}

// keepComments turns the deletion of gone (the extent of an emptied
// parent) into a replacement by the comments in gone that are not in own
// (the extent of the property deleted or moved), one a line at gone's
// indentation. ok is false when they cannot be kept exactly: the parent
// does not stand on lines of its own.
func (e *editor) keepComments(edits []udiff.Edit, gone, own ast.Span) ([]udiff.Edit, bool) {
	var keep []*ast.Comment
	for _, c := range e.f.Comments {
		if c.Loc.Start >= gone.Start && c.Loc.End <= gone.End && !(c.Loc.Start >= own.Start && c.Loc.End <= own.End) {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 {
		return edits, true
	}
	src := e.f.Src
	if len(edits) == 0 || edits[0].Start != gone.Start || edits[0].End != gone.End || gone.Start != e.f.LineStart(gone.Start) ||
		gone.End > 0 && src[gone.End-1] != '\n' {
		return edits, false
	}
	indent := e.f.LineIndent(gone.Start)
	var b strings.Builder
	for _, c := range keep {
		b.WriteString(indent)
		b.WriteString(c.Text)
		b.WriteString(e.l.EOL)
	}
	edits[0].New = b.String()
	return edits, true
}

// deleteEdits removes p from obj: its extent (comments and comma included),
// and the comma of the property before it when p was the last one and the
// object has no trailing comma. An object left with nothing inside becomes
// `{}`.
func (e *editor) deleteEdits(obj *ast.Object, p *ast.Property) []udiff.Edit {
	src := e.f.Src
	ext := p.Extent(e.f)
	if len(obj.Props) == 1 && len(obj.Dangling) == 0 {
		in := ast.Span{Start: obj.Loc.Start + 1, End: obj.Loc.End - 1}
		if blank(src[in.Start:ext.Start]) && blank(src[ext.End:in.End]) {
			return []udiff.Edit{{Start: in.Start, End: in.End}}
		}
	}
	edits := []udiff.Edit{{Start: ext.Start, End: ext.End}}
	n := len(obj.Props)
	if n >= 2 && obj.Props[n-1] == p && p.Comma < 0 {
		q := obj.Props[n-2]
		if q.Comma >= 0 && q.Comma < ext.Start {
			edits = append(edits, udiff.Edit{Start: q.Comma, End: q.Comma + 1})
		}
	}
	return edits
}

func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// rename changes the key of the property at op.Path to op.To's last
// segment, touching only the key's bytes.
func (e *editor) rename(op Op) (string, error) {
	n := len(op.Path)
	if len(op.To) != n || !reflect.DeepEqual(op.Path[:n-1], op.To[:n-1]) {
		return fmt.Sprintf("cannot rename %s to %s: a rename keeps the parent (use a move)", op.Path, op.To), nil
	}
	hops, why := e.walk(op.Path)
	if why != "" {
		return why, nil
	}
	if !found(hops, op.Path) {
		if _, why := e.walk(op.To); why == "" && e.property(op.To) != nil {
			return "", nil // already renamed
		}
		return e.absent(op.Path, hops), nil
	}
	p, obj := hops[n-1].prop, hops[n-1].obj
	to := op.To[n-1]
	if to == p.Key {
		return "", nil
	}
	for _, q := range obj.Props {
		if isNamed(q) && q.Key == to {
			return fmt.Sprintf("%s already exists", op.To), nil
		}
	}
	key, err := e.l.key(to)
	if err != nil {
		return err.Error(), nil
	}
	if p.Kind == ast.PropShorthand {
		return "", e.step([]udiff.Edit{{Start: p.Loc.Start, End: p.Loc.End, New: key + ": " + p.Key}})
	}
	return "", e.step([]udiff.Edit{{Start: p.KeySpan.Start, End: p.KeySpan.End, New: key}})
}

// replace applies an OpReplace, whose span is in the original text.
func (e *editor) replace(op Op) (string, error) {
	s := op.Span
	if s.Start < 0 || s.End > len(e.orig.Src) || s.Start > s.End {
		return fmt.Sprintf("span [%d,%d) is outside the file", s.Start, s.End), nil
	}
	cfg := e.orig.Config.Loc
	if s.Start <= cfg.Start || s.End >= cfg.End {
		return fmt.Sprintf("span [%d,%d) is not inside the config object", s.Start, s.End), nil
	}
	m, ok := e.mapSpan(s)
	if !ok {
		return "the text it replaces was changed by an earlier edit", nil
	}
	if string(e.f.Src[m.Start:m.End]) == op.Text {
		return "", nil
	}
	return "", e.step([]udiff.Edit{{Start: m.Start, End: m.End, New: op.Text}})
}

// mapSpan maps a span of the original text to the current text. It fails
// when an edit since changed bytes inside the span.
func (e *editor) mapSpan(s ast.Span) (ast.Span, bool) {
	for _, edits := range e.steps {
		start, end := s.Start, s.End
		for _, ed := range edits {
			insert := ed.Start == ed.End
			if ed.Start < s.End && ed.End > s.Start || insert && s.Start < ed.Start && ed.Start < s.End {
				return s, false
			}
			d := len(ed.New) - (ed.End - ed.Start)
			if ed.End <= s.Start {
				start += d
			}
			if ed.End <= s.End && !(insert && ed.Start == s.End && s.Start != s.End) {
				end += d
			}
		}
		s = ast.Span{Start: start, End: end}
	}
	return s, true
}

// multiline reports a line break inside span.
func (e *editor) multiline(s ast.Span) bool {
	for i := s.Start; i < s.End; i++ {
		if e.f.Src[i] == '\n' {
			return true
		}
	}
	return false
}

// equalValues compares a static value from ast.Static with an Op value.
func equalValues(static, v any) bool {
	n, ok := Normalize(v)
	return ok && reflect.DeepEqual(static, n)
}

// Normalize converts an Op value to the types ast.Static returns.
func Normalize(v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool, string, float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint64:
		return float64(v), true
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out, true
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			n, ok := Normalize(x)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case Object:
		out := make(map[string]any, len(v))
		for _, kv := range v {
			n, ok := Normalize(kv.Value)
			if !ok {
				return nil, false
			}
			out[kv.Key] = n
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			n, ok := Normalize(x)
			if !ok {
				return nil, false
			}
			out[k] = n
		}
		return out, true
	}
	return nil, false
}
