package tsoracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Framework says which framework release generates the context files, and
// the config options that change them. It is the oracle's own reading of
// typescript-contexts.md (the spec's section is named on each part).
type Framework struct {
	// Version is the framework release: "3.21.11", "4.5.2"... Its major
	// picks the files (§2), its minor the features (§9's first tags).
	Version string
	// Compat is future.compatibilityVersion; 0 is the version's default
	// (its major).
	Compat int
	// SrcDir is the source folder relative to the root ("." for the root);
	// "" resolves it as the framework does (§1).
	SrcDir string
	// ServerDir, SharedDir and BuildDir default to §1's values.
	ServerDir, SharedDir, BuildDir string
	// TSConfig is typescript.tsConfig; NodeTSConfig and SharedTSConfig
	// typescript.nodeTsConfig and sharedTsConfig (major 4);
	// EngineCompilerOptions engine.typescript.tsConfig.compilerOptions.
	TSConfig, NodeTSConfig, SharedTSConfig TSConfig
	EngineCompilerOptions                  map[string]any
	// EngineAutoImports is experimental.engineAutoImports; nil is its
	// default, compatibility < 5 (§3.3).
	EngineAutoImports *bool
	// ImportsDirs is imports.dirs, relative to the src dir.
	ImportsDirs []string
}

// TSConfig is a user tsconfig part of the config.
type TSConfig struct {
	Include, Exclude []string
	CompilerOptions  map[string]any
}

// Write writes files (slash paths relative to dir) into dir, a node_modules
// that holds the installed Vue and the stub packages the declarations name
// (fw, h3, engine), and, when fw.Version is set, the context files the
// framework would generate. It returns the generated files' paths.
func (tl *Tools) Write(dir string, files map[string]string, fw Framework) ([]string, error) {
	for name, text := range files {
		if err := writeFile(dir, name, text); err != nil {
			return nil, err
		}
	}
	if err := tl.linkModules(dir); err != nil {
		return nil, err
	}
	for name, text := range stubs {
		if err := writeFile(dir, "node_modules/"+name, text); err != nil {
			return nil, err
		}
	}
	if fw.Version == "" {
		return nil, nil
	}
	gen, err := Generate(files, fw)
	if err != nil {
		return nil, err
	}
	var names []string
	for name, text := range gen {
		if err := writeFile(dir, name, text); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

func writeFile(dir, name, text string) error {
	if path.IsAbs(name) || strings.HasPrefix(path.Clean(name), "..") {
		return fmt.Errorf("fixture path %q leaves the project", name)
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

// linkModules links the installed packages into dir/node_modules (Vue for
// .vue files and the generated declarations; the checkers run from the
// install folder).
func (tl *Tools) linkModules(dir string) error {
	if tl == nil {
		return nil
	}
	src := filepath.Join(tl.Dir, "node_modules")
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(dir, "node_modules")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}

// stubs are the packages the generated declarations import from: the
// framework's (fw), the HTTP library's (h3) and the engine's, reduced to
// the helpers the fixtures use.
var stubs = map[string]string{
	"fw/package.json": `{ "name": "fw", "version": "0.0.0", "types": "index.d.ts" }` + "\n",
	"fw/index.d.ts": `export declare function defineFwConfig<T>(config: T): T
export declare function defineAppConfig<T>(config: T): T
export declare function useRuntimeConfig(): Record<string, any>
export declare function useAppConfig(): Record<string, any>
export declare function createError(input: string | { statusCode?: number, message?: string }): Error
export declare function setResponseStatus(event: unknown, code: number): void
export declare function navigateTo(to: string): Promise<void>
export declare function useState<T>(key: string, init?: () => T): { value: T }
export declare function defineFwPlugin(plugin: (app: unknown) => unknown): unknown
declare global {
  const defineFwConfig: typeof import('fw')['defineFwConfig']
}
`,
	"h3/package.json": `{ "name": "h3", "version": "0.0.0", "types": "index.d.ts" }` + "\n",
	"h3/index.d.ts": `export interface H3Event { path: string }
export declare function defineEventHandler<T>(handler: (event: H3Event) => T): (event: H3Event) => T
export declare function getQuery(event: H3Event): Record<string, string>
export declare function readBody<T = unknown>(event: H3Event): Promise<T>
export declare function getRouterParam(event: H3Event, name: string): string | undefined
export declare function createError(input: string | { statusCode?: number, message?: string }): Error
export declare function setResponseStatus(event: H3Event, code: number): void
`,
	"engine/package.json": `{ "name": "engine", "version": "0.0.0", "types": "index.d.ts" }` + "\n",
	"engine/index.d.ts": `export declare function useStorage(base?: string): { getItem(key: string): Promise<unknown> }
export declare function useRuntimeConfig(event?: unknown): Record<string, any>
export declare function defineTask<T>(task: T): T
`,
}

// preset is one auto-import of a package.
type preset struct{ name, from string }

var (
	appPresets = []preset{
		{"ref", "vue"}, {"computed", "vue"}, {"reactive", "vue"}, {"watch", "vue"}, {"onMounted", "vue"}, {"nextTick", "vue"},
		{"useRuntimeConfig", "fw"}, {"useAppConfig", "fw"}, {"defineAppConfig", "fw"}, {"createError", "fw"},
		{"navigateTo", "fw"}, {"useState", "fw"}, {"defineFwPlugin", "fw"},
	}
	enginePresets = []preset{
		{"defineEventHandler", "h3"}, {"getQuery", "h3"}, {"readBody", "h3"}, {"getRouterParam", "h3"},
		{"createError", "h3"}, {"setResponseStatus", "h3"},
		{"useStorage", "engine"}, {"useRuntimeConfig", "engine"}, {"defineTask", "engine"},
	}
	// sharedGlobals are the hand-written shared auto-imports (§4.2).
	sharedGlobals = []preset{
		{"useRuntimeConfig", "fw"}, {"useAppConfig", "fw"}, {"defineAppConfig", "fw"}, {"createError", "fw"}, {"setResponseStatus", "fw"},
	}
)

// release is a parsed Version.
type release struct{ major, minor, patch int }

func parseRelease(v string) (release, error) {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	var r release
	var nums [3]*int = [3]*int{&r.major, &r.minor, &r.patch}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.SplitN(p, "-", 2)[0])
		if err != nil {
			return r, fmt.Errorf("framework version %q: want major.minor.patch", v)
		}
		*nums[i] = n
	}
	if r.major != 3 && r.major != 4 {
		return r, fmt.Errorf("framework version %q: the oracle knows majors 3 and 4", v)
	}
	return r, nil
}

func (r release) atLeast(major, minor, patch int) bool {
	if r.major != major {
		return r.major > major
	}
	if r.minor != minor {
		return r.minor > minor
	}
	return r.patch >= patch
}

// dirs are §1's directory variables, slash paths relative to the root
// ("." for the root).
type dirs struct{ src, server, shared, build, modules string }

func resolveDirs(files map[string]string, fw Framework, r release, compat int) dirs {
	d := dirs{src: fw.SrcDir, server: fw.ServerDir, shared: fw.SharedDir, build: fw.BuildDir}
	v4 := r.major >= 4 || compat >= 4
	if d.src == "" {
		d.src = "."
		if v4 {
			appFiles, rootSources := false, false
			for name := range files {
				if rest, ok := strings.CutPrefix(name, "app/"); ok && rest != "spa-loading-template.html" && !strings.HasPrefix(rest, "router.options.") {
					appFiles = true
				}
				for _, top := range []string{"app.vue", "assets/", "layouts/", "middleware/", "pages/", "plugins/"} {
					if name == top || strings.HasPrefix(name, top) {
						rootSources = true
					}
				}
			}
			if appFiles || !rootSources {
				d.src = "app"
			}
		}
	}
	if d.server == "" {
		d.server = "server"
		if !v4 {
			d.server = path.Join(d.src, "server")
		}
	}
	if d.shared == "" {
		d.shared = "shared"
	}
	if d.build == "" {
		d.build = ".fw"
	}
	d.modules = "modules"
	if !v4 {
		d.modules = path.Join(d.src, "modules")
	}
	return d
}

// Generate returns the context files the framework writes for a project
// of these files (slash paths relative to the root) under fw.
func Generate(files map[string]string, fw Framework) (map[string]string, error) {
	r, err := parseRelease(fw.Version)
	if err != nil {
		return nil, err
	}
	compat := fw.Compat
	if compat == 0 {
		compat = r.major
	}
	d := resolveDirs(files, fw, r, compat)
	g := &gen{fw: fw, r: r, compat: compat, d: d, files: files, out: map[string]string{}}
	g.declarations()
	if r.major == 3 {
		g.major3()
	} else {
		g.major4()
	}
	return g.out, nil
}

type gen struct {
	fw     Framework
	r      release
	compat int
	d      dirs
	files  map[string]string
	out    map[string]string
}

// rel is a root-relative path as the build dir's files store it.
func (g *gen) rel(p string) string {
	depth := strings.Count(path.Clean(g.d.build), "/") + 1
	up := strings.Repeat("../", depth)
	if p == "." || p == "" {
		return strings.TrimSuffix(up, "/")
	}
	return up + p
}

// glob joins a root-relative dir and a pattern into a stored path.
func (g *gen) glob(dir, pattern string) string {
	if dir == "." {
		return g.rel(pattern)
	}
	return g.rel(path.Join(dir, pattern))
}

func (g *gen) put(name string, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // the values are built here: a failure is a bug
	}
	g.out[path.Join(g.d.build, name)] = b.String()
}

// engineImportsOn says whether the engine gets its auto-imports (§4.3).
func (g *gen) engineImportsOn() bool {
	if g.fw.EngineAutoImports != nil {
		return *g.fw.EngineAutoImports
	}
	return g.compat < 5
}

// sharedScanned says whether shared/utils and shared/types are scanned
// (§4.2: on major 3 only with compatibility 4).
func (g *gen) sharedScanned() bool { return g.r.major >= 4 || g.compat >= 4 }

// appImports are the app context's auto-imports (§4.2).
func (g *gen) appImports() []preset {
	list := append([]preset(nil), appPresets...)
	dirsTop := []string{path.Join(g.d.src, "composables"), path.Join(g.d.src, "utils")}
	for _, d := range g.fw.ImportsDirs {
		dirsTop = append(dirsTop, path.Join(g.d.src, d))
	}
	if g.sharedScanned() {
		dirsTop = append(dirsTop, path.Join(g.d.shared, "utils"), path.Join(g.d.shared, "types"))
	}
	for _, d := range dirsTop {
		list = append(list, scanExports(g.files, d, false)...)
	}
	return list
}

// engineImports are the engine's auto-imports (§4.2, §4.3).
func (g *gen) engineImports() []preset {
	if !g.engineImportsOn() {
		return nil
	}
	list := append([]preset(nil), enginePresets...)
	list = append(list, scanExports(g.files, path.Join(g.d.server, "utils"), true)...)
	if g.sharedScanned() {
		list = append(list, scanExports(g.files, path.Join(g.d.shared, "utils"), false)...)
		list = append(list, scanExports(g.files, path.Join(g.d.shared, "types"), false)...)
	}
	return list
}

var exportDecl = regexp.MustCompile(`(?m)^export\s+(?:declare\s+)?(?:async\s+)?(const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)`)

// scanExports returns the named exports of the source files under dir:
// top-level files and */index.* (the default scan), or every file when
// recursive (the engine's utils). The source of each is the file without
// its extension, root-relative, prefixed "./" (types prefixed "type:").
func scanExports(files map[string]string, dir string, recursive bool) []preset {
	var names []string
	for name := range files {
		rest, ok := strings.CutPrefix(name, dir+"/")
		if !ok || !isScript(name) || strings.HasSuffix(name, ".d.ts") {
			continue
		}
		parts := strings.Split(rest, "/")
		if !recursive && !(len(parts) == 1 || len(parts) == 2 && strings.HasPrefix(parts[1], "index.")) {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	var list []preset
	for _, name := range names {
		src := "./" + strings.TrimSuffix(name, path.Ext(name))
		for _, m := range exportDecl.FindAllStringSubmatch(files[name], -1) {
			from := src
			if m[1] == "interface" || m[1] == "type" {
				from = "type:" + src
			}
			list = append(list, preset{m[2], from})
		}
	}
	return list
}

func isScript(name string) bool {
	switch path.Ext(name) {
	case ".ts", ".js", ".mts", ".mjs", ".tsx", ".jsx":
		return true
	}
	return false
}

// importsDecl writes a `declare global` of the imports, as the file
// .fw/types/<name> sees them.
func (g *gen) importsDecl(name string, list []preset) {
	if len(list) == 0 {
		g.out[path.Join(g.d.build, "types", name)] = "export {}\n"
		return
	}
	from := path.Join(g.d.build, "types")
	var b strings.Builder
	b.WriteString("// Generated by tsoracle as the framework would (typescript-contexts.md §4)\nexport {}\ndeclare global {\n")
	seen := map[string]bool{}
	for _, p := range list {
		if seen[p.name] {
			continue // the first wins, as unimport warns and keeps one
		}
		seen[p.name] = true
		src, isType := strings.CutPrefix(p.from, "type:")
		if strings.HasPrefix(src, "./") {
			rel, _ := filepath.Rel(from, strings.TrimPrefix(src, "./"))
			src = filepath.ToSlash(rel)
		}
		if isType {
			fmt.Fprintf(&b, "  type %s = import('%s').%s\n", p.name, src, p.name)
		} else {
			fmt.Fprintf(&b, "  const %s: typeof import('%s')['%s']\n", p.name, src, p.name)
		}
	}
	b.WriteString("}\n")
	g.out[path.Join(g.d.build, "types", name)] = b.String()
}

// declarations writes the entry declaration files and the auto-import
// declarations (§4.1).
func (g *gen) declarations() {
	b := g.d.build
	g.out[path.Join(b, "fw.d.ts")] = "/// <reference types=\"fw\" />\n/// <reference path=\"types/imports.d.ts\" />\n/// <reference path=\"types/engine.d.ts\" />\nexport {}\n"
	g.importsDecl("imports.d.ts", g.appImports())
	eng := g.engineImports()
	g.importsDecl("engine-imports.d.ts", eng)
	g.out[path.Join(b, "types", "engine.d.ts")] = "/// <reference path=\"./engine-routes.d.ts\" />\n/// <reference path=\"./engine-config.d.ts\" />\n/// <reference path=\"./engine-imports.d.ts\" />\nexport {}\n"
	g.out[path.Join(b, "types", "engine-routes.d.ts")] = "export {}\n"
	g.out[path.Join(b, "types", "engine-config.d.ts")] = "export {}\n"
	g.out[path.Join(b, "types", "engine-fw.d.ts")] = "/// <reference types=\"fw\" />\nexport {}\n"
	if g.r.major < 4 {
		return
	}
	g.out[path.Join(b, "fw.node.d.ts")] = "/// <reference types=\"fw\" />\nexport {}\n"
	shared := "/// <reference types=\"fw\" />\n"
	if g.r.atLeast(4, 3, 0) {
		shared += "/// <reference path=\"types/shared-imports.d.ts\" />\n"
		// The intersection of app and engine imports of the same name and
		// source, and the five hand-written globals.
		inEngine := map[preset]bool{}
		for _, p := range eng {
			inEngine[p] = true
		}
		var list []preset
		for _, p := range g.appImports() {
			if inEngine[p] {
				list = append(list, p)
			}
		}
		g.importsDecl("shared-imports.d.ts", append(list, sharedGlobals...))
	}
	g.out[path.Join(b, "fw.shared.d.ts")] = shared + "export {}\n"
}

// paths are the app's alias paths (§3.1), stored relative to the build dir.
func (g *gen) appPaths() obj {
	dir := func(k, target string) []kv {
		return []kv{{k, []string{g.rel(target)}}, {k + "/*", []string{g.glob(target, "*")}}}
	}
	var p obj
	p = append(p, dir("~", g.d.src)...)
	p = append(p, dir("@", g.d.src)...)
	p = append(p, dir("~~", ".")...)
	p = append(p, dir("@@", ".")...)
	p = append(p, dir("#shared", g.d.shared)...)
	p = append(p, dir("#server", g.d.server)...)
	p = append(p, kv{"#imports", []string{"./types/imports"}})
	p = append(p, kv{"#build", []string{"."}}, kv{"#build/*", []string{"./*"}})
	return p
}

func (g *gen) serverPaths() obj {
	var p obj
	p = append(p, dir2(g, "#shared", g.d.shared)...)
	p = append(p, dir2(g, "#server", g.d.server)...)
	p = append(p, kv{"#imports", []string{"./types/engine-imports"}})
	p = append(p, kv{"~/*", []string{g.glob(g.d.src, "*")}}, kv{"@/*", []string{g.glob(g.d.src, "*")}})
	p = append(p, kv{"~~/*", []string{g.glob(".", "*")}}, kv{"@@/*", []string{g.glob(".", "*")}})
	p = append(p, kv{"#build", []string{"."}}, kv{"#build/*", []string{"./*"}})
	return p
}

func dir2(g *gen, k, target string) []kv {
	return []kv{{k, []string{g.rel(target)}}, {k + "/*", []string{g.glob(target, "*")}}}
}

// appOptions are the app context's compilerOptions (§3.1, §3.2) before
// the user's.
func (g *gen) appOptions() obj {
	o := obj{
		{"paths", g.appPaths()},
		{"esModuleInterop", true}, {"skipLibCheck", true}, {"target", "ESNext"}, {"allowJs", true},
		{"resolveJsonModule", true}, {"moduleResolution", "Bundler"}, {"allowSyntheticDefaultImports", true},
		{"strict", true}, {"noImplicitOverride", true}, {"module", "preserve"}, {"noEmit", true},
		{"lib", []string{"ESNext", "dom", "dom.iterable", "webworker"}}, {"jsx", "preserve"}, {"jsxImportSource", "vue"},
		{"types", []string{}}, {"isolatedModules", true}, {"useDefineForClassFields", true}, {"noImplicitThis", true},
		{"allowArbitraryExtensions", true}, {"forceConsistentCasingInFileNames", true}, {"verbatimModuleSyntax", true},
		{"moduleDetection", "force"},
	}
	if g.r.major == 3 {
		o = append(o, kv{"noUncheckedIndexedAccess", g.compat >= 4})
		return o
	}
	o = append(o, kv{"noUncheckedIndexedAccess", true}, kv{"allowImportingTsExtensions", true})
	if g.r.atLeast(4, 5, 0) {
		o = append(o, kv{"libReplacement", false})
		if g.compat >= 5 {
			o = append(o, kv{"noUncheckedSideEffectImports", true})
		}
	}
	return o
}

// serverOptions are the engine's server compilerOptions (§3.1, §3.2).
func (g *gen) serverOptions() obj {
	o := obj{
		{"forceConsistentCasingInFileNames", true}, {"strict", true}, {"noEmit", true}, {"skipLibCheck", true},
		{"target", "ESNext"}, {"module", "ESNext"}, {"moduleResolution", "Bundler"}, {"allowJs", true},
		{"resolveJsonModule", true}, {"jsx", "preserve"}, {"allowSyntheticDefaultImports", true}, {"jsxFactory", "h"},
		{"jsxFragmentFactory", "Fragment"}, {"lib", []string{"esnext", "webworker", "dom.iterable"}},
		{"allowArbitraryExtensions", true},
	}
	if g.r.major == 3 && g.r.atLeast(3, 21, 0) || g.r.major == 4 && g.r.atLeast(4, 3, 0) {
		o = append(o, kv{"noUncheckedIndexedAccess", true})
	}
	o = append(o, kv{"paths", g.serverPaths()})
	return mergeOptions(g.fw.EngineCompilerOptions, o)
}

// notCopied are the app options that 4.5.2 does not copy into node and
// shared (§3.2): it copies a fixed list, which is everything else here.
var notCopied = map[string]bool{"lib": true, "libReplacement": true, "jsx": true, "jsxImportSource": true, "noUncheckedSideEffectImports": true, "types": true, "paths": true, "noEmit": true}

func (g *gen) copiedOptions(app obj, paths obj, user map[string]any) obj {
	var o obj
	for _, e := range app {
		if !notCopied[e.k] {
			o = append(o, e)
		}
	}
	o = append(o, kv{"noEmit", true}, kv{"types", []string{}}, kv{"paths", paths})
	return mergeOptions(user, o)
}

// layerSets are §3.2's path sets of the project layer.
type layerSets struct{ fw, engine, node, shared, sharedDecl, global []string }

func (g *gen) sets() layerSets {
	d := g.d
	s := layerSets{
		fw: []string{g.glob(d.src, "**/*"), g.glob(d.modules, "*/runtime/**/*")},
	}
	if g.r.atLeast(4, 2, 2) {
		s.fw = append(s.fw, g.rel("test/fw/**/*"), g.rel("tests/fw/**/*"))
	}
	s.fw = append(s.fw, g.rel("layers/*/app/**/*"), g.rel("layers/*/modules/*/runtime/**/*"))
	s.engine = []string{g.glob(d.modules, "*/runtime/server/**/*"), g.rel("layers/*/server/**/*"), g.rel("layers/*/modules/*/runtime/server/**/*")}
	s.node = []string{g.glob(d.modules, "*.*"), g.rel("fw.config.*"), g.rel(".config/fw.*"), g.rel("layers/*/fw.config.*"), g.rel("layers/*/.config/fw.*")}
	if g.r.atLeast(4, 5, 0) {
		s.node = append(s.node, g.rel("layers/*/modules/*.*"), g.rel("layers/*/modules/*/*.*"))
	} else {
		s.node = append(s.node, g.rel("layers/*/modules/**/*"))
	}
	s.shared = []string{g.glob(d.shared, "**/*"), g.glob(d.modules, "*/shared/**/*"), g.rel("layers/*/shared/**/*")}
	s.sharedDecl = []string{g.glob(d.shared, "**/*.d.ts"), g.glob(d.modules, "*/shared/**/*.d.ts"), g.rel("layers/*/shared/**/*.d.ts")}
	s.global = []string{g.rel("*.d.ts"), g.rel("layers/*/*.d.ts")}
	return s
}

func (g *gen) major3() {
	user := g.fw.TSConfig
	include := append([]string(nil), user.Include...)
	include = append(include, g.rel("**/*"), g.rel(".config/fw.*"), "./fw.d.ts")
	if g.d.src != "." {
		include = append(include, g.glob(g.d.src, "**/*"))
	}
	exclude := append([]string(nil), user.Exclude...)
	exclude = append(exclude, g.rel("dist"), g.rel(".data"), g.rel("node_modules"), g.rel(".output"))
	g.put("tsconfig.json", obj{
		{"compilerOptions", mergeOptions(user.CompilerOptions, g.appOptions())},
		{"include", include},
		{"exclude", exclude},
	})
	g.put("tsconfig.server.json", obj{
		{"compilerOptions", g.serverOptions()},
		{"include", []string{"./types/engine-fw.d.ts", g.glob(g.d.server, "**/*"), g.glob(g.d.shared, "**/*.d.ts"), "./types/engine.d.ts", g.rel("**/*"), g.glob(g.d.server, "**/*")}},
		{"exclude", []string{g.rel("node_modules"), g.rel("dist")}},
	})
}

func (g *gen) major4() {
	user := g.fw.TSConfig
	s := g.sets()
	nm := g.rel("node_modules")
	app := mergeOptions(user.CompilerOptions, g.appOptions())

	appInclude := append([]string(nil), user.Include...)
	appInclude = append(appInclude, "./fw.d.ts")
	appInclude = append(appInclude, s.fw...)
	appInclude = append(appInclude, s.sharedDecl...)
	appInclude = append(appInclude, s.global...)
	appExclude := append([]string(nil), user.Exclude...)
	appExclude = append(appExclude, nm, g.rel("dist"), g.rel(".data"))
	appExclude = append(appExclude, s.engine...)
	appExclude = append(appExclude, s.node...)
	legacyExclude := append([]string(nil), appExclude...)
	appExclude = append(appExclude, g.rel(".output"), g.rel(g.d.server)) // the engine's hook
	g.put("tsconfig.app.json", obj{{"compilerOptions", app}, {"include", appInclude}, {"exclude", appExclude}})

	// The legacy file: the app options, the union of the includes.
	legacyInclude := append([]string(nil), appInclude...)
	legacyInclude = append(legacyInclude, "./fw.node.d.ts")
	legacyInclude = append(legacyInclude, s.node...)
	legacyInclude = append(legacyInclude, s.shared...)
	legacyExclude = legacyExclude[:0:0]
	legacyExclude = append(legacyExclude, user.Exclude...)
	legacyExclude = append(legacyExclude, nm, g.rel("dist"), g.rel(".data"))
	legacyExclude = append(legacyExclude, s.engine...)
	g.put("tsconfig.json", obj{{"compilerOptions", app}, {"include", dedupe(legacyInclude)}, {"exclude", legacyExclude}})

	nodeInclude := append([]string(nil), g.fw.NodeTSConfig.Include...)
	nodeInclude = append(nodeInclude, "./fw.node.d.ts")
	nodeInclude = append(nodeInclude, s.node...)
	nodeInclude = append(nodeInclude, g.rel("fw.schema.*"), g.rel("layers/*/fw.schema.*"))
	nodeExclude := append([]string(nil), g.fw.NodeTSConfig.Exclude...)
	nodeExclude = append(nodeExclude, nm, g.rel("dist"), g.rel(".data"))
	for _, f := range s.fw {
		if f != g.rel("**/*") {
			nodeExclude = append(nodeExclude, f)
		}
	}
	nodeExclude = append(nodeExclude, s.engine...)
	g.put("tsconfig.node.json", obj{
		{"compilerOptions", g.copiedOptions(app, obj{}, g.fw.NodeTSConfig.CompilerOptions)},
		{"include", nodeInclude}, {"exclude", nodeExclude},
	})

	sharedInclude := append([]string(nil), g.fw.SharedTSConfig.Include...)
	sharedInclude = append(sharedInclude, "./fw.shared.d.ts")
	sharedInclude = append(sharedInclude, s.shared...)
	sharedInclude = append(sharedInclude, s.global...)
	sharedExclude := append([]string{}, g.fw.SharedTSConfig.Exclude...)
	g.put("tsconfig.shared.json", obj{
		{"compilerOptions", g.copiedOptions(app, g.appPaths(), g.fw.SharedTSConfig.CompilerOptions)},
		{"include", sharedInclude}, {"exclude", sharedExclude},
	})

	g.put("tsconfig.server.json", obj{
		{"compilerOptions", g.serverOptions()},
		{"include", []string{"./types/engine-fw.d.ts", g.glob(g.d.server, "**/*"), g.glob(g.d.shared, "**/*.d.ts"), "./types/engine.d.ts"}},
		{"exclude", []string{nm, g.rel("dist")}},
	})
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// mergeOptions is defu(user, defaults): the user's scalars win, objects
// merge, arrays concatenate user first (§3).
func mergeOptions(user map[string]any, defaults obj) obj {
	out := append(obj(nil), defaults...)
	keys := make([]string, 0, len(user))
	for k := range user {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		u := user[k]
		i := out.index(k)
		if i < 0 {
			out = append(out, kv{k, u})
			continue
		}
		switch dv := out[i].v.(type) {
		case []string:
			if ul, ok := u.([]string); ok {
				out[i].v = append(append([]string(nil), ul...), dv...)
				continue
			}
		case obj:
			if um, ok := u.(map[string]any); ok {
				out[i].v = mergeOptions(um, dv)
				continue
			}
		}
		out[i].v = u
	}
	return out
}

// obj is a JSON object that keeps its keys' order.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) index(k string) int {
	for i, e := range o {
		if e.k == k {
			return i
		}
	}
	return -1
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
