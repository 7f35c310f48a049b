// Package move plans and performs the directory move of the version 4
// migration: a layout-B project's sources go into app/ (layout A), and every
// path that depends on where a file lives follows: relative imports in
// scripts, .vue files (their templates' asset URLs too) and style sheets,
// aliased imports whose alias no longer reaches them, .fwignore lines, the
// root tsconfig.json, and the globs and paths of the tool configs and
// ignore files at the root (toolcfg.go).
//
// PlanMove reads the tree and writes nothing; it computes the moves from the
// resolved paths before and after (the caller resolves them: this package
// does not read the config), checks every conflict, and records the byte
// edits. Plan.Txn turns the plan into a transaction, which package txn
// performs (apply through its journal): all of it or nothing.
//
// Decisions:
//   - An app/ that already exists is merged into, never overwritten: any
//     name present on both sides (also when it differs only in case) is a
//     conflict, and a plan with conflicts is refused as a whole. So the
//     leftover app/router.options.ts of layout B stays where it is, and a
//     stray app/foo.ts next to root pages/ stays too (with a note).
//   - Symlinks are never followed. A moved symlink, or one inside a moved
//     directory, moves as the link itself when its target still resolves
//     to the same file afterwards; otherwise the plan is refused.
//   - A dir.* option set to a folder nested inside another one (dir.pages:
//     'src/app/routes') cannot move alone without splitting its parent, so
//     the plan is refused with the reason unless the parent moves too
//     (--also=src).
package move

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/aymanbagabas/go-udiff"
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
	"github.com/fwmigrate/fwmigrate/txn"
)

// Input is what PlanMove needs to know about the project. All paths are
// absolute and clean.
type Input struct {
	Root   string // project root (rootDir)
	SrcDir string // srcDir as resolved today; == Root for layout B
	// Dirs holds dir.{assets,layouts,middleware,pages,plugins,public,modules,shared}
	// as resolved today. Missing keys take their defaults.
	Dirs map[string]string
	// DirsAfter optionally holds the same keys as resolved after the
	// migration (version 4 rules, config unchanged but for srcDir). Missing
	// keys are derived: srcDir-relative ones keep their place relative to
	// srcDir; public and modules resolve against rootDir in version 4.
	DirsAfter map[string]string
	// ServerDir is the serverDir option resolved, when the config sets it
	// ("" when unset: it then defaults to <srcDir>/server before and
	// <Root>/server after, unless V4Paths). ServerDirAfter overrides the
	// derived value after the migration.
	ServerDir, ServerDirAfter string
	// V4Paths says the resolved paths above already follow version 4 rules
	// (framework 4, or 3 with compatibilityVersion 4): server, public and
	// modules already resolve against rootDir.
	V4Paths bool
	Target  string   // where the sources go (normally Root/app)
	Also    []string // extra folders to move (--also), relative to SrcDir
	// AlsoWhy gives the reason recorded for a folder of Also ("--also"
	// when it has none): a rule's fix that needs the folder moved.
	AlsoWhy map[string]string
	// Layers are local layer roots besides Root/layers; they stay and are
	// not scanned, like Root/layers.
	Layers []string
	// BuildDir is buildDir resolved (default Root/.fw); it is not scanned
	// and names the tsconfig files.
	BuildDir string
	// Alias holds the built-in aliases (~, @, ~~, @@, #shared, #server) the
	// config overrides, resolved. They keep their value across the move.
	Alias map[string]string
	// Workspace, when set, is a folder holding Root (a monorepo) whose
	// other files are scanned for relative imports into moved files.
	Workspace string
}

// Move is one rename of a file, directory or symlink (absolute paths),
// with what made it move.
type Move struct {
	txn.Move
	Why string
}

// FileEdit is one file whose bytes change: Path is where it is today,
// NewPath where the moves put it (and where it is written).
type FileEdit struct {
	txn.Edit
	Edits []udiff.Edit // byte edits on Old
	Why   []string     // one line per edit, for the record
	shed  *shed        // Old and New are dropped (Shed) until Load
}

// Conflict is a reason the plan cannot be executed.
type Conflict struct {
	Path   string
	Reason string
}

func (c Conflict) String() string { return c.Path + ": " + c.Reason }

// Plan is everything the move does, computed before anything is touched.
type Plan struct {
	Root   string
	Target string
	// Mkdirs are the directories created before the moves, parents first.
	Mkdirs []string
	Moves  []Move
	// Rmdirs are directories the moves leave empty, removed afterwards.
	Rmdirs    []string
	Edits     []FileEdit
	Conflicts []Conflict
	Notes     []string
	Paths     *Paths

	base    string                 // paths in Diff are relative to this
	editAt  map[string]int         // Edits by Path (EditFor)
	dirMode map[string]fs.FileMode // of Rmdirs, as found: a rollback restores it
}

// Empty reports a plan that changes nothing.
func (p *Plan) Empty() bool {
	return len(p.Moves) == 0 && len(p.Edits) == 0 && len(p.Mkdirs) == 0 && len(p.Rmdirs) == 0
}

// EditFor returns the edit of the file at path (its path today), or nil.
// The config file is one: its relative imports follow the move, and the
// config rewriter's own edits must be merged with these (both are byte
// edits on the same original; udiff.Merge combines them).
func (p *Plan) EditFor(path string) *FileEdit {
	// An index by path: the code fixes of an app ask for thousands of
	// files, and a scan for each was quadratic. Edits are only appended
	// (appendEdit keeps the index) or sorted (a stale place is found and
	// the index made again), so its set of paths is Edits'.
	if len(p.editAt) != len(p.Edits) {
		p.reindex()
	}
	i, ok := p.editAt[path]
	if ok && p.Edits[i].Path != path {
		p.reindex()
		i, ok = p.editAt[path]
	}
	if !ok {
		return nil
	}
	return &p.Edits[i]
}

func (p *Plan) reindex() {
	p.editAt = make(map[string]int, len(p.Edits))
	for i := len(p.Edits) - 1; i >= 0; i-- {
		p.editAt[p.Edits[i].Path] = i // the first of a path wins, as a scan finds it
	}
}

// appendEdit adds e to Edits, and to the index of EditFor.
func (p *Plan) appendEdit(e FileEdit) {
	p.Edits = append(p.Edits, e)
	if p.editAt != nil && len(p.editAt) == len(p.Edits)-1 {
		if _, dup := p.editAt[e.Path]; !dup {
			p.editAt[e.Path] = len(p.Edits) - 1
		}
	}
}

// rel returns p relative to the plan's base, slash-separated.
func (p *Plan) rel(path string) string {
	r, err := filepath.Rel(p.base, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

func (p *Plan) conflict(path, format string, args ...any) {
	p.Conflicts = append(p.Conflicts, Conflict{Path: path, Reason: fmt.Sprintf(format, args...)})
}

func (p *Plan) note(format string, args ...any) {
	p.Notes = append(p.Notes, fmt.Sprintf(format, args...))
}

// Names of the root entries that are app source in layout B.
var defaultDirs = []string{"assets", "components", "composables", "layouts", "middleware", "pages", "plugins", "utils"}

func isDefaultFile(name string) bool {
	switch name {
	case "app.vue", "App.vue", "error.vue", "spa-loading-template.html":
		return true
	}
	if strings.HasPrefix(name, "router.options.") {
		return true
	}
	if ext, ok := strings.CutPrefix(name, "app.config."); ok {
		switch ext {
		case "ts", "js", "mjs", "cjs", "mts", "cts":
			return true
		}
	}
	return false
}

// staysAtRoot lists root folders that are never app source, whatever
// imports them: version 4 resolves them from rootDir, or they are not code
// the app bundles.
var staysAtRoot = map[string]bool{
	"server": true, "public": true, "modules": true, "layers": true, "shared": true, "content": true,
	"node_modules": true, "dist": true, "coverage": true,
	"test": true, "tests": true, "__tests__": true, "e2e": true, "cypress": true, "playwright": true, "spec": true, "specs": true,
}

// StaysAtRoot reports whether the root entry name is one the move never
// takes into app/, whatever names or imports it (and --also refuses): the
// folders version 4 resolves from rootDir, those that are not app code,
// and hidden entries.
func StaysAtRoot(name string) bool { return staysAtRoot[name] || strings.HasPrefix(name, ".") }

// maxScan is the largest file scanned for imports; bigger ones are generated
// or vendored code.
const maxScan = 4 << 20

// srcFile is a file scanned for specifiers.
type srcFile struct {
	path     string
	lang     string
	foreign  bool // belongs to another project: only relative specifiers are ours
	data     []byte
	mode     fs.FileMode
	refs     []specs.Ref
	complete bool
	strs     []specs.StrLit // string literals of scripts, for staying ones
}

func validPath(name, p string) error {
	if p == "" || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return fmt.Errorf("move: %s %q is not a clean absolute path", name, p)
	}
	return nil
}

// PlanMove computes the move of in's project to in.Target. It reads the
// tree and writes nothing. A plan it cannot carry out safely comes back with
// Conflicts; the error is for invalid input and unreadable trees.
func PlanMove(in Input) (*Plan, error) {
	for _, c := range []struct{ name, p string }{{"Root", in.Root}, {"SrcDir", in.SrcDir}, {"Target", in.Target}} {
		if err := validPath(c.name, c.p); err != nil {
			return nil, err
		}
	}
	if in.Workspace != "" {
		if err := validPath("Workspace", in.Workspace); err != nil {
			return nil, err
		}
	}
	root, src, target := in.Root, in.SrcDir, in.Target
	p := &Plan{Root: root, Target: target, base: root, dirMode: map[string]fs.FileMode{}}
	if in.Workspace != "" && within(root, in.Workspace) {
		p.base = in.Workspace
	}
	st, err := os.Lstat(root)
	if err != nil {
		return nil, fmt.Errorf("move: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("move: root %s is not a directory", root)
	}
	if !within(src, root) {
		p.conflict(src, "srcDir lies outside the project root %s", root)
	}
	if !within(target, root) || target == root {
		p.conflict(target, "the target must be a folder inside the project root %s", root)
	}
	if len(p.Conflicts) > 0 {
		return p, nil
	}
	buildDir := in.BuildDir
	if buildDir == "" {
		buildDir = filepath.Join(root, ".fw")
	}

	// Where every kind of directory is before and after.
	dirBefore := func(k string) string {
		if v, ok := in.Dirs[k]; ok && v != "" {
			return v
		}
		switch k {
		case "shared":
			return filepath.Join(root, k)
		case "public", "modules":
			if in.V4Paths {
				return filepath.Join(root, k)
			}
		}
		return filepath.Join(src, k)
	}
	relTo := func(base, p string) string {
		r, err := filepath.Rel(base, p)
		if err != nil {
			return p
		}
		return r
	}
	dirAfter := func(k string) string {
		if v, ok := in.DirsAfter[k]; ok && v != "" {
			return v
		}
		b := dirBefore(k)
		switch k {
		case "shared":
			return b
		case "public", "modules":
			if in.V4Paths {
				return b
			}
			return filepath.Join(root, relTo(src, b))
		}
		return filepath.Join(target, relTo(src, b))
	}
	serverBefore, serverAfter := in.ServerDir, in.ServerDirAfter
	if serverBefore == "" {
		if in.V4Paths {
			serverBefore = filepath.Join(root, "server")
		} else {
			serverBefore = filepath.Join(src, "server")
		}
	}
	if serverAfter == "" {
		if in.ServerDir != "" || in.V4Paths {
			serverAfter = serverBefore
		} else {
			serverAfter = filepath.Join(root, "server")
		}
	}

	m := &Paths{Root: root, SrcBefore: src, SrcAfter: target, known: map[string]bool{}}
	p.Paths = m

	// The tree: every scannable file (and every path, for probing).
	layerRoots := append([]string{filepath.Join(root, "layers")}, in.Layers...)
	walkRoot := root
	if p.base != root {
		walkRoot = p.base
	}
	var files []*srcFile
	configDirs := map[string]bool{}
	err = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != walkRoot && (compat.SkipDir(d.Name()) || path == buildDir || slices.Contains(layerRoots, path)) {
				return filepath.SkipDir
			}
			m.known[path] = true
			return nil
		}
		m.known[path] = true
		if compat.IsConfigName(d.Name()) && filepath.Dir(path) != root {
			configDirs[filepath.Dir(path)] = true
		}
		if !d.Type().IsRegular() {
			return nil // symlinks are not followed
		}
		lang, ok := specs.FileLang(d.Name())
		if !ok && filepath.Dir(path) == root && jsonToolConfigs[d.Name()] {
			lang, ok = "json", true // its strings are globs and paths (toolcfg.go)
		}
		if !ok {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxScan {
			p.note("%s: not scanned for imports (%d bytes)", p.rel(path), info.Size())
			return nil
		}
		files = append(files, &srcFile{path: path, lang: lang, mode: info.Mode(), foreign: !within(path, root)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("move: %w", err)
	}
	for _, f := range files {
		// A folder with its own fw.config is another project (a
		// playground, a nested app): its aliases are its own.
		for d := filepath.Dir(f.path); !f.foreign && d != root && within(d, root); d = filepath.Dir(d) {
			f.foreign = configDirs[d]
		}
	}
	var lx specs.Lexer
	for _, f := range files {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return nil, fmt.Errorf("move: %w", err)
		}
		f.data = data
		switch f.lang {
		case "js", "jsx", "json":
			f.refs, f.complete = lx.Scan(data, 0, f.lang == "jsx" || strings.HasSuffix(f.path, ".tsx") || strings.HasSuffix(f.path, ".jsx"), nil)
			f.strs = lx.StrLits(f.strs)
		case "vue":
			f.refs, f.complete = lx.ScanVue(data, nil)
		default:
			f.refs, f.complete = specs.ScanCSS(data, 0, f.lang, nil), true
		}
		if !f.complete {
			p.note("%s: nested too deeply to scan completely; specifiers after that point are left as they are", p.rel(f.path))
		}
	}

	// Aliases before and after.
	aliasAt := func(name, before, after string, fallback ...string) {
		if v, ok := in.Alias[name]; ok && v != "" {
			before, after = v, v
		}
		m.aliases = append(m.aliases, aliasDef{name: name, before: before, after: after, fallback: fallback})
	}
	aliasAt("~", src, target, "~~")
	aliasAt("@", src, target, "@@")
	aliasAt("~~", root, root)
	aliasAt("@@", root, root)
	aliasAt("#shared", dirBefore("shared"), dirAfter("shared"), "~~")
	aliasAt("#server", serverBefore, serverAfter, "~~")
	// The aliases version 4 removed, while their folders exist (a package
	// named assets is improbable; one named like a missing folder is not
	// ours to touch).
	if isDir(filepath.Join(src, "assets")) {
		m.aliases = append(m.aliases, aliasDef{name: "assets", before: filepath.Join(src, "assets"), fallback: []string{"~", "~~"}})
	}
	if pub := dirBefore("public"); isDir(pub) {
		if name := filepath.Base(pub); m.alias(name) == nil {
			m.aliases = append(m.aliases, aliasDef{name: name, before: pub, fallback: []string{"~~"}})
		}
	}

	p.planMoves(in, files, dirBefore, dirAfter, serverBefore, serverAfter, buildDir)
	if p.Empty() && len(p.Conflicts) == 0 {
		return p, nil // already in place: nothing depends on a move
	}
	p.checkMoves()
	p.planEdits(files)
	p.planIgnore()
	p.planTsconfig(serverBefore)
	sort.Slice(p.Edits, func(i, j int) bool { return p.Edits[i].NewPath < p.Edits[j].NewPath })
	return p, nil
}

func isDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// planMoves decides what moves where.
func (p *Plan) planMoves(in Input, files []*srcFile, dirBefore, dirAfter func(string) string, serverBefore, serverAfter, buildDir string) {
	root, src, target := in.Root, in.SrcDir, in.Target
	m := p.Paths
	add := func(from, to, why string) {
		for _, mv := range m.moves {
			if within(from, mv.From) {
				return // moves with its parent
			}
		}
		st, err := os.Lstat(from)
		if err != nil {
			return
		}
		// A deeper move already planned is covered by this one.
		m.moves = slices.DeleteFunc(m.moves, func(mv Move) bool { return within(mv.From, from) })
		m.moves = append(m.moves, Move{Move: txn.Move{From: from, To: to, Dir: st.IsDir(), Link: st.Mode()&fs.ModeSymlink != 0}, Why: why})
	}
	entries, err := os.ReadDir(src)
	if err != nil && src != target {
		p.conflict(src, "cannot read srcDir: %v", err)
		return
	}
	stay := map[string]bool{}
	for _, k := range []string{"public", "modules", "shared"} {
		stay[dirBefore(k)] = true
	}
	stay[serverBefore] = true
	stay[buildDir] = true
	targetEntry := "" // the entry of src that holds the target, if any
	if within(target, src) && target != src {
		targetEntry = strings.SplitN(target[len(src)+1:], string(filepath.Separator), 2)[0]
	}

	if ents, err := os.ReadDir(target); err == nil && src != target {
		var other []string
		for _, e := range ents {
			if n := e.Name(); n != "spa-loading-template.html" && !strings.HasPrefix(n, "router.options") {
				other = append(other, n)
			}
		}
		if len(other) > 0 {
			p.note("%s/ already holds %s; the sources are merged into it without overwriting anything", p.rel(target), strings.Join(other, ", "))
		}
	}
	switch {
	case src == target:
		// Sources stay; only what version 4 resolves elsewhere moves.
	case src == root:
		// Layout B: the known app sources, what the code imports through
		// ~/ or @/, and --also.
		for _, e := range entries {
			name := e.Name()
			if name == targetEntry {
				continue
			}
			// A symlink named like a source folder is one; checkLinks
			// decides whether it can move as a link.
			if slices.Contains(defaultDirs, name) && (e.IsDir() || e.Type()&fs.ModeSymlink != 0) || isDefaultFile(name) {
				add(filepath.Join(src, name), filepath.Join(target, name), "app source")
			}
		}
		p.discover(in, files, entries, stay, targetEntry)
	default:
		// A custom srcDir: everything in it is app source, except what
		// version 4 resolves from rootDir, hidden entries and its old app/.
		for _, e := range entries {
			name := e.Name()
			from := filepath.Join(src, name)
			if name == targetEntry || strings.HasPrefix(name, ".") || name == "node_modules" || stay[from] || name == "app" && e.IsDir() {
				continue
			}
			add(from, filepath.Join(target, name), "in srcDir "+p.rel(src))
		}
	}
	if src != root && !in.V4Paths {
		// dir.app was <srcDir>/app; version 4 keeps router.options and
		// spa-loading-template.html in srcDir itself (a custom srcDir, kept
		// or not). Under version 4 rules already, <srcDir>/app is nothing
		// special and stays.
		oldApp := filepath.Join(src, "app")
		if isDir(oldApp) && oldApp != target {
			sub, err := os.ReadDir(oldApp)
			if err != nil {
				p.conflict(oldApp, "cannot read: %v", err)
			}
			for _, e := range sub {
				add(filepath.Join(oldApp, e.Name()), filepath.Join(target, e.Name()), "dir.app is srcDir in version 4")
			}
			p.Rmdirs = append(p.Rmdirs, oldApp)
		}
	}
	for _, a := range in.Also {
		p.also(a, in, add, stay)
	}

	// dir.* options: where they point before and after must match the
	// moves, or move themselves.
	for _, k := range []string{"assets", "layouts", "middleware", "pages", "plugins"} {
		before, after := dirBefore(k), dirAfter(k)
		if before == after {
			continue
		}
		if !within(before, root) {
			p.conflict(before, "dir.%s resolves outside the project root; it would resolve to %s after the move", k, after)
			continue
		}
		if _, err := os.Lstat(before); err != nil {
			continue // nothing there to move
		}
		if m.Map(before) == after {
			continue
		}
		if filepath.Dir(before) == src && filepath.Dir(after) == target && !m.moved(before) {
			add(before, after, "dir."+k)
			continue
		}
		p.conflict(before, "dir.%s is %s, a folder inside %s, which stays; moving it alone to %s would split its parent (move the parent with --also, or keep the layout)",
			k, p.rel(before), p.rel(filepath.Dir(before)), p.rel(after))
	}
	// What version 4 resolves from rootDir moves out of a custom srcDir.
	for _, d := range []struct{ name, before, after string }{
		{"serverDir", serverBefore, serverAfter},
		{"dir.public", dirBefore("public"), dirAfter("public")},
		{"dir.modules", dirBefore("modules"), dirAfter("modules")},
		{"dir.shared", dirBefore("shared"), dirAfter("shared")},
	} {
		if _, err := os.Lstat(d.before); err != nil {
			continue
		}
		if d.before == d.after {
			if m.moved(d.before) {
				p.conflict(d.before, "%s must stay at %s, but it lies inside a folder that moves to %s", d.name, p.rel(d.before), p.rel(m.Map(d.before)))
			}
			continue
		}
		if !within(d.before, root) || !within(d.after, root) {
			p.conflict(d.before, "%s would move from %s to %s, outside the project root", d.name, d.before, d.after)
			continue
		}
		add(d.before, d.after, d.name+" resolves from rootDir in version 4")
	}
	for _, l := range append([]string{filepath.Join(root, "layers")}, in.Layers...) {
		if m.moved(l) {
			p.conflict(l, "a local layer cannot move with the app sources")
		}
	}
	sort.Slice(m.moves, func(i, j int) bool { return m.moves[i].From < m.moves[j].From })
	p.Moves = m.moves

	// Remove srcDir itself when everything in it moved out.
	if src != root && src != target && len(entries) > 0 && !within(target, src) {
		all := true
		for _, e := range entries {
			if !m.moved(filepath.Join(src, e.Name())) && !slices.Contains(p.Rmdirs, filepath.Join(src, e.Name())) {
				all = false
			}
		}
		if all {
			p.Rmdirs = append(p.Rmdirs, src)
		}
	}
}

// discover adds the root folders the code imports through ~/ or @/.
func (p *Plan) discover(in Input, files []*srcFile, entries []os.DirEntry, stay map[string]bool, targetEntry string) {
	m := p.Paths
	isEntryDir := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() {
			isEntryDir[e.Name()] = true
		}
	}
	seen := map[string]string{}
	for _, f := range files {
		if f.foreign {
			continue
		}
		for _, r := range f.refs {
			s := r.Value(f.data)
			name, rest, ok := strings.Cut(s, "/")
			if !ok || name != "~" && name != "@" {
				continue
			}
			if a := m.alias(name); a == nil || a.before != in.SrcDir {
				continue // overridden alias
			}
			first, _, _ := strings.Cut(rest, "/")
			if first == "" || first == targetEntry || strings.HasPrefix(first, ".") || staysAtRoot[first] || !isEntryDir[first] ||
				stay[filepath.Join(in.SrcDir, first)] {
				continue
			}
			if _, ok := seen[first]; !ok {
				seen[first] = fmt.Sprintf("imported as %s in %s:%d", s, p.rel(f.path), ast.NewLines(f.data).Line(r.Start))
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		from := filepath.Join(in.SrcDir, n)
		if !m.moved(from) {
			m.moves = append(m.moves, Move{Move: txn.Move{From: from, To: filepath.Join(in.Target, n), Dir: true}, Why: seen[n]})
		}
	}
}

// also adds one --also folder.
func (p *Plan) also(a string, in Input, add func(from, to, why string), stay map[string]bool) {
	clean := filepath.Clean(filepath.FromSlash(a))
	if a == "" || filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		p.conflict(a, "--also takes folders inside srcDir")
		return
	}
	from := filepath.Join(in.SrcDir, clean)
	first := strings.SplitN(clean, string(filepath.Separator), 2)[0]
	switch {
	case staysAtRoot[first] || stay[from] || strings.HasPrefix(first, ".") || compat.IsConfigName(first) || first == filepath.Base(in.Target):
		p.conflict(from, "--also=%s: %s stays at the project root in layout A", a, first)
		return
	}
	if _, err := os.Lstat(from); err != nil {
		p.conflict(from, "--also=%s: %v", a, err)
		return
	}
	why := in.AlsoWhy[a]
	if why == "" {
		why = "--also"
	}
	add(from, filepath.Join(in.Target, clean), why)
}

// checkMoves finds every reason not to move: targets that exist, names that
// collide when case is ignored, symlinks that would break, paths outside the
// root, and parents to create.
func (p *Plan) checkMoves() {
	root := p.Root
	folded := map[string]string{}
	for _, mv := range p.Moves {
		if !within(mv.From, root) || !within(mv.To, root) || mv.From == root {
			p.conflict(mv.From, "moving to %s leaves the project root", mv.To)
			continue
		}
		if _, err := os.Lstat(mv.To); err == nil {
			p.conflict(mv.To, "already exists; %s cannot move there", p.rel(mv.From))
		} else if !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR) { // ENOTDIR: the parent check below says it
			p.conflict(mv.To, "%v", err)
		}
		key := strings.ToLower(mv.To)
		if other, ok := folded[key]; ok {
			p.conflict(mv.To, "%s and %s would collide on a case-insensitive file system", p.rel(other), p.rel(mv.From))
		}
		folded[key] = mv.From
		// The parent chain: existing real directories, or created.
		var create []string
		for d := filepath.Dir(mv.To); ; d = filepath.Dir(d) {
			st, err := os.Lstat(d)
			if err == nil {
				if st.Mode()&fs.ModeSymlink != 0 {
					p.conflict(d, "is a symlink; refusing to move files through it")
				} else if !st.IsDir() {
					p.conflict(d, "is not a directory")
				}
				// Names in the existing directory that differ only in case.
				if ents, err := os.ReadDir(d); err == nil {
					want := filepath.Base(mv.To)
					if len(create) > 0 {
						want = filepath.Base(create[len(create)-1])
					}
					for _, e := range ents {
						if e.Name() != want && strings.EqualFold(e.Name(), want) {
							p.conflict(filepath.Join(d, e.Name()), "differs only in case from %s; the two collide on a case-insensitive file system", want)
						}
					}
				}
				break
			}
			if !os.IsNotExist(err) || !within(d, root) || d == root {
				p.conflict(d, "cannot create: %v", err)
				break
			}
			create = append(create, d)
		}
		for i := len(create) - 1; i >= 0; i-- {
			if !slices.Contains(p.Mkdirs, create[i]) {
				p.Mkdirs = append(p.Mkdirs, create[i])
			}
		}
		p.checkLinks(mv)
	}
	for _, d := range p.Rmdirs {
		st, err := os.Lstat(d)
		if err != nil {
			p.conflict(d, "%v", err)
			continue
		}
		p.dirMode[d] = st.Mode()
	}
}

// checkLinks walks a move's source for symlinks (never following them) and
// refuses the plan when one would point elsewhere after the move.
func (p *Plan) checkLinks(mv Move) {
	m := p.Paths
	check := func(link string) {
		dest, err := os.Readlink(link)
		if err != nil {
			p.conflict(link, "%v", err)
			return
		}
		newLink := m.Map(link)
		if filepath.IsAbs(dest) {
			if d := filepath.Clean(dest); m.Map(d) != d {
				p.conflict(link, "symlink to %s, which moves; refusing (the link would dangle)", dest)
			}
			return
		}
		resolved := filepath.Join(filepath.Dir(link), dest)
		need, err := filepath.Rel(filepath.Dir(newLink), m.Map(resolved))
		if err != nil || need != filepath.Clean(dest) {
			p.conflict(link, "symlink to %s would point elsewhere from %s; refusing (fix or remove the link first)", dest, p.rel(newLink))
		}
	}
	if mv.Link {
		check(mv.From)
		return
	}
	if !mv.Dir {
		return
	}
	err := filepath.WalkDir(mv.From, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			check(path)
		}
		return nil
	})
	if err != nil {
		p.conflict(mv.From, "%v", err)
	}
}
