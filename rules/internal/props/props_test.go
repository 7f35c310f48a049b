package props_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules/internal/props"
)

// cacheConfigs are configs whose shapes the corpus and the fixtures may
// not have: nested and repeated overrides, spreads, computed keys, keys
// with dots and brackets, an $env that is not an object.
var cacheConfigs = []string{
	`export default defineFwConfig({
  ssr: false,
  app: { baseURL: '/a', head: { title: 'x' } },
  $production: { ssr: true, app: { baseURL: '/p' }, $production: { ssr: 1 } },
  $env: { staging: { ssr: false, app: { baseURL: '/s' } }, ...more, [k]: { ssr: 1 } },
  'app.baseURL': 1,
  "routeRules": { '/api/**': { cors: true }, "a.b": { c: 1 } },
  ...{ ssr: 2, app: { cdnURL: 'x' } },
  [computed]: { ssr: 3 },
  app: { baseURL: '/again' },
  $env: 'not an object',
  $development: { $env: { x: { ssr: 4 } } },
})`,
	`export default { a: { b: { c: { d: { e: 1 } } } }, $test: { a: { b: 2 } }, get x() { return 1 }, m() {} }`,
	`const config = defineFwConfig({ ssr: false }); config.ssr = true; export default config`,
	`export default withPlugin({ ssr: false })`,
	`export default defineFwConfig({})`,
}

// cacheTestFiles parses cacheConfigs and every config of the corpus and of
// the rule fixtures (their fixed configs included), once for the tests
// that share them: the files are only read.
func cacheTestFiles(t *testing.T) []*ast.File {
	t.Helper()
	files, err := parseCacheTestFiles()
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var parseCacheTestFiles = sync.OnceValues(func() ([]*ast.File, error) {
	var files []*ast.File
	for i, src := range cacheConfigs {
		f, err := ast.Parse("fw.config.ts", []byte(src))
		if err != nil {
			return nil, fmt.Errorf("cacheConfigs[%d]: %v", i, err)
		}
		files = append(files, f)
	}
	var archives []string
	for _, pat := range []string{"../../../testdata/corpus/*.txtar", "../../../testdata/rules/*.txtar"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			return nil, err
		}
		archives = append(archives, m...)
	}
	if len(archives) < 40 {
		return nil, fmt.Errorf("only %d archives found", len(archives))
	}
	for _, name := range archives {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for _, af := range txtar.Parse(data).Files {
			if !compat.IsConfigName(filepath.Base(af.Name)) {
				continue
			}
			if f, err := ast.Parse(af.Name, af.Data); err == nil {
				files = append(files, f)
			}
		}
	}
	return files, nil
})

// walk is what Pass.Walk (rules) does: ast.File.Walk when there is a
// literal config, nothing otherwise.
func walk(f *ast.File, fn func(path ast.Path, prop *ast.Property) bool) {
	if f.Config != nil {
		f.Walk(fn)
	}
}

// TestWalkCached checks Index.Walk (rules' Pass.walkCached) against
// ast.File.Walk, with every property pruned or descended into by a choice
// that depends on its path: every property descended into (seed 0), then
// three prunings (one with -short).
func TestWalkCached(t *testing.T) {
	seeds := uint32(4)
	if testing.Short() {
		seeds = 2
	}
	for _, f := range cacheTestFiles(t) {
		x := props.New(f)
		for seed := uint32(0); seed < seeds; seed++ {
			keep := func(path ast.Path) bool {
				h := fnv.New32a()
				h.Write([]byte(path.String()))
				return seed == 0 || (h.Sum32()+seed)%3 != 0
			}
			var want, got []string
			var wantProps, gotProps []*ast.Property
			walk(f, func(path ast.Path, prop *ast.Property) bool {
				want, wantProps = append(want, path.String()), append(wantProps, prop)
				return keep(path)
			})
			x.Walk(func(w *props.Prop) bool {
				got, gotProps = append(got, w.Path.String()), append(gotProps, w.Prop)
				prefix, rest := props.SplitEnvPrefix(w.Path)
				if !reflect.DeepEqual(prefix, w.Prefix) && (len(prefix) > 0 || len(w.Prefix) > 0) || !reflect.DeepEqual(rest, w.Rest) && (len(rest) > 0 || len(w.Rest) > 0) {
					t.Errorf("%s: %s: prefix %q rest %q, want %q %q", f.Name, w.Path, w.Prefix, w.Rest, prefix, rest)
				}
				if w.Option != w.Rest.String() {
					t.Errorf("%s: %s: option %q", f.Name, w.Path, w.Option)
				}
				if cap(w.Path) != len(w.Path) || cap(w.Prefix) != len(w.Prefix) || cap(w.Rest) != len(w.Rest) {
					t.Errorf("%s: %s: a shared path has spare capacity", f.Name, w.Path)
				}
				return keep(w.Path)
			})
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProps, wantProps) {
				t.Fatalf("%s (seed %d): Walk visits\n%q\nast.File.Walk visits\n%q", f.Name, seed, got, want)
			}
		}
	}
}

// walkOptionProps is Each (rules' Pass.OptionProps) as a walk of the
// config: the definition the index must agree with.
func walkOptionProps(f *ast.File, option string, fn func(prefix, path ast.Path, prop *ast.Property)) {
	want := ast.ParsePath(option)
	walk(f, func(path ast.Path, prop *ast.Property) bool {
		if len(path) == 1 && path[0] == "$env" {
			return true
		}
		prefix, rest := props.SplitEnvPrefix(path)
		if len(rest) > len(want) {
			return false
		}
		for i := range rest {
			if rest[i] != want[i] {
				return false
			}
		}
		if len(rest) == len(want) {
			fn(prefix, path, prop)
			return false
		}
		return true
	})
}

// TestOptionProps checks the options index (Each) against walkOptionProps for every
// option compat knows, every path the configs hold, and some that are not.
func TestOptionProps(t *testing.T) {
	var options []string
	for _, o := range compat.Options() {
		options = append(options, o.Path)
	}
	options = append(options, "", "$env", "$production", "$env.staging", "app.baseURL", `["app.baseURL"]`, "app.baseURL.x",
		`routeRules["/api/**"]`, `routeRules["a.b"]`, `routeRules["a.b"].c`, "routeRules.a.b", "...", "a.b.c.d.e", "x", "1a", "a..b", ".a")
	type occ struct {
		prefix, path string
		prop         *ast.Property
	}
	for _, f := range cacheTestFiles(t) {
		x := props.New(f)
		paths := options
		walk(f, func(path ast.Path, prop *ast.Property) bool {
			_, rest := props.SplitEnvPrefix(path)
			paths = append(paths, rest.String(), strings.Join(rest, "."))
			return true
		})
		for _, option := range paths {
			var want, got []occ
			walkOptionProps(f, option, func(prefix, path ast.Path, prop *ast.Property) {
				want = append(want, occ{prefix.String(), path.String(), prop})
			})
			x.Each(option, func(prefix, path ast.Path, prop *ast.Property) {
				got = append(got, occ{prefix.String(), path.String(), prop})
			})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Each(%q) = %v, want %v", f.Name, option, got, want)
			}
		}
	}
}

func TestPlainPath(t *testing.T) {
	for _, s := range []string{"", ".", "a.", ".a", "a..b", "1a", "a.1b", "a-b", "a b", `a["b"]`, "é", "a.b.c", "$env.x_1", "_", "a1.B2"} {
		if props.PlainPath(s) && ast.ParsePath(s).String() != s {
			t.Errorf("PlainPath(%q) is true, but the index key is %q", s, ast.ParsePath(s).String())
		}
	}
	for _, s := range []string{"a", "a.b.c", "$env.x_1", "_", "a1.B2", "devServer.https.key"} {
		if !props.PlainPath(s) {
			t.Errorf("PlainPath(%q) = false", s)
		}
	}
}
