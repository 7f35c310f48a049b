package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestApplyMoveTrees runs the whole `fwmigrate apply --to=4` (real layout
// detection, config fixes, the move) on the project trees of the move
// engine's fixtures (rewrite/move/testdata: a plain app, stores/ and types/
// imported through ~/, .vue files with relative and <style> imports, srcDir
// 'src' with src/server and src/public, an app with app/router.options.ts, a
// mixed layout, a local layer, a monorepo with two apps, and the conflict
// cases). For each tree:
//   - a refused project (exit 2) leaves the tree byte for byte as it was;
//   - otherwise every project apply migrated is layout A for compat.Detect,
//     and `check` reports no layout diagnostic (FW101, FW102) for it;
//   - a second run changes nothing.
func TestApplyMoveTrees(t *testing.T) {
	files, err := filepath.Glob("../../rewrite/move/testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no move fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			testtree.Write(t, dir, ar, "in/")
			// The fixture's "run:" line may name folders for --also.
			args := []string{"apply", "--to=4", "--format=json"}
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				if rest, ok := strings.CutPrefix(line, "run:"); ok {
					for _, f := range strings.Fields(rest) {
						if also, ok := strings.CutPrefix(f, "also="); ok {
							args = append(args, "--also="+also)
						}
					}
				}
			}
			args = append(args, ".")
			c := &applyCase{}
			before := c.readTree(t, dir)
			out, errOut, code := runIn(t, dir, args)
			var res struct {
				Files []jsonApplyFile `json:"files"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("exit %d: %v\n%s\n%s", code, err, out, errOut)
			}
			after := c.readTree(t, dir)
			switch code {
			case 2:
				refused := false
				for _, f := range res.Files {
					if f.Error != "" {
						refused = true
					}
				}
				if !refused {
					t.Fatalf("exit 2 with no project refused:\n%s", out)
				}
				if !equalTrees(before, after) {
					t.Errorf("a refused apply changed the tree")
				}
				return
			case 0:
			default:
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			moved := 0
			for _, f := range res.Files {
				if len(f.Moves) == 0 {
					continue
				}
				moved++
				cfg := filepath.Join(dir, filepath.FromSlash(f.File))
				p := project.LoadProject(cfg, f.File)
				if p.Detection == nil {
					t.Fatalf("%s: %v", f.File, p.DetectErr)
				}
				if p.Detection.Layout != compat.LayoutA {
					t.Errorf("%s: layout %v after the move, want A (%s)", f.File, p.Detection.Layout, p.Detection.SrcDirReason)
				}
				for _, d := range rules.Check(p, rules.Options{Target: 4, Select: []string{"FW101", "FW102"}}) {
					t.Errorf("%s after the move: %s %s", f.File, d.Code, d.Message)
				}
			}
			if moved == 0 {
				t.Logf("no project moved:\n%s", out)
			}
			out2, _, code2 := runIn(t, dir, args)
			if code2 != 0 {
				t.Errorf("second run: exit %d\n%s", code2, out2)
			}
			if again := c.readTree(t, dir); !equalTrees(again, after) {
				t.Errorf("the second run changed the tree\n%s", out2)
			}
		})
	}
}
