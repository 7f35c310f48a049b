package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// envProject writes a project whose .env has n assignments, most of them
// variables no key declares (what FW403 and FW404 judge one by one), and
// returns its config.
func envProject(tb testing.TB, n int) string {
	dir := tb.TempDir()
	cfg := filepath.Join(dir, "fw.config.ts")
	write(tb, cfg, "export default defineFwConfig({\n  runtimeConfig: { apiSecret: '', public: { apiBase: '' } },\n})\n")
	var b strings.Builder
	b.Grow(n * 24)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "FW_UNKNOWN_%d=x\n", i)
		case 1:
			fmt.Fprintf(&b, "OTHER_%d=\"quoted %d\"\n", i, i)
		case 2:
			fmt.Fprintf(&b, "# fwmigrate-ignore FW403: comment %d\n", i)
		default:
			fmt.Fprintf(&b, "FW_PUBLIC_API_BASE=https://x/%d\n", i)
		}
	}
	write(tb, filepath.Join(dir, ".env"), b.String())
	return cfg
}

// layerChain writes n local layers, each extending the next, and the app
// that extends the first; it returns the app's config.
func layerChain(tb testing.TB, n int) string {
	dir := tb.TempDir()
	for i := 0; i < n; i++ {
		next := ""
		if i+1 < n {
			next = fmt.Sprintf("extends: ['../l%d'], ", i+1)
		}
		write(tb, filepath.Join(dir, fmt.Sprintf("l%d", i), "fw.config.ts"), fmt.Sprintf("export default defineFwConfig({ %sruntimeConfig: { k%d: '' } })\n", next, i))
	}
	cfg := filepath.Join(dir, "app", "fw.config.ts")
	write(tb, cfg, "export default defineFwConfig({ extends: ['../l0'] })\n")
	return cfg
}

func write(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkHostileEnv checks a project whose .env holds 1,000,000 lines
// (a pull request can commit one): loading, parsing and the env rules.
func BenchmarkHostileEnv(b *testing.B) {
	cfg := envProject(b, envLines())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rules.Check(project.LoadProject(cfg, cfg), rules.Options{Target: 4})
	}
}

// BenchmarkHostileLayers checks an app that extends a chain of 2,000 local
// layers, each extending the next, as check does: the app, then each layer
// it reaches as a project of its own.
func BenchmarkHostileLayers(b *testing.B) {
	cfg := layerChain(b, chainLen())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l := project.NewLoader()
		rules.Check(l.Load(cfg, cfg), rules.Options{Target: 4})
		for _, p := range l.LayerProjects() {
			rules.Check(p, rules.Options{Target: 4})
		}
	}
}

// TestLayerChainCut: a chain deeper than project.MaxLayerDepth is cut with
// a warning (FW905) at the entry it goes through, and only the layers
// within the limit are checked as projects; a short chain is loaded whole,
// without it.
func TestLayerChainCut(t *testing.T) {
	for _, n := range []int{5, project.MaxLayerDepth, project.MaxLayerDepth + 10} {
		cfg := layerChain(t, n)
		l := project.NewLoader()
		p := l.Load(cfg, cfg)
		res := rules.Check(p, rules.Options{Target: 4})
		var cut []*rules.Diagnostic
		for _, d := range res {
			if d.Code == rules.CodeLayerNotLoaded {
				cut = append(cut, d)
			}
		}
		layers := len(l.LayerProjects())
		if n <= project.MaxLayerDepth {
			if len(cut) != 0 || len(p.Layers) != n || layers != n {
				t.Errorf("chain of %d: %d layers loaded, %d checked, FW905 %v; want all, no FW905", n, len(p.Layers), layers, cut)
			}
			continue
		}
		if len(p.Layers) != project.MaxLayerDepth || layers != project.MaxLayerDepth {
			t.Errorf("chain of %d: %d layers loaded and %d checked, want %d", n, len(p.Layers), layers, project.MaxLayerDepth)
		}
		if len(cut) != 1 || cut[0].Severity != rules.Warning || !strings.Contains(cut[0].Message, `through "../l0" are loaded only in part: the layers it extends go deeper than 16 layers`) {
			t.Errorf("chain of %d: FW905 = %v", n, cut)
		}
		if _, complete := p.RuntimeConfigKeys(); complete {
			t.Errorf("chain of %d: runtimeConfig keys complete, though layers were not loaded", n)
		}
	}
}

// TestLayerCountCut: a project that extends more than project.MaxLayers
// layers loads that many, and says so.
func TestLayerCountCut(t *testing.T) {
	dir := t.TempDir()
	var refs []string
	for i := 0; i < project.MaxLayers+5; i++ {
		write(t, filepath.Join(dir, fmt.Sprintf("l%d", i), "fw.config.ts"), "export default defineFwConfig({})\n")
		refs = append(refs, fmt.Sprintf("'../l%d'", i))
	}
	cfg := filepath.Join(dir, "app", "fw.config.ts")
	write(t, cfg, "export default defineFwConfig({ extends: ["+strings.Join(refs, ", ")+"] })\n")
	p := project.LoadProject(cfg, cfg)
	if len(p.Layers) != project.MaxLayers {
		t.Errorf("%d layers loaded, want %d", len(p.Layers), project.MaxLayers)
	}
	res := rules.Check(p, rules.Options{Target: 4})
	n := 0
	for _, d := range res {
		if d.Code == rules.CodeLayerNotLoaded && strings.Contains(d.Message, "the project extends more than 256 layers") {
			n++
		}
	}
	if n != 5 {
		t.Errorf("%d FW905 findings for the layers past the count, want 5", n)
	}
}

// envLines and chainLen let a run measure smaller inputs (FW_BENCH_ENV,
// FW_BENCH_LAYERS) to see how the time grows.
func envLines() int { return benchSize("FW_BENCH_ENV", 1_000_000) }
func chainLen() int { return benchSize("FW_BENCH_LAYERS", 2000) }

func benchSize(env string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(env), &n); err == nil && n > 0 {
		return n
	}
	return def
}
