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

// modSpec is one path option of a module.
type modSpec struct {
	module string // the package
	key    string // the config key of its options
	// option is the data's Option of the entries that describe it; also
	// lists more entries that hold for it in other version ranges.
	option string
	also   []string
	// values finds the option's values in one options object of the
	// module, with their option path below the object.
	values func(obj *ast.Object, emit func(sub ast.Path, n ast.Node))
	// name is the option's name below the key, as messages show it;
	// unsetName, when set, names what an unset option stands for.
	name, unsetName string
	// unset is the value a case takes when no options object sets the
	// option, and where the module reads it from; ok false when unset
	// means nothing to check.
	unset func(o compat.PathOption) (value string, base compat.PathBase, ok bool)
	// alias is the srcDir alias a rewrite prefers where the case expands
	// aliases; "" when a rewrite always inserts app/.
	alias string
	// fromSrc is what a value read from srcDir needs when its folder
	// stays at the root: MoveFolder (move it into app/ with the sources),
	// Rewrite ("../" + value: the folder must stay) or Advice.
	fromSrc modpath.Kind
	// advice is the Advice's text (fromSrc Advice).
	advice string
	// base overrides the entry's base given the module's options objects
	// (i18n's restructureDir); ok false when it is only known at run time.
	// A folder of the root that is not the root itself (i18n's root/i18n)
	// is never moved: root says so, and the value needs nothing.
	base func(o compat.PathOption, objs []*ast.Object) (b compat.PathBase, root string, ok bool)
	// exists: an unset value is judged only where the folder it names
	// exists (the module finds nothing there otherwise).
	exists bool
	// foreign: a value passed on unresolved (BaseAsGiven) is judged as
	// relative to the root, at Info and without a fix.
	foreign bool
}

// modSpecs are the path options the rules check. Options of the data that
// no move breaks (root files: unocss.configFile, tailwindcss.configPath,
// vuetify's config files, hub.dir, eslint.config.rootDir; i18n.vueI18n)
// are not here: TestModPathSpecsCoverData lists them.
var modSpecs = []*modSpec{
	{
		module: "shadcn-nuxt", key: "shadcn", option: "shadcn.componentDir", name: "componentDir",
		values: modField("componentDir"),
		// The data's default: './components/ui' before 2.2.0 (from the
		// root), '@/components/ui' after (srcDir: follows the move).
		unset:  modDataDefault,
		alias:  "@",
		exists: true,
	},
	{
		module: "@fw/icon", key: "icon", option: "icon.customCollections[].dir", name: "customCollections[].dir",
		values: modElemsField("customCollections", "dir"),
	},
	{
		module: "@pinia/nuxt", key: "pinia", option: "pinia.storesDirs", name: "storesDirs",
		values: modOneOrElems("storesDirs"),
		// The default is srcDir/stores, made absolute, in every range
		// (the data's "[srcDir/stores] (absolute)").
		unset: func(compat.PathOption) (string, compat.PathBase, bool) {
			return "stores", compat.BaseSrcDir, true
		},
		fromSrc: modpath.MoveFolder,
		exists:  true,
	},
	{
		module: "@nuxtjs/tailwindcss", key: "tailwindcss", option: "tailwindcss.cssPath", name: "cssPath",
		values: modStringOrHead("cssPath"),
		alias:  "~",
	},
	{
		module: "@fw/image", key: "image", option: "image.dir", name: "dir",
		values:  modField("dir"),
		fromSrc: modpath.Rewrite,
	},
	{
		module: "@nuxtjs/i18n", key: "i18n", option: "i18n.langDir", name: "langDir",
		values:  modField("langDir"),
		fromSrc: modpath.MoveFolder,
		base:    i18nBase,
	},
	{
		module: "@fw/content", key: "content", option: "content/ folder (default source) and string entries of content.sources", name: "sources",
		// 3.x reads the default content/ from the root (sources is gone).
		also:      []string{"collection source cwd (content.config, defineCollection source.cwd) and the default content/ folder"},
		unsetName: "source folder",
		values:    modElemStrings("sources"),
		unset:     modDataDefault,
		fromSrc:   modpath.Advice,
		advice:    "update @fw/content to 2.13.0 or later (`^2.13.0`), which reads the root folder under compatibility version 4; moving the folder into app/ instead would break again on that update",
		exists:    true,
	},
	{
		module: "@fw/content", key: "content", option: "content.sources.<name>.base (object form)", name: "sources.<name>.base",
		values:  modSourceBases,
		foreign: true,
	},
}

// modDataDefault is the entry's default, read from where the entry reads
// a value.
func modDataDefault(o compat.PathOption) (string, compat.PathBase, bool) {
	return o.Default, o.Base, o.HasDefault
}

// modString is the value of a string literal or a static untagged
// template.
func modString(n ast.Node) (string, bool) {
	switch n := ast.Unwrap(n).(type) {
	case *ast.String:
		return n.Value, true
	case *ast.Template:
		return n.Value, n.Static && n.Tag.Len() == 0
	}
	return "", false
}

// modField finds obj[key].
func modField(key string) func(*ast.Object, func(ast.Path, ast.Node)) {
	return func(obj *ast.Object, emit func(ast.Path, ast.Node)) {
		if pr := obj.Get(key); pr != nil && pr.Kind == ast.PropInit && pr.Value != nil {
			emit(ast.Path{key}, pr.Value)
		}
	}
}

// modOneOrElems finds obj[key] and, when it is an array, its elements.
func modOneOrElems(key string) func(*ast.Object, func(ast.Path, ast.Node)) {
	return func(obj *ast.Object, emit func(ast.Path, ast.Node)) {
		pr := obj.Get(key)
		if pr == nil || pr.Kind != ast.PropInit || pr.Value == nil {
			return
		}
		if a, ok := ast.Unwrap(pr.Value).(*ast.Array); ok {
			for i, e := range a.Elements {
				if e != nil && !psSpreadAt(a, i) {
					emit(ast.Path{key}, e)
				}
			}
			return
		}
		emit(ast.Path{key}, pr.Value)
	}
}

// modStringOrHead finds obj[key], or its first element when it is an
// array (tailwindcss' cssPath: [path, options]).
func modStringOrHead(key string) func(*ast.Object, func(ast.Path, ast.Node)) {
	return func(obj *ast.Object, emit func(ast.Path, ast.Node)) {
		pr := obj.Get(key)
		if pr == nil || pr.Kind != ast.PropInit || pr.Value == nil {
			return
		}
		if a, ok := ast.Unwrap(pr.Value).(*ast.Array); ok {
			if len(a.Elements) > 0 && a.Elements[0] != nil && !psSpreadAt(a, 0) {
				emit(ast.Path{key}, a.Elements[0])
			}
			return
		}
		emit(ast.Path{key}, pr.Value)
	}
}

// modElemsField finds the field of every object element of obj[key].
func modElemsField(key, field string) func(*ast.Object, func(ast.Path, ast.Node)) {
	return func(obj *ast.Object, emit func(ast.Path, ast.Node)) {
		pr := obj.Get(key)
		if pr == nil || pr.Kind != ast.PropInit {
			return
		}
		a, ok := ast.Unwrap(pr.Value).(*ast.Array)
		if !ok {
			return
		}
		for i, e := range a.Elements {
			if e == nil || psSpreadAt(a, i) {
				continue
			}
			if o, ok := ast.Unwrap(e).(*ast.Object); ok {
				if f := o.Get(field); f != nil && f.Kind == ast.PropInit && f.Value != nil {
					emit(ast.Path{key + "[]", field}, f.Value)
				}
			}
		}
	}
}

// modElemStrings finds the string elements of the array obj[key].
func modElemStrings(key string) func(*ast.Object, func(ast.Path, ast.Node)) {
	return func(obj *ast.Object, emit func(ast.Path, ast.Node)) {
		pr := obj.Get(key)
		if pr == nil || pr.Kind != ast.PropInit {
			return
		}
		a, ok := ast.Unwrap(pr.Value).(*ast.Array)
		if !ok {
			return
		}
		for i, e := range a.Elements {
			if e != nil && !psSpreadAt(a, i) {
				if _, ok := modString(e); ok {
					emit(ast.Path{key}, e)
				}
			}
		}
	}
}

// modSourceBases finds the base of content's object-form sources: in an
// array of objects, or an object of named sources.
func modSourceBases(obj *ast.Object, emit func(ast.Path, ast.Node)) {
	pr := obj.Get("sources")
	if pr == nil || pr.Kind != ast.PropInit {
		return
	}
	each := func(name string, n ast.Node) {
		if o, ok := ast.Unwrap(n).(*ast.Object); ok {
			if b := o.Get("base"); b != nil && b.Kind == ast.PropInit && b.Value != nil {
				emit(ast.Path{"sources", name, "base"}, b.Value)
			}
		}
	}
	switch v := ast.Unwrap(pr.Value).(type) {
	case *ast.Array:
		for i, e := range v.Elements {
			if e != nil && !psSpreadAt(v, i) {
				each(fmt.Sprint(i), e)
			}
		}
	case *ast.Object:
		for _, p := range v.Props {
			if p.Kind == ast.PropInit && p.KeyKind != ast.KeyComputed && p.Value != nil {
				each(p.Key, p.Value)
			}
		}
	}
}

// The phrases of the data's resolvesFrom that i18nBase reads (a test keeps
// them in the data).
const (
	i18nSrcUnlessSet  = "root/<restructureDir> when i18n.restructureDir is set"
	i18nRootUnlessOff = "srcDir when restructureDir is false"
)

// i18nBase is where @nuxtjs/i18n reads langDir from under entry o, given
// the module's restructureDir: 8.4+ reads root/<restructureDir> when it is
// set (srcDir otherwise), 9.x reads srcDir when it is false (root/i18n
// otherwise), 10+ always the root.
func i18nBase(o compat.PathOption, objs []*ast.Object) (compat.PathBase, string, bool) {
	var v any
	set, unsure := false, false
	for _, obj := range objs {
		spreadAt := -1
		for _, pr := range obj.Props {
			if pr.Kind == ast.PropSpread {
				spreadAt = pr.Loc.Start
			}
		}
		pr := obj.Get("restructureDir")
		if pr == nil && spreadAt >= 0 || pr != nil && pr.Loc.Start < spreadAt {
			unsure = true // a spread may set it
			continue
		}
		if pr != nil {
			val, ok := staticValue(pr)
			if !ok {
				unsure = true
				continue
			}
			v, set = val, true
		}
	}
	conditional := strings.Contains(o.ResolvesFrom, i18nSrcUnlessSet) || strings.Contains(o.ResolvesFrom, i18nRootUnlessOff)
	switch {
	case unsure && conditional:
		return 0, "", false
	case unsure && o.Base == compat.BaseRoot:
		return compat.BaseRoot, "?", true // 10.x: a folder of the root, whichever
	}
	dir := "i18n" // the default restructureDir of 9.x and later
	if s, ok := v.(string); set && ok && s != "" {
		dir = s
	}
	switch {
	case strings.Contains(o.ResolvesFrom, i18nSrcUnlessSet):
		if s, ok := v.(string); set && ok && s != "" {
			return compat.BaseRoot, dir, true
		}
		return compat.BaseSrcDir, "", true
	case strings.Contains(o.ResolvesFrom, i18nRootUnlessOff):
		if b, ok := v.(bool); set && ok && !b {
			return compat.BaseSrcDir, "", true
		}
		return compat.BaseRoot, dir, true
	case o.Base == compat.BaseRoot:
		return compat.BaseRoot, dir, true
	}
	return o.Base, "", true
}

// modSite is one value of a module path option in the config, or the
// option left unset.
type modSite struct {
	spec *modSpec
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
	for _, spec := range modSpecs {
		entry, listed := p.modEntry(spec.module)
		objs, sites := p.modSites(spec, entry)
		if !listed && (len(objs) == 0 || p.Project.Packages().Dep(spec.module) == nil) {
			continue // not a module of this project, as far as the config says
		}
		which := modpath.Of(p.Project, spec.module)
		for _, s := range sites {
			f := &modFinding{site: s, which: which, moving: v.Moving, layout: v.fixLayout()}
			f.cases = modpath.Cases(which, spec.module, append([]string{spec.option}, spec.also...), func(o compat.PathOption) modpath.Outcome {
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
			if s, ok := modString(head); ok && s == module {
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
func (p *Pass) modSites(spec *modSpec, entry ast.Node) ([]*ast.Object, []*modSite) {
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
		spec.values(obj, func(sub ast.Path, n ast.Node) {
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
	p.OptionProps(spec.key, func(_, path ast.Path, prop *ast.Property) {
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
			if s, ok := modString(t.Elements[0]); !ok || s != spec.module {
				continue
			}
			if obj, ok := ast.Unwrap(t.Elements[1]).(*ast.Object); ok {
				add("modules", obj)
			} else {
				dynamic = true
			}
		}
	})
	if len(sites) > 0 || spec.unset == nil || dynamic {
		return objs, sites
	}
	for _, obj := range objs {
		set := false
		spec.values(obj, func(ast.Path, ast.Node) { set = true })
		if set {
			return objs, nil // set, to a value that is not a string
		}
	}
	// Unset everywhere: the default, where it names a folder.
	s := &modSite{spec: spec, option: spec.key + "." + spec.name, shown: spec.name}
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
			s.setAt = ast.Path{spec.key, spec.name}
		}
	} else if p.Lookup(spec.key) == nil {
		s.setAt = ast.Path{spec.key, spec.name}
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
		v, b, ok := s.spec.unset(o)
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
	if s.spec.base != nil && s.node != nil {
		b, sub, ok := s.spec.base(o, objs)
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
		if s.spec.foreign {
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
		if s.node == nil && s.spec.exists && !j.pass.Project.Exists(plain) {
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
	if aware && s.spec.alias != "" && v.appSrc(j.pass, s.spec.alias) && (lead == "" || strings.HasPrefix(lead, ".")) {
		out.Texts = append(out.Texts, s.spec.alias+"/"+rel)
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
	kind := s.spec.fromSrc
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
		out.Advice = s.spec.advice
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
	if s.node == nil && s.spec.unsetName != "" {
		return "the default " + s.spec.unsetName + " of " + s.spec.module
	}
	if s.node == nil {
		return "the default `" + s.shown + "` of " + s.spec.module
	}
	return "`" + s.shown + ": " + f.Text(s.node.Span()) + "` of " + s.spec.module
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
	if len(f.cases) == 0 || s.spec.unset == nil {
		return ""
	}
	v, _, _ := s.spec.unset(f.cases[0].Entry)
	return v
}
