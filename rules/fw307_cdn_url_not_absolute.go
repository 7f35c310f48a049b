package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleCDNURLNotAbsolute = &Rule{
	Code:     "FW307",
	Name:     "cdn-url-not-absolute",
	Category: Schema,
	Severity: Error,
	Doc: Doc{
		Summary: "app.cdnURL is not an absolute URL",
		Why: `app.cdnURL serves the built assets and the public folder from another
origin in production; the configuration reference says it must be an
absolute URL (or empty, the default). A host without a scheme
('cdn.example.com'), a protocol-relative or a path value is joined to asset
paths as it is, so in production every asset URL points somewhere else and the
pages load without scripts or styles, with no error at build time. The same
holds for runtimeConfig.app.cdnURL. FW_APP_CDN_URL wins over the config value
when it is set.`,
		Example: `export default defineFwConfig({
  app: { cdnURL: 'cdn.example.com' },
})`,
		Fix: "",
	},
	Run: runCDNURLNotAbsolute,
}

func init() { Register(ruleCDNURLNotAbsolute) }

func runCDNURLNotAbsolute(pass *Pass) {
	for _, option := range []string{"app.cdnURL", "runtimeConfig.app.cdnURL"} {
		o := compat.Find(option)
		if o == nil {
			continue
		}
		pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) {
			v, ok := ast.StaticValue(prop)
			if !ok || v == nil || o.Type.Check(v) {
				return
			}
			d := pass.ReportValue(prop, path, "`%s` must be an absolute URL (scheme and host) or empty, not %s: in production every asset URL is built on it", option, describe(v))
			if s, ok := v.(string); ok {
				switch {
				case strings.HasPrefix(s, "//"):
					d.Notes = append(d.Notes, "a protocol-relative URL has no scheme: write https:"+s)
				case !strings.Contains(s, "://") && strings.Contains(strings.SplitN(s, "/", 2)[0], "."):
					d.Notes = append(d.Notes, "it looks like a host without a scheme: write https://"+s+" (or http://)")
				}
			}
			d.Notes = append(d.Notes, "the environment variable "+compat.EnvName(strings.TrimPrefix(option, "runtimeConfig."))+" overrides it when set")
		})
	}
}
