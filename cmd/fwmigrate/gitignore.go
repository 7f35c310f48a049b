package main

import (
	"os"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/internal/ignore"
)

// gitignoreAt returns the rules in force in directory rel (relative to the
// walk root) whose .gitignore file is at file. A missing or unreadable
// .gitignore leaves the parent's rules in force.
func gitignoreAt(g *ignore.Git, rel, file string) *ignore.Git {
	data, _ := os.ReadFile(file)
	return g.Child(rel, data)
}

// relSlash is rel made slash-separated, "" for ".".
func relSlash(rel string) string {
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}
