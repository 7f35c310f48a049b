package modpath

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

// A Spec is one path option of a module: where to find it in the module's
// options objects, and what a value needs when its folder moves or stays.
type Spec struct {
	Module string // the package
	Key    string // the config key of its options
	// option is the data's Option of the entries that describe it; also
	// lists more entries that hold for it in other version ranges.
	Option string
	Also   []string
	// values finds the option's values in one options object of the
	// module, with their option path below the object.
	Values func(obj *ast.Object, emit func(sub ast.Path, n ast.Node))
	// name is the option's name below the key, as messages show it;
	// unsetName, when set, names what an unset option stands for.
	Name, UnsetName string
	// unset is the value a case takes when no options object sets the
	// option, and where the module reads it from; ok false when unset
	// means nothing to check.
	Unset func(o compat.PathOption) (value string, base compat.PathBase, ok bool)
	// alias is the srcDir alias a rewrite prefers where the case expands
	// aliases; "" when a rewrite always inserts app/.
	Alias string
	// fromSrc is what a value read from srcDir needs when its folder
	// stays at the root: MoveFolder (move it into app/ with the sources),
	// Rewrite ("../" + value: the folder must stay) or Advice.
	FromSrc Kind
	// advice is the Advice's text (fromSrc Advice).
	Advice string
	// base overrides the entry's base given the module's options objects
	// (i18n's restructureDir); ok false when it is only known at run time.
	// A folder of the root that is not the root itself (i18n's root/i18n)
	// is never moved: root says so, and the value needs nothing.
	Base func(o compat.PathOption, objs []*ast.Object) (b compat.PathBase, root string, ok bool)
	// exists: an unset value is judged only where the folder it names
	// exists (the module finds nothing there otherwise).
	Exists bool
	// foreign: a value passed on unresolved (BaseAsGiven) is judged as
	// relative to the root, at Info and without a fix.
	Foreign bool
}

// Specs are the path options the rules check. Options of the data that
// no move breaks (root files: unocss.configFile, tailwindcss.configPath,
// vuetify's config files, hub.dir, eslint.config.rootDir; i18n.vueI18n)
// are not here: TestModPathSpecsCoverData lists them.
var Specs = []*Spec{
	{
		Module: "shadcn-nuxt", Key: "shadcn", Option: "shadcn.componentDir", Name: "componentDir",
		Values: modField("componentDir"),
		// The data's default: './components/ui' before 2.2.0 (from the
		// root), '@/components/ui' after (srcDir: follows the move).
		Unset:  modDataDefault,
		Alias:  "@",
		Exists: true,
	},
	{
		Module: "@fw/icon", Key: "icon", Option: "icon.customCollections[].dir", Name: "customCollections[].dir",
		Values: modElemsField("customCollections", "dir"),
	},
	{
		Module: "@pinia/nuxt", Key: "pinia", Option: "pinia.storesDirs", Name: "storesDirs",
		Values: modOneOrElems("storesDirs"),
		// The default is srcDir/stores, made absolute, in every range
		// (the data's "[srcDir/stores] (absolute)").
		Unset: func(compat.PathOption) (string, compat.PathBase, bool) {
			return "stores", compat.BaseSrcDir, true
		},
		FromSrc: MoveFolder,
		Exists:  true,
	},
	{
		Module: "@nuxtjs/tailwindcss", Key: "tailwindcss", Option: "tailwindcss.cssPath", Name: "cssPath",
		Values: modStringOrHead("cssPath"),
		Alias:  "~",
	},
	{
		Module: "@fw/image", Key: "image", Option: "image.dir", Name: "dir",
		Values:  modField("dir"),
		FromSrc: Rewrite,
	},
	{
		Module: "@nuxtjs/i18n", Key: "i18n", Option: "i18n.langDir", Name: "langDir",
		Values:  modField("langDir"),
		FromSrc: MoveFolder,
		Base:    i18nBase,
	},
	{
		Module: "@fw/content", Key: "content", Option: "content/ folder (default source) and string entries of content.sources", Name: "sources",
		// 3.x reads the default content/ from the root (sources is gone).
		Also:      []string{"collection source cwd (content.config, defineCollection source.cwd) and the default content/ folder"},
		UnsetName: "source folder",
		Values:    modElemStrings("sources"),
		Unset:     modDataDefault,
		FromSrc:   Advice,
		Advice:    "update @fw/content to 2.13.0 or later (`^2.13.0`), which reads the root folder under compatibility version 4; moving the folder into app/ instead would break again on that update",
		Exists:    true,
	},
	{
		Module: "@fw/content", Key: "content", Option: "content.sources.<name>.base (object form)", Name: "sources.<name>.base",
		Values:  modSourceBases,
		Foreign: true,
	},
}

// modDataDefault is the entry's default, read from where the entry reads
// a value.
func modDataDefault(o compat.PathOption) (string, compat.PathBase, bool) {
	return o.Default, o.Base, o.HasDefault
}

// StringOf is the value of a string literal or a static untagged
// template.
func StringOf(n ast.Node) (string, bool) {
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
				if e != nil && !a.IsSpread(i) {
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
			if len(a.Elements) > 0 && a.Elements[0] != nil && !a.IsSpread(0) {
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
			if e == nil || a.IsSpread(i) {
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
			if e != nil && !a.IsSpread(i) {
				if _, ok := StringOf(e); ok {
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
			if e != nil && !v.IsSpread(i) {
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
	I18nSrcUnlessSet  = "root/<restructureDir> when i18n.restructureDir is set"
	I18nRootUnlessOff = "srcDir when restructureDir is false"
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
			val, ok := ast.StaticValue(pr)
			if !ok {
				unsure = true
				continue
			}
			v, set = val, true
		}
	}
	conditional := strings.Contains(o.ResolvesFrom, I18nSrcUnlessSet) || strings.Contains(o.ResolvesFrom, I18nRootUnlessOff)
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
	case strings.Contains(o.ResolvesFrom, I18nSrcUnlessSet):
		if s, ok := v.(string); set && ok && s != "" {
			return compat.BaseRoot, dir, true
		}
		return compat.BaseSrcDir, "", true
	case strings.Contains(o.ResolvesFrom, I18nRootUnlessOff):
		if b, ok := v.(bool); set && ok && !b {
			return compat.BaseSrcDir, "", true
		}
		return compat.BaseRoot, dir, true
	case o.Base == compat.BaseRoot:
		return compat.BaseRoot, dir, true
	}
	return o.Base, "", true
}
