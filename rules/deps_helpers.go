package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// Helpers of the deps rules (FW701-FW705): the framework major the target
// needs, the framework version the project's Node allows, the modules the
// config names and what is known of each, and range rewriting in
// package.json's style.

// depsMajor is the framework major the target compatibility version needs:
// 4 for compatibility version 4 (and 5, a preview of major 4).
func depsMajor(pass *Pass) int {
	if pass.Target >= 4 {
		return 4
	}
	return 0
}

// reportPackage reports at span of package.json.
func reportPackage(pass *Pass, ps *project.Packages, span ast.Span, format string, args ...any) *Diagnostic {
	d := pass.reportIn(ps.Manifest.Display, ps.Manifest.Src, span, format, args...)
	d.Path = "package.json"
	return d
}

// nodeChoice is the framework version the project's Node allows.
type nodeChoice struct {
	// Release is the newest release of the major that every Node place
	// with a known version can run (nil when none can); Latest the newest
	// of the major.
	Release, Latest *compat.FwRelease
	// Places are the places with a known Node; Unknown those without
	// ("lts/*", an expression).
	Places, Unknown []*project.NodePlace
}

// chooseRelease picks the newest release of major whose engines.node
// admits some version of every Node place that says one.
func chooseRelease(p *project.Project, major int) nodeChoice {
	eco := compat.Eco()
	c := nodeChoice{Latest: eco.HighestRelease(major, nil)}
	for _, np := range p.NodePlaces() {
		if np.Known {
			c.Places = append(c.Places, np)
		} else {
			c.Unknown = append(c.Unknown, np)
		}
	}
	c.Release = eco.HighestRelease(major, func(r *compat.FwRelease) bool {
		if !r.NodeOK {
			return false
		}
		for _, np := range c.Places {
			if !r.Node.Intersects(np.Range) {
				return false
			}
		}
		return true
	})
	return c
}

// placeName names a Node place for a message: ".nvmrc", "engines.node in
// package.json", ".github/workflows/ci.yml:12 (matrix.node)".
func placeName(np *project.NodePlace) string {
	switch np.Kind {
	case project.NodeEngines, project.NodeVolta:
		return "`" + np.Kind + "` in " + np.Display
	case project.NodeWorkflow, project.NodeDockerfile:
		s := fmt.Sprintf("%s:%d", np.Display, np.Line)
		if np.Note != "" {
			s += " (" + np.Note + ")"
		}
		return s
	}
	return np.Display
}

// rangeForm is a package.json range in a form whose version a fix can
// replace keeping its style: an optional operator (^, ~, =, >=), an
// optional v, and a version of one to three parts, each a number or x.
var rangeForm = lazyregexp.New(`^(\^|~|=|>=)?(v?)(\d+)((?:\.(?:\d+|x|X|\*)){0,2})(-[0-9A-Za-z.-]+)?$`)

// restyle returns rng with its version replaced by v in rng's style ("^3.12.0"
// and 4.5.2 give "^4.5.2", "~3.12" gives "~4.5", "3.x" gives "4.x"), and
// false when rng is not of a form kept (a union, a hyphen range, a tag, a
// protocol).
func restyle(rng string, v semver.Version) (string, bool) {
	m := rangeForm().FindStringSubmatch(strings.TrimSpace(rng))
	if m == nil || strings.TrimSpace(rng) != rng {
		return "", false
	}
	op, vee, rest := m[1], m[2], m[4]
	parts := strings.Split(strings.TrimPrefix(rest, "."), ".")
	if rest == "" {
		parts = nil
	}
	out := fmt.Sprint(v.Major)
	nums := []uint64{v.Minor, v.Patch}
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			out += "." + p
			continue
		}
		out += "." + fmt.Sprint(nums[i])
	}
	if len(parts) == 2 && len(v.Pre) > 0 {
		out += "-" + strings.Join(v.Pre, ".")
	}
	return op + vee + out, true
}

// protocolNote says why a range is left alone: a catalog or workspace
// protocol, an alias, a path, a tag.
func protocolNote(name, rng string) string {
	switch {
	case strings.HasPrefix(rng, "catalog:"):
		return fmt.Sprintf("`%s` is `%s`: its version is in the catalog of pnpm-workspace.yaml; change it there", name, rng)
	case strings.HasPrefix(rng, "workspace:"):
		return fmt.Sprintf("`%s` is `%s`: a package of the workspace; change the version where it is built", name, rng)
	case strings.HasPrefix(rng, "npm:"):
		return fmt.Sprintf("`%s` is the alias `%s`: change it by hand", name, rng)
	}
	return fmt.Sprintf("`%s` is `%s`, not a range fwmigrate rewrites: change it by hand", name, rng)
}

// replaceRange is the edit that writes rng over a dependency's range.
func replaceRange(d *project.Dep, rng string) rewrite.Op {
	return rewrite.Op{Kind: rewrite.OpReplace, Span: d.Span, Text: rng}
}

// A ConfigModule is one module the config names (Pass.ConfigModules).
type ConfigModule struct {
	Spec    string   // as written: "@nuxtjs/i18n", "motion-v/nuxt"
	Package string   // its package: "@nuxtjs/i18n", "motion-v"
	Span    ast.Span // the entry
	Option  string   // the option path it is under ("modules")
}

// npmSpec is a module given by package name, with or without a subpath.
var npmSpec = lazyregexp.New(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(/[A-Za-z0-9._~/-]*)?$`)

// ConfigModules returns the modules of the config's modules option (its
// $env overrides too) given by package name, each package once, in order.
// Local modules (paths, aliases) are not packages and are left out. The
// rules of the dependencies (FW701, FW703, FW704) judge these.
func (p *Pass) ConfigModules() []ConfigModule {
	var out []ConfigModule
	seen := map[string]bool{}
	p.OptionProps("modules", func(prefix, path ast.Path, prop *ast.Property) {
		arr, ok := ast.Unwrap(prop.Value).(*ast.Array)
		if !ok {
			return
		}
		for i, e := range arr.Elements {
			if e == nil || arr.IsSpread(i) {
				continue
			}
			spec, span, ok := moduleSpec(e)
			if !ok || !npmSpec().MatchString(spec) {
				continue
			}
			pkg := packageOf(spec)
			if seen[pkg] {
				continue
			}
			seen[pkg] = true
			out = append(out, ConfigModule{Spec: spec, Package: pkg, Span: span, Option: path.String()})
		}
	})
	return out
}

// moduleSpec is a modules entry's module name: the string, or the first
// element of a [module, options] tuple.
func moduleSpec(n ast.Node) (string, ast.Span, bool) {
	if s, ok := ast.StaticString(n); ok {
		return s, n.Span(), true
	}
	arr, ok := ast.Unwrap(n).(*ast.Array)
	if !ok || len(arr.Elements) == 0 || arr.Elements[0] == nil || arr.IsSpread(0) {
		return "", ast.Span{}, false
	}
	s, ok := ast.StaticString(arr.Elements[0])
	return s, arr.Elements[0].Span(), ok
}

// packageOf is the package of a module spec: "motion-v/nuxt" is in
// motion-v, "@a/b/c" in @a/b.
func packageOf(spec string) string {
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// moduleFacts is what is known of one module of the config and the
// framework major: from its installed metadata, else from the table at the
// version installed or locked, else from the table over package.json's
// range.
type moduleFacts struct {
	mod   ConfigModule
	dep   *project.Dep   // nil when package.json does not list it
	table *compat.Module // nil when the table does not know it
	// version is the version installed or locked, "" when unknown; from
	// says where it comes from.
	version, from string
	// admits says whether the module's declaration admits the major;
	// Unknown when nothing says (unknown is set then), or when the module
	// declares nothing (declares No: the framework loads it).
	admits   compat.Answer
	declares compat.Answer
	declared string // the declared range, "" when unknown or none
	// why says where the answer comes from; unknown, when set, why nothing
	// is known.
	why, unknown string
	// straddles: only package.json's range is known, and it allows versions
	// that exclude the major and versions that admit it.
	straddles bool
}

// factsOf gathers what is known of a module of the config.
func factsOf(p *project.Project, m ConfigModule, major int) *moduleFacts {
	ps := p.Packages()
	f := &moduleFacts{mod: m, table: compat.Eco().Module(m.Spec)}
	if f.table == nil {
		f.table = compat.Eco().Module(m.Package)
	}
	f.dep = ps.Dep(m.Package)
	if f.dep != nil && f.dep.Installed != nil {
		in := f.dep.Installed
		f.version, f.from = in.Version, in.File
		if in.HasCompatibility && m.Spec == m.Package {
			f.declares, f.declared = compat.Yes, in.Compatibility
			f.admits = compat.AdmitsMajor(in.Compatibility, major)
			f.why = fmt.Sprintf("%s %s declares `fw: %s` (%s)", m.Package, in.Version, in.Compatibility, in.CompatibilityIn)
			if f.admits == compat.Unknown {
				f.unknown = fmt.Sprintf("its declared range `%s` (%s) does not read", in.Compatibility, in.CompatibilityIn)
			}
			return f
		}
	}
	if f.table == nil {
		switch {
		case f.version != "":
			f.unknown = fmt.Sprintf("not in fwmigrate's table, and %s %s (%s) has no dist/module.json declaring its framework versions", m.Package, f.version, f.from)
		case f.dep != nil:
			f.unknown = fmt.Sprintf("not in fwmigrate's table, and not installed (package.json: `%s`)", f.dep.Range)
		default:
			f.unknown = "not in fwmigrate's table, not in package.json, not installed"
		}
		return f
	}
	if f.version != "" {
		v := f.table.Check(f.version, major)
		f.admits, f.declares, f.declared = v.Admits, v.Declares, v.Range
		f.why = fmt.Sprintf("%s %s (%s), and the table: %s", m.Package, f.version, f.from, v.Why)
		if v.Declares == compat.Unknown {
			f.unknown = fmt.Sprintf("%s %s (%s): %s", m.Package, f.version, f.from, v.Why)
		}
		return f
	}
	if f.dep == nil {
		// In the table, but no version anywhere: nothing to judge.
		f.unknown = "no version: not in package.json, not installed"
		return f
	}
	rng, err := semver.ParseRange(f.dep.Range)
	if err != nil {
		f.unknown = fmt.Sprintf("package.json's `%s` is not a range, and nothing is installed", f.dep.Range)
		return f
	}
	// The versions read that the range allows, and what each declares.
	var yes, no, undeclared []string
	for _, mv := range f.table.Versions {
		if !rng.Satisfies(mv.Version) {
			continue
		}
		switch {
		case !mv.Declares():
			undeclared = append(undeclared, mv.Version.String())
		case mv.Admits(major) == compat.Yes:
			yes = append(yes, mv.Version.String())
		case mv.Admits(major) == compat.No:
			no = append(no, mv.Version.String())
		}
	}
	if len(yes)+len(no)+len(undeclared) == 0 {
		if floor, ok := rng.Floor(); ok {
			v := f.table.Check(floor.String(), major)
			f.admits, f.declares, f.declared = v.Admits, v.Declares, v.Range
			f.why = "package.json's `" + f.dep.Range + "`, nothing installed; the table: " + v.Why
			if v.Declares != compat.Unknown {
				return f
			}
		}
		f.unknown = fmt.Sprintf("package.json's `%s` allows no version the table read, and nothing is installed", f.dep.Range)
		return f
	}
	switch {
	case len(no) > 0 && len(yes)+len(undeclared) == 0:
		f.admits, f.declares = compat.No, compat.Yes
		mv, _ := f.table.Version(no[len(no)-1])
		f.declared = mv.Declared()
		f.why = fmt.Sprintf("package.json's `%s`, nothing installed: every version of it the table read (%s) excludes major %d", f.dep.Range, strings.Join(no, ", "), major)
	case len(no) > 0:
		f.straddles = true
		f.admits, f.declares = compat.Unknown, compat.Yes
		f.why = fmt.Sprintf("package.json's `%s` allows versions that exclude major %d (%s) and versions that do not (%s); nothing installed says which one the project gets", f.dep.Range, major, strings.Join(no, ", "), strings.Join(append(yes, undeclared...), ", "))
	default:
		f.admits, f.declares = compat.Yes, compat.Yes
		f.why = fmt.Sprintf("package.json's `%s`: every version of it the table read admits major %d or declares nothing", f.dep.Range, major)
	}
	return f
}

// firstCompatible is the table's first version of the module compatible
// with major (after the last that excludes it), "" when the table names
// none; inRange is the newest version read that package.json's range allows
// and that admits the major ("" when none); allowed says whether the range
// allows a compatible version (inRange, or first or a later one).
func (f *moduleFacts) firstCompatible(major int) (first, inRange string, allowed compat.Answer) {
	if f.table == nil {
		return "", "", compat.Unknown
	}
	first = f.table.Major(major).FirstCompatible
	if f.dep == nil {
		return first, "", compat.No
	}
	rng, err := semver.ParseRange(f.dep.Range)
	if err != nil {
		return first, "", compat.Unknown
	}
	for _, mv := range f.table.Versions {
		if rng.Satisfies(mv.Version) && mv.Admits(major) == compat.Yes {
			inRange = mv.Version.String()
		}
	}
	if inRange != "" {
		return first, inRange, compat.Yes
	}
	if first == "" {
		return "", "", compat.No
	}
	return first, "", answerOf(rng.Intersects(semver.MustParseRange(">=" + first)))
}

func answerOf(b bool) compat.Answer {
	if b {
		return compat.Yes
	}
	return compat.No
}

// blocksBump reports whether module facts f make the framework bump disable
// the module: its declaration excludes the major at the version installed
// or locked (or at every version its range allows) and package.json's
// range allows no compatible version.
func (f *moduleFacts) blocksBump(major int) bool {
	if f.admits != compat.No {
		return false
	}
	_, _, allowed := f.firstCompatible(major)
	return allowed != compat.Yes
}
