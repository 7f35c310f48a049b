package specs

import (
	"path/filepath"
	"strings"
)

// ScriptExts and StyleExts are the extensions bundlers try on a script's
// and on a style sheet's specifier.
var (
	ScriptExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".json", ".d.ts"}
	StyleExts  = []string{".css", ".scss", ".sass", ".less", ".styl", ".pcss", ".postcss"}
)

// FileLang returns the language of a source file by its name, and whether
// it is one whose specifiers are read.
func FileLang(name string) (lang string, ok bool) {
	switch ext := filepath.Ext(name); ext {
	case ".ts", ".js", ".mjs", ".cjs", ".mts", ".cts":
		return "js", true
	case ".tsx", ".jsx":
		return "jsx", true
	case ".vue":
		return "vue", true
	case ".css", ".pcss", ".postcss":
		return "css", true
	case ".scss", ".sass", ".less", ".styl":
		return ext[1:], true
	}
	return "", false
}

// IsBarePath reports a specifier without scheme, alias or root: a path in
// CSS, a package or a removed alias in scripts.
func IsBarePath(s string) bool {
	if s == "" || s[0] == '/' || s[0] == '~' || s[0] == '@' || s[0] == '#' || s[0] == '.' {
		return false
	}
	if i := strings.IndexByte(s, ':'); i >= 0 && (strings.IndexByte(s, '/') < 0 || i < strings.IndexByte(s, '/')) {
		return false // data:, http:, sass:math
	}
	return true
}
