package project

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/fwmigrate/fwmigrate/compat"
)

// The generated TypeScript contexts of a project: compat.TSGeneration's
// globs with the project's directories put in, and the user's include and
// exclude of the config (typescript.tsConfig, engine.typescript.tsConfig,
// typescript.nodeTsConfig, typescript.sharedTsConfig), so that a rule can
// ask which generated context holds a file.

// TSContexts are the generated tsconfig files of one project under one
// generation.
type TSContexts struct {
	Gen *compat.TSGenerationInfo
	// Files are Gen.Files resolved: Include and Exclude root-relative and
	// slash-separated, the user's entries first.
	Files []TSContextFile
	// BuildDir is the build dir, root-relative ("" when it is outside the
	// root).
	BuildDir string
	// Unknown says why a part could not be resolved (an include set at run
	// time, a directory unknown): "" when every glob is known. A rule that
	// finds a file in no context says so when Unknown is set.
	Unknown string
}

// TSContextFile is one generated file with the project's globs.
type TSContextFile struct {
	compat.TSContextFile
	Include, Exclude []string
}

// TSDirs are the directories the globs name, absolute.
type TSDirs struct {
	Root, Src, Server, Shared, Modules, Build string
}

// DirsOf returns the directories of a resolution, with src in place of
// r.SrcDir when it is set (a layout the migration moves to).
func DirsOf(root string, r compat.Resolution, src string) TSDirs {
	d := TSDirs{Root: root, Src: r.SrcDir, Server: r.ServerDir, Shared: r.Dir["shared"], Modules: r.Dir["modules"], Build: r.BuildDir}
	if src != "" {
		d.Src = src
	}
	return d
}

// ResolveTSContexts puts dirs and the config's user options into gen's
// globs.
func ResolveTSContexts(gen *compat.TSGenerationInfo, dirs TSDirs, cfg compat.Config) *TSContexts {
	c := &TSContexts{Gen: gen}
	rel := func(abs, name string) string {
		if abs == "" {
			c.unknown(name + " is unknown")
			return "\x00" // matches nothing
		}
		r, err := filepath.Rel(dirs.Root, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, "../") {
			return filepath.ToSlash(abs) // outside the root: matches no root file
		}
		return filepath.ToSlash(r)
	}
	vars := map[string]string{
		compat.GlobSrc:     rel(dirs.Src, "srcDir"),
		compat.GlobServer:  rel(dirs.Server, "serverDir"),
		compat.GlobShared:  rel(dirs.Shared, "dir.shared"),
		compat.GlobModules: rel(dirs.Modules, "dir.modules"),
	}
	if dirs.Build != "" {
		c.BuildDir = rel(dirs.Build, "buildDir")
	} else {
		c.BuildDir = ".fw"
	}
	subst := func(globs []string) []string {
		var out []string
		for _, g := range globs {
			for k, v := range vars {
				if strings.HasPrefix(g, k) {
					g = path.Join(v, strings.TrimPrefix(strings.TrimPrefix(g, k), "/"))
					break
				}
			}
			out = append(out, g)
		}
		return out
	}
	for _, f := range gen.Files {
		rf := TSContextFile{TSContextFile: f}
		if f.UserOption != "" {
			rf.Include = c.userGlobs(cfg, f.UserOption+".include")
			rf.Exclude = c.userGlobs(cfg, f.UserOption+".exclude")
		}
		rf.Include = append(rf.Include, subst(f.Include)...)
		for _, g := range subst(f.Exclude) {
			// The node file excludes the fw set but for a glob of the
			// whole root (layout B would exclude everything).
			if f.Context == compat.CtxNode && g == "**/*" {
				continue
			}
			rf.Exclude = append(rf.Exclude, g)
		}
		c.Files = append(c.Files, rf)
	}
	return c
}

func (c *TSContexts) unknown(why string) {
	if c.Unknown == "" {
		c.Unknown = why
	}
}

// userGlobs reads a user include or exclude list. The framework writes
// its entries into the build dir's file as they are, so a relative entry
// is relative to the build dir (typescript-contexts.md: the files store
// paths relative to .fw/).
func (c *TSContexts) userGlobs(cfg compat.Config, option string) []string {
	if cfg == nil {
		return nil
	}
	v, st := cfg.Value(option)
	switch st {
	case compat.Absent:
		return nil
	case compat.Dynamic:
		c.unknown(option + " is set at run time")
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		c.unknown(option + " is not a list")
		return nil
	}
	var out []string
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			c.unknown(option + " holds a value that is not a string")
			continue
		}
		out = append(out, c.FromBuildDir(s))
	}
	return out
}

// FromBuildDir turns a path as the build dir's files store it into a
// root-relative one.
func (c *TSContexts) FromBuildDir(s string) string {
	if path.IsAbs(s) {
		return s
	}
	return path.Clean(path.Join(c.BuildDir, s))
}

// ToBuildDir turns a root-relative path into one relative to the build
// dir, as a user include is written.
func (c *TSContexts) ToBuildDir(rel string) string {
	depth := strings.Count(c.BuildDir, "/") + 1
	return strings.Repeat("../", depth) + rel
}

// Holding returns the context files whose include takes the file rel
// (root-relative, slash-separated) and whose exclude does not; on major 4
// the legacy file is left out (the references replace it). vue says
// whether .vue files count (vue-tsc).
func (c *TSContexts) Holding(rel string, vue bool) []*TSContextFile {
	var out []*TSContextFile
	for i := range c.Files {
		f := &c.Files[i]
		if c.Gen.Major >= 4 && f.Legacy {
			continue
		}
		if f.Holds(rel, vue) {
			out = append(out, f)
		}
	}
	return out
}

// Legacy returns the legacy file, nil when the generation writes none.
func (c *TSContexts) Legacy() *TSContextFile {
	for i := range c.Files {
		if c.Files[i].Legacy {
			return &c.Files[i]
		}
	}
	return nil
}

// Holds reports whether the file takes rel as TypeScript reads its include
// and exclude: only files of a supported extension, wildcards that match
// no name starting with "." and no node_modules, a glob whose last part
// has no wildcard and no extension naming a directory.
func (f *TSContextFile) Holds(rel string, vue bool) bool {
	if !compat.SupportedTSExtension(rel, vue) && !strings.HasSuffix(rel, ".d.ts") {
		return false
	}
	in := false
	for _, g := range f.Include {
		if tsMatch(g, rel, true) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	for _, g := range f.Exclude {
		if tsMatch(g, rel, false) {
			return false
		}
	}
	return true
}

// tsMatch matches a root-relative glob against a root-relative file as
// TypeScript's matchFiles does (closely enough for the generated globs).
func tsMatch(glob, rel string, include bool) bool {
	glob = strings.TrimPrefix(path.Clean(glob), "./")
	if glob == "." {
		glob = "**/*"
	}
	if !strings.ContainsAny(glob, "*?") {
		// A path: the file itself, or a directory and all below it.
		return rel == glob || strings.HasPrefix(rel, glob+"/")
	}
	last := path.Base(glob)
	if !strings.ContainsAny(last, ".") && !strings.ContainsAny(last, "*?") {
		glob += "/**/*" // a directory
	}
	ok, err := doublestar.Match(glob, rel)
	if err != nil || !ok {
		return false
	}
	if !include {
		return true
	}
	// Wildcards skip names starting with "." and node_modules: every such
	// part of rel must be written in the glob itself.
	gparts := strings.Split(glob, "/")
	literal := map[string]bool{}
	for _, g := range gparts {
		if !strings.ContainsAny(g, "*?[") {
			literal[g] = true
		}
	}
	for _, part := range strings.Split(rel, "/") {
		if (strings.HasPrefix(part, ".") || part == "node_modules" || part == "bower_components" || part == "jspm_packages") && !literal[part] {
			return false
		}
	}
	return true
}
