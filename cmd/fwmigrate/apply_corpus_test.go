package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// major2Corpus are the corpus archives on framework major 2 (or older),
// which apply refuses (FW907): exit status 2, nothing written.
var major2Corpus = map[string]bool{
	"012-fwjs-org-v2": true, "014-starter-bridge": true, "026-karngyan-v2": true, "027-houston-cjs": true,
}

// TestApplyCorpus runs apply with every rule (and --unsafe) on every corpus
// project: each rewritten config parses, keeps every comment that was not
// inside a property that is gone, and a second run changes nothing. The
// major-2 projects are refused and left as they were. With -short it takes
// one project in three.
func TestApplyCorpus(t *testing.T) {
	files, err := filepath.Glob("../../testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for i, file := range files {
		if testing.Short() && i%3 != 0 {
			continue
		}
		file, _ := filepath.Abs(file)
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			dir := t.TempDir()
			before := map[string][]byte{}
			for name, data := range testtree.WriteFile(t, dir, file, "") {
				if strings.HasPrefix(filepath.Base(name), "fw.config.") {
					before[name] = data
				}
			}
			args := []string{"apply", "--to=4", "--unsafe", "."}
			out, errOut, code := runIn(t, dir, args)
			if major2Corpus[strings.TrimSuffix(filepath.Base(file), ".txtar")] {
				if code != 2 || !strings.Contains(out+errOut, "FW907") {
					t.Errorf("a major-2 project: exit %d, want 2 with FW907\n%s%s", code, out, errOut)
				}
				for name, old := range before {
					if now, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); !bytes.Equal(now, old) {
						t.Errorf("%s: a major-2 project was rewritten", name)
					}
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			after := map[string][]byte{}
			for name, old := range before {
				src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil {
					t.Fatal(err)
				}
				after[name] = src
				if bytes.Equal(src, old) {
					continue
				}
				bf, err := ast.Parse(name, old)
				if err != nil {
					t.Fatal(err)
				}
				af, err := ast.Parse(name, src)
				if err != nil {
					t.Errorf("%s: the rewritten config does not parse: %v", name, err)
					continue
				}
				checkCommentsKept(t, name, bf, af)
			}
			out, _, code = runIn(t, dir, args)
			if code != 0 || !strings.Contains(out, "Made 0 fixes in 0 of ") {
				t.Errorf("second run: exit %d\n%s", code, out)
			}
			for name, src := range after {
				now, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if !bytes.Equal(now, src) {
					t.Errorf("%s: the second run changed it", name)
				}
			}
		})
	}
}

// checkCommentsKept: every comment of before is in after (as text, its
// indentation aside), unless a property around it is gone from after.
func checkCommentsKept(t *testing.T, name string, before, after *ast.File) {
	t.Helper()
	norm := func(s string) string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		return strings.Join(lines, "\n")
	}
	have := map[string]int{}
	for _, c := range after.Comments {
		have[norm(c.Text)]++
	}
	present := map[string]bool{}
	after.Walk(func(path ast.Path, p *ast.Property) bool {
		present[path.String()] = true
		return true
	})
	for _, c := range before.Comments {
		if have[norm(c.Text)] > 0 {
			have[norm(c.Text)]--
			continue
		}
		gone := false
		before.Walk(func(path ast.Path, p *ast.Property) bool {
			ext := p.Extent(before)
			if ext.Start <= c.Loc.Start && c.Loc.End <= ext.End && !present[path.String()] {
				gone = true
			}
			return true
		})
		if !gone {
			t.Errorf("%s: the comment %q at line %d was lost", name, c.Text, before.Position(c.Loc.Start).Line)
		}
	}
}
