package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleDevServerURL = &Rule{
	Code:     "FW305",
	Name:     "dev-server-url",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "devServer.url is set in the config",
		Why: `The reference: devServer.url is "always overridden by the dev server,
must not be set directly". Whatever the config says, the dev server replaces it
with its own address, so the value only misleads whoever reads the config. The
port and host are devServer.port and devServer.host.`,
		Example: `export default defineFwConfig({
  devServer: { url: 'http://localhost:4000' },
})`,
		Fix: `Deletes devServer.url. Safe: the dev server overrides it anyway.`,
	},
	Run: runDevServerURL,
}

func init() { Register(ruleDevServerURL) }

func runDevServerURL(pass *Pass) {
	pass.OptionProps("devServer.url", func(prefix, path ast.Path, prop *ast.Property) {
		if prop.KeyKind == ast.KeyComputed {
			return
		}
		d := pass.ReportProperty(prop, path, "`devServer.url` must not be set: the dev server always overrides it with its own address")
		d.Notes = append(d.Notes, "set `devServer.port` and `devServer.host` instead")
		d.Fix = &Fix{
			Description:   "delete `" + path.String() + "` (the dev server overrides it anyway)",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
		}
	})
}
