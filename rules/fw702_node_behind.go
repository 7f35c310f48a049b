package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleNodeBehind = &Rule{
	Code:     "FW702",
	Name:     "node-behind",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "a place that writes the project's Node version names one the latest release of the target major does not run on",
		Why: `Node decides which framework version a project really gets, silently: the
framework's own upgrade command installed 4.4.5 instead of 4.5.2 on Node 20,
because 4.4.6 and later need Node ^22.12 and 4.5 needs ^22.19, and said it
had upgraded. A project writes its Node in several places: engines.node and
volta.node in package.json, .nvmrc, .node-version, .tool-versions, the
node-version of its CI workflows (each value of a matrix list) and the
FROM node:<tag> of its Dockerfiles. Each place whose Node the latest release
of the target major (from the ecosystem table) does not support is reported
on its own: a warning when an older release of the major still runs on it,
an error when none does.
A version written as a line ("22", "22.19", "22.x": nvm, setup-node and the
image tags take the newest of the line) is judged by the newest of the line;
an exact version by itself; a range (engines ">=18") by every version it
admits. Aliases ("lts/*", "node", an expression) are not judged.`,
		Example: `// .nvmrc
20
// .github/workflows/ci.yml
    strategy:
      matrix:
        node: [18, 20]`,
		Fix: `Where the place is a plain version ("20", "20.11.1", "v20", "20.x"), writes
the lowest Node version the latest release supports at or above it, in the
place's precision ("22", "22.19.0", "v22", "22.x"). Ranges (an engines.node
such as ">=18.0.0"), aliases and expressions are left to edit by hand.
Unsafe: the project's Node changes for development, CI and deployment alike.`,
	},
	Run: runNodeBehind,
}

func init() { Register(ruleNodeBehind) }

// nodeFull is an exact Node version: "22.19.0", "v22.19.0".
var nodeFull = regexp.MustCompile(`^(v?)(\d+)\.(\d+)\.(\d+)$`)

// nodeLine is a Node version written as a line: "22", "22.19", "22.x".
var nodeLine = regexp.MustCompile(`^(v?)(\d+)(?:\.(\d+))?(\.x)?$`)

func runNodeBehind(pass *Pass) {
	major := depsMajor(pass)
	if major == 0 || pass.File == nil {
		return
	}
	p := pass.Project
	ps := p.Packages()
	if ps.Manifest == nil || ps.Err != nil || ps.Dep(compat.FrameworkPackage) == nil {
		return // not an app with the framework among its dependencies
	}
	eco := compat.Eco()
	latest := eco.HighestRelease(major, nil)
	if latest == nil || !latest.NodeOK {
		return
	}
	need := latest.Node
	needFloor, _ := need.Floor()
	for _, np := range p.NodePlaces() {
		if !np.Known {
			continue
		}
		_, isLine := lineTop(np)
		_, perr := semver.Parse(np.Text)
		single := isLine || perr == nil // one Node version: the line's newest, or the exact one
		var d *Diagnostic
		what := fmt.Sprintf("Node `%s` (%s)", np.Text, placeName(np))
		if single {
			if nodeRuns(np, need) {
				continue
			}
			best := eco.HighestRelease(major, func(r *compat.FwRelease) bool { return r.NodeOK && nodeRuns(np, r.Node) })
			d = pass.reportIn(np.Display, placeSrc(p, np), np.Span, "")
			if best == nil {
				d.Severity = Error
				d.Message = fmt.Sprintf("%s runs no release of framework major %d: %s, the latest, needs Node %s", what, major, latest.Version, latest.EnginesNode)
				if first := eco.ReleasesOf(major); len(first) > 0 {
					d.Notes = append(d.Notes, fmt.Sprintf("%s, the first, needed Node %s", first[0].Version, first[0].EnginesNode))
				}
			} else {
				d.Message = fmt.Sprintf("%s keeps the project at framework %s at most: %s, the latest %d.x, needs Node %s", what, best.Version, latest.Version, major, latest.EnginesNode)
			}
		} else {
			// A range (engines ">=18"): behind when it admits Node versions
			// below the lowest the latest release runs on.
			lo, ok := np.Range.Floor()
			if !ok || np.Range.Subset(need) || !lo.Less(needFloor) {
				continue
			}
			any := eco.HighestRelease(major, func(r *compat.FwRelease) bool { return r.NodeOK && r.Node.Intersects(np.Range) })
			d = pass.reportIn(np.Display, placeSrc(p, np), np.Span, "")
			d.Message = fmt.Sprintf("%s admits Node versions below those %s, the latest %d.x, runs on (%s)", what, latest.Version, major, latest.EnginesNode)
			if any == nil {
				d.Severity = Error
				d.Message = fmt.Sprintf("%s admits no Node version that a release of framework major %d runs on: %s, the latest, needs Node %s", what, major, latest.Version, latest.EnginesNode)
			}
			if np.Kind == project.NodeEngines {
				d.Notes = append(d.Notes, "engines.node is the range of Node versions the project says it supports")
			}
		}
		d.Path = relPath(p, np.Path)
		text, ok := nodeFixText(np, need)
		if !ok {
			if single {
				d.Notes = append(d.Notes, fmt.Sprintf("no fix: `%s` is not a plain version; write a Node version that %s admits by hand", np.Text, latest.EnginesNode))
			} else {
				d.Notes = append(d.Notes, fmt.Sprintf("no fix: `%s` is a range; write the Node versions the framework runs on, `%s`, or a part of them, by hand", np.Text, latest.EnginesNode))
			}
			continue
		}
		d.Fix = &Fix{
			Description:   fmt.Sprintf("write Node `%s` in %s", text, placeName(np)),
			Applicability: Unsafe,
			File:          np.Path,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: np.Span, Text: text}},
		}
	}
}

// placeSrc is the text of the file a Node place is in.
func placeSrc(p *project.Project, np *project.NodePlace) []byte {
	ps := p.Packages()
	if ps.Manifest != nil && ps.Manifest.Path == np.Path {
		return ps.Manifest.Src
	}
	for _, f := range append(append([]*project.TextFile(nil), p.CI().Workflows...), p.CI().Dockerfiles...) {
		if f.Path == np.Path {
			return f.Src
		}
	}
	if f, err := p.ReadText(np.Path); err == nil {
		return f.Src
	}
	return nil
}

// relPath is path relative to the project's root, slash-separated.
func relPath(p *project.Project, path string) string {
	if rel, ok := strings.CutPrefix(path, p.Root+"/"); ok {
		return rel
	}
	return path
}

// nodeRuns reports whether the Node a place names is one need admits: the
// newest of a line ("22", "22.19", "22.x", an LTS name), an exact version
// itself, every version of another range.
func nodeRuns(np *project.NodePlace, need semver.Range) bool {
	if top, ok := lineTop(np); ok {
		return need.Satisfies(top)
	}
	if v, err := semver.Parse(np.Text); err == nil {
		return need.Satisfies(v)
	}
	return np.Range.Subset(need)
}

// lineTop is the newest version of a place written as a line.
func lineTop(np *project.NodePlace) (semver.Version, bool) {
	const top = 1<<53 - 1
	text := np.Text
	if strings.HasPrefix(strings.ToLower(text), "lts/") && np.Known {
		lo, _ := np.Range.Floor()
		return semver.Version{Major: lo.Major, Minor: top, Patch: top}, true
	}
	m := nodeLine.FindStringSubmatch(text)
	if m == nil {
		return semver.Version{}, false
	}
	M, _ := strconv.ParseUint(m[2], 10, 64)
	if m[3] == "" {
		return semver.Version{Major: M, Minor: top, Patch: top}, true
	}
	mi, _ := strconv.ParseUint(m[3], 10, 64)
	return semver.Version{Major: M, Minor: mi, Patch: top}, true
}

// nodeFixText is the version to write at a plain place: the lowest that
// need admits at or above the place's, in its precision.
func nodeFixText(np *project.NodePlace, need semver.Range) (string, bool) {
	full := nodeFull.FindStringSubmatch(np.Text)
	line := nodeLine.FindStringSubmatch(np.Text)
	if full == nil && line == nil {
		return "", false
	}
	cur := semver.Version{}
	if full != nil {
		cur = semver.MustParse(np.Text)
	} else {
		M, _ := strconv.ParseUint(line[2], 10, 64)
		cur.Major = M
		if line[3] != "" {
			cur.Minor, _ = strconv.ParseUint(line[3], 10, 64)
		}
	}
	// The floors of need's sets, lowest first, at or above the place.
	var best *semver.Version
	for _, alt := range strings.Split(need.String(), "||") {
		r, err := semver.ParseRange(alt)
		if err != nil {
			return "", false
		}
		lo, ok := r.Floor()
		if !ok || lo.Less(cur) {
			continue
		}
		if best == nil || lo.Less(*best) {
			l := lo
			best = &l
		}
	}
	if best == nil {
		return "", false
	}
	switch {
	case full != nil:
		return full[1] + best.String(), true
	case line[4] != "": // "20.x", "20.11.x" is not matched
		return line[1] + strconv.FormatUint(best.Major, 10) + ".x", true
	case line[3] != "":
		return line[1] + fmt.Sprintf("%d.%d", best.Major, best.Minor), true
	}
	return line[1] + strconv.FormatUint(best.Major, 10), true
}
