package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleWatchPaths = &Rule{
	Code:     "FW605",
	Name:     "watch-relative-path",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a builder:watch listener that treats the changed path as relative to srcDir, which version 4 passes as an absolute path",
		Why: `The builder:watch hook receives the watcher's event and the changed path. On
version 3 the path is relative to srcDir ('pages/index.vue'); version 4 passes the
absolute path (experimental.relativeWatchPaths flips to false and is removed in
framework major 4). Code that tests the path as a relative one then never
matches: path.startsWith('pages/'), /^content\//.test(path), path ===
'app.vue', switch cases and ['app.vue'].includes(path) with relative strings,
path.split('/')[0], and join(srcDir, path), which now doubles the directory.
resolve(x, path), relative(x, path), isAbsolute(path), path.includes(...) and
path.endsWith(...) give the same answer for both kinds of path and are not
reported. Listeners are found in modules (fw.hook('builder:watch', fn) with fw
the second parameter of setup in defineFwModule or of a module function, or
useFw()), in defineFwModule({ hooks }) and in the config's hooks; the path is
the listener's second parameter, followed through its copies (const p = path,
path.replace(...)). A listener that assigns its path parameter already
normalizes it and is left alone. A listener that uses the path in another way
(logs it, sends it, stores it) is reported at info: its form changes, which
may or may not matter. experimental.relativeWatchPaths: true keeps the
relative path on framework major 3 only (major 4 removes the option): the
sites are reported with a note saying so.`,
		Example: `export default defineFwModule({
  setup(options, fw) {
    fw.hook('builder:watch', (event, path) => {
      if (path.startsWith('pages/')) regenerate()
    })
  },
})`,
		Fix: `Unsafe: makes the path relative again as the listener's first statement,
path = relative(fw.options.srcDir, resolve(fw.options.srcDir, path)), which gives
the relative path on both majors, and imports relative and resolve from
node:path (into an existing import of node:path or path, else on a new line
after the last import; other names when the file already uses these). Only where
the module's fw is in scope at the listener and the file is an ES module; for the
config's hooks and defineFwModule's hooks object the notes say what to write.`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.relativeWatchPaths"},
}

func init() {
	ruleWatchPaths.scan = scanWatchPaths
	Register(ruleWatchPaths)
}

func scanWatchPaths(ci *codeIndex) *fileScan {
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		var listeners []*code.HookListener
		v := code.HookVisitor(f, "builder:watch", &listeners)
		if v == nil {
			return nil
		}
		done := v.Done
		v.Done = func() {
			done()
			for _, l := range listeners {
				*out = append(*out, watchSites(l)...)
			}
		}
		return v
	}, nil)
}

// watchSites returns the uses of a builder:watch listener's path that
// treat it as relative, each with the listener's fix.
func watchSites(l *code.HookListener) []*site {
	f := l.File
	p := code.Param(l.Fn, 1)
	if p == nil || l.Fn.Y == nil {
		return nil
	}
	b := p.DeclBinding()
	if b == nil || code.Reassigned(b) {
		return nil // no path, or the listener makes it what it wants already
	}
	tracked := map[*ast.Binding]bool{b: true}
	var out []*site
	var used *ast.JSNode // the first use of the path, judged or not
	ast.WalkJS(l.Fn.Y, func(n *ast.JSNode, up []*ast.JSNode) bool {
		if n.Kind != ast.JSIdent || n.DeclBinding() != nil || !tracked[n.Resolve()] {
			return true
		}
		at, what := relativeUse(f, n, up, tracked)
		if at != nil {
			out = append(out, &site{file: f, span: at.Loc, msg: "`" + f.Code.Text(at.Loc) + "` " + what})
		}
		if used == nil && !pathNeutral(f, n, up) {
			used = n
			if k := len(up) - 1; k >= 0 {
				used = up[k]
				if used.Kind == ast.JSMember && k > 0 && up[k-1].Kind == ast.JSCall && up[k-1].X == used {
					used = up[k-1] // path.slice(1): the call
				}
			}
		}
		return true
	})
	if len(out) == 0 && used != nil {
		// The path is used (logged, sent, stored, compared with what
		// cannot be told): its form changes on version 4, which may or may
		// not matter here.
		s := &site{file: f, span: used.Loc, info: true}
		s.msg = "`" + f.Code.Text(used.Loc) + "` uses the `builder:watch` path, which version 4 passes as an absolute path instead of one relative to srcDir: check that this use takes either form"
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil
	}
	fix, notes := watchFix(l, p.Name)
	for _, s := range out {
		s.fix, s.notes = fix, notes
	}
	return out
}

// pathNeutral reports a use of the builder:watch path that gives the same
// answer for both of its forms: resolve(x, path), relative(x, path),
// isAbsolute(path), path.endsWith(...), path.includes(...), extname and
// basename, a copy (followed on its own), or a use that passes it on as a
// declaration's value.
func pathNeutral(f *code.File, n *ast.JSNode, up []*ast.JSNode) bool {
	if len(up) == 0 {
		return false
	}
	p := up[len(up)-1]
	switch p.Kind {
	case ast.JSDeclarator:
		return p.Y == n // a copy: its own uses are judged
	case ast.JSCall:
		switch code.PathFunc(f, p.X) {
		case "resolve", "relative", "isAbsolute", "extname", "basename", "normalize":
			return true
		}
	case ast.JSMember:
		if p.X == n && !p.Has(ast.FlagComputed) {
			switch p.Name {
			case "endsWith", "includes":
				return true
			}
		}
	}
	return false
}

// relativeUse returns the expression by which a use of the path (n, with
// its ancestors up) treats it as relative, and what it does; nil when it
// does not. A copy of the path (const p = path, path.replace(...)) is
// added to tracked.
func relativeUse(f *code.File, n *ast.JSNode, up []*ast.JSNode, tracked map[*ast.Binding]bool) (*ast.JSNode, string) {
	const never = "treats the `builder:watch` path as relative to srcDir: on version 4 the path is absolute, so this never matches"
	// Climb through what keeps the path a path: path.replace(/\\/g, '/'),
	// path.toLowerCase(), normalize(path).
	cur, i := n, len(up)-1
	for i >= 0 {
		p := up[i]
		if p.Kind == ast.JSMember && p.X == cur && !p.Has(ast.FlagComputed) && i > 0 && up[i-1].Kind == ast.JSCall && up[i-1].X == p {
			if m := p.Name; (m == "replace" || m == "replaceAll") && !(len(up[i-1].List) > 0 && relativeRegExp(up[i-1].List[0])) || m == "toLowerCase" || m == "normalize" || m == "trim" {
				cur, i = up[i-1], i-2
				continue
			}
		}
		if p.Kind == ast.JSCall && len(p.List) == 1 && p.List[0] == cur && code.PathFunc(f, p.X) == "normalize" {
			cur, i = p, i-1
			continue
		}
		break
	}
	if i < 0 {
		return nil, ""
	}
	p := up[i]
	switch p.Kind {
	case ast.JSDeclarator:
		if p.Y == cur && p.X.Kind == ast.JSIdent {
			if b := p.X.DeclBinding(); b != nil && !code.Reassigned(b) {
				tracked[b] = true
			}
		}
	case ast.JSBinary:
		if p.Op == "===" || p.Op == "!==" || p.Op == "==" || p.Op == "!=" {
			if s, ok := code.StringValue(code.OtherOperand(p, cur)); ok && relativePath(s) {
				return p, "compares the `builder:watch` path with a path relative to srcDir: on version 4 the path is absolute, so this is " + map[bool]string{true: "always false", false: "always true"}[p.Op[0] == '=']
			}
		}
	case ast.JSSwitch:
		if p.X == cur {
			for _, c := range p.List {
				if s, ok := code.StringValue(c.X); ok && relativePath(s) {
					return c.X, "is a case of the `builder:watch` path relative to srcDir: on version 4 the path is absolute, so this case never runs"
				}
			}
		}
	case ast.JSMember:
		if p.X != cur || p.Has(ast.FlagComputed) || i == 0 || up[i-1].Kind != ast.JSCall || up[i-1].X != p || len(up[i-1].List) == 0 {
			break
		}
		call, arg := up[i-1], up[i-1].List[0]
		switch p.Name {
		case "startsWith":
			if s, ok := code.StringValue(arg); ok && relativePath(s) {
				return call, never
			}
		case "match", "search", "replace", "replaceAll":
			if relativeRegExp(arg) {
				return call, never
			}
		case "split":
			// path.split('/')[0] is the first directory of a relative path,
			// '' of an absolute one.
			if i >= 2 && up[i-2].Kind == ast.JSMember && up[i-2].X == call && up[i-2].Has(ast.FlagComputed) && up[i-2].Y != nil && up[i-2].Y.Kind == ast.JSNumber && up[i-2].Y.Name == "0" {
				return up[i-2], "takes the first directory of the `builder:watch` path as if it were relative to srcDir: on version 4 the path is absolute, so this is ''"
			}
		}
	case ast.JSCall:
		switch {
		case p.X.Kind == ast.JSMember && !p.X.Has(ast.FlagComputed) && p.X.Name == "test" && len(p.List) > 0 && p.List[0] == cur && relativeRegExp(p.X.X):
			return p, never
		case p.X.Kind == ast.JSMember && !p.X.Has(ast.FlagComputed) && p.X.Name == "includes" && len(p.List) > 0 && p.List[0] == cur && p.X.X.Kind == ast.JSArray:
			for _, el := range p.X.X.List {
				if s, ok := code.StringValue(el); ok && relativePath(s) {
					return p, "looks the `builder:watch` path up among paths relative to srcDir: on version 4 the path is absolute, so this is always false"
				}
			}
		case code.PathFunc(f, p.X) == "join":
			for k, a := range p.List {
				if a == cur && k > 0 {
					return p, "joins the `builder:watch` path to a directory as if it were relative: on version 4 the path is absolute, and join puts the directory in front of it twice"
				}
			}
		}
	}
	return nil, ""
}

// relativePath reports whether a string literal is a relative path (what
// version 3 passes): not empty, not absolute on POSIX or Windows.
func relativePath(s string) bool {
	return s != "" && s[0] != '/' && s[0] != '\\' && !(len(s) > 1 && s[1] == ':')
}

// relativeRegExp reports whether n is a regular expression literal (or a
// const holding one) anchored at the start of a relative path: /^content\//,
// /^(pages|layouts)\//; not /^\//, /^.*x/, /^[/\\]/.
func relativeRegExp(n *ast.JSNode) bool {
	if n != nil && n.Kind == ast.JSIdent {
		if b := n.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil {
			n = b.Init
		}
	}
	if n == nil || n.Kind != ast.JSRegExp || !strings.HasPrefix(n.Name, "/^") {
		return false
	}
	s := n.Name[2:]
	for {
		switch {
		case strings.HasPrefix(s, "(?:"):
			s = s[3:]
			continue
		case strings.HasPrefix(s, "("):
			s = s[1:]
			continue
		}
		break
	}
	if s == "" {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || strings.HasPrefix(s, `\.`) && len(s) > 2 && s[2] != '*'
}

// watchFix returns the fix of a listener whose path is used as relative:
// path = relative(fw.options.srcDir, resolve(fw.options.srcDir, path)) as
// its first statement, with the import of relative and resolve; or, where
// that edit cannot be made, notes that say what to write.
func watchFix(l *code.HookListener, path string) (*Fix, []string) {
	f := l.File
	say := "make the path relative again as the listener's first statement: `" + path + " = relative(srcDir, resolve(srcDir, " + path + "))`, with `relative` and `resolve` from `node:path` and srcDir the app's source directory"
	switch {
	case l.Config:
		return nil, []string{say + " (the config's hooks have no `fw`: write the srcDir out, e.g. `fileURLToPath(new URL('./app', import.meta.url))` in layout A, or move the listener into a module, where it is `fw.options.srcDir`)"}
	case l.Fw == "":
		return nil, []string{say + " (srcDir is `fw.options.srcDir` of the module's fw, or of `useFw()` from fw/kit)"}
	}
	ext := f.Path[strings.LastIndexByte(f.Path, '.')+1:]
	if ext == "cjs" || ext == "cts" || !esModule(f) {
		return nil, []string{say + " (this file is not an ES module: require them from `node:path`)"}
	}
	imp, rel, res, ok := pathImport(f, l.Fn.Loc.Start)
	if !ok {
		return nil, []string{say}
	}
	src := l.Fw + ".options.srcDir"
	stmt := path + " = " + rel + "(" + src + ", " + res + "(" + src + ", " + path + "))"
	ins, ok := firstStatement(f, l.Fn, stmt)
	if !ok {
		return nil, []string{say}
	}
	edits := append(imp, ins...)
	return codeFix(f, "make `"+path+"` relative to srcDir again as the listener's first statement", Unsafe, edits...), nil
}

// esModule reports whether f is written as an ES module: it has an import
// or export statement.
func esModule(f *code.File) bool {
	for _, s := range f.Code.Scripts {
		for _, st := range s.Program.List {
			if st.Kind == ast.JSImport || st.Kind == ast.JSExport {
				return true
			}
		}
	}
	return false
}

// semicolons reports whether the file ends its statements with semicolons.
func semicolons(f *code.File) bool {
	for _, line := range strings.Split(string(f.Text), "\n") {
		if strings.HasSuffix(strings.TrimRight(line, " \t\r"), ";") {
			return true
		}
	}
	return false
}

// pathImport returns the edits that import relative and resolve from
// node:path into the script holding at, and the names to call them by:
// the names an import of node:path or path already gives them, else
// relative and resolve (relativePath and resolvePath when the file
// declares those names already). The names are merged into an existing
// named import of node:path or path; else a new import follows the last
// import. ok is false when no names are free.
func pathImport(f *code.File, at int) (edits []rewrite.Op, rel, res string, ok bool) {
	var script *ast.Script
	for _, s := range f.Code.Scripts {
		if s.Program.Loc.Start <= at && at <= s.Program.Loc.End {
			script = s
		}
	}
	if script == nil {
		return nil, "", "", false
	}
	var into, last *ast.JSNode // the import to merge into; the last import
	for _, st := range script.Program.List {
		if st.Kind != ast.JSImport {
			continue
		}
		last = st
		if st.Has(ast.FlagType) || st.Name != "node:path" && st.Name != "path" {
			continue
		}
		for _, sp := range st.List {
			if sp.Has(ast.FlagType) {
				continue
			}
			if b := code.BindingAt(f, sp.Local, at); b == nil || b.Decl != sp {
				continue // shadowed at the listener
			}
			switch sp.Name {
			case "relative":
				rel = sp.Local
			case "resolve":
				res = sp.Local
			}
		}
		if into == nil && mergeable(st) {
			into = st
		}
	}
	var want []string // specifiers to add
	for _, w := range []struct {
		name string
		got  *string
	}{{"relative", &rel}, {"resolve", &res}} {
		if *w.got != "" {
			continue
		}
		local := w.name
		if declared(f, local) {
			local = w.name + "Path"
			if declared(f, local) {
				return nil, "", "", false
			}
			want = append(want, w.name+" as "+local)
		} else {
			want = append(want, w.name)
		}
		*w.got = local
	}
	if len(want) == 0 {
		return nil, rel, res, true
	}
	list := strings.Join(want, ", ")
	semi := ""
	if semicolons(f) {
		semi = ";"
	}
	switch {
	case into != nil:
		var named *ast.JSNode
		for _, sp := range into.List {
			if sp.Name != "default" && sp.Name != "*" {
				named = sp
			}
		}
		if named != nil {
			return []rewrite.Op{edit(ast.Span{Start: named.Loc.End, End: named.Loc.End}, ", "+list)}, rel, res, true
		}
		def := into.List[0] // import path from 'path': add the braces
		return []rewrite.Op{edit(ast.Span{Start: def.Loc.End, End: def.Loc.End}, ", { "+list+" }")}, rel, res, true
	case last != nil:
		q := f.QuoteAt(last.Loc, nil)
		return []rewrite.Op{edit(ast.Span{Start: last.Loc.End, End: last.Loc.End}, f.LineEnd()+"import { "+list+" } from "+q+"node:path"+q+semi)}, rel, res, true
	}
	start := script.Program.Loc.Start
	q := f.QuoteAt(script.Program.Loc, nil)
	return []rewrite.Op{edit(ast.Span{Start: start, End: start}, "import { "+list+" } from "+q+"node:path"+q+semi+f.LineEnd())}, rel, res, true
}

// mergeable reports whether an import's specifiers can take more named
// ones: it has named specifiers, or only a default one (not a namespace,
// not a bare import).
func mergeable(imp *ast.JSNode) bool {
	if len(imp.List) == 0 {
		return false
	}
	for _, sp := range imp.List {
		if sp.Name == "*" {
			return false
		}
	}
	return true
}

// declared reports whether f declares or refers to name anywhere (so that
// a new import of that name would clash or change what it means).
func declared(f *code.File, name string) bool {
	found := false
	for _, s := range f.Code.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if n.Kind == ast.JSIdent && n.Name == name {
				found = true
			}
			return !found
		})
	}
	return found
}

// firstStatement returns the edits that make stmt the first statement of
// a function's body: on a line of its own before the first statement when
// that starts a line, else right after the brace; an expression body
// becomes a block that returns it.
func firstStatement(f *code.File, fn *ast.JSNode, stmt string) ([]rewrite.Op, bool) {
	body := fn.Y
	nl := f.LineEnd()
	semi := ";"
	if body.Kind != ast.JSBlock || fn.Has(ast.FlagExprBody) {
		// (e, path) => expr  ->  (e, path) => { stmt; return expr }, the
		// parentheses around expr kept inside.
		start, end := body.Loc.Start, body.Loc.End
		for {
			s, e := skipSpaceBack(f.Text, start), skipSpace(f.Text, end)
			if s > 0 && e < len(f.Text) && f.Text[s-1] == '(' && f.Text[e] == ')' {
				start, end = s-1, e+1
				continue
			}
			break
		}
		return []rewrite.Op{
			edit(ast.Span{Start: start, End: start}, "{ "+stmt+"; return "),
			edit(ast.Span{Start: end, End: end}, " }"),
		}, true
	}
	if !semicolons(f) {
		semi = ""
		if len(body.List) > 0 {
			// A statement that starts with one of these would continue
			// the inserted one.
			if c := f.Text[body.List[0].Loc.Start]; strings.IndexByte("([`+-/", c) >= 0 {
				semi = ";"
			}
		}
	}
	if len(body.List) > 0 {
		first := body.List[0].Loc.Start
		if ls := f.LineStart(first); ls > body.Loc.Start && strings.TrimSpace(string(f.Text[ls:first])) == "" {
			return []rewrite.Op{edit(ast.Span{Start: ls, End: ls}, f.IndentAt(first)+stmt+semi+nl)}, true
		}
		return []rewrite.Op{edit(ast.Span{Start: first, End: first}, stmt+"; ")}, true
	}
	at := body.Loc.Start + 1
	return []rewrite.Op{edit(ast.Span{Start: at, End: at}, " "+stmt+semi+" ")}, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func skipSpaceBack(b []byte, i int) int {
	for i > 0 && (b[i-1] == ' ' || b[i-1] == '\t' || b[i-1] == '\n' || b[i-1] == '\r') {
		i--
	}
	return i
}
