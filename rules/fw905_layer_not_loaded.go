package rules

import (
	"fmt"
	"strconv"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/node"

	"github.com/fwmigrate/fwmigrate/project"
)

// CodeLayerNotLoaded is reported for a layer source fwmigrate does not load.
const CodeLayerNotLoaded = "FW905"

var ruleLayerNotLoaded = &Rule{
	Code:     CodeLayerNotLoaded,
	Name:     "layer-not-loaded",
	Category: Tool,
	Severity: Info,
	Doc: Doc{
		Summary: "a layer in `extends` or `theme` is not loaded: remote, a package, set at run time, not found, or past the limits of a layer chain",
		Why: `A project inherits options, runtimeConfig keys and directories from its layers.
fwmigrate loads local layers (a directory or a config file, relative to the
config, and the <rootDir>/layers/* directories), but it never downloads a
remote source (github:, gh:, gitlab:, bitbucket:, https://), never reads a
package from node_modules, and cannot know an entry computed at run time. What
such a layer declares is unknown to the checks: an FW_ variable that overrides
one of its runtimeConfig keys, for instance, cannot be confirmed. This is said
once per source, at Info.

A local source that does not exist is a warning: the framework cannot load it
either. So is a chain of layers deeper than 16, or more than 256 layers for one
project: a repository can commit thousands, each extending the next, and the
layers past those limits are not loaded (what they declare is unknown, as for a
remote layer).`,
		Example: `export default defineFwConfig({
  extends: ['github:org/theme#v2', '../base'],
})`,
		Fix: "",
	},
	Run: runLayerNotLoaded,
}

func init() { Register(ruleLayerNotLoaded) }

func runLayerNotLoaded(pass *Pass) {
	seen := map[string]bool{}
	for _, r := range pass.Project.Extends {
		if r.Layer != nil && r.Cut != "" {
			// A chain a repository can make as long as it likes: the
			// layers past the limit are not loaded rather than worked on.
			msg := fmt.Sprintf("the layers extended through %s are loaded only in part: %s, and those beyond are not loaded: what they declare is not checked", strconv.Quote(r.Source), r.Cut)
			var d *Diagnostic
			if r.Option == "layers" {
				d = pass.ReportPath("layers", "%s", msg)
			} else {
				d = pass.Report(r.Span, r.Option, "%s", msg)
			}
			d.Severity = Warning
			d.Notes = append(d.Notes, fmt.Sprintf("fwmigrate follows layers %d deep and %d in all per project", project.MaxLayerDepth, project.MaxLayers))
			continue
		}
		if r.Layer != nil {
			continue
		}
		if r.Kind != project.SourceDynamic {
			if seen[r.Source] {
				continue
			}
			seen[r.Source] = true
		}
		switch r.Kind {
		case project.SourceRemote:
			d := pass.Report(r.Span, r.Option, "remote layer %s is not fetched: what it declares is not checked", strconv.Quote(r.Source))
			d.Notes = append(d.Notes, "its options and runtimeConfig keys are unknown to the other checks")
		case project.SourcePackage:
			d := pass.Report(r.Span, r.Option, "package layer %s is not read: what it declares is not checked", strconv.Quote(r.Source))
			d.Notes = append(d.Notes, "fwmigrate does not look into node_modules; its options and runtimeConfig keys are unknown to the other checks")
		case project.SourceDynamic:
			if commaSource(pass, r.Option, r.Span) {
				continue // FW318 says what is wrong with it
			}
			pass.CannotCheck(r.Span, r.Option, "this %s entry is only known when the config runs, so its layer is not loaded", r.Option)
		default:
			var d *Diagnostic
			if r.Option == "layers" {
				d = pass.ReportPath("layers", "cannot list the layers directory: %v", r.Err)
			} else {
				d = pass.Report(r.Span, r.Option, "local layer %s cannot be loaded: %v", strconv.Quote(r.Source), r.Err)
			}
			d.Severity = Warning
		}
	}
}

// commaSource reports whether the entry of option at span is a comma
// expression, which FW318 reports.
func commaSource(pass *Pass, option string, span ast.Span) bool {
	p := pass.Lookup(option)
	if p == nil || p.Value == nil {
		return false
	}
	for _, n := range append(node.ExtendsSources(p.Value), p.Value) {
		if n.Span() == span && node.CommaExpression(n) {
			return true
		}
	}
	return false
}
