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
		exts := specs.ScriptExts
		if style {
			exts = specs.StyleExts
			d, b := filepath.Split(p)
			for _, e := range specs.StyleExts {
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
		lang, isSrc := specs.FileLang(d.Name())
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
			case r.Style && specs.IsBarePath(body) && exists(filepath.Join(filepath.Dir(path), body), true):
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
