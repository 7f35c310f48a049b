package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

// CodeUnsupportedMajor is reported by the engine for a project on framework
// major 2, which fwmigrate does not migrate.
const CodeUnsupportedMajor = "FW907"

var ruleUnsupportedMajor = &Rule{
	Code:           CodeUnsupportedMajor,
	Name:           "framework-major-2",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "the project runs framework major 2: fwmigrate migrates 3 to 4",
		Why: `Every check and fix of fwmigrate is about the step from major 3 to major 4.
On a major-2 project they are wrong (set compatibilityVersion, move the sources
into app/), and a rewrite would break it. Such a config gets this one finding
and nothing else; fwmigrate apply leaves it alone, and the run exits with
status 2, as for a config it cannot read.
The evidence: package.json's fw dependency is major 2; or, when package.json
does not say, the config uses the major-2 bridge (@fw/bridge, imported or
listed), or sets keys that only major 2 reads (buildModules, target, a
top-level head, build.extractCSS, loading, mode), two of them in a plain
exported object (export default {...}, module.exports, an exported const) or
three anywhere. One key is not enough: major-3 configs keep a leftover head or
target (FW301 moves head to app.head). Older majors read the same keys: a
major-1 config is out of scope the same way. A major-3 project taken for
major 2 says so with a fw dependency in package.json, or with --framework=3.`,
		Example: `// package.json: "fw": "^2.15.0"
export default {
  target: 'static',
  head: { title: 'Docs' },
  buildModules: ['@fwjs/tailwindcss'],
}`,
		Fix: "",
	},
}

func init() { Register(ruleUnsupportedMajor) }

// unsupportedMajor returns the one diagnostic of a project that runs
// framework major 2, nil for any other.
func unsupportedMajor(p *project.Project) *Diagnostic {
	f := p.File
	var why, fix string
	switch {
	case p.Framework == 2:
		why = "the fw dependency of package.json is major 2"
		if src := p.FrameworkSource; src != "" && !strings.HasPrefix(src, "package.json") {
			why = "major 2, from " + src
		}
	case p.Framework != 0:
		return nil
	default:
		var keys []string
		if f.Config != nil {
			for _, k := range compat.Major2Keys() {
				if f.Lookup(k) != nil {
					keys = append(keys, k)
				}
			}
		}
		plain := f.Config != nil && f.DefineCall.Len() == 0
		why = compat.Major2Evidence(keys, plain, mentionsBridge(f))
		if why == "" {
			return nil
		}
		fix = "if it runs major 3, say so: a fw dependency in package.json, or --framework=3"
	}
	d := ruleUnsupportedMajor.Diagnose(p.ConfigDisplay, (&Pass{File: f}).Anchor(), "", "framework major 2: fwmigrate migrates 3 to 4; upgrade to 3 first")
	d.Notes = append(d.Notes, "this config runs framework major 2: "+why, "nothing else is checked in it, and `fwmigrate apply` leaves it alone")
	if fix != "" {
		d.Notes = append(d.Notes, fix)
	}
	return d
}

// mentionsBridge reports whether the config names compat.BridgePackage in
// a string outside comments: imported (defineFwConfig from it) or listed as
// a module.
func mentionsBridge(f *ast.File) bool {
	src := string(f.Src)
	for i := 0; ; {
		j := strings.Index(src[i:], compat.BridgePackage)
		if j < 0 {
			return false
		}
		at := i + j
		i = at + len(compat.BridgePackage)
		if at == 0 || !strings.ContainsRune(`'"`+"`", rune(src[at-1])) {
			continue
		}
		if i < len(src) && src[i] != src[at-1] && src[i] != '/' {
			continue // '@fw/bridge-x' is another package
		}
		inComment := false
		for _, c := range f.Comments {
			if c.Loc.Start <= at && at < c.Loc.End {
				inComment = true
				break
			}
		}
		if !inComment {
			return true
		}
	}
}
