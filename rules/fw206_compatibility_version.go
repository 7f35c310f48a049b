package rules

import (
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleCompatibilityVersion = &Rule{
	Code:     "FW206",
	Name:     "compatibility-version",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "`future.compatibilityVersion` missing, behind the target, redundant or invalid",
		Why: `future.compatibilityVersion decides which defaults a project runs with.
On framework major 3 only the number 4 opts into the
version-4 defaults and srcDir detection: the checks test for exactly 4, so 3,
5, '4' or anything else silently keeps the version-3 defaults. On major 4 the
default is 4, so 4 is redundant; 5 opts into the compatibility-5 previews;
lower numbers behave like 4 and are a type error. Migrating to version 4 on
major 3 means setting it to 4, which is what this rule's fix does: it is the
version step of fwmigrate apply. On v3 each local layer must set it itself.`,
		Example: `// package.json: "fw": "^3.12.0"
export default defineFwConfig({
  future: { compatibilityVersion: 3 },
})`,
		Fix: `On framework major 3 (or when package.json does not pin the major): sets
future.compatibilityVersion to 4, creating future when needed. Safe: it is the
migration the check was asked for (FW204 lists the defaults that change). On
major 4: deletes a redundant 4 or a lower number, which behaves like 4 anyway
(and future when nothing else is left in it). Safe.`,
	},
	Run: runCompatibilityVersion,
}

func init() { Register(ruleCompatibilityVersion) }

var compatPath = ast.Path{"future", "compatibilityVersion"}

func runCompatibilityVersion(pass *Pass) {
	if pass.Target < 4 || pass.File == nil || pass.File.Config == nil {
		return
	}
	major := pass.Project.Framework
	topSet := false
	pass.OptionProps("future.compatibilityVersion", func(prefix, path ast.Path, prop *ast.Property) {
		if len(prefix) == 0 {
			topSet = true
		}
		checkCompatValue(pass, major, path, prop)
	})
	if topSet {
		return
	}
	if _, st := pass.Config.Value("future.compatibilityVersion"); st == compat.Dynamic {
		span := pass.Anchor()
		if p := nearestProp(pass, "future.compatibilityVersion"); p != nil {
			span = p.Loc
		}
		pass.CannotCheck(span, "future.compatibilityVersion", "a spread or a value computed at run time may set `future.compatibilityVersion`")
		return
	}
	if major >= 4 {
		return // the default is 4
	}
	if major == 0 && pass.Project.Detection != nil && pass.Project.Detection.Layout == compat.LayoutA {
		// The sources live in app/, which only version 4 finds without
		// compatibilityVersion: 4; the project evidently runs major 4.
		return
	}
	span := pass.Anchor()
	if p := pass.Lookup("future"); p != nil {
		span = p.KeySpan
	}
	var d *Diagnostic
	if major == 0 {
		d = pass.Report(span, "future.compatibilityVersion", "`future.compatibilityVersion` is not set: on framework major 3 the project runs with version-3 defaults; set it to 4 to migrate")
		d.Severity = Info
		d.Notes = append(d.Notes, "package.json does not pin the framework major: on major 3 this is the version step, on major 4 the default is already 4")
	} else {
		d = pass.Report(span, "future.compatibilityVersion", "`future.compatibilityVersion` is not set: the project runs with version-3 defaults; set it to 4 to migrate")
	}
	addLayerNote(pass, d, major)
	d.Fix = setCompat4()
}

func setCompat4() *Fix {
	return &Fix{
		Description:   "set `future.compatibilityVersion: 4`",
		Applicability: Safe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: compatPath, Value: 4}},
	}
}

func addLayerNote(pass *Pass, d *Diagnostic, major int) {
	if major >= 4 {
		return
	}
	if dirs, err := pass.Project.LayerDirs(); err == nil && len(dirs) > 0 {
		d.Notes = append(d.Notes, "on v3 each layer runs with its own compatibility version: set it in the config of every layer in layers/ too")
	}
}

// checkCompatValue judges one written future.compatibilityVersion.
func checkCompatValue(pass *Pass, major int, path ast.Path, prop *ast.Property) {
	v, ok := ast.StaticValue(prop)
	if !ok {
		pass.CannotCheck(prop.Loc, path.String(), "`future.compatibilityVersion` is computed at run time")
		return
	}
	n, isNum := v.(float64)
	canFix := prop.KeyKind != ast.KeyComputed && !isAccessor(prop)
	if major >= 4 {
		switch {
		case isNum && n == 4:
			d := pass.ReportValue(prop, path, "`future.compatibilityVersion: 4` is the default on framework major 4: this setting is redundant")
			d.Severity = Info
			if canFix {
				d.Fix = deleteCompat(path, "delete `future.compatibilityVersion`")
			}
		case isNum && n == 5:
			// Opts into the compatibility-5 previews (migration facts §8).
		case isNum && n < 4:
			d := pass.ReportValue(prop, path, "`future.compatibilityVersion: %s` is not valid on framework major 4: it behaves like 4 and is a type error", jsLiteral(v))
			if canFix {
				d.Fix = deleteCompat(path, "delete `future.compatibilityVersion` (the project keeps running with 4)")
			}
		case isNum:
			d := pass.ReportValue(prop, path, "`future.compatibilityVersion: %s` is not a known compatibility version: framework major 4 accepts 4 and 5, and treats any number from 5 up as 5", jsLiteral(v))
			d.Notes = append(d.Notes, "write 5 to opt into the compatibility-5 defaults, or delete it for 4")
		default:
			d := pass.ReportValue(prop, path, "`future.compatibilityVersion` must be a number, not `%s`: it is a type error", jsLiteral(v))
			if s, ok := v.(string); ok && canFix {
				if m, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
					switch {
					case m <= 4:
						d.Fix = deleteCompat(path, "delete `future.compatibilityVersion` (the project runs with 4)")
					case m == 5:
						d.Fix = &Fix{Description: "write the number 5", Applicability: Safe,
							Ops: []rewrite.Op{{Kind: rewrite.OpSet, Path: path, Value: 5}}}
					}
				}
			}
		}
		return
	}
	if isNum && n == 4 {
		return
	}
	var d *Diagnostic
	switch {
	case isNum && n == 3:
		d = pass.ReportValue(prop, path, "`future.compatibilityVersion: 3` keeps the version-3 defaults: set it to 4 to migrate")
	case isNum:
		d = pass.ReportValue(prop, path, "`future.compatibilityVersion: %s` is not valid on framework major 3: only 4 switches to the version-4 defaults, any other value keeps version 3's", jsLiteral(v))
		d.Severity = Error
	default:
		d = pass.ReportValue(prop, path, "`future.compatibilityVersion` must be the number 4, not `%s`: the framework tests for exactly 4, so the project keeps the version-3 defaults", jsLiteral(v))
		d.Severity = Error
	}
	if major == 0 {
		d.Notes = append(d.Notes, "package.json does not pin the framework major; this assumes major 3")
	}
	addLayerNote(pass, d, major)
	if canFix {
		fix := setCompat4()
		fix.Ops[0].Path = path
		fix.Description = "set `" + path.String() + ": 4`"
		d.Fix = fix
	}
}

func deleteCompat(path ast.Path, desc string) *Fix {
	return &Fix{Description: desc, Applicability: Safe, Ops: []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}}}
}
