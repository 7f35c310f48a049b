package rules_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

// TestModFolderFixes: a fix that moves folders (Fix.Also) holds only when
// the sources move, edits nothing else, and names a folder at the root.
func TestModFolderFixes(t *testing.T) {
	ar, err := txtar.ParseFile("../testdata/rules/FW721.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testtree.Files(t, dir, ar.Files)
	n := 0
	for _, c := range []string{"i18n-installed", "i18n-yarn", "i18n-9-off", "pinia-default", "pinia-bun"} {
		cfg := filepath.Join(dir, c, "fw.config.ts")
		p := project.LoadProject(cfg, c+"/fw.config.ts")
		for _, d := range rules.Check(p, rules.Options{Target: 4, Select: []string{"FW72"}}) {
			if d.Fix == nil || len(d.Fix.Also) == 0 {
				continue
			}
			n++
			if d.Fix.Layout != rules.MoveOnly || len(d.Fix.Ops) > 0 || d.Fix.File != "" {
				t.Errorf("%s: %s: a folder move must be MoveOnly and edit nothing: %+v", c, d.Code, d.Fix)
			}
			for _, a := range d.Fix.Also {
				if strings.Contains(a, "/") || !p.IsDir(filepath.Join(p.Root, a)) {
					t.Errorf("%s: %s: Also %q is not a folder at the root", c, d.Code, a)
				}
			}
		}
	}
	if n != 5 {
		t.Errorf("%d folder moves, want 5", n)
	}
}

// TestI18nBaseSpread: a spread in i18n's options may set restructureDir:
// the ranges where it decides are unknown, the others are not.
func TestI18nBaseSpread(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"fw.config.ts":    "const common = {}\nexport default defineFwConfig({\n  modules: ['@nuxtjs/i18n'],\n  i18n: { ...common, langDir: 'locales' },\n})\n",
		"package.json":    `{"dependencies": {"fw": "^3.13.0", "@nuxtjs/i18n": ">=8.0.0"}}`,
		"app.vue":         "",
		"locales/en.json": "{}",
	})
	p := project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	// The one finding of the module path rules: FW722 (the cases do not
	// agree, the version is unknown), whose notes give each case's outcome
	// (one per version range: "@nuxtjs/i18n <range>: <says>; <need>").
	fs := rules.Check(p, rules.Options{Target: 4, Select: []string{"FW72"}})
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	kinds := map[string]modpath.Kind{
		"nothing to do": modpath.None,
		"cannot tell":   modpath.Unknown,
		"`locales/` stays at the root and must move into `app/` with the sources": modpath.MoveFolder,
	}
	got := map[string]modpath.Kind{}
	for _, n := range fs[0].Notes {
		rng, out, ok := strings.Cut(strings.TrimPrefix(n, "@nuxtjs/i18n "), ": ")
		if !ok || !strings.HasPrefix(n, "@nuxtjs/i18n >=") {
			continue
		}
		need := out[strings.LastIndex(out, "; ")+2:]
		k, ok := kinds[need]
		if !ok {
			t.Fatalf("%s: a need of no known kind: %q", rng, need)
		}
		got[rng] = k
	}
	want := map[string]modpath.Kind{
		">=8.0.0 <8.4.0":  modpath.MoveFolder, // no restructureDir yet
		">=8.4.0 <9.0.0":  modpath.Unknown,
		">=9.0.0 <10.0.0": modpath.Unknown,
		">=10.0.0":        modpath.None, // always a folder of the root
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %v, want %v (all: %v)", k, got[k], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d cases, want %d: %v", len(got), len(want), got)
	}
}
