package compat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Detection is what Detect finds out about a project (or a layer: each
// layer resolves its own srcDir, so call Detect once per layer root).
type Detection struct {
	Root string // absolute

	// Layout is what version-4 srcDir detection (migration facts §1) makes
	// of the tree on disk, which is where the migration goes. An explicit
	// srcDir of '.' is B, of 'app' is A or mixed, of anything else custom.
	Layout       Layout
	SrcDirReason string   // how the version-4 srcDir was chosen
	Stray        []string // LayoutMixed: root entries version 4 ignores (dirs end in "/"), sorted

	Major      int    // framework major from package.json; 0 when unknown
	MajorErr   error  // why package.json cannot tell (a *PackageError), nil when it is fine
	Compat     int    // the compatibility version the project runs with today; 0 when unknown
	CompatNote string // how Compat was derived, or why it is unknown

	Current Resolution // as the project resolves today (Compat)
	V4      Resolution // as it would resolve under compatibility version 4
}

// Resolution holds absolute paths as the framework resolves them. A field
// that cannot be known before the config runs is "" (absent from the maps)
// and listed in Unknown with the reason.
type Resolution struct {
	Compat    int // 3 or 4; 0 when Current depends on an unknown compatibility version
	SrcDir    string
	ServerDir string
	BuildDir  string
	Dir       map[string]string // app, assets, layouts, middleware, modules, pages, plugins, public, shared
	Alias     map[string]string // ~ @ ~~ @@ #shared #server assets <basename of dir.public> #build #internal/fw/paths
	Unknown   map[string]string // "srcDir", "dir.pages", "alias.~", ... -> why it is unknown
}

// Get returns a resolved path by name: "srcDir", "serverDir", "buildDir",
// "dir.<name>" or "alias.<name>". ok is false when it is unknown or absent.
func (r *Resolution) Get(name string) (string, bool) {
	var v string
	switch {
	case name == "srcDir":
		v = r.SrcDir
	case name == "serverDir":
		v = r.ServerDir
	case name == "buildDir":
		v = r.BuildDir
	case strings.HasPrefix(name, "dir."):
		v = r.Dir[name[4:]]
	case strings.HasPrefix(name, "alias."):
		v = r.Alias[name[6:]]
	}
	return v, v != ""
}

// DirNames are the dir.* options Detect resolves.
var DirNames = []string{"app", "assets", "layouts", "middleware", "modules", "pages", "plugins", "public", "shared"}

// probeDirs are the dir.* values srcDir detection probes at the root.
var probeDirs = []string{"assets", "layouts", "middleware", "pages", "plugins"}

// strayDirs and strayFiles are the layout-B sources at the root that
// version 4 no longer sees once app/ is srcDir.
var (
	strayDirs  = []string{"assets", "components", "composables", "layouts", "middleware", "pages", "plugins", "utils"}
	strayFiles = []string{"app.vue", "App.vue", "error.vue"}
)

// Detect resolves the project at root with config cfg: its layout, its
// srcDir per migration-facts §1, and every path and default alias both as
// it resolves today and as it would under compatibility version 4. Values
// set at run time make the fields that depend on them unknown; Detect never
// guesses. The error is an I/O error other than a missing file.
func Detect(root string, cfg Config) (*Detection, error) {
	major, err := PackageMajor(root)
	return DetectMajor(root, cfg, major, err)
}

// DetectMajor is Detect with the framework major given (0 when unknown,
// majorErr why: PackageMajor's answer) instead of read from
// root/package.json: an editor's unsaved package.json says it
// (project.Loader.Overlay).
func DetectMajor(root string, cfg Config, major int, majorErr error) (*Detection, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", root, err)
	}
	d := &Detection{Root: abs, Major: major, MajorErr: majorErr}

	src, err := detectSrcDir(abs, cfg)
	if err != nil {
		return nil, err
	}
	d.SrcDirReason = src.reason
	v4 := resolve(abs, cfg, 4, d.Major, src)
	d.V4 = v4

	v, st := cfg.Value("future.compatibilityVersion")
	d.Compat, d.CompatNote = EffectiveCompat(d.Major, v, st)
	switch d.Compat {
	case 0:
		d.Current = merge(resolve(abs, cfg, 3, d.Major, src), v4, d.CompatNote)
	case 3:
		d.Current = resolve(abs, cfg, 3, d.Major, src)
	default:
		d.Current = v4
	}

	if d.Layout, d.Stray, err = classify(abs, cfg, src); err != nil {
		return nil, err
	}
	return d, nil
}

// srcDirResult is the outcome of version-4 srcDir detection.
type srcDirResult struct {
	dir      string // "" when unknown
	reason   string // how it was chosen, or why it is unknown
	explicit bool   // an explicit srcDir decided it
	value    string // the explicit value
}

// detectSrcDir runs the algorithm of migration facts §1.
func detectSrcDir(root string, cfg Config) (srcDirResult, error) {
	v, st := cfg.Value("srcDir")
	if st == Dynamic {
		return srcDirResult{reason: "srcDir is set at run time"}, nil
	}
	if s, ok := v.(string); st == Static && ok && s != "" {
		return srcDirResult{dir: resolvePath(root, s), reason: fmt.Sprintf("explicit srcDir %q", s), explicit: true, value: s}, nil
	}
	app := filepath.Join(root, "app")
	fi, err := os.Stat(app)
	if errors.Is(err, fs.ErrNotExist) {
		return srcDirResult{dir: root, reason: "no app/ directory"}, nil
	}
	if err != nil {
		return srcDirResult{}, err
	}
	if !fi.IsDir() {
		return srcDirResult{reason: "app exists but is not a directory"}, nil
	}
	entries, err := os.ReadDir(app)
	if err != nil {
		return srcDirResult{}, err
	}
	var counted []string
	for _, e := range entries {
		if n := e.Name(); n != "spa-loading-template.html" && !strings.HasPrefix(n, "router.options") {
			counted = append(counted, n)
		}
	}
	if len(counted) > 0 {
		return srcDirResult{dir: app, reason: fmt.Sprintf("app/ holds %s", counted[0])}, nil
	}
	what := "app/ is empty"
	if len(entries) > 0 {
		what = "app/ holds only " + entries[0].Name()
		if len(entries) > 1 {
			what += " and the like"
		}
	}
	for _, n := range []string{"app.vue", "App.vue"} {
		if ok, err := exists(filepath.Join(root, n)); err != nil {
			return srcDirResult{}, err
		} else if ok {
			return srcDirResult{dir: root, reason: fmt.Sprintf("%s and %s exists at the root", what, n)}, nil
		}
	}
	for _, k := range probeDirs {
		p, why := dirValue(cfg, k, k)
		if why != "" {
			return srcDirResult{reason: fmt.Sprintf("%s and %s", what, why)}, nil
		}
		if ok, err := exists(resolvePath(root, p)); err != nil {
			return srcDirResult{}, err
		} else if ok {
			return srcDirResult{dir: root, reason: fmt.Sprintf("%s and %s exists at the root (dir.%s)", what, p, k)}, nil
		}
	}
	return srcDirResult{dir: app, reason: what + " and nothing at the root marks layout B"}, nil
}

// dirValue returns the configured value of dir.<k>, or def when it is not
// set; why is non-empty when the value cannot be known.
func dirValue(cfg Config, k, def string) (value, why string) {
	v, st := cfg.Value("dir." + k)
	switch st {
	case Dynamic:
		return "", "dir." + k + " is set at run time"
	case Static:
		if s, ok := v.(string); ok && s != "" {
			return s, ""
		}
		return "", fmt.Sprintf("dir.%s is not a path (%v)", k, v)
	}
	return def, ""
}

func exists(p string) (bool, error) {
	_, err := os.Stat(p)
	if err == nil {
		return true, nil
	}
	// A path through a regular file (ENOTDIR) does not exist either.
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return false, nil
	}
	return false, err
}

// resolvePath is node's path.resolve(base, p) for one segment.
func resolvePath(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// resolve computes the paths of one compatibility version: 3 (v3 defaults)
// or 4 (version-4 defaults; major says whether dir.static still counts).
func resolve(root string, cfg Config, compat, major int, src srcDirResult) Resolution {
	r := Resolution{Compat: compat, Dir: map[string]string{}, Alias: map[string]string{}, Unknown: map[string]string{}}
	unknown := func(field, why string) { r.Unknown[field] = why }

	// srcDir: v3 never detects.
	if compat == 3 {
		v, st := cfg.Value("srcDir")
		s, ok := v.(string)
		switch {
		case st == Dynamic:
			unknown("srcDir", "srcDir is set at run time")
		case st == Static && ok && s != "":
			r.SrcDir = resolvePath(root, s)
		default:
			r.SrcDir = root
		}
	} else if src.dir == "" {
		unknown("srcDir", src.reason)
	} else {
		r.SrcDir = src.dir
	}

	// A path option: explicit values resolve against the root in both versions.
	rootOption := func(name, def string) string {
		v, st := cfg.Value(name)
		s, ok := v.(string)
		switch {
		case st == Dynamic:
			unknown(name, name+" is set at run time")
		case st == Static && ok && s != "":
			return resolvePath(root, s)
		case st == Static:
			unknown(name, fmt.Sprintf("%s is not a path (%v)", name, v))
		case def == "":
			unknown(name, "srcDir is unknown")
		default:
			return def
		}
		return ""
	}
	serverDef := filepath.Join(root, "server")
	if compat == 3 {
		serverDef = ""
		if r.SrcDir != "" {
			serverDef = filepath.Join(r.SrcDir, "server")
		}
	}
	r.ServerDir = rootOption("serverDir", serverDef)
	r.BuildDir = rootOption("buildDir", filepath.Join(root, ".fw"))

	// dir.*: some against srcDir, some against the root (migration facts §3).
	for _, k := range DirNames {
		base := r.SrcDir
		def := k
		switch k {
		case "app":
			if compat >= 4 && r.SrcDir != "" && r.SrcDir != root {
				def = "."
			}
		case "modules", "public":
			if compat >= 4 {
				base = root
			}
		case "shared":
			base = root
		}
		value, why := dirValue(cfg, k, "")
		if k == "public" && value == "" && why == "" && (compat == 3 || major == 3) {
			// v3 (also with compatibility 4) falls back to the deprecated
			// dir.static; major 4 ignores it.
			value, why = dirValue(cfg, "static", "")
		}
		switch {
		case why != "":
			unknown("dir."+k, why)
		case base == "":
			unknown("dir."+k, "srcDir is unknown")
		case value == "":
			r.Dir[k] = resolvePath(base, def)
		default:
			r.Dir[k] = resolvePath(base, value)
		}
	}

	// Default aliases (migration facts §2; the reference's layout-A table
	// keeps assets and public, and the reference decides).
	set := func(name, p, why string) {
		if p == "" {
			unknown("alias."+name, why)
			return
		}
		r.Alias[name] = p
	}
	srcWhy := "srcDir is unknown"
	set("~", r.SrcDir, srcWhy)
	set("@", r.SrcDir, srcWhy)
	set("~~", root, "")
	set("@@", root, "")
	set("#shared", r.Dir["shared"], r.Unknown["dir.shared"])
	set("#server", r.ServerDir, r.Unknown["serverDir"])
	assets := ""
	if r.SrcDir != "" {
		assets = filepath.Join(r.SrcDir, "assets")
	}
	set("assets", assets, srcWhy)
	if pub := r.Dir["public"]; pub != "" {
		set(filepath.Base(pub), pub, "")
	} else {
		set("public", "", r.Unknown["dir.public"])
	}
	set("#build", r.BuildDir, r.Unknown["buildDir"])
	paths := ""
	if r.BuildDir != "" {
		paths = filepath.Join(r.BuildDir, "paths.mjs")
	}
	set("#internal/fw/paths", paths, r.Unknown["buildDir"])

	// User aliases of the same names win.
	for name := range r.Alias {
		overrideAlias(&r, cfg, name)
	}
	for name := range r.Unknown {
		if n, ok := strings.CutPrefix(name, "alias."); ok {
			overrideAlias(&r, cfg, n)
		}
	}
	return r
}

func overrideAlias(r *Resolution, cfg Config, name string) {
	field := "alias." + name
	v, st := cfg.Value(field)
	switch st {
	case Absent:
		return
	case Dynamic:
		delete(r.Alias, name)
		r.Unknown[field] = field + " is set at run time"
		return
	}
	s, ok := v.(string)
	if ok && filepath.IsAbs(s) {
		r.Alias[name] = filepath.Clean(s)
		delete(r.Unknown, field)
		return
	}
	delete(r.Alias, name)
	r.Unknown[field] = fmt.Sprintf("%s is %v, not an absolute path", field, v)
}

// merge keeps the fields on which a and b agree and marks the others
// unknown: Current when the compatibility version is set at run time.
func merge(a, b Resolution, why string) Resolution {
	why = "depends on the compatibility version: " + why
	r := Resolution{Dir: map[string]string{}, Alias: map[string]string{}, Unknown: map[string]string{}}
	one := func(name, x, y string) string {
		switch {
		case x != "" && x == y:
			return x
		case a.Unknown[name] != "":
			r.Unknown[name] = a.Unknown[name]
		case b.Unknown[name] != "":
			r.Unknown[name] = b.Unknown[name]
		case x != y:
			r.Unknown[name] = why
		}
		return ""
	}
	r.SrcDir = one("srcDir", a.SrcDir, b.SrcDir)
	r.ServerDir = one("serverDir", a.ServerDir, b.ServerDir)
	r.BuildDir = one("buildDir", a.BuildDir, b.BuildDir)
	for _, k := range DirNames {
		if p := one("dir."+k, a.Dir[k], b.Dir[k]); p != "" {
			r.Dir[k] = p
		}
	}
	names := map[string]bool{}
	for _, m := range []map[string]string{a.Alias, b.Alias} {
		for n := range m {
			names[n] = true
		}
	}
	for _, m := range []map[string]string{a.Unknown, b.Unknown} {
		for n := range m {
			if an, ok := strings.CutPrefix(n, "alias."); ok {
				names[an] = true
			}
		}
	}
	for n := range names {
		if p := one("alias."+n, a.Alias[n], b.Alias[n]); p != "" {
			r.Alias[n] = p
		}
	}
	return r
}

// classify names the layout from the version-4 srcDir and the root's entries.
func classify(root string, cfg Config, src srcDirResult) (Layout, []string, error) {
	if src.dir == "" {
		return LayoutUnknown, nil, nil
	}
	app := filepath.Join(root, "app")
	if src.explicit && src.dir != root && src.dir != app {
		return LayoutCustom, nil, nil
	}
	if src.dir == root {
		return LayoutB, nil, nil
	}
	stray, err := Stray(root)
	if err != nil {
		return 0, nil, err
	}
	if len(stray) == 0 {
		return LayoutA, nil, nil
	}
	return LayoutMixed, stray, nil
}

// Stray returns the layout-B sources at root (absolute) that version 4
// ignores once app/ is srcDir, sorted, directories ending in "/": the Stray
// of Detect for the project with srcDir set to app. The error is an I/O
// error other than a missing file.
func Stray(root string) ([]string, error) {
	// One listing of root rules out most names at once; only the names it
	// holds get a stat, which follows symlinks as before. It is compared
	// without case: on a file system that ignores case, the stat of app.vue
	// finds App.vue. When root cannot be listed, every name gets its stat.
	names, listed := dirNames(root)
	there := func(n string) bool {
		if !listed {
			return true
		}
		for _, e := range names {
			if strings.EqualFold(e, n) {
				return true
			}
		}
		return false
	}
	var stray []string
	for _, n := range strayDirs {
		if !there(n) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, n)); err == nil && fi.IsDir() {
			stray = append(stray, n+"/")
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	for _, n := range strayFiles {
		if !there(n) {
			continue
		}
		if ok, err := exists(filepath.Join(root, n)); err != nil {
			return nil, err
		} else if ok {
			stray = append(stray, n)
		}
	}
	// app.config.* is matched against the names in root, never by a glob
	// of root's path: a project in a folder named [x] is found too.
	if !listed {
		d, err := os.Open(root)
		if errors.Is(err, fs.ErrNotExist) {
			sort.Strings(stray)
			return stray, nil
		}
		if err != nil {
			return nil, err
		}
		names, err = d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return nil, err
		}
	}
	for _, n := range names {
		if ok, _ := filepath.Match("app.config.*", n); ok {
			stray = append(stray, n)
		}
	}
	sort.Strings(stray)
	return stray, nil
}

// dirNames lists the directory dir, sorted, as filepath.Glob does; listed
// is false when it cannot be listed completely.
func dirNames(dir string) (names []string, listed bool) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err = d.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	sort.Strings(names)
	return names, true
}

// Layers returns the auto-registered local layers of a project: the
// directories in root/layers, sorted by name (later names take priority;
// migration facts §13). Each is a root for Detect.
func Layers(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "layers"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(root, "layers", e.Name()))
		}
	}
	return out, nil
}
