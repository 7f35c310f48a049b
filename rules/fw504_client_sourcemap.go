package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleClientSourcemap = &Rule{
	Code:     "FW504",
	Name:     "client-sourcemap",
	Category: Security,
	Severity: Warning,
	Doc: Doc{
		Summary: "client source maps published in production",
		Why: `sourcemap: true (or sourcemap: { client: true }) generates source maps for
the client build and references them from the bundles (the configuration
reference's sourcemap row), so the app's original source, comments included,
is served to anyone who opens the browser's developer tools. The default is
{ server: true, client: false }. 'hidden' generates the maps without the
references, for uploading to an error tracker. Settings inside $development or
$test only are not reported, nor a top-level setting that $production
overrides; values computed at run time are not judged.`,
		Example: `export default defineFwConfig({
  sourcemap: true,
})`,
		Fix: `Unsafe. Sets the client maps to 'hidden' (sourcemap: true becomes
{ server: true, client: 'hidden' }, which keeps the server maps): browsers no
longer load the maps. 'hidden' still writes the .map files into the build
output; upload them to the error tracker and keep them out of the deployed
public files.`,
	},
	Run: runClientSourcemap,
}

func init() { Register(ruleClientSourcemap) }

func runClientSourcemap(pass *Pass) {
	pass.OptionProps("sourcemap", func(prefix, path ast.Path, prop *ast.Property) {
		if len(prefix) == 1 && (prefix[0] == "$development" || prefix[0] == "$test") {
			return
		}
		if len(prefix) == 0 && overriddenInProduction(pass, prop) {
			return
		}
		if prop.KeyKind == ast.KeyComputed || isAccessor(prop) {
			return
		}
		if v, ok := ast.StaticValue(prop); ok && v == true {
			d := pass.ReportValue(prop, path, "`sourcemap: true` publishes the client source maps in production: anyone can read the app's original source")
			d.Fix = &Fix{
				Description:   "generate the client maps as 'hidden' (not referenced from the bundles); the server maps stay",
				Applicability: Unsafe,
				Ops: []rewrite.Op{{Kind: rewrite.OpSet, Path: path,
					Value: rewrite.Object{{Key: "server", Value: true}, {Key: "client", Value: "hidden"}}}},
			}
			return
		}
		obj, ok := ast.Unwrap(prop.Value).(*ast.Object)
		if !ok {
			return
		}
		client := obj.Get("client")
		if client == nil || client.KeyKind == ast.KeyComputed {
			return
		}
		if v, ok := ast.StaticValue(client); !ok || v != true {
			return
		}
		cpath := join(path, "client")
		d := pass.ReportValue(client, cpath, "`sourcemap.client: true` publishes the client source maps in production: anyone can read the app's original source")
		d.Fix = &Fix{
			Description:   "set `sourcemap.client` to 'hidden' (the maps are generated but not referenced from the bundles)",
			Applicability: Unsafe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: cpath, Value: "hidden"}},
		}
	})
}

// overriddenInProduction reports whether $production sets the client source
// maps itself, so that the top-level sourcemap does not decide production.
// Environment overrides merge over the config: an object merges key by key
// into an object, anything else replaces the value.
func overriddenInProduction(pass *Pass, top *ast.Property) bool {
	prod := pass.Lookup("$production.sourcemap")
	if prod == nil {
		return false
	}
	po, pok := ast.Unwrap(prod.Value).(*ast.Object)
	_, tok := ast.Unwrap(top.Value).(*ast.Object)
	if pok && tok && po.Get("client") == nil && !po.HasSpread() {
		return false // merged: the top-level client setting stays
	}
	return true
}
