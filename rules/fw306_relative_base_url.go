package rules

import (
	"net/url"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleRelativeBaseURL = &Rule{
	Code:     "FW306",
	Name:     "relative-base-url",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a relative app.baseURL in the config",
		Why: `The configuration reference: relative values such as './' are unsupported for
app.baseURL in the config file; set FW_APP_BASE_URL=./ at build time (its
default reads that variable) or the engine's runtime config.
A relative base in the config is only partly supported: the engine's runtime
config strips the leading '.' of './', so the server and the client disagree on
where the app lives. A value is relative when it does not start with '/' and is
not an absolute URL.`,
		Example: `export default defineFwConfig({
  app: { baseURL: './' },
})`,
		Fix: "",
	},
	Run: runRelativeBaseURL,
}

func init() { Register(ruleRelativeBaseURL) }

func runRelativeBaseURL(pass *Pass) {
	pass.OptionProps("app.baseURL", func(prefix, path ast.Path, prop *ast.Property) {
		s, ok := ast.StaticString(prop.Value)
		if !ok || s == "" || strings.HasPrefix(s, "/") {
			return
		}
		if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
			return
		}
		d := pass.ReportValue(prop, path, "`app.baseURL` is the relative path %s: relative base URLs are unsupported in the config file", quote(s))
		if strings.HasPrefix(s, "./") {
			d.Notes = append(d.Notes, "'./' is only partly supported: the engine's runtime config strips its leading '.'")
		}
		d.Notes = append(d.Notes, "build with the environment variable "+compat.EnvName("app.baseURL")+"="+s+" instead, and leave `app.baseURL` unset or absolute")
	})
}
