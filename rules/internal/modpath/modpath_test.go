package modpath_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
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
	for _, s := range modpath.Specs {
		for _, opt := range append([]string{s.Option}, s.Also...) {
			k := [2]string{s.Module, opt}
			covered[k] = true
			if len(compat.Eco().PathOptions(s.Module)) == 0 || !slices.ContainsFunc(compat.Eco().PathOptions(s.Module), func(o compat.PathOption) bool { return o.Option == opt }) {
				t.Errorf("spec %s %q: the data has no such entry", s.Module, opt)
			}
		}
		if s.FromSrc == modpath.Advice && s.Advice == "" {
			t.Errorf("spec %s %q: advice without its text", s.Module, s.Option)
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
		for _, p := range []string{modpath.I18nSrcUnlessSet, modpath.I18nRootUnlessOff} {
			if strings.Contains(o.ResolvesFrom, p) {
				found[p] = o.Versions
			}
		}
	}
	if found[modpath.I18nSrcUnlessSet] != ">=8.4.0 <9.0.0" || found[modpath.I18nRootUnlessOff] != ">=9.0.0 <10.0.0" {
		t.Errorf("the data's i18n.langDir entries no longer say what i18nBase reads: %v", found)
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
