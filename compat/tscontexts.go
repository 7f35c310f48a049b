package compat

import "strings"

// The tsconfig files the framework generates into its build directory, per
// major and compatibility version (typescript-contexts.md §2, §3), as data:
// each context's include and exclude globs, the options that decide what
// a type check reports, and how the typecheck command runs (§7). The
// project side (project.TSContexts) substitutes a project's directories
// into the globs.
//
// Major 4 is described by release 4.5.2, the latest released 4.x (§0: "a
// migration tool that targets a released 4.x must use the 4.5.2 rules");
// the options that only the unreleased 4.x head reads are left out. Where
// the spec is silent (major 5's kit is "the same as 4.x-head", its engine
// v3), TSGeneration answers nil and the rules say "unknown".

// Glob variables, replaced by a project's directories (root-relative,
// slash-separated; "." for the root itself): {S} the srcDir, {SV} the
// serverDir, {SH} the shared dir, {M} the local modules dir. Every other
// glob is relative to the root.
const (
	GlobSrc     = "{S}"
	GlobServer  = "{SV}"
	GlobShared  = "{SH}"
	GlobModules = "{M}"
)

// TSContextFile is one generated tsconfig file.
type TSContextFile struct {
	// Name is the file's name in the build dir: "tsconfig.app.json".
	Name string
	// Context is the context its files are checked in; the legacy
	// .fw/tsconfig.json of major 4 is CtxApp with Legacy set.
	Context TSContext
	Legacy  bool
	// Include and Exclude are the framework's globs (§3), the user's
	// entries (UserOption) coming first.
	Include, Exclude []string
	// UserOption is the config option whose include and exclude the file
	// takes ("" when none): typescript.tsConfig (app and legacy),
	// typescript.nodeTsConfig, typescript.sharedTsConfig, or
	// engine.typescript.tsConfig (server).
	UserOption string
	// DOM says whether its lib has the DOM types (the server's lib is
	// esnext, webworker, dom.iterable).
	DOM bool
	// NoUncheckedIndexedAccess is the flag's generated default.
	NoUncheckedIndexedAccess bool
	// Writer is "framework" or "engine" (the server file).
	Writer string
}

// TSGenerationInfo is what one major and compatibility version generate.
type TSGenerationInfo struct {
	Major, Compat int
	// Files are the generated tsconfig files; Referenced are the names the
	// recommended root tsconfig.json references, in its order (none on
	// major 3, whose root extends Legacy).
	Files      []TSContextFile
	Referenced []string
	// Legacy is the file a root tsconfig.json extends ("tsconfig.json").
	Legacy string
	// Solution says whether the recommended root is a solution ("files":
	// [] and the references) rather than an extends of Legacy.
	Solution bool
	// Evidence is where the spec's facts come from.
	Evidence string
}

// File returns the generated file named name, nil when the generation
// writes no such file.
func (g *TSGenerationInfo) File(name string) *TSContextFile {
	for i := range g.Files {
		if g.Files[i].Name == name {
			return &g.Files[i]
		}
	}
	return nil
}

// Contexts returns the files that check code (the legacy file left out
// on major 4, where the references replace it).
func (g *TSGenerationInfo) Contexts() []TSContextFile {
	var out []TSContextFile
	for _, f := range g.Files {
		if g.Major >= 4 && f.Legacy {
			continue
		}
		out = append(out, f)
	}
	return out
}

// The path sets of the project layer (§3.2, 4.5.2).
var (
	setFw = []string{"{S}/**/*", "{M}/*/runtime/**/*", "test/fw/**/*", "tests/fw/**/*",
		"layers/*/app/**/*", "layers/*/modules/*/runtime/**/*"}
	setEngine = []string{"{M}/*/runtime/server/**/*", "layers/*/server/**/*",
		"layers/*/modules/*/runtime/server/**/*"}
	setNode = []string{"{M}/*.*", "fw.config.*", ".config/fw.*", "layers/*/fw.config.*",
		"layers/*/.config/fw.*", "layers/*/modules/*.*", "layers/*/modules/*/*.*"}
	setShared     = []string{"{SH}/**/*", "{M}/*/shared/**/*", "layers/*/shared/**/*"}
	setSharedDecl = []string{"{SH}/**/*.d.ts", "{M}/*/shared/**/*.d.ts", "layers/*/shared/**/*.d.ts"}
	setGlobalDecl = []string{"*.d.ts", "layers/*/*.d.ts"}
	// excludeCommon are the node_modules, dist and .data of every file.
	excludeCommon = []string{"node_modules", "dist", ".data"}
)

func cat(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, s := range l {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// TSGeneration returns what framework major generates with compatibility
// version compat, nil where the spec does not describe it (a major other
// than 3 and 4: major 5's engine v3 files are not given in enough detail).
func TSGeneration(major, compat int) *TSGenerationInfo {
	switch major {
	case 3:
		// §3.1: one tsconfig.json for the whole root (server/ included),
		// and the engine's server file, which covers the whole root too
		// (no types:extend hook on 3.x).
		return &TSGenerationInfo{
			Major: 3, Compat: compat, Legacy: "tsconfig.json",
			Files: []TSContextFile{
				{Name: "tsconfig.json", Context: CtxApp, Legacy: true, UserOption: "typescript.tsConfig", DOM: true, Writer: "framework",
					Include:                  []string{"**/*", ".config/fw.*", "{S}/**/*"},
					Exclude:                  []string{"dist", ".data", "node_modules", ".output"},
					NoUncheckedIndexedAccess: compat >= 4},
				{Name: "tsconfig.server.json", Context: CtxServer, UserOption: "engine.typescript.tsConfig", Writer: "engine",
					Include:                  []string{"{SV}/**/*", "{SH}/**/*.d.ts", "**/*"},
					Exclude:                  []string{"node_modules", "dist"},
					NoUncheckedIndexedAccess: true}, // since 3.21.0
			},
			Evidence: "typescript-contexts.md §2, §3.1 (3.x packages/kit/src/template.ts:196-441; packages/nitro-server/src/index.ts:121-253)",
		}
	case 4:
		// §3.2: the four contexts and the legacy file, 4.5.2.
		app := TSContextFile{Name: "tsconfig.app.json", Context: CtxApp, UserOption: "typescript.tsConfig", DOM: true, Writer: "framework",
			Include:                  cat(setFw, setSharedDecl, setGlobalDecl),
			Exclude:                  cat(excludeCommon, setEngine, setNode, []string{".output", "{SV}"}),
			NoUncheckedIndexedAccess: true}
		return &TSGenerationInfo{
			Major: 4, Compat: compat, Legacy: "tsconfig.json", Solution: true,
			Referenced: []string{"tsconfig.app.json", "tsconfig.server.json", "tsconfig.shared.json", "tsconfig.node.json"},
			Files: []TSContextFile{
				app,
				{Name: "tsconfig.server.json", Context: CtxServer, UserOption: "engine.typescript.tsConfig", Writer: "engine",
					Include:                  []string{"{SV}/**/*", "{SH}/**/*.d.ts"},
					Exclude:                  []string{"node_modules", "dist"},
					NoUncheckedIndexedAccess: true}, // since 4.3.0
				{Name: "tsconfig.shared.json", Context: CtxShared, UserOption: "typescript.sharedTsConfig", DOM: true, Writer: "framework",
					Include:                  cat(setShared, setGlobalDecl),
					NoUncheckedIndexedAccess: true},
				{Name: "tsconfig.node.json", Context: CtxNode, UserOption: "typescript.nodeTsConfig", DOM: true, Writer: "framework",
					Include: cat(setNode, []string{"fw.schema.*", "layers/*/fw.schema.*"}),
					// The fw set is excluded but for a glob equal to the
					// whole root (layout B): TSContexts drops "{S}/**/*"
					// when S is the root.
					Exclude:                  cat(excludeCommon, setFw, setEngine),
					NoUncheckedIndexedAccess: true},
				{Name: "tsconfig.json", Context: CtxApp, Legacy: true, UserOption: "typescript.tsConfig", DOM: true, Writer: "framework",
					Include:                  cat(app.Include, setNode, setShared),
					Exclude:                  cat(excludeCommon, setEngine),
					NoUncheckedIndexedAccess: true},
			},
			Evidence: "typescript-contexts.md §2, §3.2 (4.5.2 packages/kit/src/template.ts; packages/nitro-server/src/index.ts:1025-1026)",
		}
	}
	return nil
}

// IsGeneratedTSConfig reports whether name is one of the tsconfig file
// names any known major generates.
func IsGeneratedTSConfig(name string) bool {
	switch name {
	case "tsconfig.json", "tsconfig.app.json", "tsconfig.server.json", "tsconfig.shared.json", "tsconfig.node.json":
		return true
	}
	return false
}

// TypeScriptConfigCodes are the TypeScript codes of a root tsconfig.json
// that is not a pure solution but references projects (§6.2): TS6306
// (the referenced project must be composite) and TS6310 (it may not
// disable emit), one each per reference; TS6305 (output not built from
// source) once per root input file that a referenced project holds too
// (TypeScript < 7). TS6053 (plain) and TS5083 (-b): a reference to a file
// that does not exist.
const (
	TSNotComposite  = "TS6306"
	TSNoEmitRef     = "TS6310"
	TSNotBuilt      = "TS6305"
	TSFileNotFound  = "TS6053"
	TSCannotRead    = "TS5083"
	TSNoProperty    = "TS2339"
	TSCannotFind    = "TS2304"
	TSNoModule      = "TS2307"
	TSNotAssignable = "TS2322"
)

// SupportedTSExtension reports whether TypeScript (with allowJs, as every
// generated file sets it) takes a file of this name from an include glob
// that names no extension; vue-tsc adds .vue.
func SupportedTSExtension(name string, vue bool) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return vue && strings.HasSuffix(name, ".vue")
}
