package ast_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"golang.org/x/tools/txtar"
)

// notLiteral lists the corpus configs whose export really is not an object
// literal, with the reason Parse gives.
var notLiteral = map[string]string{
	"016-core-basic-fixture.txtar/fw.config.ts": "the config is the result of calling withMatrix(...), which fwmigrate does not evaluate",
	"018-core-inline-styles.txtar/fw.config.ts": "the config is the result of calling withMatrix(...), which fwmigrate does not evaluate",
}

type corpusConfig struct {
	id   string // archive/path
	name string
	src  []byte
}

func corpusConfigs(t testing.TB) []corpusConfig {
	t.Helper()
	archives, err := filepath.Glob("../testdata/corpus/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var out []corpusConfig
	for _, fn := range archives {
		a, err := txtar.ParseFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasPrefix(filepath.Base(f.Name), "fw.config.") {
				out = append(out, corpusConfig{filepath.Base(fn) + "/" + f.Name, f.Name, f.Data})
			}
		}
	}
	return out
}

func TestCorpus(t *testing.T) {
	configs := corpusConfigs(t)
	if len(configs) < 48 {
		t.Fatalf("found %d corpus configs, want every fw.config.* of the corpus (48)", len(configs))
	}
	for _, c := range configs {
		t.Run(c.id, func(t *testing.T) {
			f, err := ast.Parse(c.name, c.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if want, ok := notLiteral[c.id]; ok {
				if f.Config != nil || f.Reason != want {
					t.Errorf("Config = %v, Reason = %q; want nil, %q", f.Config != nil, f.Reason, want)
				}
				if f.ReasonSpan.Len() == 0 {
					t.Errorf("ReasonSpan empty")
				}
			} else if f.Config == nil {
				t.Fatalf("Config = nil: %s", f.Reason)
			}
			for _, e := range checkSpans(f) {
				t.Error(e)
			}
			for _, e := range checkComments(f) {
				t.Error(e)
			}
		})
	}
}

// TestCorpusExtent deletes each property of every corpus config, one at a
// time (down to two levels), and checks that what is left still parses,
// has no new run of blank lines, and has exactly that property (and what it
// held) less. With -short it takes one config in four.
func TestCorpusExtent(t *testing.T) {
	for i, c := range corpusConfigs(t) {
		if testing.Short() && i%4 != 0 {
			continue
		}
		f, err := ast.Parse(c.name, c.src)
		if err != nil || f.Config == nil {
			continue
		}
		f.Walk(func(path ast.Path, p *ast.Property) bool {
			if len(path) > 2 {
				return false // deep enough: each deletion costs an esbuild run
			}
			ext := p.Extent(f)
			out := string(c.src[:ext.Start]) + string(c.src[ext.End:])
			g, err := ast.Parse(c.name, []byte(out))
			if err != nil {
				t.Errorf("%s: deleting %s leaves invalid code: %v\n%s", c.id, path, err, short(f.Text(ext)))
				return true
			}
			if strings.Contains(out, "\n\n\n") && !strings.Contains(string(c.src), "\n\n\n") {
				t.Errorf("%s: deleting %s leaves two blank lines", c.id, path)
			}
			n, m := 0, 0
			f.Walk(func(ast.Path, *ast.Property) bool { n++; return true })
			g.Walk(func(ast.Path, *ast.Property) bool { m++; return true })
			sub := 0
			if o, ok := ast.Unwrap(p.Value).(*ast.Object); ok {
				walkObject(f, o, nil, func(ast.Path, *ast.Property) bool { sub++; return true })
			}
			if m != n-1-sub {
				t.Errorf("%s: deleting %s: %d properties left, want %d", c.id, path, m, n-1-sub)
			}
			return true
		})
	}
}
