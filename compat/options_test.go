package compat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/golden"
)

const specDir = "../testdata/spec/"

// TestReferenceCompleteness checks that every option path named in the
// reference's tables (extracted once into testdata/reference-paths.txt) is
// in the knowledge base, marked as coming from the reference.
func TestReferenceCompleteness(t *testing.T) {
	paths := readLines(t, "testdata/reference-paths.txt")
	if len(paths) < 200 {
		t.Fatalf("only %d paths in reference-paths.txt", len(paths))
	}
	ref, err := os.ReadFile(specDir + "config-reference.md")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[*Option]bool{}
	var missing []string
	for _, p := range paths {
		// The list must come from the reference: its last name is written there.
		if _, name := splitLast(p); !strings.Contains(string(ref), name) {
			t.Errorf("%s: %q does not occur in config-reference.md", p, name)
		}
		o := Find(p)
		if o == nil {
			missing = append(missing, p)
			continue
		}
		if !o.Ref {
			t.Errorf("%s (option %s) is not marked Ref", p, o.Path)
		}
		if o.Path != p {
			// The reference's spelling is canonical: suggestions and
			// `fwmigrate options` name it; other spellings are aliases.
			t.Errorf("the reference names %s, but the option's path is %s", p, o.Path)
		}
		covered[o] = true
	}
	if len(missing) > 0 {
		t.Errorf("%d reference paths missing from the knowledge base:\n\t%s", len(missing), strings.Join(missing, "\n\t"))
	}
	for _, o := range Options() {
		if o.Ref && !covered[o] {
			t.Errorf("%s is marked Ref but no path of reference-paths.txt names it", o.Path)
		}
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

type fileOption struct {
	Path       string          `json:"path"`
	Type       string          `json:"type"`
	Default    json.RawMessage `json:"default"`
	Deprecated string          `json:"deprecated"`
}

func readOptionsFile(t *testing.T, name string) []fileOption {
	t.Helper()
	b, err := os.ReadFile(specDir + name)
	if err != nil {
		t.Fatal(err)
	}
	var opts []fileOption
	if err := json.Unmarshal(b, &opts); err != nil {
		t.Fatal(err)
	}
	return opts
}

// TestOptionsFiles checks every name of options-v3.json (layout B) and
// options-v4.json (layout A): known, present in that layout unless the
// reference restricts it, and, where the reference is silent, with the
// file's default.
func TestOptionsFiles(t *testing.T) {
	for _, f := range []struct {
		name   string
		layout Layout
	}{{"options-v3.json", LayoutB}, {"options-v4.json", LayoutA}} {
		opts := readOptionsFile(t, f.name)
		if len(opts) < 300 {
			t.Fatalf("%s: only %d options", f.name, len(opts))
		}
		for _, fo := range opts {
			o := Find(fo.Path)
			if o == nil || !Known(fo.Path) {
				t.Errorf("%s: %s is unknown", f.name, fo.Path)
				continue
			}
			if !o.Layouts.Has(f.layout) && o.Status != LayoutBOnly && o.Status != NoEffect {
				t.Errorf("%s: %s is not in layout %s", f.name, fo.Path, f.layout)
			}
			if fo.Deprecated != "" && o.Status == Current {
				t.Errorf("%s: %s is deprecated there (%s) but Current here", f.name, fo.Path, fo.Deprecated)
			}
			if fo.Default == nil {
				continue
			}
			var want any
			if err := json.Unmarshal(fo.Default, &want); err != nil {
				t.Fatal(err)
			}
			// Every default the files give fits the option's type, even where the reference overrides it.
			if !o.Type.Check(want) {
				t.Errorf("%s: default of %s, %s, does not fit its type %s", f.name, fo.Path, fo.Default, o.Type)
			}
			d := o.Default(f.layout)
			if o.Ref || d.Note != "" {
				continue // the reference decides
			}
			if !d.Set || !reflect.DeepEqual(d.Value, want) {
				t.Errorf("%s: default of %s is %s, the knowledge base has %#v", f.name, fo.Path, fo.Default, d)
			}
		}
	}
}

func TestTableConsistency(t *testing.T) {
	for _, o := range Options() {
		for _, d := range []Default{o.DefaultA, o.DefaultB} {
			if d.Set && !o.Type.Check(d.Value) {
				t.Errorf("%s: default %#v does not fit its type %s", o.Path, d.Value, o.Type)
			}
			if !d.Set && d.Value != nil {
				t.Errorf("%s: unset default with a value", o.Path)
			}
		}
		if parent, _ := splitLast(o.Path); parent != "" && Find(parent) == nil {
			t.Errorf("%s: parent %s is not an option", o.Path, parent)
		}
		if o.Layouts == 0 {
			t.Errorf("%s: no layout", o.Path)
		}
		if o.Status != Current && o.Reason == "" {
			t.Errorf("%s: status %s without a reason", o.Path, o.Status)
		}
		if o.Replacement != "" && !Known(o.Replacement) {
			t.Errorf("%s: replacement %s is unknown", o.Path, o.Replacement)
		}
		if o.Status == LayoutAOnly && o.Layouts != InA || o.Status == LayoutBOnly && o.Layouts != InB {
			t.Errorf("%s: status %s with layouts %s", o.Path, o.Status, o.Layouts)
		}
		if strings.Contains(o.Reason, "\n") || strings.Contains(o.Rule, "\n") {
			t.Errorf("%s: reason or rule spans lines", o.Path)
		}
		for _, a := range o.Aliases {
			if Find(a) != o {
				t.Errorf("%s: alias %s does not find it", o.Path, a)
			}
		}
	}
	if !slices.IsSortedFunc(Options(), func(a, b *Option) int { return strings.Compare(a.Path, b.Path) }) {
		t.Error("Options() is not sorted")
	}
}

// TestReferenceDefaults asserts, independently of the table, every default
// and layout difference of the reference's path-option, alias, dir and
// bundler tables (transcribed here from config-reference.md). "" means no
// default; a prose default is checked through its note.
func TestReferenceDefaults(t *testing.T) {
	for _, c := range []struct{ path, a, b string }{
		// Path options.
		{"rootDir", `"<rootDir>"`, `"<rootDir>"`},
		{"srcDir", `"app"`, `"<srcDir>"`},
		{"workspaceDir", `"<workspaceDir>"`, `"<workspaceDir>"`},
		{"buildDir", `"<rootDir>/.fw"`, `"<rootDir>/.fw"`},
		{"analyzeDir", `"<rootDir>/.fw/analyze"`, `"<rootDir>/.fw/analyze"`},
		{"serverDir", `"<rootDir>/server"`, `"<srcDir>/server"`},
		{"modulesDir", `["<rootDir>/node_modules"]`, `["<rootDir>/node_modules"]`},
		{"extensions", `[".js",".jsx",".mjs",".ts",".tsx",".vue"]`, `[".js",".jsx",".mjs",".ts",".tsx",".vue"]`},
		// alias.
		{"alias", `{"~":"<rootDir>/app","@":"<rootDir>/app","~~":"<rootDir>","@@":"<rootDir>","#shared":"<rootDir>/shared","#server":"<rootDir>/server","assets":"<rootDir>/app/assets","public":"<rootDir>/public","#build":"<rootDir>/.fw","#internal/fw/paths":"<rootDir>/.fw/paths.mjs"}`,
			`{"~":"<srcDir>/","@":"<srcDir>/","~~":"<rootDir>/","@@":"<rootDir>/","#shared":"<rootDir>/shared/","#server":"<srcDir>/server/","assets":"<srcDir>/assets/","public":"<srcDir>/public/","#build":"<rootDir>/.fw/","#internal/fw/paths":"<rootDir>/.fw/paths.mjs"}`},
		// dir.
		{"dir.app", `"app"`, `"app"`},
		{"dir.assets", `"app/assets"`, `"assets"`},
		{"dir.layouts", `"app/layouts"`, `"layouts"`},
		{"dir.middleware", `"app/middleware"`, `"middleware"`},
		{"dir.modules", `"modules"`, `"modules"`},
		{"dir.pages", `"app/pages"`, `"pages"`},
		{"dir.plugins", `"app/plugins"`, `"plugins"`},
		{"dir.public", `"public"`, `"public"`},
		{"dir.shared", `"shared"`, `"shared"`},
		{"dir.static", ``, `"public"`},
		// bundlerA.
		{"bundlerA.build.assetsDir", `"_fw/"`, `"_fw/"`},
		{"bundlerA.build.emptyOutDir", `false`, `false`},
		{"bundlerA.cacheDir", `"<rootDir>/node_modules/.cache/bundlerA"`, `"<rootDir>/node_modules/.cache/bundlerA"`},
		{"bundlerA.clearScreen", `true`, `true`},
		{"bundlerA.define", `{"__UI_PROD_HYDRATION_MISMATCH_DETAILS__":false,"process.dev":false,"import.meta.dev":false,"process.test":false,"import.meta.test":false}`,
			`{"__UI_PROD_HYDRATION_MISMATCH_DETAILS__":false,"process.dev":false,"import.meta.dev":false,"process.test":false,"import.meta.test":false,"__UI_PROD_DEVTOOLS__":false}`},
		{"bundlerA.esbuild", `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`, `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`},
		{"bundlerA.mode", `"production"`, `"production"`},
		{"bundlerA.optimizeDeps.esbuildOptions", `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`, `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`},
		{"bundlerA.optimizeDeps.exclude", `["ui-demi"]`, `["ui-demi"]`},
		{"bundlerA.publicDir", `false`, `false`}, // A: options-v4.json, the reference documents B only
		{"bundlerA.resolve.extensions", `[".mjs",".js",".ts",".jsx",".tsx",".json",".vue"]`, `[".mjs",".js",".ts",".jsx",".tsx",".json",".vue"]`},
		{"bundlerA.root", `"<rootDir>"`, `"<srcDir>"`},
		{"bundlerA.server.fs.allow", `["<rootDir>/.fw","<rootDir>/app","<rootDir>","<workspaceDir>"]`, `["<rootDir>/.fw","<srcDir>","<rootDir>","<workspaceDir>"]`},
		{"bundlerA.ui.features.propsDestructure", `true`, `true`},
		{"bundlerA.ui.isProduction", `true`, `true`},
		{"bundlerA.ui.script.hoistStatic", ``, ``},
		{"bundlerA.ui.template.compilerOptions", `{}`, `{}`}, // options files; the reference has no default
		{"bundlerA.uiJsx", ``, `{"defineComponentName":["defineComponent","defineFwComponent"]}`},
		// bundlerB.
		{"bundlerB.aggressiveCodeRemoval", `false`, `false`},
		{"bundlerB.cssSourceMap", `false`, `false`},
		{"bundlerB.devMiddleware.stats", `"none"`, `"none"`},
		{"bundlerB.extractCSS", `true`, `true`},
		{"bundlerB.filenames.app", ``, ``},
		{"bundlerB.filenames.chunk", ``, ``},
		{"bundlerB.friendlyErrors", `true`, `true`},
		{"bundlerB.loaders.css", `{"esModule":false,"importLoaders":0}`, `{"esModule":false,"importLoaders":0}`},
		{"bundlerB.loaders.cssModules", `{"esModule":false,"importLoaders":0,"modules":{"localIdentName":"[local]_[hash:base64:5]"}}`, `{"esModule":false,"importLoaders":0,"modules":{"localIdentName":"[local]_[hash:base64:5]"}}`},
		{"bundlerB.loaders.esbuild", `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`, `{"target":"esnext","jsxFactory":"h","jsxFragment":"Fragment","tsconfigRaw":{}}`},
		{"bundlerB.loaders.file", `{"esModule":false,"limit":1000}`, `{"esModule":false,"limit":1000}`},
		{"bundlerB.loaders.fontUrl", `{"esModule":false,"limit":1000}`, `{"esModule":false,"limit":1000}`},
		{"bundlerB.loaders.imgUrl", `{"esModule":false,"limit":1000}`, `{"esModule":false,"limit":1000}`},
		{"bundlerB.loaders.file.limit", `1000`, `1000`},
		{"bundlerB.loaders.less", `{"sourceMap":false}`, `{"sourceMap":false}`},
		{"bundlerB.loaders.scss", `{"sourceMap":false}`, `{"sourceMap":false}`},
		{"bundlerB.loaders.stylus", `{"sourceMap":false}`, `{"sourceMap":false}`},
		{"bundlerB.loaders.uiStyle", `{"sourceMap":false}`, `{"sourceMap":false}`},
		{"bundlerB.loaders.sass", `{"sassOptions":{"indentedSyntax":true}}`, `{"sassOptions":{"indentedSyntax":true}}`},
		{"bundlerB.loaders.pugPlain", `{}`, `{}`}, // options files
		{"bundlerB.loaders.ui", `{"compilerOptions":{},"propsDestructure":true,"transformAssetUrls":{"video":["src","poster"],"source":["src"],"img":["src"],"image":["xlink:href","href"],"use":["xlink:href","href"]}}`,
			`{"compilerOptions":{},"propsDestructure":true,"transformAssetUrls":{"video":["src","poster"],"source":["src"],"img":["src"],"image":["xlink:href","href"],"use":["xlink:href","href"]}}`},
		{"bundlerB.optimization.minimize", `true`, `true`},
		{"bundlerB.optimization.runtimeChunk", `"single"`, `"single"`},
		{"bundlerB.optimization.splitChunks", `{"automaticNameDelimiter":"/","chunks":"all","cacheGroups":{}}`, `{"automaticNameDelimiter":"/","chunks":"all","cacheGroups":{}}`},
		{"bundlerB.optimizeCSS", `false`, `false`},
		{"bundlerB.plugins", `[]`, `[]`}, // options files
		{"bundlerB.postcss.postcssOptions.plugins", `{"autoprefixer":{},"cssnano":{}}`, `{"autoprefixer":{},"cssnano":{}}`},
		{"bundlerB.profile", `false`, `false`},
		{"bundlerB.serverURLPolyfill", `"url"`, `"url"`},
		{"bundlerB.analyze", `{"template":"treemap","projectRoot":"<rootDir>","filename":"<rootDir>/.fw/analyze/{name}.html"}`, `{"template":"treemap","projectRoot":"<rootDir>","filename":"<rootDir>/.fw/analyze/{name}.html"}`},
	} {
		o := Find(c.path)
		if o == nil {
			t.Errorf("%s: missing", c.path)
			continue
		}
		for _, l := range []struct {
			layout Layout
			want   string
		}{{LayoutA, c.a}, {LayoutB, c.b}} {
			d := o.Default(l.layout)
			if l.want == "" {
				if d.Set {
					t.Errorf("%s layout %s: default %#v, want none", c.path, l.layout, d.Value)
				}
				continue
			}
			var want any
			if err := json.Unmarshal([]byte(l.want), &want); err != nil {
				t.Fatalf("%s: %v", c.path, err)
			}
			if !d.Set || !reflect.DeepEqual(d.Value, want) {
				got, _ := json.Marshal(d.Value)
				t.Errorf("%s layout %s: default %s (set %v), want %s", c.path, l.layout, got, d.Set, l.want)
			}
		}
	}
	// Prose defaults of those tables.
	for _, c := range []struct{ path, note string }{
		{"srcDir", "'.' in major-version-3"},
		{"bundlerA.uiJsx", "isCustomElement"},
		{"bundlerB.cssSourceMap", "true in development"},
		{"bundlerB.optimizeCSS", "true when extractCSS"},
		{"bundlerB.loaders.css", "url.filter"},
	} {
		if o := Find(c.path); o == nil || !strings.Contains(o.DefaultA.Note+o.DefaultB.Note, c.note) {
			t.Errorf("%s: default note lacks %q", c.path, c.note)
		}
	}
}

func TestFind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"app.baseURL", "app.baseURL"},
		// The reference's spelling is the option's path; the options
		// files' neutral spelling is an alias.
		{"experimental.externalVue", "experimental.externalVue"},
		{"experimental.externalUi", "experimental.externalVue"},
		{"experimental.nitroAutoImports", "experimental.nitroAutoImports"},
		{"experimental.engineAutoImports", "experimental.nitroAutoImports"},
		{"bundlerA.esbuild", "bundlerA.esbuild"},
		{"bundlerA.transpilerA", "bundlerA.esbuild"},
		{"bundlerA.optimizeDeps.transpilerAOptions", "bundlerA.optimizeDeps.esbuildOptions"},
		{"bundlerB.loaders.transpilerA", "bundlerB.loaders.esbuild"},
		{"bundlerB.cssproc.cssprocOptions.plugins", "bundlerB.postcss.postcssOptions.plugins"},
		{"bundlerB.postcss.postcssOptions", "bundlerB.postcss.postcssOptions"},
		{"watchers.rewatchOnRawEvents", "watchers.fileWatcher.rewatchOnRawEvents"},
		{"watchers.watcherA", "watchers.fileWatcher"},
		{"experimental.viteEnvironmentApi", "experimental.bundlerAEnvironmentApi"},
		{"experimental.polyfillVueUseHead", "experimental.polyfillUiUseHead"},
		{"experimental.defaults.nuxtLink", "experimental.defaults.fwLink"},
		{"bundlerB.loaders.vue", "bundlerB.loaders.ui"},
		{"bundlerB.loaders.vueStyle", "bundlerB.loaders.uiStyle"},
		{"watchers.fileWatcher.ignoreInitial", "watchers.fileWatcher.ignoreInitial"},
		{"watchers.chokidar.ignoreInitial", "watchers.fileWatcher.ignoreInitial"},
		{"vue", ""}, // top-level keys are already neutral
		{"nitro.routeRules", ""},
		{"experimental.Vue", ""},
		{"experimental.VUE", ""},
		{"app.baseUrl", ""},
		{"", ""},
		{".", ""},
		{"experimental..", ""},
	} {
		got := ""
		if o := Find(c.in); o != nil {
			got = o.Path
		}
		if got != c.want {
			t.Errorf("Find(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKnown(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"app.baseURL", true},
		{"app.head.title", true},               // app.head is open
		{"runtimeConfig.public.apiBase", true}, // runtimeConfig is open
		{"routeRules./sitemap.xml", true},      // a dotted key under an open option
		{"bundlerA.build.rollupOptions.output", true},
		{"hooks.build.done", true},
		{"$production.app.baseURL", true},
		{"$env.staging.ssr", true},
		{"typescript.tsConfig.compilerOptions.strict", true},
		{"imports.presets", true},
		{"experimental.defaults.fwLink.externalRelAttribute", true},
		{"app.basURL", false},
		{"experimental.unknownFlag", false},
		{"dir.foo", false},
		{"i18n", false},
		{"i18n.locales", false},
		{"experimental.viteEnvironmentApi", true},
	} {
		if got := Known(c.path); got != c.want {
			t.Errorf("Known(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestIsFrameworkObject(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"", false},
		{"app", true}, {"dir", true}, {"experimental", true}, {"features", true}, {"future", true},
		{"devServer", true}, {"router", true}, {"typescript", true}, {"generate", true},
		{"experimental.defaults", true}, {"experimental.defaults.useAsyncData", true},
		{"sourcemap", true}, {"devServer.https", true},
		{"ui", false}, // shared with a UI module's options
		{"runtimeConfig", false}, {"runtimeConfig.app", false}, {"hooks", false},
		{"bundlerA", false}, {"bundlerA.build", false}, {"app.head", false}, {"imports", false},
		{"app.baseURL", false}, // not an object
		{"i18n", false},
	} {
		if got := IsFrameworkObject(c.path); got != c.want {
			t.Errorf("IsFrameworkObject(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestSiblings(t *testing.T) {
	got := Siblings("future")
	want := []string{"compatibilityVersion", "multiApp", "typescriptBundlerResolution"}
	if !slices.Equal(got, want) {
		t.Errorf("Siblings(future) = %v, want %v", got, want)
	}
	if got := Siblings("watchers.fileWatcher"); !slices.Equal(got, []string{"ignoreInitial", "ignorePermissionErrors", "rewatchOnRawEvents"}) {
		t.Errorf("Siblings(watchers.fileWatcher) = %v", got)
	}
	// An alias's siblings are the option's: a config's watchers.chokidar.
	if got := Siblings("watchers.chokidar"); !slices.Equal(got, []string{"ignoreInitial", "ignorePermissionErrors", "rewatchOnRawEvents"}) {
		t.Errorf("Siblings(watchers.chokidar) = %v", got)
	}
	top := Siblings("")
	for _, n := range []string{"app", "srcDir", "experimental", "$production", "runtimeConfig"} {
		if !slices.Contains(top, n) {
			t.Errorf("Siblings(\"\") lacks %s", n)
		}
	}
	if slices.Contains(top, "baseURL") {
		t.Error("Siblings(\"\") has a nested name")
	}
	if Siblings("nope") != nil {
		t.Error("Siblings(nope) is not empty")
	}
}

func TestPaths(t *testing.T) {
	var want []string
	for _, o := range Options() {
		want = append(want, o.Path)
	}
	if got := Paths(); !slices.Equal(got, want) {
		t.Errorf("Paths() differs from the paths of Options()")
	}
}

// TestMovedNames checks suggest's map against the search it replaces.
func TestMovedNames(t *testing.T) {
	for _, p := range Paths() {
		if !isASCII(p) {
			t.Errorf("option path %q is not ASCII: movedNames assumes it is", p)
		}
		_, n := splitLast(p)
		for _, name := range []string{n, strings.ToLower(n), strings.ToUpper(n), n + "x"} {
			if got, want := movedNames()[strings.ToLower(name)], movedOption(name); got != want {
				t.Errorf("movedNames[%q] = %q, movedOption gives %q", name, got, want)
			}
		}
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"app.baseUrl", "app.baseURL"},
		{"app.basURL", "app.baseURL"},
		{"experimental.componentIsland", "experimental.componentIslands"},
		{"experimental.typescriptBundlerResolution", "future.typescriptBundlerResolution"},
		{"compatibilityVersion", "future.compatibilityVersion"},
		{"srcdir", "srcDir"},
		{"runtimeconfig", "runtimeConfig"},
		{"i18n", ""},
		{"head", "app.head"},
		{"image", ""},  // not ui.transformAssetUrls.image: a module's key
		{"target", ""}, // not transpilerA.options.target
		{"env", ""},    // not $env
		{"build.plugins", ""},
		{"router.middleware", ""},
		{"componentMeta", ""},
		{"experimental.somethingElseEntirely", ""},
		{"dir.pages", ""}, // known: nothing to suggest
		{"", ""},
	} {
		// Twice: the second answer comes from the memo.
		for range 2 {
			if got := Suggest(c.in); got != c.want {
				t.Errorf("Suggest(%q) = %q, want %q", c.in, got, c.want)
			}
		}
	}
}

// TestHasProductWord checks neutral's fast path against the rewrite it
// skips: hasProductWord must be true exactly when neutralSegments changes
// the path.
func TestHasProductWord(t *testing.T) {
	paths := []string{
		"experimental.viteEnvironmentApi", "vite.build", "bundlerA.vite", "a.Vite", "a.VITE", "a.viTe",
		"a.myViteThing", "a.postcssOptions", "a.PostcssX", "a.xNuxt", "a.nuxtx", "a..vite", "a.vite.", ".vite",
		"a.chokidar", "a.chokidarWatch", "a.esbuildOptions", "a.oxc", "a.OXC", "a.webpackChunkName",
		"runtimeConfig.public.apiBase", "", ".", "a", "a.b", "hooks.vite:extendConfig", "a.b-vite", "a.vite_x",
	}
	for _, o := range Options() {
		paths = append(paths, o.Path, "x."+o.Path)
	}
	for _, p := range paths {
		if got, want := hasProductWord(p), neutralSegments(p) != p; got != want {
			t.Errorf("hasProductWord(%q) = %v, but neutralSegments gives %q", p, got, neutralSegments(p))
		}
	}
}

func TestUnscope(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"$production.app.baseURL", "app.baseURL", true},
		{"$development.ssr", "ssr", true},
		{"$test.modules", "modules", true},
		{"$env.staging.app.baseURL", "app.baseURL", true},
		{"$env.staging", "$env.staging", false},
		{"app.baseURL", "app.baseURL", false},
		{"$production", "$production", false},
	} {
		got, ok := Unscope(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Unscope(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestOptionJSON(t *testing.T) {
	b, err := json.Marshal(Find("spaLoadingTemplate"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"path", "type", "defaultA", "defaultB", "layouts", "status", "replacement", "doc"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
	if m["defaultA"] != nil {
		t.Errorf("null default rendered as %v", m["defaultA"])
	}
	b, _ = json.Marshal(Find("css"))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(Find("compatibilityDate"))
	m = nil
	json.Unmarshal(b, &m)
	if _, ok := m["defaultA"]; ok {
		t.Errorf("missing default rendered: %s", b)
	}
}

// TestOptionsGolden pins the JSON form of the whole knowledge base (the
// output of fwmigrate options --format=json): every default of every table,
// per layout. Run with -update after a deliberate change and review the diff.
func TestOptionsGolden(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Options()); err != nil {
		t.Fatal(err)
	}
	const file = "testdata/options.json"
	golden.Check(t, file, b.Bytes())
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The golden file itself is valid JSON with one entry per option.
	var entries []map[string]any
	if err := json.Unmarshal(want, &entries); err != nil || len(entries) != len(Options()) {
		t.Errorf("%s: %d entries, %v", file, len(entries), err)
	}
}

func FuzzLookups(f *testing.F) {
	for _, s := range []string{"app.baseURL", "experimental.viteEnvironmentApi", "$env.x.app", "a..b", ".", "routeRules./x.xml", "é.Vue"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		Find(path)
		known := Known(path)
		IsFrameworkObject(path)
		Siblings(path)
		Unscope(path)
		if s := Suggest(path); s != "" && (known || !Known(s)) {
			t.Fatalf("Suggest(%q) = %q (known %v)", path, s, known)
		}
	})
}

func BenchmarkKnown(b *testing.B) {
	paths := []string{"app.baseURL", "runtimeConfig.public.apiBase", "bundlerA.build.rollupOptions.output.manualChunks", "experimental.viteEnvironmentApi", "i18n.locales"}
	for b.Loop() {
		for _, p := range paths {
			Known(p)
		}
	}
}

func BenchmarkSuggestUncached(b *testing.B) {
	for b.Loop() {
		suggest("experimental.typescriptBundlerResolution")
		suggest("app.basURL")
	}
}

func BenchmarkSuggest(b *testing.B) {
	for b.Loop() {
		Suggest("experimental.typescriptBundlerResolution")
		Suggest("app.basURL")
	}
}

// TestDistanceBelow checks the early exit against the full distance.
func TestDistanceBelow(t *testing.T) {
	words := []string{"", "a", "ssr", "srr", "baseURL", "baseUrl", "basURL", "typescriptBundlerResolution", "componentIslands", "héad", "head", "ünïcödé", strings.Repeat("x", 60), strings.Repeat("x", 57) + "y"}
	for _, a := range words {
		for _, b := range words {
			d := Distance(a, b)
			if d != Distance(b, a) {
				t.Errorf("Distance(%q, %q) = %d, but %d the other way", a, b, d, Distance(b, a))
			}
			for bound := 0; bound <= d+2; bound++ {
				got := distanceBelow(a, b, bound)
				if d < bound && got != d || d >= bound && got < bound {
					t.Errorf("distanceBelow(%q, %q, %d) = %d; Distance is %d", a, b, bound, got, d)
				}
			}
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d, want 3", d)
	}
}
