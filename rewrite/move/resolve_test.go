package move_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

// resolveAll resolves every specifier of every source file under dir the
// way a bundler of the framework would, independently of the rewriting code:
// each file belongs to the nearest folder with an fw.config, whose srcDir is
// srcOf(root); ~ and @ are srcDir, ~~ and @@ the root, and with v3 the
// assets and public aliases exist. It returns the specifiers that resolve
// and those that do not, as "file: spec".
func resolveAll(t *testing.T, dir string, srcOf func(root string) string, v3 bool) (ok, broken []string) {
	exists := func(p string, style bool) bool {
		cands := []string{p}
		exts := scriptExts
		if style {
			exts = styleExts
			d, b := filepath.Split(p)
			for _, e := range styleExts {
				cands = append(cands, d+"_"+b+e)
			}
		}
		for _, e := range exts {
			cands = append(cands, p+e, filepath.Join(p, "index"+e))
		}
		for _, c := range cands {
			if _, err := os.Stat(c); err == nil {
				return true
			}
		}
		return false
	}
	var l specs.Lexer
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".fw" {
				return filepath.SkipDir
			}
			return nil
		}
		lang, isSrc := fileLang(d.Name())
		if !isSrc {
			return nil
		}
		root := filepath.Dir(path)
		for ; pathx.WithinClean(root, dir) && root != dir; root = filepath.Dir(root) {
			if m, _ := filepath.Glob(filepath.Join(root, "fw.config.*")); len(m) > 0 {
				break
			}
		}
		src := srcOf(root)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var refs []specs.Ref
		switch lang {
		case "js", "jsx":
			refs, _ = l.Scan(data, 0, lang == "jsx", nil)
		case "vue":
			refs, _ = l.ScanVue(data, nil)
		default:
			refs = specs.ScanCSS(data, 0, lang, nil)
		}
		for _, r := range refs {
			s := string(data[r.Start:r.End])
			body := s
			if i := strings.IndexAny(body, map[bool]string{true: "?#", false: "?"}[r.Style]); i >= 0 {
				body = body[:i]
			}
			var target string
			switch {
			case body == "" || strings.Contains(body, ":"):
				continue
			case strings.HasPrefix(body, "./") || strings.HasPrefix(body, "../"):
				target = filepath.Join(filepath.Dir(path), body)
			case strings.HasPrefix(body, "~~/") || strings.HasPrefix(body, "@@/"):
				target = filepath.Join(root, body[3:])
			case strings.HasPrefix(body, "~/") || strings.HasPrefix(body, "@/"):
				target = filepath.Join(src, body[2:])
			case v3 && (strings.HasPrefix(body, "assets/") || strings.HasPrefix(body, "~assets/")):
				target = filepath.Join(src, strings.TrimPrefix(body, "~"))
			case v3 && (strings.HasPrefix(body, "public/") || strings.HasPrefix(body, "~public/")):
				target = filepath.Join(src, strings.TrimPrefix(body, "~"))
			case r.Style && isBarePath(body) && exists(filepath.Join(filepath.Dir(path), body), true):
				target = filepath.Join(filepath.Dir(path), body)
			default:
				continue // a package
			}
			rel, _ := filepath.Rel(dir, path)
			key := filepath.ToSlash(rel) + ": " + s
			if exists(target, r.Style) {
				ok = append(ok, key)
			} else {
				broken = append(broken, key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ok, broken
}

// The resolver's own statement of what the move reads (move.go, model.go):
// the files it scans by language, the extensions a specifier may omit, and
// the bare paths a style sheet resolves relatively.

// scriptExts and styleExts are the extensions bundlers try on a script's
// and on a style sheet's specifier.
var (
	scriptExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".json", ".d.ts"}
	styleExts  = []string{".css", ".scss", ".sass", ".less", ".styl", ".pcss", ".postcss"}
)

// fileLang returns the language of a source file by its name, and whether
// it is one whose specifiers are read.
func fileLang(name string) (lang string, ok bool) {
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

// isBarePath reports a specifier that is neither absolute, nor an alias,
// nor relative, nor a URL or a scheme: in a style sheet, a relative path.
func isBarePath(s string) bool {
	if s == "" || s[0] == '/' || s[0] == '~' || s[0] == '@' || s[0] == '#' || s[0] == '.' {
		return false
	}
	if i := strings.IndexByte(s, ':'); i >= 0 && (strings.IndexByte(s, '/') < 0 || i < strings.IndexByte(s, '/')) {
		return false // data:, http:, sass:math
	}
	return true
}
