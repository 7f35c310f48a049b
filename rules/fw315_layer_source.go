package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/node"
)

var ruleLayerSource = &Rule{
	Code:     "FW315",
	Name:     "layer-source",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "an extends or theme source with a prefix the framework does not know",
		Why: `extends takes local paths, packages and remote git sources written with
the prefixes github:, gh:, gitlab: and bitbucket:; theme takes github:,
gitlab:, bitbucket: and https:// (as the configuration reference lists them).
A source that starts with
another scheme-like prefix ('githb:', 'npm:', 'https://' in extends) is none of
these: the layer cannot be resolved and its config is not merged. Local paths,
Windows drive letters and package names (which cannot hold a colon) are not
judged; neither are values only known at run time.`,
		Example: `export default defineFwConfig({
  extends: ['githb:acme/base-layer', ['gitlab:acme/ui', { install: true }]],
})`,
		Fix: `When the prefix is a likely typo of an accepted one, replaces it. Unsafe:
the layer starts to load, and the guess should be reviewed.`,
	},
	Run: runLayerSource,
}

func init() { Register(ruleLayerSource) }

var schemeRE = lazyregexp.New(`^([A-Za-z][A-Za-z0-9+.-]*):(//)?`)

func runLayerSource(pass *Pass) {
	for _, option := range []string{"extends", "theme"} {
		if !pass.hasOption(option) {
			continue
		}
		accepted := node.SourcePrefixes(option)
		if len(accepted) == 0 {
			continue
		}
		pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) {
			for _, n := range node.ExtendsSources(prop.Value) {
				checkLayerSource(pass, option, path, n, accepted)
			}
		})
	}
}

func checkLayerSource(pass *Pass, option string, path ast.Path, n ast.Node, accepted []string) {
	s, ok := ast.StaticString(n)
	if !ok {
		return
	}
	m := schemeRE().FindStringSubmatch(s)
	if m == nil || len(m[1]) < 2 {
		return // a path, a package or a drive letter
	}
	for _, a := range accepted {
		if strings.HasPrefix(strings.ToLower(s), a) {
			return
		}
	}
	got := m[0]
	d := pass.Report(n.Span(), path.String(), "`%s` source %s starts with %s, which is not a prefix `%s` accepts: the layer cannot be resolved", option, quote(s), quote(got), option)
	d.Notes = append(d.Notes, "`"+option+"` accepts local paths, packages and the prefixes "+strings.Join(accepted, ", "))
	meant := compat.SuggestWord(got, accepted)
	if meant == "" {
		meant = compat.Transposed(got, accepted)
	}
	lit, isLit := ast.Unwrap(n).(*ast.String)
	if meant == "" || strings.HasSuffix(meant, "//") != strings.HasSuffix(got, "//") {
		return
	}
	d.Message += "; did you mean " + quote(meant) + "?"
	if !isLit {
		return
	}
	q := string(pass.File.Src[lit.Loc.Start])
	fixed := meant + s[len(got):]
	if strings.ContainsAny(fixed, q+"\\\n") {
		return
	}
	d.Fix = &Fix{
		Description:   "replace " + quote(got) + " with " + quote(meant) + ": the layer starts to load",
		Applicability: Unsafe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Path: path, Span: lit.Loc, Text: q + fixed + q}},
	}
}
