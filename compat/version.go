package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Major describes one framework major version (migration facts §4).
type Major struct {
	Major         int
	Compat        []int // accepted future.compatibilityVersion values
	DefaultCompat int
	Preview       []int // opt-in previews of the next major's defaults
	Note          string
}

var majors = []Major{
	{Major: 3, Compat: []int{3, 4}, DefaultCompat: 3,
		Note: "4 opts into every version-4 default and turns on srcDir detection; any other value keeps version-3 defaults (the checks test for exactly 4). Each layer must set it itself."},
	{Major: 4, Compat: []int{4, 5}, DefaultCompat: 4, Preview: []int{5},
		Note: "4.0.0 forces 4. Later 4.x keeps a numeric value but checks >= 5, so 3 behaves like 4 (and is a type error) and 4 is redundant; 5 opts into the compatibility-5 defaults."},
}

// Majors returns the framework majors compat knows, oldest first.
func Majors() []Major { return append([]Major(nil), majors...) }

// EffectiveCompat returns the compatibility version a project runs with,
// given its framework major (0 when unknown, which is treated as 3) and the
// state and value of future.compatibilityVersion. It returns 0 and the
// reason when that cannot be known before the config runs.
func EffectiveCompat(major int, v any, st ValueState) (int, string) {
	if st == Dynamic {
		return 0, "future.compatibilityVersion is set at run time"
	}
	n, isNum := v.(float64)
	if major >= 4 {
		if st == Static && isNum && n >= 5 {
			return 5, "framework major 4 with future.compatibilityVersion >= 5"
		}
		return 4, "framework major 4"
	}
	if st == Static && isNum && n == 4 {
		return 4, "future.compatibilityVersion is 4"
	}
	if major == 3 {
		return 3, "framework major 3 without future.compatibilityVersion: 4"
	}
	return 3, "framework major unknown; no future.compatibilityVersion: 4"
}

// Flip is a default that changes between compatibility 3 and 4 (migration
// facts §6 and the reference's Versioning section).
type Flip struct {
	Path string
	// V3 and V4 are the defaults before and after: under compatibility 3
	// and 4 (for FlipsTo(5): under 4 and 5).
	V3, V4    Default
	Restore   Default // the value that restores version-3 behaviour (Set false: there is none)
	OnV4      bool    // Restore works on framework major 4
	OnCompat4 bool    // Restore works on v3 with compatibility 4
	Note      string
}

func val(v any) Default { return Default{Value: v, Set: true} }

func valNote(v any, note string) Default { return Default{Value: v, Set: true, Note: note} }

var flips = []Flip{
	{Path: "srcDir", V3: val("<rootDir>"), V4: valNote("<rootDir>/app", "when app/ is detected"), Restore: val("."), OnV4: true, OnCompat4: true,
		Note: "Set together with dir.app: 'app' to keep layout B."},
	{Path: "dir.app", V3: val("app"), V4: val("<srcDir>"), Restore: val("app"), OnV4: true, OnCompat4: true},
	{Path: "serverDir", V3: val("<srcDir>/server"), V4: val("<rootDir>/server"), Restore: val("<srcDir>/server"), OnV4: true, OnCompat4: true,
		Note: "Only matters when srcDir is not the root; write the path from the root, e.g. 'src/server' (values resolve against rootDir)."},
	{Path: "dir.modules", V3: valNote("modules", "relative to srcDir"), V4: val("<rootDir>/modules"), Restore: val("<srcDir>/modules"), OnV4: true, OnCompat4: true,
		Note: "Only matters when srcDir is not the root; write the path from the root, e.g. 'src/modules'."},
	{Path: "dir.public", V3: valNote("public", "relative to srcDir"), V4: val("<rootDir>/public"), Restore: val("<srcDir>/public"), OnV4: true, OnCompat4: true,
		Note: "Only matters when srcDir is not the root; write the path from the root, e.g. 'src/public'."},
	{Path: "experimental.scanPageMeta", V3: val(true), V4: val("after-resolve"), Restore: val(true), OnV4: true, OnCompat4: true},
	{Path: "experimental.sharedPrerenderData", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, OnCompat4: true},
	{Path: "experimental.normalizeComponentNames", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, OnCompat4: true},
	{Path: "experimental.spaLoadingTemplateLocation", V3: val("within"), V4: val("body"), Restore: val("within"), OnV4: true, OnCompat4: true},
	{Path: "experimental.parseErrorData", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, OnCompat4: true},
	{Path: "experimental.pendingWhenIdle", V3: val(true), V4: val(false), Restore: val(true), OnV4: true, OnCompat4: true},
	{Path: "experimental.alwaysRunFetchOnKeyChange", V3: val(true), V4: val(false), Restore: val(true), OnV4: true, OnCompat4: true},
	{Path: "experimental.granularCachedData", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, OnCompat4: true,
		Note: "Usually together with experimental.purgeCachedData: false."},
	{Path: "experimental.defaults.useAsyncData.deep", V3: val(true), V4: val(false), Restore: val(true), OnV4: true, OnCompat4: true},
	{Path: "experimental.defaults.useAsyncData.value", V3: val("null"), V4: val("undefined"), Restore: val("null"), OnCompat4: true,
		Note: "Removed in framework major 4: data always defaults to undefined."},
	{Path: "experimental.defaults.useAsyncData.errorValue", V3: val("null"), V4: val("undefined"), Restore: val("null"), OnCompat4: true,
		Note: "Removed in framework major 4: error always defaults to undefined."},
	{Path: "experimental.compileTemplate", V3: val(true), V4: val(false), Restore: val(true), OnCompat4: true, Note: "Removed in framework major 4."},
	{Path: "experimental.templateUtils", V3: val(true), V4: val(false), Restore: val(true), OnCompat4: true, Note: "Removed in framework major 4."},
	{Path: "experimental.relativeWatchPaths", V3: val(true), V4: val(false), Restore: val(true), OnCompat4: true, Note: "Removed in framework major 4."},
	{Path: "experimental.resetAsyncDataToUndefined", V3: val(true), V4: val(false), Restore: val(true), OnCompat4: true, Note: "Removed in framework major 4."},
	{Path: "features.inlineStyles", V3: val(true), V4: Default{Note: "a function: inline only for ids containing .vue"}, Restore: val(true), OnV4: true, OnCompat4: true},
	{Path: "headmgr.renderSSRHeadOptions.omitLineBreaks", V3: val(false), V4: val(true), Restore: val(false), OnV4: true,
		Note: "On v3 with compatibility 4 the resolver overwrites any user value with true."},
	{Path: "typescript.tsConfig.compilerOptions.noUncheckedIndexedAccess", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, OnCompat4: true,
		Note: "The flag of the generated type configurations."},
}

// Flips returns the defaults that change with compatibility version 4.
func Flips() []Flip { return FlipsTo(4) }

// FlipsTo returns the defaults that change when a project moves to
// compatibility version v from the one before: 4 (from 3: migration facts
// §6) or 5 (from 4, an opt-in of recent 4.x: facts §8); nil for others.
func FlipsTo(v int) []Flip {
	switch v {
	case 4:
		return append([]Flip(nil), flips...)
	case 5:
		return append([]Flip(nil), flips5...)
	}
	return nil
}

// flips5 are the defaults compatibility version 5 flips on framework
// major 4 (migration facts §8). Each is restored by setting the version-4
// value, which major 4 honours (OnV4); OnCompat4 is false: there is no
// compatibility version 5 on v3.
var flips5 = []Flip{
	{Path: "experimental.bundlerAEnvironmentApi", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.typedPages", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.normalizePageNames", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.extractSerializablePageMeta", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.clientNodePlaceholder", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.inlineErrorRendering", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.navigateToEarlyReturn", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.routeTypedFetch", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.defaults.useState.resetOnClear", V3: val(false), V4: val(true), Restore: val(false), OnV4: true},
	{Path: "experimental.asyncCallHook", V3: val(true), V4: val(false), Restore: val(true), OnV4: true},
	{Path: "experimental.engineAutoImports", V3: val(true), V4: val(false), Restore: val(true), OnV4: true},
	{Path: "experimental.payloadExtraction", V3: val(true), V4: valNote("client", "always false when ssr is false"), Restore: val(true), OnV4: true},
	{Path: "experimental.watcher", V3: valNote("watcherA", "watcherA-granular in some setups"), V4: val("builder"), Restore: val("watcherA"), OnV4: true},
	{Path: "router.options.sensitive", V3: val(false), V4: val(true), Restore: val(false), OnV4: true, Note: "Routes become case-sensitive."},
	{Path: "ui.optionsApi", V3: val(true), V4: val(false), Restore: val(true), OnV4: true, Note: "Also __UI_OPTIONS_API__."},
	{Path: "cssproc.plugins.autoprefixer", V3: val(map[string]any{}), V4: val(false), Restore: val(map[string]any{}), OnV4: true},
	{Path: "cssproc.plugins.cssnano", V3: val(map[string]any{}), V4: val(false), Restore: val(map[string]any{}), OnV4: true},
}

// Removal is an option removed in version 4 or the next major (migration
// facts §5 and the reference's Versioning section).
type Removal struct {
	Path        string
	When        Status  // RemovedV4 or RemovedNextMajor (see Status)
	V4          Default // the behaviour version 4 has, as the option's value (Set false: none)
	Replacement string
	Why         string
}

var removals = []Removal{
	{Path: "experimental.compileTemplate", When: RemovedNextMajor, V4: val(false),
		Why: "Templates use getContents() instead of template files compiled with a template engine."},
	{Path: "experimental.templateUtils", When: RemovedNextMajor, V4: val(false),
		Why: "The legacy template utilities are gone; use a code-generation helper package (genSafeVariableName, genImport, ...)."},
	{Path: "experimental.relativeWatchPaths", When: RemovedNextMajor, V4: val(false),
		Why: "The builder:watch hook receives absolute paths; compute relative(srcDir, resolve(srcDir, path)) with the path module."},
	{Path: "experimental.resetAsyncDataToUndefined", When: RemovedNextMajor, V4: val(false),
		Why: "clear and clearFwData always reset to undefined."},
	{Path: "experimental.treeshakeClientOnly", When: RemovedV4, V4: val(true),
		Why: "Always true; v3 with compatibility 4 warns and forces true when it is set to false."},
	{Path: "experimental.configSchema", When: RemovedV4, V4: val(true),
		Why: "Always true; v3 with compatibility 4 warns and forces true when it is set to false."},
	{Path: "experimental.polyfillUiUseHead", When: RemovedV4, V4: val(false),
		Why: "Always false; provide the old head API with a user-land plugin."},
	{Path: "experimental.respectNoSSRHeader", When: RemovedV4, V4: val(false),
		Why: "Always false; honour the x-fw-no-ssr header with user-land server middleware."},
	{Path: "experimental.defaults.useAsyncData.value", When: RemovedNextMajor, V4: val("undefined"),
		Why: "data always defaults to undefined."},
	{Path: "experimental.defaults.useAsyncData.errorValue", When: RemovedNextMajor, V4: val("undefined"),
		Why: "error always defaults to undefined."},
	{Path: "bundlerA.devBundler", When: RemovedNextMajor, V4: val("bundlerA-node"),
		Why: "Typed only; framework major 4 always uses bundlerA-node."},
	{Path: "bundlerA.publicDir", When: RemovedNextMajor, V4: val(false), Replacement: "dir.public",
		Why: "Ignored (forced to false); the public directory is dir.public."},
	{Path: "dir.static", When: RemovedNextMajor, Replacement: "dir.public",
		Why: "The deprecated alias of dir.public; framework major 4 ignores it (v3 with compatibility 4 still falls back to it)."},
	{Path: "generate.routes", When: RemovedNextMajor, Replacement: "engine.prerender.routes",
		Why: "Not part of the typed version-4 config; the resolver still appends the value to the prerender routes."},
	{Path: "generate.exclude", When: RemovedNextMajor, Replacement: "engine.prerender.ignore",
		Why: "Not part of the typed version-4 config, and already without effect in v3."},
}

// Removed returns the options removed in version 4 or the next major.
func Removed() []Removal { return append([]Removal(nil), removals...) }

// major2Keys are config keys that framework major 2 (and older) reads and
// majors 3 and 4 do not: buildModules (modules loaded at build time only),
// target ('server' or 'static'), a top-level head (majors 3 and 4 read
// app.head), build.extractCSS (now bundlerB.extractCSS), loading (the
// progress bar) and mode ('spa' or 'universal'; majors 3 and 4 read ssr).
// None is an option in options-v3.json or options-v4.json. Real major-3
// configs keep some as leftovers (a top-level head beside app.head; target
// and mode in corpus 033), so one key alone proves nothing: Major2Evidence
// asks for a combination.
var major2Keys = []string{"buildModules", "target", "head", "build.extractCSS", "loading", "mode"}

// Major2Keys returns the keys that only framework major 2 reads, as option
// paths.
func Major2Keys() []string { return append([]string(nil), major2Keys...) }

// BridgePackage is the package that brings major-3 features to framework
// major 2: a config that imports defineFwConfig from it, or lists it as a
// module, runs major 2.
const BridgePackage = "@fw/bridge"

// Major2Evidence says why a config runs framework major 2 when its
// package.json does not say which major it runs, "" when nothing says so.
// keys are the Major2Keys paths the config sets, plain reports an exported
// object that defineFwConfig does not wrap (major 2's export default {...}
// or module.exports), bridge a mention of BridgePackage. The rule: the
// bridge; or two of the keys in a plain export; or three of them anywhere.
// A major-3 config with a leftover or two (corpus 033: target and mode in
// defineFwConfig) is not taken for major 2.
func Major2Evidence(keys []string, plain, bridge bool) string {
	switch {
	case bridge:
		return "it uses " + BridgePackage + ", the bridge that brings major-3 features to major 2"
	case len(keys) >= 3 || len(keys) >= 2 && plain:
		what := "sets " + joinTicks(keys) + ", which only major 2 reads"
		if plain {
			what += ", and exports a plain object, as major-2 configs do"
		}
		return "it " + what
	}
	return ""
}

// joinTicks writes names as `a`, `b` and `c`.
func joinTicks(names []string) string {
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("`" + n + "`")
	}
	return b.String()
}

// FrameworkMajor returns the major version of the fw dependency declared in
// root/package.json (dependencies, then devDependencies), when the range
// pins one: "^3.12.0", "~4.0", "3.x", ">=3.8 <4" and "4.0.0-rc.1" do;
// "latest", "*", ">=3", "npm:...", "workspace:...", "catalog:..." and git
// or file specs do not.
func FrameworkMajor(root string) (int, bool) {
	major, _ := PackageMajor(root)
	return major, major > 0
}

// PackageError is a package.json that cannot be used: invalid JSON (at
// Line and Column, 1-based, in bytes), a field of the wrong type, or a
// symlink out of the project.
type PackageError struct {
	Path         string
	Line, Column int // 0 when the error has no position
	Msg          string
}

func (e *PackageError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// PackageMajor is FrameworkMajor with the reason it cannot tell: a
// *PackageError for a package.json that is there but cannot be used (nil
// when there is none, or it does not pin a major). A package.json that is
// a symlink to a file outside root is not read: a project's facts are its
// own.
func PackageMajor(root string) (int, error) {
	path := filepath.Join(root, "package.json")
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		if rr, err := filepath.EvalSymlinks(root); err == nil && !strings.HasPrefix(real, rr+string(filepath.Separator)) {
			return 0, &PackageError{Path: path, Msg: "a symlink to " + real + ", outside the project: not read"}
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, nil
	}
	return ParsePackageMajor(path, b)
}

// ParsePackageMajor is PackageMajor of a package.json's text b (an
// editor's unsaved buffer, through project.Loader.Overlay); path names it
// in errors.
func ParsePackageMajor(path string, b []byte) (int, error) {
	var pkg struct {
		Dependencies    map[string]any `json:"dependencies"`
		DevDependencies map[string]any `json:"devDependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		e := &PackageError{Path: path, Msg: "invalid JSON: " + err.Error()}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		off := int64(-1)
		switch {
		case errors.As(err, &se):
			off = se.Offset - 1 // the offending byte
		case errors.As(err, &te):
			off = te.Offset - 1
			e.Msg = fmt.Sprintf("%s is %s, not an object", te.Field, te.Value)
		}
		if off >= 0 {
			e.Line, e.Column = lineColumn(b, int(min(off, int64(len(b)))))
		}
		return 0, e
	}
	for _, deps := range []map[string]any{pkg.Dependencies, pkg.DevDependencies} {
		if spec, ok := deps["fw"].(string); ok {
			major, _ := rangeMajor(spec)
			return major, nil
		}
	}
	return 0, nil
}

// lineColumn returns the 1-based line and byte column of offset in b.
func lineColumn(b []byte, offset int) (line, col int) {
	line = 1 + bytes.Count(b[:offset], []byte("\n"))
	col = offset - (bytes.LastIndexByte(b[:offset], '\n') + 1) + 1
	return line, col
}

// rangeMajor returns the one major version an npm semver range allows.
func rangeMajor(spec string) (int, bool) {
	spec = strings.TrimSpace(spec)
	if strings.Contains(spec, ":") || strings.Contains(spec, "/") {
		return 0, false // npm:, workspace:, catalog:, file:, git and URLs
	}
	major := -1
	for _, alt := range strings.Split(spec, "||") {
		m, ok := setMajor(strings.TrimSpace(alt))
		if !ok || major >= 0 && m != major {
			return 0, false
		}
		major = m
	}
	return major, major > 0
}

// setMajor handles one comparator set: "3.1.0 - 3.5", "^3.1", ">=3.8.0 <4.0.0".
func setMajor(set string) (int, bool) {
	if lo, hi, ok := strings.Cut(set, " - "); ok {
		a, aok := versionMajor(strings.TrimSpace(lo))
		b, bok := versionMajor(strings.TrimSpace(hi))
		return a, aok && bok && a == b
	}
	fields := strings.Fields(set)
	switch len(fields) {
	case 1:
		v := strings.TrimLeft(fields[0], "^~=v")
		if strings.HasPrefix(v, "<") || strings.HasPrefix(v, ">") {
			return 0, false // open-ended
		}
		return versionMajor(v)
	case 2:
		lo, hi := fields[0], fields[1]
		if !strings.HasPrefix(lo, ">=") {
			return 0, false
		}
		a, ok := versionMajor(lo[2:])
		if !ok {
			return 0, false
		}
		switch {
		case strings.HasPrefix(hi, "<="):
			b, ok := versionMajor(hi[2:])
			return a, ok && b == a
		case strings.HasPrefix(hi, "<"):
			// <4, <4.0 and <4.0.0 end major 3; <3.9 stays in it.
			v := strings.TrimPrefix(hi[1:], "=")
			b, ok := versionMajor(v)
			if !ok {
				return 0, false
			}
			rest := strings.TrimLeft(strings.TrimPrefix(v, strconv.Itoa(b)), ".0")
			if rest == "" || strings.HasPrefix(rest, "-") {
				return a, b == a+1
			}
			return a, b == a
		}
	}
	return 0, false
}

// versionMajor returns the major of "3", "3.x", "3.12.0", "v4.0.0-rc.1".
func versionMajor(v string) (int, bool) {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "="), "v")
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	if end == 0 || end < len(v) && v[end] != '.' && v[end] != '-' {
		return 0, false
	}
	n, err := strconv.Atoi(v[:end])
	return n, err == nil && n > 0
}
