package project_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

// layerTree is a monorepo: two apps share a layer chain, one app is also a
// layer of the other, a layer lives outside the walked apps, and the
// project has auto-registered layers.
const layerTree = `
-- apps/web/fw.config.ts --
export default defineFwConfig({
  theme: '../../themes/brand',
  extends: ['../../layers/base', ['../docs', { meta: { name: 'docs' } }], 'github:org/remote'],
  runtimeConfig: { apiSecret: '', public: { apiBase: '' } },
})
-- apps/web/layers/zeta/fw.config.ts --
export default defineFwConfig({ runtimeConfig: { zeta: 1 } })
-- apps/web/layers/alpha/.keep --
-- apps/docs/fw.config.ts --
export default defineFwConfig({
  extends: '../../layers/base',
  future: { compatibilityVersion: 4 },
  $production: { runtimeConfig: { sentry: { dsn: '' } } },
})
-- layers/base/fw.config.ts --
export default defineFwConfig({
  extends: ['../shared'],
  srcDir: 'src',
  runtimeConfig: { public: { apiBase: 'x', siteName: '' } },
})
-- layers/shared/fw.config.js --
export default { runtimeConfig: { shared: { token: '' } } }
-- themes/brand/fw.config.ts --
export default defineFwConfig({ runtimeConfig: { ...brand } })
`

func writeArchive(t testing.TB, text string) string {
	t.Helper()
	dir := t.TempDir()
	testtree.Write(t, dir, txtar.Parse([]byte(text)), "")
	return dir
}

// countingLoader counts the reads of each config.
func countingLoader() (*project.Loader, func() map[string]int) {
	var mu sync.Mutex
	reads := map[string]int{}
	l := project.NewLoader()
	l.ReadFile = func(path string) ([]byte, error) {
		if compat.IsConfigName(filepath.Base(path)) {
			mu.Lock()
			reads[path]++
			mu.Unlock()
		}
		return project.ReadSource(path)
	}
	return l, func() map[string]int { mu.Lock(); defer mu.Unlock(); return reads }
}

func rel(t *testing.T, root, p string) string {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	r, err := filepath.Rel(real, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(r)
}

func TestLayers(t *testing.T) {
	dir := writeArchive(t, layerTree)
	l, reads := countingLoader()
	web := l.Load(filepath.Join(dir, "apps/web/fw.config.ts"), "apps/web/fw.config.ts")
	docs := l.Load(filepath.Join(dir, "apps/docs/fw.config.ts"), "apps/docs/fw.config.ts")
	for _, p := range []*project.Project{web, docs} {
		if p.Err != nil {
			t.Fatal(p.Err)
		}
	}

	// Priority order: theme, extends (depth first), auto layers with later
	// names first; each layer once; the remote one is not loaded.
	var got []string
	for _, ly := range web.Layers {
		got = append(got, rel(t, dir, ly.Root))
	}
	want := []string{"themes/brand", "layers/base", "layers/shared", "apps/docs", "apps/web/layers/zeta", "apps/web/layers/alpha"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("web layers %q, want %q", got, want)
	}
	var sources []string
	for _, r := range web.Extends {
		s := r.Option + ":" + r.Source + ":" + r.Kind.String()
		if r.Layer == nil {
			s += ":not loaded"
		}
		sources = append(sources, s)
	}
	wantSources := []string{
		"theme:../../themes/brand:local", "extends:../../layers/base:local", "extends:../docs:local",
		"extends:github:org/remote:remote:not loaded", "layers:layers/zeta:local", "layers:layers/alpha:local",
	}
	if !reflect.DeepEqual(sources, wantSources) {
		t.Errorf("web extends %q, want %q", sources, wantSources)
	}

	// Each layer resolves its own srcDir and compatibility version.
	base := web.Layers[1]
	if base.Detection == nil || base.Detection.V4.SrcDir != filepath.Join(base.Root, "src") {
		t.Errorf("base layer srcDir: %+v", base.Detection)
	}
	if d := web.Layers[3].Detection; d == nil || d.Compat != 4 {
		t.Errorf("docs layer compat: %+v", d)
	}
	if web.Detection.Compat == 4 {
		t.Errorf("web inherits compatibilityVersion 4 from a layer: each layer sets its own")
	}
	// A layer without a config is a layer too.
	if alpha := web.Layers[5]; alpha.ConfigPath != "" || alpha.File != nil || alpha.Detection == nil {
		t.Errorf("alpha layer: %+v", alpha)
	}

	// Shared layers, and docs (a project and a layer of web), are the same
	// parse and were read once.
	if docs.File != web.Layers[3].File {
		t.Errorf("docs parsed twice")
	}
	if web.Layers[1] != docs.Layers[0] {
		t.Errorf("base layer loaded twice")
	}
	for p, n := range reads() {
		if n != 1 {
			t.Errorf("%s read %d times", rel(t, dir, p), n)
		}
	}

	// runtimeConfig keys: the project's, then its layers' in priority
	// order; incomplete because of the remote layer and brand's spread.
	keys, complete := web.RuntimeConfigKeys()
	// (docs declares sentry in $production.)
	wantKeys := []string{"apiSecret", "public", "public.apiBase", "public.siteName", "shared", "shared.token", "sentry", "sentry.dsn", "zeta"}
	if !reflect.DeepEqual(keys, wantKeys) || complete {
		t.Errorf("web keys %q complete %v, want %q incomplete", keys, complete, wantKeys)
	}
	keys, complete = docs.RuntimeConfigKeys()
	wantKeys = []string{"sentry", "sentry.dsn", "public", "public.apiBase", "public.siteName", "shared", "shared.token"}
	if !reflect.DeepEqual(keys, wantKeys) || !complete {
		t.Errorf("docs keys %q complete %v, want %q complete", keys, complete, wantKeys)
	}

	// The layers that are not projects are checked once on their own.
	var units []string
	for _, p := range l.LayerProjects() {
		units = append(units, rel(t, dir, p.ConfigPath))
		if p.File == nil {
			t.Errorf("%s: %v", p.ConfigDisplay, p.Err)
		}
	}
	wantUnits := []string{"apps/web/layers/zeta/fw.config.ts", "layers/base/fw.config.ts", "layers/shared/fw.config.js", "themes/brand/fw.config.ts"}
	if !reflect.DeepEqual(units, wantUnits) {
		t.Errorf("layer projects %q, want %q", units, wantUnits)
	}
	if again := l.LayerProjects(); len(again) != 0 {
		t.Errorf("layer projects returned twice")
	}
}

// TestLayersConcurrent loads many projects that share layers, and a cycle,
// from many goroutines: no deadlock, no race (go test -race), one read per
// config, the same result for each.
func TestLayersConcurrent(t *testing.T) {
	var b strings.Builder
	const n = 40
	for i := 0; i < n; i++ {
		b.WriteString("-- apps/a" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "/fw.config.ts --\n")
		b.WriteString("export default defineFwConfig({ extends: ['../../layers/x', '../../layers/y'] })\n")
	}
	b.WriteString("-- layers/x/fw.config.ts --\nexport default defineFwConfig({ extends: '../y', runtimeConfig: { x: 1 } })\n")
	b.WriteString("-- layers/y/fw.config.ts --\nexport default defineFwConfig({ extends: '../x', runtimeConfig: { y: 1 } })\n")
	dir := writeArchive(t, b.String())
	cfgs, err := filepath.Glob(filepath.Join(dir, "apps", "*", "fw.config.ts"))
	if err != nil || len(cfgs) != n {
		t.Fatalf("%d configs: %v", len(cfgs), err)
	}
	cfgs = append(cfgs, filepath.Join(dir, "layers/x/fw.config.ts"), filepath.Join(dir, "layers/y/fw.config.ts"))
	l, reads := countingLoader()
	projects := make([]*project.Project, len(cfgs))
	var wg sync.WaitGroup
	for i := range cfgs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			projects[i] = l.Load(cfgs[i], cfgs[i])
		}(i)
	}
	wg.Wait()
	for i, p := range projects {
		keys, complete := p.RuntimeConfigKeys()
		want := []string{"x", "y"}
		if i == n+1 {
			want = []string{"y", "x"}
		}
		if !reflect.DeepEqual(keys, want) || !complete {
			t.Errorf("%s: keys %q complete %v", p.ConfigDisplay, keys, complete)
		}
		cycles := 0
		for _, r := range p.Extends {
			if r.Cycle != nil {
				cycles++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[i >= n]; cycles != want {
			t.Errorf("%s: %d cycles, want %d", p.ConfigDisplay, cycles, want)
		}
	}
	for p, c := range reads() {
		if c != 1 {
			t.Errorf("%s read %d times", p, c)
		}
	}
	if units := l.LayerProjects(); len(units) != 0 {
		t.Errorf("%d layer projects: x and y are projects", len(units))
	}
}

// TestReadSource: the reader refuses what is not a regular text file
// before reading it.
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	if _, err := project.ReadSource(dir); err == nil || !strings.Contains(err.Error(), "not a regular file but a directory") {
		t.Errorf("directory: %v", err)
	}
	if _, err := project.ReadSource(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(project.MaxSourceSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := project.ReadSource(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized: %v", err)
	}
	ok := filepath.Join(dir, "fw.config.ts")
	text := strings.Repeat("export default {}\n", 5000)
	if err := os.WriteFile(ok, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := project.ReadSource(ok); err != nil || string(src) != text {
		t.Errorf("regular file: %d bytes, %v", len(src), err)
	}
	// A binary file reads, and is refused when loaded as a config.
	testtree.Map(t, dir, map[string]string{"bin/fw.config.ts": "abc\x00def"})
	bin := filepath.Join(dir, "bin", "fw.config.ts")
	if p := project.LoadProject(bin, "fw.config.ts"); p.Err == nil || p.Err.Error() != "binary file, not a config: NUL byte at offset 3" {
		t.Errorf("binary: %v", p.Err)
	}
}

// TestRelease: a released project is forgotten unless it is a layer; when a
// later project reaches it as a layer it is read again, and it is not
// returned as a layer project (it was checked as a project).
func TestRelease(t *testing.T) {
	dir := writeArchive(t, `
-- a/fw.config.ts --
export default defineFwConfig({ runtimeConfig: { a: 1 } })
-- b/fw.config.ts --
export default defineFwConfig({ extends: '../a', runtimeConfig: { b: 1 } })
-- c/fw.config.ts --
export default defineFwConfig({ extends: '../b' })
`)
	l, reads := countingLoader()
	a := l.Load(filepath.Join(dir, "a/fw.config.ts"), "a/fw.config.ts")
	b := l.Load(filepath.Join(dir, "b/fw.config.ts"), "b/fw.config.ts")
	l.Release(a) // b's layer: kept
	l.Release(b) // nobody's layer yet: forgotten
	c := l.Load(filepath.Join(dir, "c/fw.config.ts"), "c/fw.config.ts")
	if keys, complete := c.RuntimeConfigKeys(); !reflect.DeepEqual(keys, []string{"b", "a"}) || !complete {
		t.Errorf("c keys %q complete %v", keys, complete)
	}
	n := map[string]int{}
	for p, c := range reads() {
		n[rel(t, dir, p)] = c
	}
	// a was reached as b's layer before it was released: kept, read once.
	// b was released before c reached it: read again; its layer a is the
	// one kept.
	want := map[string]int{"a/fw.config.ts": 1, "b/fw.config.ts": 2, "c/fw.config.ts": 1}
	if !reflect.DeepEqual(n, want) {
		t.Errorf("reads %v, want %v", n, want)
	}
	if units := l.LayerProjects(); len(units) != 0 {
		t.Errorf("layer projects %d: a and b were checked as projects", len(units))
	}
}

// TestLayerInheritsFramework: a layer checked as a project of its own, with
// no framework major in its own package.json, runs under the major of the
// apps that extend it when they agree, and stays unknown when they do not.
func TestLayerInheritsFramework(t *testing.T) {
	for _, tc := range []struct {
		name   string
		majors []string
		want   int
	}{
		{"agree", []string{"^4.0.0", "4.1.2"}, 4},
		{"disagree", []string{"^3.12.0", "^4.0.0"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := "-- base/fw.config.ts --\nexport default defineFwConfig({})\n"
			for i, m := range tc.majors {
				app := fmt.Sprintf("app%d", i)
				text += fmt.Sprintf("-- %s/package.json --\n{\"dependencies\": {\"fw\": %q}}\n-- %s/fw.config.ts --\nexport default defineFwConfig({ extends: ['../base'] })\n", app, m, app)
			}
			dir := writeArchive(t, text)
			l := project.NewLoader()
			for i := range tc.majors {
				cfg := filepath.Join(dir, fmt.Sprintf("app%d", i), "fw.config.ts")
				l.Load(cfg, cfg)
			}
			layers := l.LayerProjects()
			if len(layers) != 1 {
				t.Fatalf("%d layer projects, want 1", len(layers))
			}
			if got := layers[0].Framework; got != tc.want {
				t.Errorf("layer framework %d (%q), want %d", got, layers[0].FrameworkSource, tc.want)
			}
		})
	}
}

// TestTSConfig: the root tsconfig.json beside the config is part of the
// loaded project (FW211 reads it, rules never read the disk), shown like
// the config; none, a directory of that name or a binary file is nil.
func TestTSConfig(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "web")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(sub, 0o755))
	cfg := filepath.Join(sub, "fw.config.ts")
	must(os.WriteFile(cfg, []byte("export default defineFwConfig({})\n"), 0o644))
	if p := project.LoadProject(cfg, "web/fw.config.ts"); p.TSConfig != nil {
		t.Errorf("no tsconfig.json: %+v", p.TSConfig)
	}
	const text = "{ \"extends\": \"./.fw/tsconfig.json\" }\n"
	must(os.WriteFile(filepath.Join(sub, "tsconfig.json"), []byte(text), 0o644))
	p := project.LoadProject(cfg, "web/fw.config.ts")
	if p.TSConfig == nil || string(p.TSConfig.Src) != text || p.TSConfig.Path != filepath.Join(sub, "tsconfig.json") || p.TSConfig.Display != filepath.Join("web", "tsconfig.json") {
		t.Fatalf("TSConfig %+v", p.TSConfig)
	}
	must(os.WriteFile(filepath.Join(sub, "tsconfig.json"), []byte("{\x00}"), 0o644))
	if p := project.LoadProject(cfg, "web/fw.config.ts"); p.TSConfig != nil {
		t.Errorf("a binary tsconfig.json: %+v", p.TSConfig)
	}
	must(os.Remove(filepath.Join(sub, "tsconfig.json")))
	must(os.Mkdir(filepath.Join(sub, "tsconfig.json"), 0o755))
	if p := project.LoadProject(cfg, "web/fw.config.ts"); p.TSConfig != nil {
		t.Errorf("a directory named tsconfig.json: %+v", p.TSConfig)
	}
}
