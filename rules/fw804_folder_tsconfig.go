package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleFolderTSConfig = &Rule{
	Code:     "FW804",
	Name:     "folder-tsconfig-leftover",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "a tsconfig.json below the root extends a generated file the target does not write, or is the server tsconfig that the references make a leftover",
		Why: `Framework major 3 recommends a server/tsconfig.json that extends the
generated .fw/tsconfig.server.json (typescript-contexts.md §6.1), and its
upgrade guide shows the references of major 4 - whose split files
(tsconfig.app.json, shared, node) major 3 never writes, with compatibility
version 4 too (§2). A folder tsconfig that extends a generated file that is
not written fails wherever it is used (the editor, tsc -p): TS5083 "Cannot
read file". On major 4 the root's references check server code with the
generated server project; the upgrade guide deletes server/tsconfig.json
(an info: it still works, as a second project over the same files).`,
		Example: `// server/tsconfig.json, framework major 3 with compatibility version 4
{ "extends": "../.fw/tsconfig.app.json" }`,
		Fix: `For an extends of a file the target does not write: names the file it does
write for that folder instead (on major 3 the one .fw/tsconfig.json, or the
server file for a tsconfig in the server folder). Safe: the file extended
did not exist. None for the leftover server tsconfig: fixes edit files, they
do not delete them; delete it by hand once the root references the
generated projects.`,
	},
	Run: runFolderTSConfig,
}

func init() { Register(ruleFolderTSConfig) }

func runFolderTSConfig(pass *Pass) {
	pr := pass.Project
	v, ok := pass.tsTarget()
	if !ok {
		return
	}
	build := pr.Detection.V4.BuildDir
	server := pr.Detection.V4.ServerDir
	refsServer := false // the root references the generated server file
	if ts := pr.TSConfig; ts != nil {
		refsServer = strings.Contains(string(ts.Src), "tsconfig.server.json")
	}
	for _, tf := range pr.TSFiles().Configs {
		tc := readTSConfig(tf.Src)
		if tc == nil {
			continue
		}
		_, elems, values, ok := tc.extendsValues()
		if !ok {
			continue
		}
		dir := filepath.Dir(tf.Path)
		rel := rootRel(pr, tf.Path)
		inServer := server != "" && (dir == server || strings.HasPrefix(dir, server+string(filepath.Separator)))
		for i, s := range values {
			abs := resolveTSPath(dir, s)
			if abs == "" {
				continue
			}
			name := generatedName(abs, build)
			if name == "" || !compat.IsGeneratedTSConfig(name) {
				continue
			}
			el := elems[i]
			span := ast.Span{Start: el.ValStart, End: el.ValEnd}
			if v.gen.File(name) == nil {
				d := pass.reportIn(tf.Display, tf.Src, span, "`%s` extends `%s`, which framework major %d does not generate: wherever this tsconfig is used, the type checker cannot read it (TS5083)", rel, s, v.gen.Major)
				d.Path = rel
				want := v.gen.Legacy
				if inServer && v.gen.File("tsconfig.server.json") != nil {
					want = "tsconfig.server.json"
				}
				to, err := filepath.Rel(dir, filepath.Join(build, want))
				if err != nil {
					continue
				}
				to = filepath.ToSlash(to)
				if !strings.HasPrefix(to, "../") {
					to = "./" + to
				}
				d.Fix = &Fix{
					Description:   fmt.Sprintf("extend `%s`, which framework major %d generates", to, v.gen.Major),
					Applicability: Safe,
					File:          tf.Path,
					Ops:           []rewrite.Op{edit(ast.Span{Start: el.ValStart, End: el.ValEnd}, `"`+to+`"`)},
				}
				continue
			}
			if name == "tsconfig.server.json" && inServer && v.gen.Solution && refsServer {
				d := pass.reportIn(tf.Display, tf.Src, span, "`%s` extends the generated server file, which tsconfig.json already references: the upgrade guide of framework major %d deletes it", rel, v.gen.Major)
				d.Path = rel
				d.Severity = Info
				d.Notes = append(d.Notes, "no fix: delete the file by hand (fixes edit files, they do not delete them)")
			}
		}
	}
}
