package rules_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// optTree is an object literal under construction: keys to subtrees, or to
// the source text of a leaf value.
type optTree struct {
	keys []string
	sub  map[string]*optTree
	leaf map[string]string
}

func newTree() *optTree { return &optTree{sub: map[string]*optTree{}, leaf: map[string]string{}} }

// set places value at a dotted path; a path that is also the parent of
// another keeps its subtree (the leaf is dropped).
func (t *optTree) set(path, value string) {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if i == len(segs)-1 {
			if _, ok := t.sub[s]; !ok {
				if _, ok := t.leaf[s]; !ok {
					t.keys = append(t.keys, s)
				}
				t.leaf[s] = value
			}
			return
		}
		next, ok := t.sub[s]
		if !ok {
			next = newTree()
			if _, ok := t.leaf[s]; !ok {
				t.keys = append(t.keys, s)
			}
			delete(t.leaf, s)
			t.sub[s] = next
		}
		t = next
	}
}

func (t *optTree) write(b *strings.Builder, indent string) {
	b.WriteString("{\n")
	for _, k := range t.keys {
		q, _ := json.Marshal(k)
		b.WriteString(indent + "  " + string(q) + ": ")
		if s, ok := t.sub[k]; ok {
			s.write(b, indent+"  ")
		} else {
			b.WriteString(t.leaf[k])
		}
		b.WriteString(",\n")
	}
	b.WriteString(indent + "}")
}

// checkTree writes the tree as a project's config and returns the
// diagnostics of the selected rules.
func checkTree(t *testing.T, tree *optTree, target int, sel ...string) []*rules.Diagnostic {
	t.Helper()
	var b strings.Builder
	b.WriteString("export default defineFwConfig(")
	tree.write(&b, "")
	b.WriteString(")\n")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "fw.config.ts")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := project.LoadProject(cfg, "fw.config.ts")
	if p.File == nil || p.File.Config == nil {
		t.Fatalf("generated config does not parse: %v\n%s", p.Err, b.String())
	}
	return rules.Check(p, rules.Options{Target: target, Select: sel})
}

func optionsFilePaths(t *testing.T) []string {
	var paths []string
	for _, f := range []string{"../testdata/spec/options-v3.json", "../testdata/spec/options-v4.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var opts []struct {
			Path string `json:"path"`
		}
		if err := json.Unmarshal(data, &opts); err != nil {
			t.Fatal(err)
		}
		for _, o := range opts {
			paths = append(paths, o.Path)
		}
	}
	sort.Strings(paths)
	return paths
}

// TestUnknownOptionListed sets every option of options-v3.json and
// options-v4.json, at the top level and inside $production and
// $env.staging, and expects FW301 to report none of them.
func TestUnknownOptionListed(t *testing.T) {
	tree := newTree()
	for _, p := range optionsFilePaths(t) {
		for _, prefix := range []string{"", "$production.", "$env.staging."} {
			tree.set(prefix+p, "value")
		}
	}
	for _, d := range checkTree(t, tree, 4, "FW301") {
		t.Errorf("%s reported unknown: %s", d.Option, d.Message)
	}
}

// TestTypesAcceptDefaults sets every option to its own default (both
// layouts) and expects no type or enum diagnostic: the rules and the
// knowledge base's types agree on what a valid value is.
func TestTypesAcceptDefaults(t *testing.T) {
	for _, layout := range []compat.Layout{compat.LayoutA, compat.LayoutB} {
		tree := newTree()
		for _, o := range compat.Options() {
			d := o.Default(layout)
			if !d.Set || d.Value == nil {
				continue
			}
			js, err := json.Marshal(d.Value)
			if err != nil {
				t.Fatal(err)
			}
			tree.set(o.Path, string(js))
		}
		for _, d := range checkTree(t, tree, 4, "FW303", "FW304") {
			t.Errorf("layout %s: %s %s: %s", layout, d.Code, d.Option, d.Message)
		}
	}
}

// TestOtherLayoutTarget3 checks the other direction of FW302, which the
// fixtures (run for version 4) cannot: checking for version 3, the
// layout-A-only type configurations are reported and generate is not.
func TestOtherLayoutTarget3(t *testing.T) {
	tree := newTree()
	tree.set("typescript.nodeTsConfig.compilerOptions", "{}")
	tree.set("$production.typescript.sharedTsConfig", "{}")
	tree.set("generate.fallback", "true")
	var got []string
	for _, d := range checkTree(t, tree, 3, "FW302") {
		got = append(got, d.Option)
	}
	want := []string{"typescript.nodeTsConfig", "$production.typescript.sharedTsConfig"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("FW302 --to=3 reported %v, want %v", got, want)
	}
}
