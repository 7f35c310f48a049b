package project

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

// What the TypeScript rules (FW8xx) need from the disk, loaded once per
// project: the tsconfig.json files below the root (per-folder ones), the
// declaration files and the files that declare globals or modules
// (package.json is Packages'). The walk reads names only; it reads the .d.ts files, and
// the scripts that lie outside every source folder (where a `declare
// global` may sit in a plain .ts file), never the sources again.

// TSFiles is what the walk found.
type TSFiles struct {
	// Configs are the tsconfig*.json files below the root (the root's own
	// is Project.TSConfig), sorted by path.
	Configs []*TextFile
	// Declarations are the files that declare types for others: every
	// .d.ts file, and every script outside the sources that holds
	// `declare global` or `declare module`, sorted by path.
	Declarations []*DeclFile
	// Truncated says the walk stopped at its limit (MaxTSWalk entries).
	Truncated bool
}

// DeclFile is a declaration file and what it declares.
type DeclFile struct {
	*TextFile
	Rel string // root-relative, slash-separated
	// Global says the file's declarations are global: it has `declare
	// global`, or it is a .d.ts script (no import or export at its top
	// level), whose top-level declarations are global.
	Global bool
	// Names are the global names it declares (interfaces, types,
	// variables, functions, namespaces), Members the members it declares
	// in global interfaces (Window.myGlobal gives the name Window and the
	// member myGlobal), Modules the module names of its `declare module
	// '…'` blocks.
	Names, Members, Modules []string
}

// MaxTSWalk bounds the walk: a tree with more entries is checked in part
// (TSFiles.Truncated).
const MaxTSWalk = 200000

// maxDeclSize is the largest declaration file read (a generated .d.ts of
// megabytes declares nothing a user moves by hand).
const maxDeclSize = 1 << 20

// TSFiles walks the project's root once (dependencies, build output,
// hidden and .gitignored folders left out; symlinked folders not
// followed).
func (p *Project) TSFiles() *TSFiles {
	t := p.files()
	t.tsOnce.Do(func() { t.ts = p.walkTS() })
	return t.ts
}

func (p *Project) walkTS() *TSFiles {
	out := &TSFiles{}
	if p.Root == "" {
		return out
	}
	sources := map[string]bool{}
	for _, s := range p.Sources() {
		sources[s.Path] = true
	}
	for _, s := range p.TestSources() {
		sources[s.Path] = true
	}
	build := ""
	if p.Detection != nil {
		build = p.Detection.V4.BuildDir
	}
	n := 0
	gi, _ := ignore.GitDown(ignore.RepoTop(p.Root), p.Root)
	var visit func(dir, rel string, gi *ignore.Git, depth int)
	visit = func(dir, rel string, gi *ignore.Git, depth int) {
		if depth > 40 || out.Truncated {
			return
		}
		entries, err := p.readDir(dir)
		if err != nil {
			return
		}
		gi = gi.InDir(rel, dir, entries)
		for _, e := range entries {
			if n++; n > MaxTSWalk {
				out.Truncated = true
				return
			}
			name := e.Name()
			child := filepath.Join(dir, name)
			childRel := path.Join(rel, name)
			if e.IsDir() {
				if strings.HasPrefix(name, ".") || compat.SkipDir(name) || child == build || gi.Ignored(childRel, true) {
					continue
				}
				visit(child, childRel, gi, depth+1)
				continue
			}
			if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 || gi.Ignored(childRel, false) {
				continue
			}
			switch {
			case rel != "" && strings.HasPrefix(name, "tsconfig") && strings.HasSuffix(name, ".json"):
				if tf, err := p.ReadText(child); err == nil {
					out.Configs = append(out.Configs, tf)
				}
			case isDeclName(name):
				if d := p.readDecl(child, childRel, true, e.Type().IsRegular()); d != nil {
					out.Declarations = append(out.Declarations, d)
				}
			case sourceLang(name) == "ts" && !sources[child]:
				if d := p.readDecl(child, childRel, false, e.Type().IsRegular()); d != nil {
					out.Declarations = append(out.Declarations, d)
				}
			}
		}
	}
	visit(p.Root, "", gi, 0)
	sort.Slice(out.Configs, func(i, j int) bool { return out.Configs[i].Path < out.Configs[j].Path })
	sort.Slice(out.Declarations, func(i, j int) bool { return out.Declarations[i].Path < out.Declarations[j].Path })
	return out
}

func isDeclName(name string) bool {
	return strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, ".d.mts") || strings.HasSuffix(name, ".d.cts")
}

// readDecl reads what the file at abs (rel from the root) declares for
// others. regular says the walk found a regular file: reached from the
// root through no symlink, it is inside the project (no EvalSymlinks), and
// with a Cache (the language server) its text and what it declares are
// kept between checks (the stores of a large app are read on every edit
// otherwise).
func (p *Project) readDecl(abs, rel string, decl, regular bool) *DeclFile {
	if regular && p.cache != nil {
		src, ok := []byte(nil), false
		if p.overlay != nil {
			src, ok = p.overlay(abs)
		}
		if !ok {
			var err error
			if src, err = p.cache.read(abs, maxDeclSize); err != nil {
				return nil
			}
		}
		if len(src) > maxDeclSize || binaryErr(src) != nil {
			return nil
		}
		key := "project.ParseDecl"
		if decl {
			key += ".d"
		}
		d, _ := p.cache.memoValue(abs, src, key, func() any { return ParseDecl(src, decl) }).(*DeclFile)
		if d == nil {
			return nil
		}
		out := *d // the kept one is shared by the checks
		out.TextFile, out.Rel = &TextFile{Path: abs, Display: p.display(abs), Src: src}, rel
		return &out
	}
	if fi, err := os.Stat(abs); err != nil || fi.Size() > maxDeclSize {
		return nil
	}
	tf, err := p.ReadText(abs)
	if err != nil {
		return nil
	}
	d := ParseDecl(tf.Src, decl)
	if d == nil {
		return nil
	}
	d.TextFile, d.Rel = tf, rel
	return d
}

var (
	reDeclGlobal = lazyregexp.New(`(?m)^\s*declare\s+global\s*\{`)
	reDeclModule = lazyregexp.New(`(?m)^\s*declare\s+module\s+(['"])([^'"\n]+)['"]`)
	reTopExport  = lazyregexp.New(`(?m)^\s*(?:import\s|export\s|export\{|import\{)`)
	reDeclName   = lazyregexp.New(`(?m)^\s*(?:export\s+)?(?:declare\s+)?(interface|type|const|let|var|function|namespace|class|enum)\s+([A-Za-z_$][\w$]*)`)
	reMember     = lazyregexp.New(`(?m)^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*[:(]`)
	reComment    = lazyregexp.New(`(?s)/\*.*?\*/|//[^\n]*`)
)

// ParseDecl reads what a file declares for others, nil when it declares
// nothing global and no module. decl says the file is a .d.ts file.
func ParseDecl(src []byte, decl bool) *DeclFile {
	if !decl && !bytes.Contains(src, []byte("declare")) {
		// Only `declare global` or `declare module` makes a script
		// declare for others: most files are ruled out without the
		// regular expressions (FW804 read every script of the project
		// through them on each check, a fifth of an editor's check).
		return nil
	}
	text := reComment().ReplaceAll(src, nil)
	d := &DeclFile{}
	for _, m := range reDeclModule().FindAllSubmatch(text, -1) {
		d.Modules = append(d.Modules, string(m[2]))
	}
	var global []byte
	if loc := reDeclGlobal().FindIndex(text); loc != nil {
		d.Global = true
		global = block(text, loc[1]-1)
	} else if decl && !reTopExport().Match(text) {
		d.Global = true // a script .d.ts: its declarations are global
		global = text
		for _, loc := range reDeclModule().FindAllIndex(text, -1) {
			// A module block's declarations are the module's.
			if open := bytes.IndexByte(text[loc[1]:], '{'); open >= 0 {
				b := block(text, loc[1]+open)
				global = bytes.Replace(global, b, nil, 1)
			}
		}
	}
	if !d.Global && len(d.Modules) == 0 {
		if !decl {
			return nil
		}
		return d // a module .d.ts: it declares for those that import it
	}
	seen := map[string]bool{}
	add := func(list *[]string, s string) {
		if !seen[s] {
			seen[s] = true
			*list = append(*list, s)
		}
	}
	// Top-level names only: a block's contents (an interface's members, a
	// namespace's) are skipped but for the members of interfaces.
	for pos := 0; pos < len(global); {
		m := reDeclName().FindSubmatchIndex(global[pos:])
		if m == nil {
			break
		}
		kind, name := string(global[pos+m[2]:pos+m[3]]), string(global[pos+m[4]:pos+m[5]])
		add(&d.Names, name)
		next := pos + m[1]
		if kind == "interface" || kind == "namespace" || kind == "class" || kind == "enum" {
			if open := bytes.IndexByte(global[next:], '{'); open >= 0 {
				body := block(global, next+open)
				if kind == "interface" && len(body) > 2 {
					for _, mm := range reMember().FindAllSubmatch(body[1:len(body)-1], -1) {
						add(&d.Members, string(mm[1]))
					}
				}
				next += open + len(body)
			}
		}
		pos = next
	}
	return d
}

// block returns the braced block that opens at text[open] ('{'), the
// rest of text when it is not closed.
func block(text []byte, open int) []byte {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return text[open : i+1]
			}
		}
	}
	return text[open:]
}
