package rules

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

// modUnaffected are the data's path options the module path rules leave
// alone, with why: the move does not change what they name.
var modUnaffected = map[[2]string]string{
	{"@nuxtjs/i18n", "i18n.vueI18n"}:                                        "a file at the root (or root/<restructureDir>), which stays",
	{"@nuxtjs/i18n", "i18n.restructureDir"}:                                 "a folder of the root; i18nBase reads it for langDir",
	{"@nuxtjs/tailwindcss", "tailwindcss.configPath"}:                       "a root file",
	{"@unocss/nuxt", "unocss.configFile"}:                                   "a root file",
	{"@fw/eslint", "eslint.config.rootDir"}:                                 "absolute, the root by default",
	{"@nuxthub/core", "hub.dir"}:                                            "a root folder (.data/hub)",
	{"vuetify-nuxt-module", "vuetify.vuetifyOptions (string: config file)"}: "a root file",
	{"vuetify-nuxt-module", "vuetify.moduleOptions.styles.configFile"}:      "read from the bundler root (srcDir): follows the move",
}

// TestModPathSpecsCoverData: every path option of the data is checked by
// a spec or listed as unaffected, and every spec names entries the data
// has; a refresh of the data that adds an option makes this fail until
// the option is judged.
func TestModPathSpecsCoverData(t *testing.T) {
	covered := map[[2]string]bool{}
	for _, s := range modSpecs {
		for _, opt := range append([]string{s.option}, s.also...) {
			k := [2]string{s.module, opt}
			covered[k] = true
			if len(compat.Eco().PathOptions(s.module)) == 0 || !slices.ContainsFunc(compat.Eco().PathOptions(s.module), func(o compat.PathOption) bool { return o.Option == opt }) {
				t.Errorf("spec %s %q: the data has no such entry", s.module, opt)
			}
		}
		if s.fromSrc == modpath.Advice && s.advice == "" {
			t.Errorf("spec %s %q: advice without its text", s.module, s.option)
		}
	}
	for _, o := range compat.Eco().PathOptions("") {
		k := [2]string{o.Module, o.Option}
		if covered[k] == (modUnaffected[k] != "") {
			t.Errorf("data entry %s %q (%s): checked by a spec and listed as unaffected, or neither", o.Module, o.Option, o.Versions)
		}
		if !o.RangeOK {
			t.Logf("data entry %s %q: range %q is not a semver range: it never applies", o.Module, o.Option, o.Versions)
		}
	}
}

// TestI18nPhrasesInData: i18nBase reads two conditions of the data's
// resolvesFrom by their words; the data must still say them, for 8.4+ and
// 9.x.
func TestI18nPhrasesInData(t *testing.T) {
	found := map[string]string{}
	for _, o := range compat.Eco().PathOptions("@nuxtjs/i18n") {
		if o.Option != "i18n.langDir" {
			continue
		}
		for _, p := range []string{i18nSrcUnlessSet, i18nRootUnlessOff} {
			if strings.Contains(o.ResolvesFrom, p) {
				found[p] = o.Versions
			}
		}
	}
	if found[i18nSrcUnlessSet] != ">=8.4.0 <9.0.0" || found[i18nRootUnlessOff] != ">=9.0.0 <10.0.0" {
		t.Errorf("the data's i18n.langDir entries no longer say what i18nBase reads: %v", found)
	}
}

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
		for _, d := range Check(p, Options{Target: 4, Select: []string{"FW72"}}) {
			if d.Fix == nil || len(d.Fix.Also) == 0 {
				continue
			}
			n++
			if d.Fix.Layout != MoveOnly || len(d.Fix.Ops) > 0 || d.Fix.File != "" {
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

func TestSplitRel(t *testing.T) {
	for _, tc := range []struct {
		in, lead, rel string
		ok            bool
	}{
		{"./components/ui", "./", "components/ui", true},
		{"locales/", "", "locales/", true},
		{"././stores/**", "././", "stores/**", true},
		{"~/components", "", "", false},
		{"@/components", "", "", false},
		{"../locales", "", "", false},
		{"./", "", "", false},
		{"/abs/x", "", "", false},
		{"a\\b", "", "", false},
		{"x/../../y", "", "", false},
		{"a/../b", "", "", false},
		{"a//b", "", "", false},
		{"https://x/y", "", "", false},
	} {
		lead, rel, ok := modpath.SplitRel(tc.in)
		if lead != tc.lead || rel != tc.rel || ok != tc.ok {
			t.Errorf("SplitRel(%q) = %q, %q, %v; want %q, %q, %v", tc.in, lead, rel, ok, tc.lead, tc.rel, tc.ok)
		}
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
	x := NewIndex(p, p.File, 4)
	pass := &Pass{Project: p, File: p.File, Config: x.config, Target: 4, Index: x}
	fs := pass.modPathFindings()
	if len(fs) != 1 {
		t.Fatalf("%d findings, want 1", len(fs))
	}
	got := map[string]modpath.Kind{}
	for _, c := range fs[0].cases {
		got[c.Entry.Versions] = c.Out.Kind
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
}
