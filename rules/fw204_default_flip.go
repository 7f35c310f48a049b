package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/text"
)

var ruleDefaultFlip = &Rule{
	Code:     "FW204",
	Name:     "default-flip",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "the default changes of version 4 that reach no code of the project, and those only testing can judge",
		Why: `Version 4 flips a set of defaults: shared prerender data, shallow data in
useAsyncData, parsed error data, normalized component names, the loading
template's location and more. Most of them change how some code behaves, and the
code rules (FW6xx) report each place of the project's code that a change reaches,
with the fix and the flag that keeps the old behaviour. This rule says the rest,
once per config: the changes whose code rule found nothing in the project (they
reach no code here, so the project does not depend on them), and the changes
that no tool can judge from the code (features.inlineStyles, the head
manager's line breaks, the generated tsconfig's noUncheckedIndexedAccess):
verify those by testing. Options the config sets, anywhere, are the author's
decision and are not listed, nor are directory defaults (the layout rules'
FW1xx). Reported for projects known to run version 3 (package.json pins
framework major 3 and future.compatibilityVersion is not 4), and likewise for
compatibility version 5 on a project of framework major 4 that sets it.`,
		Example: `// package.json: "fw": "^3.12.0"
export default defineFwConfig({})`,
		Fix: `None. To keep a version-3 behaviour while the code is changed, pin it
explicitly: fwmigrate apply --pin=affected pins the changes that reach code,
--pin=all every one, --pin=OPTION[,OPTION] the ones named.`,
	},
	Run: runDefaultFlip,
}

func init() { Register(ruleDefaultFlip) }

func runDefaultFlip(pass *Pass) {
	if pass.Target < 4 || pass.File == nil || pass.File.Config == nil {
		return
	}
	to := 0
	switch c := projectCompat(pass); {
	case pass.Project.Framework == 3 && c == 3:
		to = 4
	case pass.Project.Framework >= 4 && c == 5:
		to = 5
	default:
		// Only a project known to run the version before changes now;
		// when package.json does not say, it may already run major 4.
		return
	}
	unreached, untested := flipsUnseen(pass, to)
	if len(unreached) == 0 && len(untested) == 0 {
		return
	}
	version := "version 4"
	if to == 5 {
		version = "compatibility version 5"
	}
	var parts []string
	if len(unreached) > 0 {
		verb := "reach"
		if len(unreached) == 1 {
			verb = "reaches"
		}
		parts = append(parts, fmt.Sprintf("%d %s no code found here", len(unreached), verb))
	}
	if len(untested) > 0 {
		parts = append(parts, fmt.Sprintf("%d can only be judged by testing", len(untested)))
	}
	span := pass.Anchor()
	if p := pass.Lookup("future.compatibilityVersion"); p != nil {
		span = p.Loc
	}
	d := pass.Report(span, "", "of the defaults %s changes, %s", version, strings.Join(parts, ", and "))
	if len(unreached) > 0 {
		d.Notes = append(d.Notes, "no code found depends on: "+flipList(unreached))
		if n := len(pass.Index.code().Failed); n > 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("%s could not be read (FW908): code there is not judged", text.Plural(n, "file")))
		}
	}
	if len(untested) > 0 {
		d.Notes = append(d.Notes, "verify by testing: "+flipList(untested))
	}
}

// detectors maps each default change with a code rule to that rule.
func detectors() map[string]*Rule {
	detector := map[string]*Rule{}
	for _, r := range All() {
		if r.detect == nil && r.scan == nil {
			continue
		}
		for _, f := range r.Flips {
			detector[f] = r
		}
	}
	return detector
}

// Undetected returns the default changes to compatibility version to (4,
// or 5 on major 4) whose effect no code rule can find in a project's code:
// only testing can judge them. Directory defaults (the layout rules') are
// left out.
func Undetected(to int) []compat.Flip {
	detector := detectors()
	var out []compat.Flip
	for _, f := range compat.FlipsTo(to) {
		if isPathFlip(f) {
			continue
		}
		found := false
		for _, p := range companionsOf(f.Path) {
			found = found || detector[p] != nil
		}
		if !found {
			out = append(out, f)
		}
	}
	return out
}

// companionsOf returns the default changes whose sites stand for the one
// at path: itself, or its flipCompanions.
func companionsOf(path string) []string {
	if c := flipCompanions[path]; c != nil {
		return c
	}
	return []string{path}
}

// flipsUnseen returns the default changes to compatibility version to that
// the project leaves to their defaults and that no site shows: those whose
// code rule found none, and those no rule can judge.
func flipsUnseen(pass *Pass, to int) (unreached, untested []compat.Flip) {
	detector := detectors()
	for _, f := range compat.FlipsTo(to) {
		if isPathFlip(f) || flipSet(pass, f.Path) {
			continue
		}
		found, reached := false, false
		for _, p := range companionsOf(f.Path) {
			if r := detector[p]; r != nil {
				found = true
				reached = reached || hasSites(pass, r, p)
			}
		}
		switch {
		case !found:
			untested = append(untested, f)
		case !reached:
			unreached = append(unreached, f)
		}
	}
	return unreached, untested
}

// flipCompanions are default changes that reach the same code as others,
// whose sites stand for them: resetting data to undefined after clear
// matters where the null default does; template utilities go with
// template compilation.
var flipCompanions = map[string][]string{
	"experimental.resetAsyncDataToUndefined": {"experimental.defaults.useAsyncData.value", "experimental.defaults.useAsyncData.errorValue"},
	"experimental.templateUtils":             {"experimental.compileTemplate"},
}

// hasSites reports whether r's detector finds a site that depends on the
// default change at path.
func hasSites(pass *Pass, r *Rule, path string) bool {
	for _, s := range pass.Index.sitesOf(r) {
		option := s.option
		if option == "" {
			option = r.Flips[0]
		}
		if option == path {
			return true
		}
	}
	return false
}

// flipList writes default changes as `path` (old -> new), comma-separated.
func flipList(fl []compat.Flip) string {
	parts := make([]string, len(fl))
	for i, f := range fl {
		parts[i] = "`" + f.Path + "` (" + strings.Trim(defaultWords(f.V3), "`") + " -> " + strings.Trim(defaultWords(f.V4), "`") + ")"
	}
	return strings.Join(parts, ", ")
}
