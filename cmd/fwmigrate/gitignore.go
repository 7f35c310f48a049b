package main

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one pattern of a .gitignore file.
type ignoreRule struct {
	base     string // directory of the .gitignore, slash-separated, relative to the walk root ("" for the root)
	pattern  string // without the leading '!' and '/' and the trailing '/'
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains a '/' before its end: matched against the path from base, else against the name
}

// gitignore holds the rules in force for one directory: its parent's rules
// followed by its own (later rules win, as in git).
type gitignore struct {
	rules []ignoreRule
}

// child returns the rules in force in directory rel (relative to the walk
// root, slash-separated) whose .gitignore file is at file. A missing or
// unreadable .gitignore leaves the parent's rules in force.
func (g *gitignore) child(rel, file string) *gitignore {
	data, err := os.ReadFile(file)
	if err != nil || len(data) == 0 {
		return g
	}
	out := &gitignore{}
	if g != nil {
		out.rules = append(out.rules, g.rules...)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		// Trailing spaces are ignored unless escaped.
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
			line = line[:len(line)-1]
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: rel}
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		if line == "" || !doublestar.ValidatePattern(line) {
			continue
		}
		r.pattern = line
		out.rules = append(out.rules, r)
	}
	return out
}

// ignored reports whether the entry rel (relative to the walk root,
// slash-separated) is excluded. The last matching rule decides.
func (g *gitignore) ignored(rel string, isDir bool) bool {
	if g == nil {
		return false
	}
	ignored := false
	name := path.Base(rel)
	for _, r := range g.rules {
		if r.dirOnly && !isDir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok, _ = doublestar.Match(r.pattern, sub)
		} else {
			ok, _ = doublestar.Match(r.pattern, name)
		}
		if ok {
			ignored = !r.negate
		}
	}
	return ignored
}

// relSlash is rel made slash-separated, "" for ".".
func relSlash(rel string) string {
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}
