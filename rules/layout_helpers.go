package rules

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
)

// Helpers shared by the layout rules (FW1xx).
//
// The layout rules judge a project as it will be after `fwmigrate apply
// --to=4`: layout A, with srcDir app/. A layout-B project that has not pinned
// its layout (srcDir: '.') is judged as moved into app/, which is what apply
// does by default; once it is pinned, the rules that depend on the move say
// nothing.

// rootStaying are the root folders that layout A keeps beside the config,
// outside srcDir (migration facts §2). compat has no accessor for this list.
var rootStaying = []string{"server", "public", "modules", "layers", "shared", "content"}

// layoutView is where the project's srcDir will be under version 4.
type layoutView struct {
	d    *compat.Detection
	Root string
	// Src is srcDir after the migration: <root>/app for layouts A and mixed
	// and for a layout-B project that apply moves; the configured srcDir
	// for a custom one; the root for a pinned layout B.
	Src string
	// Moving reports a layout-B project whose sources apply moves into
	// app/: today srcDir is the root, afterwards it is Src.
	Moving bool
	// Pinned reports layout B kept on purpose with an explicit srcDir that
	// names the root.
	Pinned bool
}

// fixLayout is the layout choice of apply that fixes computed from v assume:
// a project apply moves gets fixes that are right only after the move.
func (v layoutView) fixLayout() FixLayout {
	if v.Moving {
		return MoveOnly
	}
	return AnyLayout
}

// layoutAfter returns the project's layout view; ok is false when the layout
// is unknown (srcDir set at run time, detection failed) or the target is not
// version 4 or later. The view is the same for every pass: the index keeps it.
func (p *Pass) layoutAfter() (v layoutView, ok bool) {
	x := p.Index
	x.layoutOnce.Do(func() { x.layout, x.layoutOK = x.layoutView() })
	return x.layout, x.layoutOK
}

func (x *Index) layoutView() (v layoutView, ok bool) {
	d := x.project.Detection
	if d == nil || x.target < 4 {
		return v, false
	}
	v = layoutView{d: d, Root: d.Root}
	switch d.Layout {
	case compat.LayoutA, compat.LayoutMixed, compat.LayoutCustom:
		if d.V4.SrcDir == "" {
			return v, false
		}
		v.Src = d.V4.SrcDir
	case compat.LayoutB:
		if explicitSrcDir(x.config) != "" {
			v.Src, v.Pinned = d.Root, true
		} else {
			v.Src, v.Moving = filepath.Join(d.Root, "app"), true
		}
	default:
		return v, false
	}
	return v, true
}

// appSrc reports that `~` and `@` will be app/ (layouts A and mixed, or a
// layout-B project being moved) and that the config does not redefine alias
// name.
func (v layoutView) appSrc(p *Pass, alias string) bool {
	if v.Src != filepath.Join(v.Root, "app") || v.Pinned {
		return false
	}
	_, st := p.Config.Value("alias." + alias)
	return st == compat.Absent
}

// explicitSrcDir returns the static srcDir a config sets, "" when it sets
// none (or one only known at run time).
func explicitSrcDir(c compat.Config) string {
	v, st := c.Value("srcDir")
	if s, ok := v.(string); st == compat.Static && ok {
		return s
	}
	return ""
}

// moved returns the rootDir-relative names of the root entries apply moves
// into app/ for a Moving project: the layout-B sources version 4 would
// ignore once app/ is srcDir (compat.Detect's Stray with srcDir set to
// app), plus top-level folders that dir.* options name. Names of
// directories end in "/". Nil when the view is not Moving.
func (v layoutView) moved(p *Pass) []string {
	if !v.Moving {
		return nil
	}
	// The same for every pass over the project, and it reads the disk:
	// once per project. Callers must not modify it.
	x := p.Index
	x.movedOnce.Do(func() { x.moved = v.findMoved(p.Project) })
	return x.moved
}

func (v layoutView) findMoved(pr *project.Project) []string {
	stray, err := pr.Stray() // Detect's Stray with srcDir app/
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range stray {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, k := range srcRelativeDirs {
		cur := v.d.Current.Dir[k]
		if cur == "" || filepath.Dir(cur) != v.Root || !pr.IsDir(cur) {
			continue
		}
		if name := filepath.Base(cur) + "/"; !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out[:len(out):len(out)]
}

// srcRelativeDirs are the dir.* options that resolve against srcDir in both
// versions (migration facts §3), in the order srcDir detection probes them.
var srcRelativeDirs = []string{"assets", "layouts", "middleware", "pages", "plugins"}

// literalString returns the value of a string literal or a static untagged
// template, with the span of its contents (inside the quotes); raw reports
// that the contents are written without escapes, so that a fix may replace
// them byte for byte.
func literalString(f *ast.File, n ast.Node) (value string, contents ast.Span, raw, ok bool) {
	switch n := ast.Unwrap(n).(type) {
	case *ast.String:
		value = n.Value
		contents = ast.Span{Start: n.Loc.Start + 1, End: n.Loc.End - 1}
	case *ast.Template:
		if !n.Static || n.Tag.Len() > 0 {
			return "", ast.Span{}, false, false
		}
		value = n.Value
		contents = ast.Span{Start: n.Loc.Start + 1, End: n.Loc.End - 1}
	default:
		return "", ast.Span{}, false, false
	}
	if contents.End < contents.Start {
		return "", ast.Span{}, false, false
	}
	return value, contents, f.Text(contents) == value, true
}

// pathString is a path-like string in the config: an alias value, a css
// entry, a module, plugin, layer or handler path.
type pathString struct {
	Option ast.Path // the option holding it, environment prefix included
	Node   ast.Node
	Value  string
	// Contents is the span inside the quotes; Raw reports that it holds
	// Value byte for byte (no escapes), so a fix can replace it.
	Contents ast.Span
	Raw      bool
}

// aliasPathOptions are the options whose values are module ids or paths that the
// framework resolves with its aliases, with how to find the strings in them.
var aliasPathOptions = []struct {
	option string
	each   func(n ast.Node, emit func(ast.Node))
}{
	{"css", psElems(psSelf)},
	{"alias", psPropValues},
	{"plugins", psElems(psOrField("src"))},
	{"modules", psElems(psOrHead)},
	{"extends", psOneOrElems(psOrHead)},
	{"theme", psSelf},
	{"imports.dirs", psElems(psSelf)},
	{"components", psComponents},
	{"spaLoadingTemplate", psSelf},
	{"serverHandlers", psElems(psField("handler"))},
	{"devServerHandlers", psElems(psField("handler"))},
	{"build.templates", psElems(psField("src"))},
}

func psSelf(n ast.Node, emit func(ast.Node)) { emit(n) }

// psElems applies each to every element of an array value (spreads skipped).
func psElems(each func(ast.Node, func(ast.Node))) func(ast.Node, func(ast.Node)) {
	return func(n ast.Node, emit func(ast.Node)) {
		a, ok := ast.Unwrap(n).(*ast.Array)
		if !ok {
			return
		}
		for i, e := range a.Elements {
			if e == nil || psSpreadAt(a, i) {
				continue
			}
			each(e, emit)
		}
	}
}

// psOneOrElems applies each to a single value or to every element of an array.
func psOneOrElems(each func(ast.Node, func(ast.Node))) func(ast.Node, func(ast.Node)) {
	return func(n ast.Node, emit func(ast.Node)) {
		if _, ok := ast.Unwrap(n).(*ast.Array); ok {
			psElems(each)(n, emit)
			return
		}
		each(n, emit)
	}
}

func psSpreadAt(a *ast.Array, i int) bool {
	for _, s := range a.Spreads {
		if s == i {
			return true
		}
	}
	return false
}

// psField emits the value of key in an object value.
func psField(key string) func(ast.Node, func(ast.Node)) {
	return func(n ast.Node, emit func(ast.Node)) {
		if o, ok := ast.Unwrap(n).(*ast.Object); ok {
			if prop := o.Get(key); prop != nil && prop.Kind == ast.PropInit && prop.Value != nil {
				emit(prop.Value)
			}
		}
	}
}

// psOrField emits a value itself, or its key field when it is an object.
func psOrField(key string) func(ast.Node, func(ast.Node)) {
	return func(n ast.Node, emit func(ast.Node)) {
		if _, ok := ast.Unwrap(n).(*ast.Object); ok {
			psField(key)(n, emit)
			return
		}
		emit(n)
	}
}

// psOrHead emits a value itself, or the first element of a [source, options]
// tuple.
func psOrHead(n ast.Node, emit func(ast.Node)) {
	if a, ok := ast.Unwrap(n).(*ast.Array); ok {
		if len(a.Elements) > 0 && a.Elements[0] != nil && !psSpreadAt(a, 0) {
			emit(a.Elements[0])
		}
		return
	}
	emit(n)
}

// psPropValues emits every value of an object (alias: name -> path).
func psPropValues(n ast.Node, emit func(ast.Node)) {
	if o, ok := ast.Unwrap(n).(*ast.Object); ok {
		for _, prop := range o.Props {
			if prop.Kind == ast.PropInit && prop.Value != nil {
				emit(prop.Value)
			}
		}
	}
}

// psComponents: a path, an array of paths or {path}, or {dirs: [...]}.
func psComponents(n ast.Node, emit func(ast.Node)) {
	switch ast.Unwrap(n).(type) {
	case *ast.Array:
		psElems(psOrField("path"))(n, emit)
	case *ast.Object:
		psField("dirs")(n, func(dirs ast.Node) { psElems(psOrField("path"))(dirs, emit) })
	default:
		emit(n)
	}
}

// pathStrings calls fn for every static path-like string of the options in
// aliasPathOptions (top level and environment overrides), in source order per
// option. Values that are not static strings are skipped: the rules that
// use this cannot judge them.
func (p *Pass) pathStrings(fn func(ps pathString)) {
	c := p.Index
	for _, po := range aliasPathOptions {
		c.optionProps(po.option, func(prefix, path ast.Path, prop *ast.Property) {
			if prop.Kind != ast.PropInit || prop.Value == nil {
				return
			}
			po.each(prop.Value, func(n ast.Node) {
				v, contents, raw, ok := literalString(p.File, n)
				if !ok {
					return
				}
				fn(pathString{Option: path, Node: n, Value: v, Contents: contents, Raw: raw})
			})
		})
	}
}

// otherPathStrings calls fn for every static string that starts with `~/` or
// `@/` in the options that aliasPathOptions does not list (module options
// such as content sources, vite's aliases), at any depth of objects and
// arrays, in source order. Option is the path of the property holding it.
func (p *Pass) otherPathStrings(fn func(ps pathString)) {
	var visit func(path ast.Path, n ast.Node)
	visit = func(path ast.Path, n ast.Node) {
		switch v := ast.Unwrap(n).(type) {
		case *ast.Object:
			for _, prop := range v.Props {
				if prop.Kind == ast.PropInit && prop.Value != nil && prop.KeyKind != ast.KeyComputed {
					visit(append(path[:len(path):len(path)], prop.Key), prop.Value)
				}
			}
		case *ast.Array:
			for i, e := range v.Elements {
				if e != nil && !psSpreadAt(v, i) {
					visit(path, e)
				}
			}
		default:
			s, contents, raw, ok := literalString(p.File, n)
			if ok && (strings.HasPrefix(s, "~/") || strings.HasPrefix(s, "@/")) {
				fn(pathString{Option: path, Node: n, Value: s, Contents: contents, Raw: raw})
			}
		}
	}
	p.File.Walk(func(path ast.Path, prop *ast.Property) bool {
		opt := path
		if len(opt) > 1 && slices.Contains(compat.EnvOverrides, opt[0]) {
			opt = opt[1:]
		}
		if len(opt) == 1 && slices.Contains(compat.EnvOverrides, opt[0]) {
			return true // the override's options, one by one
		}
		name := opt.String()
		for _, po := range aliasPathOptions {
			if name == po.option || strings.HasPrefix(name, po.option+".") {
				return false
			}
			if strings.HasPrefix(po.option, name+".") {
				return true // imports: descend to imports.dirs' siblings
			}
		}
		if prop.Kind != ast.PropInit || prop.Value == nil {
			return false
		}
		if _, ok := ast.Unwrap(prop.Value).(*ast.Object); ok {
			return true // Walk descends; its properties come one by one
		}
		visit(path, prop.Value)
		return false
	})
}

// splitPathAlias splits `~/x/y` into "~" and "x/y" for the srcDir and rootDir
// aliases ~, @, ~~ and @@; ok is false for anything else.
func splitPathAlias(s string) (alias, rest string, ok bool) {
	for _, a := range []string{"~~", "@@", "~", "@"} {
		if s == a {
			return a, "", true
		}
		if r, found := strings.CutPrefix(s, a+"/"); found {
			return a, r, true
		}
	}
	return "", "", false
}

// rootAliasOf is the rootDir alias of the same family as a srcDir alias.
func rootAliasOf(a string) string {
	if a == "@" {
		return "@@"
	}
	return "~~"
}

// firstSegment returns the first segment of a slash-separated relative path.
func firstSegment(rel string) string {
	seg, _, _ := strings.Cut(rel, "/")
	return seg
}

// relFrom returns target relative to base with forward slashes ("." for
// base itself), and false when target is not inside base.
func relFrom(base, target string) (string, bool) {
	r, ok := pathx.Rel(base, target)
	return filepath.ToSlash(r), ok
}

// pathWithin reports whether p is dir or lies inside it (both clean and absolute).
func pathWithin(p, dir string) bool { return pathx.WithinClean(p, dir) }

// shownRel shows an absolute path relative to the project root, with a
// trailing slash for directories.
func shownRel(root, p string, dir bool) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	r = filepath.ToSlash(r)
	if dir && r != "." && !strings.HasSuffix(r, "/") {
		r += "/"
	}
	return r
}

// reportIn reports at span of a file other than the config or a .env file,
// with its positions filled in here (Check only knows those two kinds).
func (p *Pass) reportIn(file string, src []byte, span ast.Span, format string, args ...any) *Diagnostic {
	d := p.Report(span, "", format, args...)
	d.File = file
	var lines ast.Lines
	if x := p.Index; x != nil {
		x.reportedMu.Lock()
		if x.reported == nil {
			x.reported = map[string][]byte{}
			x.reportedLines = map[string]reportedText{}
		}
		x.reported[file] = src
		// One line table per file and text: a rule may report thousands
		// of places in one file (FW702's matrix entries).
		rt, ok := x.reportedLines[file]
		if !ok || !sameText(rt.src, src) {
			rt = reportedText{src, ast.NewLines(src)}
			x.reportedLines[file] = rt
		}
		lines = rt.lines
		x.reportedMu.Unlock()
	} else {
		lines = ast.NewLines(src)
	}
	start, end := lines.Position(span.Start), lines.Position(span.End)
	d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
	d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	return d
}

// reportedText is a text reportIn reported in, and its line table.
type reportedText struct {
	src   []byte
	lines ast.Lines
}

// sameText reports whether a and b are the same bytes in memory.
func sameText(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
