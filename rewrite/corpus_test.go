package rewrite_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

type corpusConfig struct {
	name string // archive/path
	file string // base name, for the parser
	src  []byte
}

// corpus returns every fw.config.* of testdata/corpus, layer configs
// included.
func corpus(t testing.TB) []corpusConfig {
	files, err := filepath.Glob("../testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var out []corpusConfig
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			base := filepath.Base(f.Name)
			if strings.HasPrefix(base, "fw.config.") {
				out = append(out, corpusConfig{filepath.Base(file) + "/" + f.Name, base, f.Data})
			}
		}
	}
	return out
}

// migration is the kind of fix list a v3 project gets: moves of generate,
// renames, removed flags deleted, the version step.
var migration = []rewrite.Op{
	{Kind: rewrite.OpMove, Path: ast.Path{"generate", "routes"}, To: ast.Path{"engine", "prerender", "routes"}},
	{Kind: rewrite.OpMove, Path: ast.Path{"generate", "exclude"}, To: ast.Path{"engine", "prerender", "ignore"}},
	{Kind: rewrite.OpRename, Path: ast.Path{"dir", "static"}, To: ast.Path{"dir", "public"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "treeshakeClientOnly"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "configSchema"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "compileTemplate"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "templateUtils"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "relativeWatchPaths"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"experimental", "defaults", "useAsyncData", "value"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"bundlerA", "devBundler"}},
	{Kind: rewrite.OpDelete, Path: ast.Path{"target"}},
	{Kind: rewrite.OpMove, Path: ast.Path{"build", "transpile"}, To: ast.Path{"build", "transpileDeps"}},
	{Kind: rewrite.OpSet, Path: ast.Path{"future", "compatibilityVersion"}, Value: 4},
}

// TestCorpusMigration applies the migration ops to every corpus config:
// the result verifies, parses, keeps every comment that was not in a
// deleted property, and a second run changes nothing.
func TestCorpusMigration(t *testing.T) {
	for _, c := range corpus(t) {
		f, err := ast.Parse(c.file, c.src)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		res, err := rewrite.Apply(f, migration)
		if err != nil {
			t.Errorf("%s: Apply: %v", c.name, err)
			continue
		}
		if err := rewrite.Verify(c.file, f, res.Src, res.Applied); err != nil {
			t.Errorf("%s: Verify: %v\n%s", c.name, err, res.Src)
			continue
		}
		g, err := ast.Parse(c.file, res.Src)
		if err != nil {
			t.Errorf("%s: the result does not parse: %v", c.name, err)
			continue
		}
		checkComments(t, c.name, f, g, res.Applied)
		again, err := rewrite.Apply(g, migration)
		if err != nil {
			t.Errorf("%s: second Apply: %v", c.name, err)
			continue
		}
		if !bytes.Equal(again.Src, res.Src) {
			t.Errorf("%s: a second run changed the file:\n%s", c.name, rewrite.Diff(c.file, res.Src, again.Src))
		}
		if f.Config != nil && len(res.Applied) == 0 {
			t.Logf("%s: nothing applied", c.name)
		}
	}
}

// checkComments is an independent check of what Verify also proves: every
// comment of before is in after, unless it sat inside a property that is
// gone and that an op deleted or emptied.
func checkComments(t *testing.T, name string, before, after *ast.File, ops []rewrite.Op) {
	t.Helper()
	var deleted []ast.Span
	for _, op := range ops {
		if op.Kind != rewrite.OpDelete && op.Kind != rewrite.OpMove && op.Kind != rewrite.OpSet {
			continue
		}
		for k := len(op.Path); k > 0; k-- {
			if op.Kind == rewrite.OpMove && k == len(op.Path) {
				continue // a moved property keeps its comments
			}
			p := rewrite.Lookup(before, op.Path[:k])
			if p == nil || rewrite.Lookup(after, op.Path[:k]) != nil {
				break
			}
			deleted = append(deleted, p.Extent(before))
		}
	}
	have := map[string]int{}
	for _, c := range after.Comments {
		have[rewrite.NormText(c.Text)]++
	}
	for _, c := range before.Comments {
		if have[rewrite.NormText(c.Text)] > 0 {
			have[rewrite.NormText(c.Text)]--
			continue
		}
		inDeleted := false
		for _, s := range deleted {
			if s.Start <= c.Loc.Start && c.Loc.End <= s.End {
				inDeleted = true
			}
		}
		if !inDeleted {
			t.Errorf("%s: comment %q lost", name, c.Text)
		}
	}
}

var exhaustive = flag.Bool("exhaustive", false, "TestCorpusEveryProperty: every property, not a sample")

// TestCorpusEveryProperty deletes, moves, renames and sets every property
// of every corpus config, one op at a time: Apply either skips the op or
// makes it, and whatever it makes verifies and is stable. It takes every
// third property of each config (with -short, one in 100 counted across the
// corpus; with -exhaustive, every one).
func TestCorpusEveryProperty(t *testing.T) {
	n, seen := 0, 0
	for _, c := range corpus(t) {
		f, err := ast.Parse(c.file, c.src)
		if err != nil || f.Config == nil {
			continue
		}
		var paths []ast.Path
		f.Walk(func(path ast.Path, p *ast.Property) bool {
			if isNamed(p) {
				paths = append(paths, path)
			}
			return true
		})
		for i, path := range paths {
			seen++
			switch {
			case *exhaustive:
			case testing.Short():
				if seen%100 != 1 {
					continue
				}
			case i%3 != 0:
				continue
			}
			last := path[len(path)-1]
			ops := []rewrite.Op{
				{Kind: rewrite.OpDelete, Path: path},
				{Kind: rewrite.OpMove, Path: path, To: ast.Path{"zzMoved", last}},
				{Kind: rewrite.OpMove, Path: path, To: append(path[:len(path)-1:len(path)-1], "moved"+last)},
				{Kind: rewrite.OpRename, Path: path, To: append(path[:len(path)-1:len(path)-1], last+"_2")},
				{Kind: rewrite.OpSet, Path: path, Value: "x"},
				{Kind: rewrite.OpSet, Path: append(path[:len(path):len(path)], "zzNew"), Value: rewrite.Object{{"a", []any{1.0, "b"}}}},
			}
			for _, op := range ops {
				n++
				res, err := rewrite.Apply(f, []rewrite.Op{op})
				if err != nil {
					t.Errorf("%s: %s %s: %v", c.name, op.Kind, describeOp(op), err)
					continue
				}
				if len(res.Skipped) > 0 {
					continue
				}
				if err := rewrite.Verify(c.file, f, res.Src, res.Applied); err != nil {
					t.Errorf("%s: %s %s: Verify: %v\n%s", c.name, op.Kind, describeOp(op), err, rewrite.Diff(c.file, f.Src, res.Src))
					continue
				}
				g, err := ast.ParseUnchecked(c.file, res.Src)
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
					continue
				}
				again, err := rewrite.Apply(g, []rewrite.Op{op})
				if err != nil {
					t.Errorf("%s: %s %s: second Apply: %v", c.name, op.Kind, describeOp(op), err)
					continue
				}
				if !bytes.Equal(again.Src, res.Src) {
					t.Errorf("%s: %s %s: a second run changed the file:\n%s", c.name, op.Kind, describeOp(op), rewrite.Diff(c.file, res.Src, again.Src))
				}
			}
		}
	}
	t.Logf("%d ops", n)
}
