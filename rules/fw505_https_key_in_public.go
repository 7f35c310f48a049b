package rules

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

var ruleHTTPSKeyInPublic = &Rule{
	Code:     "FW505",
	Name:     "https-key-in-public",
	Category: Security,
	Severity: Error,
	Doc: Doc{
		Summary: "the dev server's HTTPS key or certificate is inside the public directory",
		Why: `devServer.https: { key, cert } names files on disk. Everything in the public
directory is served as is and copied into the generated output, so a private
key stored there is downloadable by anyone who can reach the app, in
development and in every deployment. The public directory is checked both as
the project resolves it today and as it will under version 4 (dir.public moves
to the root when srcDir is not). Paths resolve from the
project root, as the dev server is started there.`,
		Example: `export default defineFwConfig({
  devServer: { https: { key: 'public/certs/localhost-key.pem', cert: 'public/certs/localhost.pem' } },
})`,
		Fix: "",
	},
	Run: runHTTPSKeyInPublic,
}

func init() { Register(ruleHTTPSKeyInPublic) }

func runHTTPSKeyInPublic(pass *Pass) {
	det := pass.Project.Detection
	if det == nil {
		return
	}
	type publicDir struct{ path, when string }
	var publics []publicDir
	cur, curOK := det.Current.Get("dir.public")
	v4, v4OK := det.V4.Get("dir.public")
	switch {
	case curOK && v4OK && cur == v4:
		publics = append(publics, publicDir{cur, "today and under version 4"})
	default:
		if curOK {
			publics = append(publics, publicDir{cur, "today"})
		}
		if v4OK {
			publics = append(publics, publicDir{v4, "under version 4"})
		}
	}
	if len(publics) == 0 {
		return
	}
	for _, field := range []string{"key", "cert"} {
		pass.OptionProps("devServer.https."+field, func(prefix, path ast.Path, prop *ast.Property) {
			v, ok := ast.StaticValue(prop)
			s, isStr := v.(string)
			if !ok || !isStr || s == "" {
				return
			}
			file := s
			if !filepath.IsAbs(file) {
				file = filepath.Join(pass.Project.Root, filepath.FromSlash(file))
			}
			file = filepath.Clean(file)
			for _, pub := range publics {
				if !pathx.Within(file, pub.path) {
					continue
				}
				var d *Diagnostic
				if field == "key" {
					d = pass.ReportValue(prop, path, "`devServer.https.key` is inside the public directory: the private key is served to anyone who can reach the app")
				} else {
					d = pass.ReportValue(prop, path, "`devServer.https.cert` is inside the public directory: the certificate is served with the app")
					d.Severity = Info
					d.Notes = append(d.Notes, "a certificate is public information, but its private key usually sits next to it: check that the key is not in the public directory too")
				}
				where := filepath.ToSlash(pub.path)
				if r, err := filepath.Rel(pass.Project.Root, pub.path); err == nil {
					where = filepath.ToSlash(r) + "/"
				}
				d.Notes = append(d.Notes, "the public directory is "+where+" "+pub.when+": move the file out of it (and replace the key if it was ever deployed)")
				break
			}
		})
	}
}
