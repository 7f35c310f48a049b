package compat

import "strings"

// ConfigNames are the file names of a framework config, in the framework's
// own lookup order: the first found in a directory is the one it loads.
var ConfigNames = []string{"fw.config.ts", "fw.config.js", "fw.config.mjs", "fw.config.cjs", "fw.config.mts", "fw.config.cts"}

// ConfigExts are the extensions of ConfigNames, in the same order: a layer
// source may name a config without its extension.
var ConfigExts = []string{".ts", ".js", ".mjs", ".cjs", ".mts", ".cts"}

// IsConfigName reports whether name is one of ConfigNames.
func IsConfigName(name string) bool {
	ext, ok := strings.CutPrefix(name, "fw.config")
	if !ok {
		return false
	}
	for _, e := range ConfigExts {
		if ext == e {
			return true
		}
	}
	return false
}

// SkipDir reports a directory that holds no project sources or configs of
// the user's: dependencies, version control, caches and build output. Walks
// for configs and sources never enter it.
func SkipDir(name string) bool { return skipDirs[name] }

var skipDirs = map[string]bool{
	"node_modules": true, ".git": true, ".hg": true, ".svn": true, ".fw": true, ".output": true, ".nuxt": true, ".nitro": true,
	".cache": true, ".data": true, ".vercel": true, ".netlify": true, ".turbo": true, ".pnpm-store": true, ".yarn": true,
	"dist": true, "coverage": true,
}
