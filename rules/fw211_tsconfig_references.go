package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTsconfigReferences = &Rule{
	Code:     "FW211",
	Name:     "tsconfig-references",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "the root tsconfig.json extends the legacy generated `.fw/tsconfig.json` instead of referencing the four projects framework major 4 generates",
		Why: `Framework major 3 generates one .fw/tsconfig.json (also with
compatibility version 4), which the root tsconfig.json extends. Major 4
generates one for each context: app code (.fw/tsconfig.app.json), server code
(.fw/tsconfig.server.json), code shared by both (.fw/tsconfig.shared.json) and
the config and modules (.fw/tsconfig.node.json), and still the legacy
.fw/tsconfig.json, so the extends keeps working (an info, not a warning). The
recommended root tsconfig.json references the four instead ("files": [] and
"references"), so that each context is type-checked with its own settings;
references and the extends are exclusive.
A root tsconfig.json with references passes none of its compilerOptions to the
generated projects: typescript.tsConfig.compilerOptions in the config does,
to all four.
Reported only when package.json (or --framework) says major 4: on major 3 the
four files are not generated, so the references would name files that do not
exist. The generated files are the same whether the sources are in app/ or
not.`,
		Example: `// tsconfig.json beside fw.config.ts
{
  "extends": "./.fw/tsconfig.json",
  "compilerOptions": { "strict": true }
}`,
		Fix: `Replaces the extends with "files": [] and the four references (an extends
list keeps its other entries), and moves the root compilerOptions into the
config's typescript.tsConfig.compilerOptions, where the framework writes them
into every generated project; options the config already sets to the same
value are only removed from tsconfig.json. tsconfig.json is edited on its
bytes: its comments and other members stay.
Unsafe: type-checking changes. A root with "files": [] checks nothing by
itself, so a type-check script must build the references (ui-tsc -b
--noEmit); code is checked by the generated project of its context, and type
augmentations must be in app/, server/ or shared/; server/tsconfig.json, which
extended the generated server file, is to be deleted.
Not reported when tsconfig.json has references too: FW801 judges that shape
(and removes the extends). No fix (the finding stays, with the reason) when
tsconfig.json already has files, when it sets include or exclude (beside "files": [] they
would make the root a project of its own), or when a compilerOptions entry
cannot be carried as it is: a value that is not plain JSON (a comment or a
trailing comma inside it), an option the framework manages per context (types,
paths, noEmit) or sets for app code only (lib, jsx, jsxImportSource), or one
that typescript.tsConfig.compilerOptions sets to another value or at run time.`,
	},
	Run: runTsconfigReferences,
}

func init() { Register(ruleTsconfigReferences) }

func runTsconfigReferences(pass *Pass) {
	pr := pass.Project
	ts := pr.TSConfig
	// Framework major 3 generates the legacy file only, with compatibility
	// version 4 too: the references would name files that do not exist.
	if pass.Target < 4 || pr.Framework < 4 || ts == nil || pr.Detection == nil || pr.Detection.V4.BuildDir == "" {
		return
	}
	data := ts.Src
	members, ok := jsonc.Members(data)
	if !ok {
		return // not an object this reader can follow: nothing to judge
	}
	tc := &tsconfig{data: data, members: members, at: map[string]int{}}
	for i, m := range members {
		tc.at[m.Key(data)] = i // the last of duplicate keys wins, as in JSON
	}
	ext, ok := tc.member("extends")
	if !ok {
		return
	}
	if refs, ok := tc.member("references"); ok {
		if items, ok := jsonc.Items(data, refs.ValStart); !ok || len(items) > 0 {
			// The root references projects already: FW801 judges its
			// shape (the extends beside references is one of its cases).
			return
		}
	}
	legacy := filepath.Join(pr.Detection.V4.BuildDir, "tsconfig.json")
	isLegacy := func(s string) bool {
		if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && !filepath.IsAbs(s) {
			return false // resolved as a package, not a path
		}
		path := filepath.Join(filepath.Dir(ts.Path), filepath.FromSlash(s))
		// TypeScript adds .json to a path without it.
		return path == legacy || !strings.HasSuffix(path, ".json") && path+".json" == legacy
	}
	// The extends value: one string, or a list of them (TypeScript 5).
	var elems []jsonc.Item
	which, value := -1, ""
	span := ast.Span{Start: ext.ValStart, End: ext.ValEnd}
	if data[ext.ValStart] == '[' {
		if elems, ok = jsonc.Items(data, ext.ValStart); !ok {
			return
		}
		for i, el := range elems {
			if s, ok := el.String(data); ok && isLegacy(s) {
				which, value, span = i, s, ast.Span{Start: el.ValStart, End: el.ValEnd}
			}
		}
	} else if s, ok := ext.String(data); ok && isLegacy(s) {
		value = s
	}
	if value == "" {
		return
	}
	d := pass.Report(span, "", "tsconfig.json extends `%s`, the legacy file that framework major 4 still generates: the recommended root tsconfig.json references the generated app, server, shared and node projects instead", value)
	d.File, d.Path = ts.Display, "tsconfig.json"
	fix, why := tc.fix(pass, ext, elems, which, value)
	if why != "" {
		d.Notes = append(d.Notes, "no fix: "+why)
		return
	}
	fix.File = ts.Path
	d.Fix = fix
}

// fix is the fix that switches the extends of ext (the element which of
// elems, when the extends is a list) to the references and carries the
// compilerOptions, or why there is none.
func (tc *tsconfig) fix(pass *Pass, ext jsonc.Item, elems []jsonc.Item, which int, value string) (*Fix, string) {
	for _, k := range []string{"files", "references"} {
		if _, ok := tc.member(k); ok {
			return nil, "tsconfig.json already has `" + k + "`, which the references replace: remove the extends by hand"
		}
	}
	for _, k := range []string{"include", "exclude"} {
		if _, ok := tc.member(k); ok {
			return nil, "tsconfig.json sets `" + k + "`: beside `\"files\": []` it would make the root a project of its own, checked without the generated settings; move it to `typescript.tsConfig` (app code) or delete it, then apply again"
		}
	}
	var keys []string
	var configOps []rewrite.Op
	co, hasCO := tc.member("compilerOptions")
	if hasCO {
		var why string
		keys, configOps, why = tc.carry(pass, co)
		if why != "" {
			return nil, why
		}
	}
	edits := tc.referencesEdit(ext, elems, which, value)
	if hasCO {
		edits = append(edits, tc.deleteMember(tc.at["compilerOptions"]))
	}
	desc := "replace the extends of `" + value + "` in tsconfig.json by `\"files\": []` and the references of the four generated projects"
	if len(keys) > 0 {
		desc += ", moving its compilerOptions `" + strings.Join(keys, "`, `") + "` to `typescript.tsConfig.compilerOptions`"
	} else if hasCO {
		desc += ", deleting its empty compilerOptions"
	}
	return &Fix{Description: desc, Applicability: Unsafe, Ops: mergeEdits(edits), ConfigOps: configOps}, ""
}
