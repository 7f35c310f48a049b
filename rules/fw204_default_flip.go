package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleDefaultFlip = &Rule{
	Code:     "FW204",
	Name:     "default-flip",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "an unset option whose default changes in version 4",
		Why: `Version 4 flips a set of defaults. A project that leaves
such an option unset gets the new behaviour on upgrade without any change to its
config: shared prerender data, normalized component names, the loading template
location, parsed error data, useAsyncData's deep reactivity and more. This is a
heads-up listing each one, so that the upgrade can be tested for it or the old
behaviour pinned. Directory defaults (srcDir, serverDir, dir.*) are the layout
rules' (FW1xx). Reported only for projects known to run version 3: package.json
pins framework major 3 and future.compatibilityVersion is not 4. Nothing changes
for a project already on version 4, and when the major is unknown it may be.`,
		Example: `// package.json: "fw": "^3.12.0"
export default defineFwConfig({
  experimental: {},
})`,
		Fix: `Unsafe, and only where version 4 still honours the old value: sets the option
to the value that restores the version-3 behaviour (for example
experimental.sharedPrerenderData: false). That keeps the project as it was,
which is the opposite of adopting version 4's defaults; review each one. For
options removed in framework major 4 there is no fix: the old behaviour cannot be
kept.`,
	},
	Run: runDefaultFlip,
}

func init() { Register(ruleDefaultFlip) }

func runDefaultFlip(pass *Pass) {
	if pass.Target < 4 || pass.File == nil || pass.File.Config == nil {
		return
	}
	if pass.Project.Framework != 3 || projectCompat(pass) != 3 {
		// Only a project known to run version 3 changes on upgrade. When
		// package.json does not pin the major, the project may already
		// run major 4, where nothing changes: say nothing.
		return
	}
	c := pass.Index
	for _, f := range flippedDefaults() {
		if isPathFlip(f) {
			continue
		}
		if _, st := pass.Config.Value(f.Path); st != compat.Absent {
			continue
		}
		set := false
		c.optionProps(f.Path, func(ast.Path, ast.Path, *ast.Property) { set = true })
		if set {
			// Set in an environment override only: the author already
			// decides its value; the other environments are theirs too.
			continue
		}
		reportFlip(pass, f)
	}
}

func reportFlip(pass *Pass, f compat.Flip) {
	span := pass.Anchor()
	if p := nearestProp(pass, f.Path); p != nil {
		span = p.KeySpan
		if span.Len() == 0 {
			span = p.Loc
		}
	}
	d := pass.Report(span, f.Path, "`%s` is not set: its default changes from %s to %s in version 4", f.Path, defaultWords(f.V3), defaultWords(f.V4))
	if f.Note != "" {
		d.Notes = append(d.Notes, f.Note)
	}
	switch {
	case !f.Restore.Set:
		d.Notes = append(d.Notes, "the version-3 behaviour cannot be restored")
	case !f.OnV4:
		d.Notes = append(d.Notes, "framework major 4 cannot restore the version-3 behaviour ("+jsLiteral(f.Restore.Value)+" works only on v3 with compatibility version 4)")
	default:
		if !f.OnCompat4 {
			d.Notes = append(d.Notes, "pinning "+jsLiteral(f.Restore.Value)+" works on framework major 4, not on v3 with compatibility version 4")
		}
		d.Fix = &Fix{
			Description:   "pin `" + f.Path + ": " + jsLiteral(f.Restore.Value) + "` to keep the version-3 behaviour",
			Applicability: Unsafe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: ast.ParsePath(f.Path), Value: f.Restore.Value}},
		}
	}
}
