package rules_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// extractCorpus writes every corpus archive to its own directory under a
// temporary root and returns, per archive, the config files it holds.
func extractCorpus(t testing.TB) (root string, configs map[string][]string) {
	t.Helper()
	root = t.TempDir()
	_, configs = testtree.Corpus(t, root, "../testdata/corpus/*.txtar")
	return root, configs
}

// knownOptionNames returns every option path of the framework's own option
// lists (options-v3.json, options-v4.json).
func knownOptionNames(t testing.TB) map[string]bool {
	known := map[string]bool{}
	for _, f := range []string{"../testdata/spec/options-v3.json", "../testdata/spec/options-v4.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var opts []struct {
			Path string `json:"path"`
		}
		if err := json.Unmarshal(data, &opts); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, o := range opts {
			known[o.Path] = true
		}
	}
	return known
}

// TestCorpus checks every config of the shared corpus with every rule. No
// config may fail to parse or crash a rule; no option the framework lists
// may be reported as unknown; and the whole output is kept as a golden
// (testdata/corpus-check.golden), so that every change in what fwmigrate
// says about real configs shows up in review. Refresh with -update.
func TestCorpus(t *testing.T) {
	root, configs := extractCorpus(t)
	known := knownOptionNames(t)
	var names []string
	for n := range configs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		sort.Strings(configs[name])
		for _, cfg := range configs[name] {
			display := name + "/" + cfg
			p := project.LoadProject(filepath.Join(root, name, filepath.FromSlash(cfg)), display)
			diags := rules.Check(p, rules.Options{Target: 4})
			for _, d := range diags {
				switch d.Code {
				case rules.CodeSyntax, rules.CodeIO, rules.CodeInternal:
					t.Errorf("%s: %s", display, strings.TrimSpace(RenderDiagnostic(d)))
				}
				if d.Name == "unknown-option" && d.Option != "" {
					_, rest := rules.SplitEnvPrefix(ast.ParsePath(d.Option))
					if known[rest.String()] {
						t.Errorf("%s: %s is listed by the framework but reported unknown", display, d.Option)
					}
				}
				b.WriteString(RenderDiagnostic(d))
			}
		}
	}
	const file = "../testdata/corpus-check.golden"
	got := b.String()
	if dump := os.Getenv("FW_CORPUS_DUMP"); dump != "" {
		// For rule authors reading what their rules say about the corpus.
		if err := os.WriteFile(dump, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, file, []byte(got))
}

// BenchmarkCheck measures checking one project with every rule, per config
// of the corpus (loading included: parsing, layout detection, .env files).
func BenchmarkCheck(b *testing.B) {
	root, configs := extractCorpus(b)
	var paths []string
	for name, cfgs := range configs {
		for _, c := range cfgs {
			paths = append(paths, filepath.Join(root, name, filepath.FromSlash(c)))
		}
	}
	sort.Strings(paths)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			proj := project.LoadProject(p, p)
			rules.Check(proj, rules.Options{Target: 4})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/config")
}
