package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleFrameworkBehind = &Rule{
	Code:     "FW701",
	Name:     "framework-behind",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "the `fw` dependency in package.json is behind the framework major the target needs",
		Why: `future.compatibilityVersion: 4 (FW206) is the first step on framework major 3;
the version step itself is the fw dependency: as long as package.json says
^3.x, the project installs major 3. The core packages released with the
framework carry its version number (@fw/kit, @fw/schema, the bundler
builders, @fw/nitro-server) and must move with it; those with lines of their
own (@fw/devtools, @fw/cli) must be in the ranges the new version pins.
Which 4.x a project can run depends on its Node: 4.4.6 and later need Node
^22.12, 4.5 needs ^22.19. The version chosen is the newest 4.x whose
engines.node admits the Node versions the project writes (engines, volta,
.nvmrc, .node-version, .tool-versions, CI workflows, Dockerfiles), from the
ecosystem table (compat/ecosystem.json). When no Node is written anywhere the
latest 4.x is chosen, and the finding says so.
Also reported (without a fix) when package.json already allows the target
major but the version installed or locked is older: the install is what is
left to do.`,
		Example: `// package.json
{ "dependencies": { "fw": "^3.12.0", "@fw/kit": "^3.12.0" } }
// .nvmrc
22`,
		Fix: `Bumps fw and the lockstep core packages package.json lists to the chosen
version, byte-exactly, keeping each range's style (^4.5.2, ~4.5.2, 4.5.2,
4.x); own-line packages (@fw/devtools, @fw/cli) are moved into the range the
chosen version pins when their range does not reach it. Ranges written with a
protocol (catalog:, workspace:, npm:) or as unions are left alone with a note.
The fix ends with the install command of the project's package manager (from
packageManager or the lockfile): fwmigrate never runs it.
With the bump, apply runs the config's other fixes for the new major: on
major 4 compatibility version 4 is the default, so FW206 sets no
future.compatibilityVersion (and removes a redundant 4) in the same run.
Safe, as the version step FW206 makes is: it is what --to asks for. Unsafe when
a module the config names declares framework versions that exclude the new
major and package.json's range allows no compatible version (FW703): the
bump would disable it.`,
	},
	Run: runFrameworkBehind,
}

func init() { Register(ruleFrameworkBehind) }

func runFrameworkBehind(pass *Pass) {
	major := depsMajor(pass)
	if major == 0 || pass.File == nil {
		return
	}
	p := pass.Project
	ps := p.Packages()
	if ps.Manifest == nil || ps.Err != nil {
		return
	}
	fw := ps.Dep(compat.FrameworkPackage)
	if fw == nil {
		return
	}
	install := ps.Manager.InstallCommand()
	rng, err := semver.ParseRange(fw.Range)
	if err != nil {
		// A protocol, an alias, a tag: the version installed says the
		// major, if anything does.
		if fw.Installed == nil {
			if !strings.HasPrefix(fw.Range, "catalog:") && !strings.HasPrefix(fw.Range, "workspace:") {
				return // "latest", a git URL: whatever it gets, nothing to rewrite
			}
			d := reportPackage(pass, ps, fw.Span, "cannot tell which framework version `fw: %s` gives: nothing installed or locked says", fw.Range)
			d.Severity = Info
			d.Notes = append(d.Notes, protocolNote("fw", fw.Range)+fmt.Sprintf(" to a version of major %d", major))
			return
		}
		if v, err := semver.Parse(fw.Installed.Version); err == nil && v.Major < uint64(major) {
			d := reportPackage(pass, ps, fw.Span, "`fw` is `%s`, which gives %s (%s): framework major %d, behind the target (major %d)", fw.Range, fw.Installed.Version, fw.Installed.File, v.Major, major)
			d.Notes = append(d.Notes, protocolNote("fw", fw.Range)+fmt.Sprintf(", then run `%s`", install))
		}
		return
	}
	if rng.AdmitsMajor(uint64(major)) {
		// Already allowed: what is installed may still be older.
		if fw.Installed == nil {
			return
		}
		if v, err := semver.Parse(fw.Installed.Version); err == nil && v.Major < uint64(major) {
			d := reportPackage(pass, ps, fw.Span, "package.json allows framework major %d (`fw: %s`), but %s has %s: run `%s`", major, fw.Range, fw.Installed.File, fw.Installed.Version, install)
			d.Notes = append(d.Notes, "the rules check the project for the major package.json says; it runs the one installed")
		}
		return
	}
	lo, ok := rng.Floor()
	if !ok || lo.Major >= uint64(major) {
		return // ahead of the target, or a range that admits nothing
	}
	choice := chooseRelease(p, major)
	rel := choice.Release
	if rel == nil {
		rel = choice.Latest
	}
	if rel == nil {
		return // the table has no release of the major
	}
	d := reportPackage(pass, ps, fw.Span, "`fw` is `%s` in package.json: framework major %d, behind the target (major %d)", fw.Range, lo.Major, major)
	if fw.Installed != nil {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: %s (%s)", installedWord(fw.Installed), fw.Installed.Version, fw.Installed.File))
	}
	d.Notes = append(d.Notes, releaseNotes(choice, rel, major)...)

	var ops []rewrite.Op
	var bumped []string
	var notes []string
	style := func(dep *project.Dep, to semver.Version) {
		if !dep.Plain {
			notes = append(notes, fmt.Sprintf("`%s` is written with escapes: change it to %s by hand", dep.Name, to))
			return
		}
		nr, ok := restyle(dep.Range, to)
		if !ok {
			notes = append(notes, protocolNote(dep.Name, dep.Range)+fmt.Sprintf(" (to %s)", to))
			return
		}
		ops = append(ops, replaceRange(dep, nr))
		bumped = append(bumped, fmt.Sprintf("`%s` to `%s`", dep.Name, nr))
	}
	eco := compat.Eco()
	for _, dep := range ps.Deps {
		switch {
		case dep.Name == compat.FrameworkPackage:
			style(dep, rel.Version)
		default:
			if _, ok := eco.Lockstep(dep.Name); ok {
				if r, err := semver.ParseRange(dep.Range); err == nil && r.Satisfies(rel.Version) {
					continue
				}
				switch eco.LockstepPublished(dep.Name, rel.Version.String()) {
				case compat.Unknown:
					notes = append(notes, fmt.Sprintf("the registry fwmigrate's table was read from had no %s %s: check that it is published", dep.Name, rel.Version))
				case compat.No:
					notes = append(notes, fmt.Sprintf("%s is not published with fw %s: remove it or keep its version", dep.Name, rel.Version))
					continue
				}
				style(dep, rel.Version)
				continue
			}
			if _, ok := eco.OwnLine(dep.Name); ok {
				pin := rel.Pins[dep.Name]
				if pin == "" {
					if dep.Name == "fwi" && rel.Pins["@fw/cli"] != "" {
						notes = append(notes, fmt.Sprintf("fw %s depends on @fw/cli (`%s`), which replaces fwi: remove fwi from package.json", rel.Version, rel.Pins["@fw/cli"]))
					}
					continue
				}
				pr, err1 := semver.ParseRange(pin)
				dr, err2 := semver.ParseRange(dep.Range)
				if err1 != nil || err2 == nil && dr.Intersects(pr) {
					continue
				}
				if floor, ok := pr.Floor(); ok {
					style(dep, floor)
				}
			}
		}
	}
	if len(ops) == 0 {
		d.Notes = append(d.Notes, notes...)
		return
	}
	if nr, ok := restyle(fw.Range, rel.Version); ok && choice.Latest != nil && rel != choice.Latest {
		if r, err := semver.ParseRange(nr); err == nil && r.Satisfies(choice.Latest.Version) {
			notes = append(notes, fmt.Sprintf("`%s` also admits %s, which needs Node %s: an install without a lockfile may pick it; pin `%s` or move Node first (FW702)", nr, choice.Latest.Version, choice.Latest.EnginesNode, rel.Version))
		}
	}
	app := Safe
	for _, m := range pass.ConfigModules() {
		f := factsOf(p, m, major)
		if f.blocksBump(major) {
			app = Unsafe
			notes = append(notes, fmt.Sprintf("module %s (%s) excludes framework major %d and package.json allows no version that does not (FW703): the bump would disable it", m.Package, f.why, major))
		}
	}
	d.Notes = append(d.Notes, notes...)
	d.Notes = append(d.Notes, fmt.Sprintf("then run `%s` (%s): fwmigrate does not run it", install, managerSource(ps)))
	d.Fix = &Fix{
		Description:   fmt.Sprintf("bump %s in package.json; then run `%s`", strings.Join(bumped, ", "), install),
		Applicability: app,
		File:          ps.Manifest.Path,
		Ops:           ops,
	}
}

// releaseNotes say how the version was chosen.
func releaseNotes(c nodeChoice, rel *compat.FwRelease, major int) []string {
	var out []string
	var names []string
	for _, np := range c.Places {
		names = append(names, fmt.Sprintf("%s (`%s`)", placeName(np), np.Text))
	}
	switch {
	case len(c.Places) == 0:
		out = append(out, fmt.Sprintf("no Node version is written anywhere (engines, volta, .nvmrc, .node-version, .tool-versions, CI workflows, Dockerfiles): %s, the latest %d.x, is chosen; it needs Node %s", rel.Version, major, rel.EnginesNode))
	case c.Release == nil:
		out = append(out, fmt.Sprintf("no release of framework major %d runs on the Node the project writes (%s): %s, the latest, is chosen; it needs Node %s: move Node first (FW702 names each place)", major, strings.Join(names, ", "), rel.Version, rel.EnginesNode))
	case c.Latest != nil && rel != c.Latest:
		out = append(out, fmt.Sprintf("%s is the newest %d.x that runs on the Node the project writes (%s); %s, the latest, needs Node %s (FW702 names the places to move)", rel.Version, major, strings.Join(names, ", "), c.Latest.Version, c.Latest.EnginesNode))
	default:
		out = append(out, fmt.Sprintf("%s, the latest %d.x, runs on the Node the project writes (%s): it needs %s", rel.Version, major, strings.Join(names, ", "), rel.EnginesNode))
	}
	for _, np := range c.Unknown {
		out = append(out, fmt.Sprintf("%s says `%s`, which is no Node version fwmigrate can read: not taken into account", placeName(np), np.Text))
	}
	return out
}

// managerSource says where the package manager comes from.
func managerSource(ps *project.Packages) string {
	if ps.Manager.Name == "" {
		return "no lockfile or packageManager field says which package manager: npm assumed"
	}
	return "the package manager, from " + ps.Manager.Source
}

// installedWord says whether a version is installed or locked.
func installedWord(in *project.Installed) string {
	if in.Source == project.SourceNodeModules {
		return "installed"
	}
	return "locked"
}

// FrameworkBump returns the framework major that d's fix moves the project
// to when d is FW701's bump of the fw dependency (4, the major of --to=4,
// the one target), and 0 for any other diagnostic. apply makes the config's
// fixes for that major when it makes the bump, so that the version step is
// not made twice (FW206's compatibilityVersion: 4 is the default there).
func FrameworkBump(d *Diagnostic) int {
	if d.Code != ruleFrameworkBehind.Code || d.Fix == nil || d.Fix.File == "" || len(d.Fix.Ops) == 0 {
		return 0
	}
	return 4
}
