package rules_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// readmeCount is README's sentence with the corpus count (the subsection
// "Modules of the corpus").
var readmeCount = regexp.MustCompile(`the table knows (\d+) of the (\d+) modules`)

// TestCorpusModules: every module a corpus config names (by package, its
// $env overrides too) is either in the ecosystem table or listed, once, in
// its project's FW704 finding; and README says how many the table knows.
// Major-2 configs (FW907: out of scope, checked no further) are left out.
//
//	go test ./rules -run TestCorpusModules -v
//
// prints the count and the modules the table does not know.
func TestCorpusModules(t *testing.T) {
	root := t.TempDir()
	_, configs := testtree.Corpus(t, root, "../testdata/corpus/*.txtar")
	var archives []string
	for a := range configs {
		archives = append(archives, a)
	}
	sort.Strings(archives)
	known, unknown := map[string]bool{}, map[string]bool{}
	for _, a := range archives {
		for _, cfg := range configs[a] {
			path := filepath.Join(root, a, cfg)
			p := project.LoadProject(path, filepath.Join(a, cfg))
			if p.File == nil || p.File.Config == nil {
				continue
			}
			index := rules.NewIndex(p, p.File, 4)
			pass := &rules.Pass{Rule: rules.Find("FW704"), Project: p, File: p.File, Config: project.ConfigValues(p.File), Target: 4, Index: index}
			mods := pass.ConfigModules()
			var listed []string
			diags := rules.Check(p, rules.Options{Target: 4, Select: []string{"FW704"}})
			if len(diags) == 1 && diags[0].Code == rules.Find("FW907").Code {
				continue // a major-2 config (FW907 alone): out of scope
			}
			for _, d := range diags {
				if d.Code != "FW704" {
					continue
				}
				for _, n := range d.Notes {
					name, _, _ := strings.Cut(n, ": ")
					listed = append(listed, name)
				}
			}
			count := map[string]int{}
			for _, n := range listed {
				count[n]++
			}
			for _, m := range mods {
				inTable := compat.Eco().Module(m.Spec) != nil || compat.Eco().Module(m.Package) != nil
				switch {
				case inTable && count[m.Spec] == 0:
					known[m.Spec] = true
				case !inTable && count[m.Spec] == 1:
					unknown[m.Spec] = true
				default:
					t.Errorf("%s/%s: module %s: in the table %v, listed by FW704 %d times", a, cfg, m.Spec, inTable, count[m.Spec])
				}
			}
		}
	}
	for m := range known {
		delete(unknown, m) // known somewhere is known
	}
	var names []string
	for m := range unknown {
		names = append(names, m)
	}
	sort.Strings(names)
	total := len(known) + len(unknown)
	t.Logf("the table knows %d of the %d modules the corpus configs name; not known: %s", len(known), total, strings.Join(names, ", "))
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := readmeCount.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md does not say how many of the corpus's modules the table knows (\"the table knows N of the M modules\")")
	}
	if n, _ := strconv.Atoi(string(m[1])); n != len(known) {
		t.Errorf("README.md says the table knows %s modules; it knows %d", m[1], len(known))
	}
	if n, _ := strconv.Atoi(string(m[2])); n != total {
		t.Errorf("README.md says the corpus names %s modules; it names %d", m[2], total)
	}
}
