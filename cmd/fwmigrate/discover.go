package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
)

// errNotFile is the error of a directory named like a config: the
// framework cannot load it either.
var errNotFile = errors.New("is a directory, not a config file")

// found is one config file to check, or an error met while looking.
type found struct {
	path    string // as given or joined from a given directory: shown to the user
	err     error  // set when the path could not be examined
	explict bool   // named directly on the command line
	real    string // absolute with symlinks resolved, when the walk knows it
	via     string // the directory symlink the walk followed to reach it, if any
	// only, when set, are the code files (absolute) that were given for
	// this project instead of the project: its check reports on them
	// alone (a pre-commit hook passes the staged files).
	only []string
}

// discover expands the command-line arguments into config files. Directories
// are walked; config files named directly are taken as they are; a .env file
// stands for the config beside it; a code file (.vue, a script) stands for
// the project of the nearest config at or above it, checked on that file
// alone (found.only) unless the project is given whole too; other files are
// ignored, so a pre-commit run over unrelated files finds nothing. The
// result is sorted and free of duplicates. The error lists the directories that hold no config (see
// discoverEach).
func discover(args []string, allowEmpty bool) ([]found, error) {
	var out []found
	err := discoverEach(args, allowEmpty, func(f found) { out = append(out, f) })
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, err
}

// missingPaths returns an error naming the arguments that do not exist,
// before anything is checked: a typo in a CI path must fail, not pass with
// nothing checked. A config file named directly is left to the check, which
// reports it as unreadable (FW904) among the other findings.
func missingPaths(args []string) error {
	var missing []string
	for _, arg := range args {
		if compat.IsConfigName(filepath.Base(arg)) {
			continue
		}
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, arg)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return usageError{fmt.Errorf("%s: no such file or directory", missing[0])}
	}
	return usageError{fmt.Errorf("no such files or directories: %s", strings.Join(missing, ", "))}
}

// errNoConfig is the error of directories given on the command line that
// hold no config, unless --allow-no-config.
type errNoConfig []string

func (e errNoConfig) Error() string {
	return fmt.Sprintf("no fw.config.* under %s (--allow-no-config accepts that)", strings.Join(e, ", "))
}

// discoverEach is discover without the sort: it calls emit for each config
// as soon as it is found, in walk order, each once, so that loading can
// start while the walk goes on. It returns errNoConfig for the directories
// given that hold no config, unless allowEmpty (the current directory too,
// when no path is given).
func discoverEach(args []string, allowEmpty bool, emit func(found)) error {
	if len(args) == 0 {
		args = []string{"."}
	}
	seen := map[string]bool{}
	emitted := 0
	add := func(f found) {
		emitted++ // a config found again still counts for its directory
		key := f.real
		if key == "" {
			key = f.path
			if abs, err := filepath.Abs(f.path); err == nil {
				if real, err := filepath.EvalSymlinks(abs); err == nil {
					key = real
				} else {
					key = abs
				}
			}
		}
		if seen[key] {
			return
		}
		seen[key] = true
		emit(f)
	}
	var empty errNoConfig
	// Code files are emitted last, each project once with all its files,
	// and not at all when the project came whole.
	var codeProjects []string
	codeFiles := map[string][]string{}
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			// Missing paths other than configs are refused before the
			// run (missingPaths); one that vanished since is reported.
			add(found{path: arg, err: err, explict: true})
			continue
		}
		if compat.IsConfigName(filepath.Base(arg)) {
			// Named directly: taken as a config whatever it is. A FIFO, a
			// device or a binary file is refused when it is read, without
			// blocking; a directory is refused here, not walked.
			f := found{path: arg, explict: true}
			if info.IsDir() {
				f.err = errNotFile
			}
			add(f)
			continue
		}
		if info.IsDir() {
			before := emitted
			walkConfigs(arg, add)
			if emitted == before && !allowEmpty {
				empty = append(empty, arg)
			}
			continue
		}
		if project.IsCodeName(filepath.Base(arg)) && info.Mode().IsRegular() {
			abs, err := filepath.Abs(arg)
			if err != nil {
				continue
			}
			if cfg := project.OwnerConfig(abs); cfg != "" {
				if codeFiles[cfg] == nil {
					codeProjects = append(codeProjects, cfg)
				}
				codeFiles[cfg] = append(codeFiles[cfg], abs)
			}
			continue
		}
		if isEnvName(filepath.Base(arg)) {
			// A .env file (a pre-commit hook passes the files that
			// changed): its project is the config beside it.
			for _, n := range compat.ConfigNames {
				p := filepath.Join(filepath.Dir(arg), n)
				if _, err := os.Lstat(p); err == nil {
					add(found{path: p})
					break
				}
			}
		}
	}
	for _, cfg := range codeProjects {
		key := cfg
		if real, err := filepath.EvalSymlinks(cfg); err == nil {
			key = real
		}
		if !seen[key] {
			add(found{path: pathx.Display(cfg), only: codeFiles[cfg]})
		}
	}
	if len(empty) > 0 {
		return empty
	}
	return nil
}

// isEnvName reports a .env file name: .env, .env.local, .env.production...
func isEnvName(name string) bool {
	return name == ".env" || strings.HasPrefix(name, ".env.") && len(name) > len(".env.")
}

// walkConfigs finds config files under dir, skipping dependency, VCS, build
// and hidden directories and whatever the repository's .gitignore files
// exclude, and following directory symlinks once (a symlink loop is
// reported, not followed forever).
func walkConfigs(dir string, emit func(found)) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		emit(found{path: dir, err: err})
		return
	}
	// The .gitignore files from the top of the repository down to dir apply.
	gi, startRel := ignore.GitDown(ignore.RepoTop(abs), abs)

	// Directories are walked by their own paths first; directory symlinks
	// are followed afterwards, so that a directory reached both ways is
	// shown by its real path, and is walked once.
	type link struct {
		path, rel string
		gi        *ignore.Git
		via       string // the first link followed on the way to it
	}
	var links []link
	visited := map[string]bool{} // real paths already walked
	// walk lists dir; its own .gitignore, when it has one and own is set,
	// is read then: looking at the listing first spares an open per
	// directory.
	var walk func(dir, real, rel string, gi *ignore.Git, own bool, via string)
	walk = func(dir, real, rel string, gi *ignore.Git, own bool, via string) {
		if visited[real] {
			return // reached again through another link: already checked
		}
		visited[real] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			emit(found{path: dir, err: err})
			return
		}
		if own {
			gi = gi.InDir(rel, dir, entries)
		}
		for _, e := range entries {
			name := e.Name()
			isDir := e.IsDir()
			isLink := e.Type()&fs.ModeSymlink != 0
			config := compat.IsConfigName(name)
			// Most entries are files that are not configs, and skipped
			// directories: decide those from the name alone.
			if !config && (!isDir && !isLink || compat.SkipDir(name) || strings.HasPrefix(name, ".")) {
				continue
			}
			child := filepath.Join(dir, name)
			if isLink {
				info, err := os.Stat(child)
				if err != nil {
					if config {
						emit(found{path: child, err: err})
					}
					continue // dangling link to something else: not ours
				}
				isDir = info.IsDir()
				if !isDir && !config {
					continue
				}
			}
			childRel := path.Join(rel, name)
			if gi.Ignored(childRel, isDir) {
				continue
			}
			if !isDir {
				f := found{path: child, via: via}
				if !isLink {
					f.real = filepath.Join(real, name)
				}
				emit(f)
				continue
			}
			if config {
				emit(found{path: child, err: errNotFile})
				continue
			}
			if isLink {
				lv := via
				if lv == "" {
					lv = child
				}
				links = append(links, link{child, childRel, gi, lv})
				continue
			}
			walk(child, filepath.Join(real, name), childRel, gi, true, via)
		}
	}
	realDir, err := filepath.EvalSymlinks(abs)
	if err != nil {
		emit(found{path: dir, err: err})
		return
	}
	walk(dir, realDir, startRel, gi, false, "")
	for len(links) > 0 {
		ln := links[0]
		links = links[1:]
		linkAbs, err := filepath.Abs(ln.path)
		if err != nil {
			emit(found{path: ln.path, err: err})
			continue
		}
		target, err := filepath.EvalSymlinks(linkAbs)
		if err != nil {
			emit(found{path: ln.path, err: err})
			continue
		}
		// A link to a directory that holds it would be walked forever by
		// a naive walk: say so. Other links reaching a directory twice
		// are not loops, just walked once.
		holder, err := filepath.EvalSymlinks(filepath.Dir(linkAbs))
		if err == nil && (holder == target || strings.HasPrefix(holder, strings.TrimSuffix(target, string(filepath.Separator))+string(filepath.Separator))) {
			to, _ := os.Readlink(ln.path)
			emit(found{path: ln.path, err: fmt.Errorf("directory symlink loop: %s points to %s, which holds it", ln.path, to)})
			continue
		}
		walk(ln.path, target, ln.rel, ln.gi, true, ln.via)
	}
}

// topsOf are the folders the run was given (a file's folder for a file),
// absolute: outside a git work tree, what a project reads is confined to
// the one holding it (workspace.Workspace.Tops).
func topsOf(args []string) []string {
	if len(args) == 0 {
		args = []string{"."}
	}
	var out []string
	for _, a := range args {
		abs, err := filepath.Abs(a)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err == nil && !st.IsDir() {
			abs = filepath.Dir(abs)
		}
		out = append(out, abs)
	}
	return out
}
