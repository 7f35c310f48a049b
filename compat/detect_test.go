package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestDetect runs Detect on the trees of testdata/detect/*.txtar. Each
// archive holds a project tree (a name ending in "/" is an empty
// directory), a config.json per project or layer root (JSON; the string
// "$dynamic" is a DynamicValue, the key "..." a Spread), and the expected
// report in "want" (a golden section: go test ./compat -run TestDetect -update).
func TestDetect(t *testing.T) {
	files, err := filepath.Glob("testdata/detect/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("only %d detect fixtures", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar := golden.Open(t, file)
			root := t.TempDir()
			var tree []txtar.File
			for _, f := range ar.Files {
				if f.Name != "want" {
					tree = append(tree, f)
				}
			}
			var roots []string
			for name := range testtree.Files(t, root, tree) {
				if path.Base(name) == "config.json" {
					roots = append(roots, filepath.Join(root, filepath.FromSlash(path.Dir(name))))
				}
			}
			sort.Strings(roots)
			var out bytes.Buffer
			for _, r := range roots {
				cfg := readConfig(t, filepath.Join(r, "config.json"))
				d, err := Detect(r, cfg)
				if err != nil {
					t.Fatal(err)
				}
				// Stray is Detect's Stray with srcDir set to app.
				withApp := MapConfig{}
				for k, v := range cfg {
					withApp[k] = v
				}
				withApp["srcDir"] = "app"
				da, err := Detect(r, withApp)
				if err != nil {
					t.Fatal(err)
				}
				if stray, err := Stray(r); err != nil || !slices.Equal(stray, da.Stray) {
					t.Errorf("%s: Stray = %q, %v; Detect with srcDir app gives %q", r, stray, err, da.Stray)
				}
				rel, _ := filepath.Rel(root, r)
				fmt.Fprintf(&out, "== %s\n", filepath.ToSlash(rel))
				writeDetection(&out, d, root)
			}
			ar.CheckSection(t, "want", out.Bytes())
		})
	}
}

func readConfig(t *testing.T, name string) MapConfig {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return MapConfig(dynamics(m).(map[string]any))
}

func dynamics(v any) any {
	switch x := v.(type) {
	case string:
		if x == "$dynamic" {
			return DynamicValue{}
		}
	case map[string]any:
		for k, e := range x {
			x[k] = dynamics(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dynamics(e)
		}
	}
	return v
}

func writeDetection(w *bytes.Buffer, d *Detection, root string) {
	rel := func(p string) string {
		if p == "" {
			return "?"
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		if r == "." {
			return "<tmp>"
		}
		return "<tmp>/" + filepath.ToSlash(r)
	}
	fmt.Fprintf(w, "layout: %s\n", d.Layout)
	if len(d.Stray) > 0 {
		fmt.Fprintf(w, "stray: %s\n", strings.Join(d.Stray, " "))
	}
	fmt.Fprintf(w, "srcDir detection: %s\n", d.SrcDirReason)
	fmt.Fprintf(w, "major: %d\ncompat: %d (%s)\n", d.Major, d.Compat, d.CompatNote)
	for _, res := range []struct {
		name string
		r    Resolution
	}{{"current", d.Current}, {"v4", d.V4}} {
		fmt.Fprintf(w, "%s (compat %d):\n", res.name, res.r.Compat)
		var lines []string
		add := func(name string) {
			if p, ok := res.r.Get(name); ok {
				lines = append(lines, fmt.Sprintf("  %s = %s", name, rel(p)))
			}
		}
		add("srcDir")
		add("serverDir")
		add("buildDir")
		for _, k := range DirNames {
			add("dir." + k)
		}
		var aliases []string
		for n := range res.r.Alias {
			aliases = append(aliases, n)
		}
		sort.Strings(aliases)
		for _, n := range aliases {
			add("alias." + n)
		}
		var unknown []string
		for n, why := range res.r.Unknown {
			unknown = append(unknown, fmt.Sprintf("  %s unknown: %s", n, why))
		}
		sort.Strings(unknown)
		w.WriteString(strings.Join(append(lines, unknown...), "\n") + "\n")
	}
}

// TestStray covers what the listing in Stray must agree with stat on:
// symlinks (followed), a file where a directory is expected, and a root
// whose name filepath.Glob would read as a pattern.
func TestStray(t *testing.T) {
	for _, name := range []string{"plain", "a[1]*?"} {
		root := filepath.Join(t.TempDir(), name)
		testtree.Map(t, root, map[string]string{
			"real-components/": "", "pages/": "", "utils/x/": "",
			"layouts": "", "app.vue": "", "error.vue.bak": "", "app.config.ts": "", "app.config.mjs": "", "app.configx": "",
		})
		if err := os.Symlink("real-components", filepath.Join(root, "components")); err != nil {
			t.Skip("no symlinks:", err)
		}
		if err := os.Symlink("missing", filepath.Join(root, "plugins")); err != nil {
			t.Fatal(err)
		}
		got, err := Stray(root)
		// The configs are found from the listing, whatever metacharacters
		// the root's path holds (a[1]*?).
		want := []string{"app.config.mjs", "app.config.ts", "app.vue", "components/", "pages/", "utils/"}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: Stray = %q, %v; want %q", name, got, err, want)
		}
	}
	if got, err := Stray(filepath.Join(t.TempDir(), "missing")); err != nil || got != nil {
		t.Errorf("Stray(missing) = %q, %v", got, err)
	}
}
