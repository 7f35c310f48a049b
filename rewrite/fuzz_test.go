package rewrite_test

import (
	"sync"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var (
	fuzzOnce  sync.Once
	fuzzFiles []fuzzFile
)

type fuzzFile struct {
	name  string
	src   []byte
	paths []ast.Path
	lits  []ast.Span // spans of string and number literals inside the config
}

func loadFuzzFiles(t testing.TB) []fuzzFile {
	fuzzOnce.Do(func() {
		for _, c := range corpus(t) {
			f, err := ast.Parse(c.file, c.src)
			if err != nil || f.Config == nil {
				continue
			}
			ff := fuzzFile{name: c.file, src: c.src}
			f.Walk(func(path ast.Path, p *ast.Property) bool {
				if isNamed(p) {
					ff.paths = append(ff.paths, path)
				}
				rewrite.EachNode(p.Value, func(n ast.Node) {
					switch n.(type) {
					case *ast.String, *ast.Number:
						ff.lits = append(ff.lits, n.Span())
					}
				})
				return true
			})
			fuzzFiles = append(fuzzFiles, ff)
		}
	})
	return fuzzFiles
}

var fuzzValues = []any{
	4, "x", true, nil, 2.5, -1, []any{1.0, "a"}, rewrite.Object{{"k", 1}}, rewrite.Object{}, []any{},
	"it's \"quoted\"\nand\tescaped", rewrite.Object{{"a b", rewrite.Object{{"c", []any{true}}}}, {"d", "e"}},
}

var fuzzKeys = []string{"zz", "routes", "new", "a b", "prerender", "future", "0", "$x"}

var fuzzTexts = []string{"'x'", `"y"`, "42", "-1", "`t`", "'a\\'b'"}

// FuzzApply applies random ops to corpus configs: Apply never panics, and
// whenever it succeeds, Verify accepts what it made.
func FuzzApply(f *testing.F) {
	files := loadFuzzFiles(f)
	for i := range files {
		f.Add(uint8(i), []byte{0, 1, 2, 3, 1, 4, 5, 6, 2, 7, 8, 9, 3, 1, 1, 1, 4, 0, 0, 0})
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		ff := files[int(which)%len(files)]
		if len(ff.paths) == 0 {
			return
		}
		path := func(b byte) ast.Path {
			p := ff.paths[int(b)%len(ff.paths)]
			out := append(ast.Path(nil), p...)
			switch b % 5 {
			case 1: // a new child
				out = append(out, fuzzKeys[int(b/5)%len(fuzzKeys)])
			case 2: // a new top-level chain
				out = ast.Path{fuzzKeys[int(b)%len(fuzzKeys)], fuzzKeys[int(b/3)%len(fuzzKeys)]}
			case 3: // a sibling
				out[len(out)-1] = fuzzKeys[int(b/5)%len(fuzzKeys)]
			}
			return out
		}
		var groups [][]rewrite.Op
		var cur []rewrite.Op
		for len(data) >= 4 && len(groups) < 12 {
			b := data[:4]
			data = data[4:]
			var op rewrite.Op
			switch b[0] % 6 {
			case 0:
				op = rewrite.Op{Kind: rewrite.OpSet, Path: path(b[1]), Value: fuzzValues[int(b[2])%len(fuzzValues)]}
			case 1:
				op = rewrite.Op{Kind: rewrite.OpDelete, Path: path(b[1])}
			case 2:
				op = rewrite.Op{Kind: rewrite.OpMove, Path: path(b[1]), To: path(b[2])}
			case 3:
				p := path(b[1])
				to := append(ast.Path(nil), p...)
				to[len(to)-1] = fuzzKeys[int(b[2])%len(fuzzKeys)]
				op = rewrite.Op{Kind: rewrite.OpRename, Path: p, To: to}
			case 4:
				if len(ff.lits) == 0 {
					continue
				}
				op = rewrite.Op{Kind: rewrite.OpReplace, Span: ff.lits[int(b[1])%len(ff.lits)], Text: fuzzTexts[int(b[2])%len(fuzzTexts)]}
			case 5:
				op = rewrite.Op{Kind: rewrite.OpMove, Path: path(b[1]), To: ff.paths[int(b[2])%len(ff.paths)]}
			}
			cur = append(cur, op)
			if b[3]%3 != 0 {
				groups = append(groups, cur)
				cur = nil
			}
		}
		if len(cur) > 0 {
			groups = append(groups, cur)
		}
		file, err := ast.Parse(ff.name, ff.src)
		if err != nil {
			t.Fatal(err)
		}
		res, err := rewrite.ApplyGroups(file, groups)
		if err != nil {
			t.Fatalf("%v\nops: %+v", err, groups)
		}
		if err := rewrite.Verify(ff.name, file, res.Src, res.Applied); err != nil {
			t.Fatalf("Verify: %v\nops: %+v\n%s", err, groups, rewrite.Diff(ff.name, ff.src, res.Src))
		}
	})
}
