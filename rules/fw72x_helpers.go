package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

// Helpers of the module path rules (FW720 module-path-moved, FW721
// module-folder-stays, FW722 module-path-version-unknown): the options of
// popular modules that hold paths, found in the config, judged under each
// version range of the data (compat.Eco().PathOptions) against the layout
// after the move, once per check (Index.modPathFindings).
//
// Where each option resolves from, per version range, is the data's
// (ecosystem.json pathOptions: resolvesFrom, default, read in each
// module's published files). What is Go here is how to find the option in
// a config and what a value needs when its folder moves or stays.

// modSite is one value of a module path option in the config, or the
// option left unset.
type modSite struct {
	spec *modpath.Spec
	// option is the value's option path, environment prefix included
	// (modules for a value in a [module, options] tuple).
	option string
	// shown is how the option is named in messages: "langDir".
	shown string
	node  ast.Node // nil when unset
	value string
	// contents is the span inside the quotes; raw reports it holds value
	// byte for byte.
	contents ast.Span
	raw      bool
	// at is where an unset option is reported: the module's entry in
	// modules, or its config key.
	at ast.Span
	// setAt is the option path a fix of an unset option sets, nil when
	// it cannot be set (the options object is not a literal).
	setAt ast.Path
}

// modFinding is a site judged: its module's version, the cases of the
// data that may hold for it, and their common outcome (ok false when the
// cases need different things).
type modFinding struct {
	site  *modSite
	which modpath.Which
	cases []modpath.Case
	out   modpath.Outcome
	ok    bool
	// moving, layout: the move the finding depends on.
	moving bool
	layout FixLayout
}

// modPathFindings returns the findings of the module path options, once
// per check.
func (p *Pass) modPathFindings() []*modFinding {
	x := p.Index
	x.modPathOnce.Do(func() { x.modPaths = p.findModPaths() })
	return x.modPaths
}

func (p *Pass) findModPaths() []*modFinding {
	v, ok := p.layoutAfter()
	if !ok || p.File == nil || p.File.Config == nil || v.Pinned || !v.Moving && v.Src != filepath.Join(v.Root, "app") {
		return nil
	}
	j := &modJudge{pass: p, v: v, imported: map[string]bool{}}
	var out []*modFinding
	for _, spec := range modpath.Specs {
		entry, listed := p.modEntry(spec.Module)
		objs, sites := p.modSites(spec, entry)
		if !listed && (len(objs) == 0 || p.Project.Packages().Dep(spec.Module) == nil) {
			continue // not a module of this project, as far as the config says
		}
		which := modpath.Of(p.Project, spec.Module)
		for _, s := range sites {
			f := &modFinding{site: s, which: which, moving: v.Moving, layout: v.fixLayout()}
			f.cases = modpath.Cases(which, spec.Module, append([]string{spec.Option}, spec.Also...), func(o compat.PathOption) modpath.Outcome {
				return j.judge(s, o, objs)
			})
			f.out, f.ok = modpath.Agree(f.cases)
			if f.ok && f.out.Kind == modpath.None {
				continue
			}
			if !f.ok && !slices.ContainsFunc(f.cases, func(c modpath.Case) bool { return c.Out.Kind != modpath.None }) {
				continue
			}
			out = append(out, f)
		}
	}
	return out
}

// modEntry returns the module's entry in the config's modules (a string,
// or the head of a [module, options] tuple), and whether it is listed.
func (p *Pass) modEntry(module string) (ast.Node, bool) {
	var found ast.Node
	p.OptionProps("modules", func(_, _ ast.Path, prop *ast.Property) {
		a, ok := ast.Unwrap(prop.Value).(*ast.Array)
		if !ok || found != nil {
			return
		}
		for i, e := range a.Elements {
			if e == nil || psSpreadAt(a, i) {
				continue
			}
			head := e
			if t, ok := ast.Unwrap(e).(*ast.Array); ok && len(t.Elements) > 0 && t.Elements[0] != nil && !psSpreadAt(t, 0) {
				head = t.Elements[0]
			}
			if s, ok := modpath.StringOf(head); ok && s == module {
				found = head
				return
			}
		}
	})
	return found, found != nil
}

// modSites returns the module's options objects (its config key, at the
// top level and in environment overrides, and [module, options] tuples
// in modules) and the sites of spec's option in them; an unset site when
// none sets it and spec has a default to check.
func (p *Pass) modSites(spec *modpath.Spec, entry ast.Node) ([]*ast.Object, []*modSite) {
	var objs []*ast.Object
	var sites []*modSite
	dynamic := false
	add := func(base string, obj *ast.Object) {
		objs = append(objs, obj)
		// A spread after a value may replace it at run time.
		spreadAt := -1
		for _, pr := range obj.Props {
			if pr.Kind == ast.PropSpread {
				spreadAt = pr.Loc.Start
				dynamic = true
			}
		}
		spec.Values(obj, func(sub ast.Path, n ast.Node) {
			if n.Span().Start < spreadAt {
				return
			}
			// Shown as written below the options ("customCollections[].dir");
			// the option path without the element marks.
			s := &modSite{spec: spec, option: base, shown: strings.Join(sub, "."), node: n}
			if base != "modules" {
				s.option = base + "." + strings.ReplaceAll(s.shown, "[]", "")
			}
			if v, contents, raw, ok := literalString(p.File, n); ok {
				s.value, s.contents, s.raw = v, contents, raw
				sites = append(sites, s)
			}
		})
	}
	var keyProp *ast.Property
	p.OptionProps(spec.Key, func(_, path ast.Path, prop *ast.Property) {
		obj, ok := ast.Unwrap(prop.Value).(*ast.Object)
		if prop.Kind != ast.PropInit || prop.Value == nil || !ok {
			// A shorthand, a variable, a call: the options are only
			// known when the config runs.
			dynamic = true
			return
		}
		if len(path) == 1 {
			keyProp = prop
		}
		add(path.String(), obj)
	})
	p.OptionProps("modules", func(_, _ ast.Path, prop *ast.Property) {
		a, ok := ast.Unwrap(prop.Value).(*ast.Array)
		if !ok {
			return
		}
		for i, e := range a.Elements {
			t, ok := ast.Unwrap(e).(*ast.Array)
			if e == nil || psSpreadAt(a, i) || !ok || len(t.Elements) < 2 || t.Elements[0] == nil || psSpreadAt(t, 0) {
				continue
			}
			if s, ok := modpath.StringOf(t.Elements[0]); !ok || s != spec.Module {
				continue
			}
			if obj, ok := ast.Unwrap(t.Elements[1]).(*ast.Object); ok {
				add("modules", obj)
			} else {
				dynamic = true
			}
		}
	})
	if len(sites) > 0 || spec.Unset == nil || dynamic {
		return objs, sites
	}
	for _, obj := range objs {
		set := false
		spec.Values(obj, func(ast.Path, ast.Node) { set = true })
		if set {
			return objs, nil // set, to a value that is not a string
		}
	}
	// Unset everywhere: the default, where it names a folder.
	s := &modSite{spec: spec, option: spec.Key + "." + spec.Name, shown: spec.Name}
	switch {
	case entry != nil:
		s.at = entry.Span()
	case keyProp != nil:
		s.at = keyProp.KeySpan
	default:
		return objs, nil // neither listed nor configured here
	}
	// A fix sets the option in the config key's object, or adds the key;
	// not in an object whose keys are only known at run time.
	if keyProp != nil {
		if obj, ok := ast.Unwrap(keyProp.Value).(*ast.Object); ok && !obj.HasSpread() && !obj.HasComputedKey() {
			s.setAt = ast.Path{spec.Key, spec.Name}
		}
	} else if p.Lookup(spec.Key) == nil {
		s.setAt = ast.Path{spec.Key, spec.Name}
	}
	return objs, []*modSite{s}
}

// modJudge judges sites against the layout after the move.
type modJudge struct {
	pass *Pass
	v    layoutView
	// imported caches modpath.Imported per root folder.
	imported map[string]bool
}

// moves reports whether the root entry seg moves into app/ with the
// sources: by name (layoutView.moved), or because the app code imports it
// through ~/ or @/ (the move's discovery).
func (j *modJudge) moves(seg string) bool {
	if !j.v.Moving || seg == "" {
		return false
	}
	for _, m := range j.v.moved(j.pass) {
		if m == seg || m == seg+"/" {
			return true
		}
	}
	if move.StaysAtRoot(seg) || !j.pass.Project.IsDir(filepath.Join(j.v.Root, seg)) {
		return false
	}
	in, ok := j.imported[seg]
	if !ok {
		in = modpath.Imported(j.pass.Project, []string{seg})[seg]
		j.imported[seg] = in
	}
	return in
}

// judge is the outcome of site s under the data's entry o.
func (j *modJudge) judge(s *modSite, o compat.PathOption, objs []*ast.Object) modpath.Outcome {
	value, base := s.value, o.Base
	if s.node == nil {
		v, b, ok := s.spec.Unset(o)
		if !ok || v == "" {
			return modpath.Outcome{Kind: modpath.None, Says: "has no default folder"}
		}
		value, base = v, b
		out := j.judgeAt(s, o, objs, value, base)
		out.Says = "defaults to `" + v + "` and " + out.Says
		return out
	}
	return j.judgeAt(s, o, objs, value, base)
}

// judgeAt judges value, read from base under the entry o.
func (j *modJudge) judgeAt(s *modSite, o compat.PathOption, objs []*ast.Object, value string, base compat.PathBase) modpath.Outcome {
	if s.spec.Base != nil && s.node != nil {
		b, sub, ok := s.spec.Base(o, objs)
		if !ok {
			return modpath.Outcome{Kind: modpath.Unknown, Says: "depends on a value only known when the config runs"}
		}
		switch {
		case b == compat.BaseRoot && sub == "?":
			return modpath.Outcome{Kind: modpath.None, Says: "reads it from a folder of the root (restructureDir), which the move does not touch"}
		case b == compat.BaseRoot && sub != "":
			return modpath.Outcome{Kind: modpath.None, Says: "reads it from the root's `" + sub + "/` folder (restructureDir), which the move does not touch"}
		}
		base = b
	}
	switch base {
	case compat.BaseRoot:
		return j.fromRoot(s, o, value)
	case compat.BaseSrcDir:
		return j.fromSrc(s, value)
	case compat.BaseAsGiven:
		if s.spec.Foreign {
			out := j.fromRoot(s, o, value)
			if out.Kind == modpath.Rewrite {
				out = modpath.Outcome{Kind: modpath.Advice, Folder: out.Folder, Says: "is passed on unresolved (the server engine's storage reads it, relative to the folder the server runs in: the root)",
					Advice: "check where the storage reads it, and write `" + out.Texts[len(out.Texts)-1] + "` if it is the root"}
			}
			return out
		}
	}
	return modpath.Outcome{Kind: modpath.None, Says: "reads it as given"}
}

// globFree returns the leading segments of rel that hold no glob
// characters.
func globFree(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?[]{}!") {
			return strings.Join(segs[:i], "/")
		}
	}
	return strings.TrimSuffix(rel, "/")
}

// fromRoot judges a value the module resolves from the config's folder
// (aliases expanded when the entry says it is alias-aware).
func (j *modJudge) fromRoot(s *modSite, o compat.PathOption, value string) modpath.Outcome {
	v := j.v
	aware := strings.Contains(o.ResolvesFrom, "alias-aware")
	lead, rel := "", ""
	if a, rest, ok := splitPathAlias(value); ok {
		if !aware {
			// Not expanded: the module reads a folder named ~; the move
			// changes nothing of that.
			return modpath.Outcome{Kind: modpath.None, Says: "does not expand aliases"}
		}
		if a == "~" || a == "@" {
			return modpath.Outcome{Kind: modpath.None, Says: "expands `" + a + "/` to srcDir, which follows the move"}
		}
		lead, rel = a+"/", rest
		if _, r, ok := modpath.SplitRel(rest); ok {
			rel = r
		} else {
			return modpath.Outcome{Kind: modpath.None, Says: "resolves it from the root"}
		}
	} else {
		var ok bool
		if lead, rel, ok = modpath.SplitRel(value); !ok {
			return modpath.Outcome{Kind: modpath.None, Says: "resolves it from the config's folder"}
		}
	}
	seg := modpath.First(rel)
	says := "resolves it from the config's folder"
	if aware {
		says += " (aliases expanded)"
	}
	shown := seg
	if j.pass.Project.IsDir(filepath.Join(v.Root, seg)) {
		shown += "/"
	}
	none := modpath.Outcome{Kind: modpath.None, Says: says + ", where `" + shown + "` stays"}
	plain := filepath.Join(v.Root, filepath.FromSlash(globFree(rel)))
	if strings.ContainsAny(seg, "*?[]{}!") || seg == "app" {
		return none
	}
	if v.Moving {
		if !j.moves(seg) {
			return none
		}
		if s.node == nil && s.spec.Exists && !j.pass.Project.Exists(plain) {
			return modpath.Outcome{Kind: modpath.None, Says: says + ", where nothing is"}
		}
	} else {
		// Layout A: the root path is gone, its counterpart in app/ is
		// there (sources moved by apply or by hand).
		inApp := filepath.Join(v.Src, filepath.FromSlash(globFree(rel)))
		if j.pass.Project.Exists(plain) || !j.pass.Project.Exists(inApp) {
			return none
		}
	}
	out := modpath.Outcome{Kind: modpath.Rewrite, Folder: seg, Says: says}
	if aware && s.spec.Alias != "" && v.appSrc(j.pass, s.spec.Alias) && (lead == "" || strings.HasPrefix(lead, ".")) {
		out.Texts = append(out.Texts, s.spec.Alias+"/"+rel)
	}
	out.Texts = append(out.Texts, lead+"app/"+rel)
	return out
}

// fromSrc judges a value the module reads from srcDir: it breaks when the
// root folder it names stays while srcDir becomes app/.
func (j *modJudge) fromSrc(s *modSite, value string) modpath.Outcome {
	v := j.v
	_, rel, ok := modpath.SplitRel(value)
	if !ok {
		return modpath.Outcome{Kind: modpath.None, Says: "reads it from srcDir"}
	}
	seg := modpath.First(rel)
	if seg == "" || strings.ContainsAny(seg, "*?[]{}!") || seg == "app" {
		return modpath.Outcome{Kind: modpath.None, Says: "reads it from srcDir"}
	}
	root := filepath.Join(v.Root, seg)
	says := "reads it from srcDir"
	switch {
	case j.moves(seg):
		return modpath.Outcome{Kind: modpath.None, Says: says + ", and `" + seg + "/` moves into app/ with the sources"}
	case !j.pass.Project.IsDir(root):
		return modpath.Outcome{Kind: modpath.None, Says: says + ", and there is no `" + seg + "/` at the root"}
	case j.pass.Project.Exists(filepath.Join(v.Src, seg)):
		return modpath.Outcome{Kind: modpath.None, Says: says + ", and `app/" + seg + "` exists"}
	}
	kind := s.spec.FromSrc
	if kind == modpath.MoveFolder && move.StaysAtRoot(seg) {
		// A folder the move never takes (server/, content/, a hidden
		// one): the value must climb out of app/ instead.
		kind = modpath.Rewrite
	}
	out := modpath.Outcome{Kind: kind, Folder: seg, Src: true, Says: says}
	switch kind {
	case modpath.Rewrite:
		out.Texts = []string{"../" + rel}
	case modpath.Advice:
		out.Advice = s.spec.Advice
	}
	return out
}

// need says in words what a case needs, for FW722's notes.
func (s *modSite) need(c modpath.Case) string {
	o := c.Out
	var what string
	switch o.Kind {
	case modpath.None:
		what = "nothing to do"
	case modpath.Rewrite:
		what = "write `" + o.Texts[0] + "`"
	case modpath.MoveFolder:
		what = "`" + o.Folder + "/` stays at the root and must move into `app/` with the sources"
	case modpath.Advice:
		what = "`" + o.Folder + "/` stays at the root: " + o.Advice
	case modpath.Unknown:
		what = "cannot tell"
	}
	return fmt.Sprintf("%s: %s; %s", modpath.Versions(c.Entry), o.Says, what)
}

// subject is how the site is named at the start of a message: "`langDir:
// 'locales'` of @nuxtjs/i18n", or "the default componentDir of
// shadcn-nuxt".
func (s *modSite) subject(f *ast.File) string {
	if s.node == nil && s.spec.UnsetName != "" {
		return "the default " + s.spec.UnsetName + " of " + s.spec.Module
	}
	if s.node == nil {
		return "the default `" + s.shown + "` of " + s.spec.Module
	}
	return "`" + s.shown + ": " + f.Text(s.node.Span()) + "` of " + s.spec.Module
}

// span is where the site is reported.
func (s *modSite) span() ast.Span {
	if s.node != nil {
		return s.node.Span()
	}
	return s.at
}

// versionNote says which version the finding holds for and where that
// came from.
func (f *modFinding) versionNote() string {
	var ranges []string
	for _, c := range f.cases {
		ranges = append(ranges, "`"+c.Entry.Versions+"`")
	}
	if f.which.Known() {
		return f.which.Describe() + ": the data's entry for " + strings.Join(ranges, ", ") + " holds"
	}
	return f.which.Describe() + "; every range of the data it may be in (" + strings.Join(ranges, ", ") + ") needs the same"
}

// defaultText is the default value an unset site takes under the finding's
// cases.
func (s *modSite) defaultText(f *modFinding) string {
	if len(f.cases) == 0 || s.spec.Unset == nil {
		return ""
	}
	v, _, _ := s.spec.Unset(f.cases[0].Entry)
	return v
}
