package rewrite

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/ast"
)

// newProp is a property to insert, rendered once its place is known.
type newProp struct {
	// head renders the property's leading comments and the property itself,
	// without comma or trailing comment, for a line indented by indent;
	// oneLine asks for all of it on one line (possible when fits).
	head func(indent string, oneLine bool) string
	// trail is a comment that follows the property's comma on its line.
	trail string
	// lineComment reports a // comment among the leading and trailing
	// comments: nothing may follow it on its line.
	lineComment bool
	// trailLine reports that trail is a // comment.
	trailLine bool
	// leaf is false for the objects chain wraps around a property.
	leaf bool
}

func (np newProp) fits() bool {
	return !np.lineComment && !strings.Contains(np.head("", true), "\n")
}

// inline renders np inside a single-line object.
func (np newProp) inline() string {
	s := np.head("", true)
	if np.trail != "" {
		s += " " + np.trail
	}
	return s
}

// line renders np on lines of its own at indent.
func (np newProp) line(indent string, comma bool) string {
	s := np.head(indent, false)
	if comma {
		s += ","
	}
	if np.trail != "" {
		s += " " + np.trail
	}
	return s
}

// valueProp is `key: <v as a literal>`.
func (e *editor) valueProp(key string, v any) (newProp, error) {
	k, err := e.l.key(key)
	if err != nil {
		return newProp{}, err
	}
	l := &e.l
	return newProp{leaf: true, head: func(indent string, oneLine bool) string {
		s, _ := l.value(v, indent, oneLine)
		return k + ": " + s
	}}, nil
}

// chain wraps np in one new object per segment: chain([a b], c: 1) is
// `a: { b: { c: 1 } }`, one level per line unless the file writes small
// objects inline and the innermost one is small.
func (e *editor) chain(segs []string, np newProp) (newProp, error) {
	l := &e.l
	for i := len(segs) - 1; i >= 0; i-- {
		k, err := l.key(segs[i])
		if err != nil {
			return newProp{}, err
		}
		inner := np
		np = newProp{lineComment: inner.lineComment, head: func(indent string, oneLine bool) string {
			if oneLine || l.inline && inner.leaf && inner.fits() && len(inner.inline()) <= maxInline-len(indent) {
				return k + ": " + l.braces(inner.inline())
			}
			in := indent + l.Indent
			return k + ": {" + l.EOL + in + inner.line(in, l.TrailingCommas) + l.EOL + indent + "}"
		}}
	}
	return np, nil
}

// movedProp is p as it will read at its new place under the name key: its
// leading comments, its own bytes (the key replaced when it changes) with
// the indentation of its lines moved to the new depth, and its trailing
// comment.
func (e *editor) movedProp(p *ast.Property, key string) (newProp, error) {
	f, l := e.f, &e.l
	src := f.Src
	if p.KeySpan.Len() == 0 || p.KeySpan.Start < p.Loc.Start || p.KeySpan.End > p.Loc.End {
		return newProp{}, fmt.Errorf("the property at line %d has no key to move", f.Position(p.Loc.Start).Line)
	}
	keyText := string(src[p.KeySpan.Start:p.KeySpan.End])
	if key != p.Key {
		k, err := l.key(key)
		if err != nil {
			return newProp{}, err
		}
		keyText = k
		if p.Kind == ast.PropShorthand {
			keyText = k + ": " + p.Key
		}
	}
	prefix := string(src[p.Loc.Start:p.KeySpan.Start]) // `async `, `get `, `*`
	body := ast.Span{Start: p.KeySpan.End, End: p.Loc.End}
	from := f.LineIndent(p.Loc.Start)
	protect := literalSpans(f, p.Value)
	np := newProp{leaf: true}
	for _, c := range p.Leading {
		if !c.Block {
			np.lineComment = true
		}
	}
	if p.Trailing != nil {
		np.trail = p.Trailing.Text
		if !p.Trailing.Block {
			np.lineComment, np.trailLine = true, true
		}
	}
	leading := p.Leading
	np.head = func(indent string, oneLine bool) string {
		var b strings.Builder
		for _, c := range leading {
			b.WriteString(reindent(src, c.Loc, f.LineIndent(c.Loc.Start), indent, nil))
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteString(l.EOL)
				b.WriteString(indent)
			}
		}
		b.WriteString(prefix)
		b.WriteString(keyText)
		b.WriteString(reindent(src, body, from, indent, protect))
		return b.String()
	}
	return np, nil
}

// insert adds np to the object at objPath, after its property afterKey
// ("" or absent: at the end). A single-line object takes np inline when it
// fits on one line, and is spread over several lines first otherwise.
func (e *editor) insert(objPath ast.Path, np newProp, afterKey string) (string, error) {
	obj := e.object(objPath)
	if obj == nil {
		return "", fmt.Errorf("lost the object at %q", objPath.String())
	}
	if len(obj.Props) > 0 && !e.multiline(obj.Loc) && !np.fits() {
		edits, ok := e.expandObject(obj)
		if !ok {
			return fmt.Sprintf("cannot add to the one-line object at line %d without moving its comments", e.f.Position(obj.Loc.Start).Line), nil
		}
		if err := e.step(edits); err != nil {
			return "", err
		}
		if obj = e.object(objPath); obj == nil {
			return "", fmt.Errorf("lost the object at %q", objPath.String())
		}
	}
	var after *ast.Property
	if afterKey != "" {
		for _, p := range obj.Props {
			if isNamed(p) && p.Key == afterKey {
				after = p
			}
		}
	}
	return "", e.step(e.insertEdits(obj, np, after))
}

func (e *editor) insertEdits(obj *ast.Object, np newProp, after *ast.Property) []udiff.Edit {
	src, l := e.f.Src, &e.l
	if len(obj.Props) == 0 {
		in := ast.Span{Start: obj.Loc.Start + 1, End: obj.Loc.End - 1}
		if !e.multiline(obj.Loc) && blank(src[in.Start:in.End]) && l.inline && np.fits() {
			b := l.braces(np.inline())
			return []udiff.Edit{{Start: in.Start, End: in.End, New: b[1 : len(b)-1]}}
		}
		q := in.End
		for q > in.Start && isSpace(src[q-1]) {
			q--
		}
		closeIndent := e.f.LineIndent(obj.Loc.Start)
		if e.startsLine(obj.Loc.End - 1) {
			closeIndent = e.f.LineIndent(obj.Loc.End - 1)
		}
		ind := closeIndent + l.Indent
		if len(obj.Dangling) > 0 && e.startsLine(obj.Dangling[0].Loc.Start) {
			ind = e.f.LineIndent(obj.Dangling[0].Loc.Start)
		}
		return []udiff.Edit{{Start: q, End: in.End, New: l.EOL + ind + np.line(ind, l.TrailingCommas) + l.EOL + closeIndent}}
	}
	last := obj.Props[len(obj.Props)-1]
	if after == nil {
		after = last
	}
	if !e.multiline(obj.Loc) {
		if after.Comma >= 0 {
			return []udiff.Edit{{Start: after.Comma + 1, End: after.Comma + 1, New: " " + np.inline() + ","}}
		}
		return []udiff.Edit{{Start: after.Loc.End, End: after.Loc.End, New: ", " + np.inline()}}
	}
	ind := e.propIndent(obj)
	pos := contentEnd(after)
	text := l.EOL + ind + np.line(ind, after != last || after.Comma >= 0)
	end := pos
	if np.trailLine && !e.restBlank(pos) {
		// `}` follows on the line: the comment must not swallow it.
		text += l.EOL + e.f.LineIndent(obj.Loc.Start)
		end = e.skipBlanks(pos)
	}
	if after.Comma >= 0 {
		return []udiff.Edit{{Start: pos, End: end, New: text}}
	}
	if pos == after.Loc.End {
		return []udiff.Edit{{Start: pos, End: end, New: "," + text}}
	}
	return []udiff.Edit{{Start: after.Loc.End, End: after.Loc.End, New: ","}, {Start: pos, End: end, New: text}}
}

// skipBlanks returns the offset of the first byte at or after off that is
// not a space or a tab.
func (e *editor) skipBlanks(off int) int {
	for off < len(e.f.Src) && (e.f.Src[off] == ' ' || e.f.Src[off] == '\t') {
		off++
	}
	return off
}

// restBlank reports that nothing but blanks follows off on its line.
func (e *editor) restBlank(off int) bool {
	src := e.f.Src
	for ; off < len(src) && src[off] != '\n'; off++ {
		if src[off] != ' ' && src[off] != '\t' && src[off] != '\r' {
			return false
		}
	}
	return true
}

// contentEnd is the end of p's line content: after its value, its comma
// and its trailing comment.
func contentEnd(p *ast.Property) int {
	end := p.Loc.End
	if p.Comma >= end {
		end = p.Comma + 1
	}
	if p.Trailing != nil && p.Trailing.Loc.End > end {
		end = p.Trailing.Loc.End
	}
	return end
}

// propIndent is the indentation of obj's properties: that of the first one
// that starts its line, else one unit more than the line of the `{`.
func (e *editor) propIndent(obj *ast.Object) string {
	for _, p := range obj.Props {
		if e.startsLine(p.Loc.Start) {
			return e.f.LineIndent(p.Loc.Start)
		}
	}
	return e.f.LineIndent(obj.Loc.Start) + e.l.Indent
}

// startsLine reports that only blanks precede off on its line.
func (e *editor) startsLine(off int) bool {
	src := e.f.Src
	for i := off - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// spaces reports that b holds only blanks within a line.
func spaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// expandObject puts each property of a single-line object on a line of its
// own. It gives up (false) when comments sit between the properties.
func (e *editor) expandObject(obj *ast.Object) ([]udiff.Edit, bool) {
	if len(obj.Dangling) > 0 || len(obj.Props) == 0 {
		return nil, false
	}
	src, l := e.f.Src, &e.l
	base := e.f.LineIndent(obj.Loc.Start)
	ind := base + l.Indent
	var edits []udiff.Edit
	prev := obj.Loc.Start + 1
	for i, p := range obj.Props {
		start := p.Loc.Start
		if len(p.Leading) > 0 {
			start = p.Leading[0].Loc.Start
		}
		if start < prev || !spaces(src[prev:start]) || p.Comma < 0 && i < len(obj.Props)-1 {
			return nil, false
		}
		edits = append(edits, udiff.Edit{Start: prev, End: start, New: l.EOL + ind})
		prev = contentEnd(p)
	}
	last := obj.Props[len(obj.Props)-1]
	end := obj.Loc.End - 1
	if prev > end || !spaces(src[prev:end]) {
		return nil, false
	}
	closing := l.EOL + base
	if last.Comma < 0 && l.TrailingCommas {
		if prev == last.Loc.End {
			closing = "," + closing
		} else {
			edits = append(edits, udiff.Edit{Start: last.Loc.End, End: last.Loc.End, New: ","})
		}
	}
	return append(edits, udiff.Edit{Start: prev, End: end, New: closing}), true
}

// commentAt returns the comment that starts at off, or nil.
func (e *editor) commentAt(off int) *ast.Comment {
	cs := e.f.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Loc.Start >= off })
	if i < len(cs) && cs[i].Loc.Start == off {
		return cs[i]
	}
	return nil
}

// commaAfter finds the comma after an array element that ends at off,
// skipping blanks and comments; -1 when the next token is not a comma.
func (e *editor) commaAfter(off, limit int) int {
	src := e.f.Src
	for off < limit {
		if isSpace(src[off]) {
			off++
		} else if c := e.commentAt(off); c != nil {
			off = c.Loc.End
		} else if src[off] == ',' {
			return off
		} else {
			return -1
		}
	}
	return -1
}

// lineEnd extends off over blanks and comments that end on its line, and
// returns the end of the last such comment (off when there is none).
func (e *editor) lineEnd(off, limit int) int {
	src := e.f.Src
	end := off
	for i := off; i < limit; {
		switch {
		case src[i] == ' ' || src[i] == '\t':
			i++
		case e.commentAt(i) != nil:
			c := e.commentAt(i)
			if c.Block && strings.Contains(c.Text, "\n") {
				return end
			}
			i, end = c.Loc.End, c.Loc.End
		default:
			return end
		}
	}
	return end
}

// elemStart is where element i begins, its `...` included.
func (e *editor) elemStart(a *ast.Array, i int) int {
	src := e.f.Src
	s := a.Elements[i].Span().Start
	if a.IsSpread(i) {
		k := s
		for k > a.Loc.Start && isSpace(src[k-1]) {
			k--
		}
		if k-3 > a.Loc.Start && string(src[k-3:k]) == "..." {
			s = k - 3
		}
	}
	return s
}

// elemIndent is the indentation of a's elements (as propIndent).
func (e *editor) elemIndent(a *ast.Array) string {
	for i, el := range a.Elements {
		if el != nil && e.startsLine(e.elemStart(a, i)) {
			return e.f.LineIndent(e.elemStart(a, i))
		}
	}
	return e.f.LineIndent(a.Loc.Start) + e.l.Indent
}

// expandArray puts each element of a single-line array on a line of its own.
func (e *editor) expandArray(a *ast.Array) ([]udiff.Edit, bool) {
	src, l := e.f.Src, &e.l
	base := e.f.LineIndent(a.Loc.Start)
	ind := base + l.Indent
	var edits []udiff.Edit
	prev := a.Loc.Start + 1
	end := a.Loc.End - 1
	comma := -1
	for i, el := range a.Elements {
		if el == nil {
			return nil, false
		}
		start := e.elemStart(a, i)
		if start < prev || !spaces(src[prev:start]) {
			return nil, false
		}
		edits = append(edits, udiff.Edit{Start: prev, End: start, New: l.EOL + ind})
		prev = el.Span().End
		comma = e.commaAfter(prev, end)
		if comma < 0 {
			if i < len(a.Elements)-1 {
				return nil, false
			}
			break
		}
		if !spaces(src[prev:comma]) {
			return nil, false
		}
		prev = comma + 1
	}
	if prev > end || !spaces(src[prev:end]) {
		return nil, false
	}
	closing := l.EOL + base
	if comma < 0 && l.TrailingCommas {
		closing = "," + closing
	}
	return append(edits, udiff.Edit{Start: prev, End: end, New: closing}), true
}

// hasComments reports a comment inside span.
func (e *editor) hasComments(s ast.Span) bool {
	cs := e.f.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Loc.Start >= s.Start })
	return i < len(cs) && cs[i].Loc.End <= s.End
}

func (e *editor) hasLineComment(s ast.Span) bool {
	cs := e.f.Comments
	for i := sort.Search(len(cs), func(i int) bool { return cs[i].Loc.Start >= s.Start }); i < len(cs) && cs[i].Loc.End <= s.End; i++ {
		if !cs[i].Block {
			return true
		}
	}
	return false
}

// concat appends the elements of the array at srcPath, with the comments
// around and inside them, to the array at dstPath.
func (e *editor) concat(dstPath, srcPath ast.Path) (string, error) {
	for expanded := false; ; expanded = true {
		dp, sp := e.property(dstPath), e.property(srcPath)
		if dp == nil || sp == nil || dp.Value == nil || sp.Value == nil {
			return "", fmt.Errorf("lost %s or %s", dstPath, srcPath)
		}
		darr, _ := ast.Unwrap(dp.Value).(*ast.Array)
		sarr, _ := ast.Unwrap(sp.Value).(*ast.Array)
		if darr == nil || sarr == nil {
			return "", fmt.Errorf("%s or %s is no longer an array", dstPath, srcPath)
		}
		if len(sarr.Elements) == 0 && len(sp.Leading) == 0 && sp.Trailing == nil && !e.hasComments(sarr.Loc) {
			return "", nil
		}
		for _, el := range sarr.Elements {
			if el == nil {
				return fmt.Sprintf("%s has holes", srcPath), nil
			}
		}
		n := len(darr.Elements)
		if n > 0 && darr.Elements[n-1] == nil {
			return fmt.Sprintf("%s ends with a hole", dstPath), nil
		}
		items := e.carried(sp, sarr)
		if n > 0 && !e.multiline(darr.Loc) && !items.fits() {
			if expanded {
				return "", fmt.Errorf("%s is still on one line", dstPath)
			}
			edits, ok := e.expandArray(darr)
			if !ok {
				return fmt.Sprintf("cannot add to the one-line array %s without moving its comments", dstPath), nil
			}
			if err := e.step(edits); err != nil {
				return "", err
			}
			continue
		}
		return "", e.step(e.concatEdits(darr, items))
	}
}

// concatEdits appends items to a.
func (e *editor) concatEdits(a *ast.Array, items carried) []udiff.Edit {
	src, l := e.f.Src, &e.l
	end := a.Loc.End - 1
	if len(a.Elements) == 0 {
		in := ast.Span{Start: a.Loc.Start + 1, End: end}
		if !e.multiline(a.Loc) && blank(src[in.Start:in.End]) && items.fits() {
			return []udiff.Edit{{Start: in.Start, End: in.End, New: items.render("", true, false)}}
		}
		q := in.End
		for q > in.Start && isSpace(src[q-1]) {
			q--
		}
		closeIndent := e.f.LineIndent(a.Loc.Start)
		if e.startsLine(end) {
			closeIndent = e.f.LineIndent(end)
		}
		ind := closeIndent + l.Indent
		return []udiff.Edit{{Start: q, End: in.End, New: l.EOL + ind + items.render(ind, false, l.TrailingCommas) + l.EOL + closeIndent}}
	}
	lastEnd := a.Elements[len(a.Elements)-1].Span().End
	comma := e.commaAfter(lastEnd, end)
	if !e.multiline(a.Loc) {
		if comma >= 0 {
			return []udiff.Edit{{Start: comma + 1, End: comma + 1, New: " " + items.render("", true, true)}}
		}
		return []udiff.Edit{{Start: lastEnd, End: lastEnd, New: ", " + items.render("", true, false)}}
	}
	ind := e.elemIndent(a)
	pos := lastEnd
	if comma >= 0 {
		pos = comma + 1
	}
	pos = e.lineEnd(pos, end)
	text := l.EOL + ind + items.render(ind, false, comma >= 0)
	stop := pos
	if items.endsLine && !e.restBlank(pos) {
		// `]` follows on the line: the comment must not swallow it.
		text += l.EOL + e.f.LineIndent(a.Loc.Start)
		stop = e.skipBlanks(pos)
	}
	if comma >= 0 {
		return []udiff.Edit{{Start: pos, End: stop, New: text}}
	}
	if pos == lastEnd {
		return []udiff.Edit{{Start: pos, End: stop, New: "," + text}}
	}
	return []udiff.Edit{{Start: lastEnd, End: lastEnd, New: ","}, {Start: pos, End: stop, New: text}}
}

// carried is what concat moves: the elements of an array with the comments
// between them, and the comments of the property that held the array.
type carried struct {
	render func(indent string, oneLine, comma bool) string
	// multi reports that the items cannot share a line with what follows
	// or do not fit on one line.
	multi bool
	// endsLine reports that the items end with a // comment.
	endsLine bool
}

func (c carried) fits() bool { return !c.multi }

func (e *editor) carried(sp *ast.Property, a *ast.Array) carried {
	src, l, f := e.f.Src, &e.l, e.f
	// The items run from the first non-blank after `[` to the last
	// non-blank before `]`, a final trailing comma left out.
	start, end := a.Loc.Start+1, a.Loc.End-1
	for start < end && isSpace(src[start]) {
		start++
	}
	for end > start && isSpace(src[end-1]) {
		end--
	}
	commaInside := a.TrailingComma // a trailing comma followed by a comment
	if end > start && src[end-1] == ',' {
		end--
		commaInside = false
		for end > start && isSpace(src[end-1]) {
			end--
		}
	}
	lastEnd := end
	if n := len(a.Elements); n > 0 {
		lastEnd = a.Elements[n-1].Span().End
	}
	from := f.LineIndent(a.Loc.Start) + l.Indent
	if len(a.Elements) > 0 && e.startsLine(e.elemStart(a, 0)) {
		from = f.LineIndent(e.elemStart(a, 0))
	}
	protect := literalSpans(f, a)
	span := ast.Span{Start: start, End: end}
	multi := e.multiline(span) || e.hasLineComment(span) || end-start > maxInline
	if len(sp.Leading) > 0 {
		multi = true
	}
	endsLine := false
	if cs := f.Comments; len(cs) > 0 {
		i := sort.Search(len(cs), func(i int) bool { return cs[i].Loc.End >= end })
		endsLine = i < len(cs) && cs[i].Loc.End == end && !cs[i].Block
	}
	trail := ""
	if sp.Trailing != nil {
		trail = sp.Trailing.Text
		if !sp.Trailing.Block {
			multi, endsLine = true, true
		}
	}
	leading := sp.Leading
	return carried{multi: multi, endsLine: endsLine, render: func(indent string, oneLine, comma bool) string {
		var b strings.Builder
		for _, c := range leading {
			b.WriteString(reindent(src, c.Loc, f.LineIndent(c.Loc.Start), indent, nil))
			b.WriteString(l.EOL)
			b.WriteString(indent)
		}
		if lastEnd < start || lastEnd > end {
			lastEnd = end
		}
		b.WriteString(reindent(src, ast.Span{Start: start, End: lastEnd}, from, indent, protect))
		if comma && !commaInside {
			b.WriteByte(',')
		}
		b.WriteString(reindent(src, ast.Span{Start: lastEnd, End: end}, from, indent, protect))
		if trail != "" {
			b.WriteByte(' ')
			b.WriteString(trail)
		}
		return b.String()
	}}
}

// action is one step of moving an object or array into an existing one:
// insert the property at src into the object at dst, or concatenate the
// array at src to the array at dst.
type action struct {
	concat   bool
	dst, src ast.Path
}

func child(p ast.Path, k string) ast.Path {
	out := make(ast.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, k)
}

func hasPrefix(p, prefix ast.Path) bool {
	return len(p) >= len(prefix) && reflect.DeepEqual([]string(p[:len(prefix)]), []string(prefix))
}

// plan works out how the property sp (at src) merges into the existing
// property tp (at dst): objects key by key, arrays by concatenation, and
// equal literals by dropping the moved one. Anything else is a conflict.
func (e *editor) plan(dst, src ast.Path, tp, sp *ast.Property) ([]action, string) {
	if tp.Value != nil && sp.Value != nil {
		to, tok := ast.Unwrap(tp.Value).(*ast.Object)
		so, sok := ast.Unwrap(sp.Value).(*ast.Object)
		if tok && sok {
			return e.planObject(dst, src, tp, sp, to, so)
		}
		_, tok = ast.Unwrap(tp.Value).(*ast.Array)
		_, sok = ast.Unwrap(sp.Value).(*ast.Array)
		if tok && sok {
			return []action{{concat: true, dst: dst, src: src}}, ""
		}
		a, bad1 := ast.Static(tp.Value)
		b, bad2 := ast.Static(sp.Value)
		if bad1 == nil && bad2 == nil && reflect.DeepEqual(a, b) && !e.hasComments(sp.Extent(e.f)) {
			return nil, "" // the same value is already there
		}
	}
	return nil, fmt.Sprintf("%s already exists with another value", dst)
}

func (e *editor) planObject(dst, src ast.Path, tp, sp *ast.Property, to, so *ast.Object) ([]action, string) {
	if len(sp.Leading) > 0 || sp.Trailing != nil || len(so.Dangling) > 0 {
		return nil, fmt.Sprintf("merging %s into the existing %s would drop the comments on %s", src, dst, src)
	}
	for _, o := range []*ast.Object{so, to} {
		if d := dynamicIn(o); d != nil {
			return nil, fmt.Sprintf("cannot merge %s into %s: the %s at line %d", src, dst, dynamicWhat(d), e.f.Position(d.Loc.Start).Line)
		}
	}
	var out []action
	seen := map[string]bool{}
	for _, p := range so.Props {
		if seen[p.Key] {
			return nil, fmt.Sprintf("%s is set twice in the same object", child(src, p.Key))
		}
		seen[p.Key] = true
		var q *ast.Property
		for _, t := range to.Props {
			if t.Key == p.Key {
				if q != nil {
					return nil, fmt.Sprintf("%s is set twice in the same object", child(dst, p.Key))
				}
				q = t
			}
		}
		if q == nil {
			out = append(out, action{dst: dst, src: child(src, p.Key)})
			continue
		}
		sub, why := e.plan(child(dst, p.Key), child(src, p.Key), q, p)
		if why != "" {
			return nil, why
		}
		out = append(out, sub...)
	}
	return out, ""
}

// move moves the property at op.Path to op.To.
func (e *editor) move(op Op) (string, error) {
	if hasPrefix(op.To, op.Path) || hasPrefix(op.Path, op.To) {
		if len(op.To) == len(op.Path) {
			return "", nil
		}
		return fmt.Sprintf("cannot move %s to %s, inside itself or its parent", op.Path, op.To), nil
	}
	hops, why := e.walk(op.Path)
	if why != "" {
		return why, nil
	}
	if !found(hops, op.Path) {
		return e.absent(op.Path, hops), nil
	}
	sp := hops[len(hops)-1].prop
	thops, why := e.walk(op.To)
	if why != "" {
		return why, nil
	}
	if found(thops, op.To) {
		actions, why := e.plan(op.To, op.Path, thops[len(thops)-1].prop, sp)
		if why != "" {
			return why, nil
		}
		for _, a := range actions {
			if a.concat {
				why, err := e.concat(a.dst, a.src)
				if why != "" || err != nil {
					return why, err
				}
				continue
			}
			p := e.property(a.src)
			if p == nil {
				return "", fmt.Errorf("lost %s", a.src)
			}
			np, err := e.movedProp(p, p.Key)
			if err != nil {
				return err.Error(), nil
			}
			if why, err := e.insert(a.dst, np, ""); why != "" || err != nil {
				return why, err
			}
		}
		return e.remove(op.Path)
	}
	i := len(thops) - 1 // the first missing segment of To
	if i < len(op.To)-1 {
		if d := dynamicIn(thops[i].obj); d != nil {
			return fmt.Sprintf("the %s at line %d may already set %s; adding it would replace that value", dynamicWhat(d), e.f.Position(d.Loc.Start).Line, op.To[:i+1]), nil
		}
	}
	leaf, err := e.movedProp(sp, op.To[len(op.To)-1])
	if err != nil {
		return err.Error(), nil
	}
	np, err := e.chain(op.To[i:len(op.To)-1], leaf)
	if err != nil {
		return err.Error(), nil
	}
	// Where it reads naturally: next to the moved property (or the parent
	// it leaves) when both live in the same object.
	after := ""
	if len(op.Path) > i && hasPrefix(op.Path, op.To[:i]) {
		after = op.Path[i]
	}
	if why, err := e.insert(op.To[:i], np, after); why != "" || err != nil {
		return why, err
	}
	return e.remove(op.Path)
}
