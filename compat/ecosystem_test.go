package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/semver"
)

// sharedEcosystem is the shared spec's copy, beside the repository.
const sharedEcosystem = "../../shared/spec/ecosystem.json"

// TestEcosystemMatchesShared keeps the embedded data byte-equal to the
// shared spec's file: the data is taken, not written by hand.
func TestEcosystemMatchesShared(t *testing.T) {
	shared, err := os.ReadFile(sharedEcosystem)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is not there (no shared spec beside the repository): the embedded copy is not compared", sharedEcosystem)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared, ecosystemJSON) {
		t.Errorf("compat/ecosystem.json differs from %s: copy it again (cp %s compat/ecosystem.json)", sharedEcosystem, sharedEcosystem)
	}
}

func TestEcosystemReads(t *testing.T) {
	e := Eco()
	rs := e.Releases()
	if len(rs) != 113 {
		t.Errorf("%d framework releases, want the 113 of the data's counts", len(rs))
	}
	for i := 1; i < len(rs); i++ {
		if !rs[i-1].Version.Less(rs[i].Version) {
			t.Errorf("releases out of order at %s", rs[i].Version)
		}
	}
	for _, r := range rs {
		if !r.NodeOK {
			t.Errorf("%s: engines.node %q does not read", r.Version, r.EnginesNode)
		}
	}
	m4, ok := e.Major(4)
	if !ok || m4.Latest != "4.5.2" || m4.EnginesNode != "^22.19.0 || ^24.11.0 || >=26.0.0" || m4.Pins["@fw/kit"] != "4.5.2" {
		t.Errorf("major 4 = %+v", m4)
	}
	if _, ok := e.Major(5); ok {
		t.Error("the data has no major 5")
	}
	if r := e.Release("4.4.5"); r == nil || r.Version.String() != "4.4.5" {
		t.Errorf("Release(4.4.5) = %v", r)
	}
	if r := e.Release("4.4.3"); r != nil {
		t.Error("4.4.3 is not in the data")
	}
	if got := len(e.ModuleNames()); got != 55 {
		t.Errorf("%d modules, want 55", got)
	}
	if got := len(e.PathOptions("")); got != 25 {
		t.Errorf("%d path options, want 25", got)
	}
	for _, o := range e.PathOptions("") {
		if !o.RangeOK {
			t.Errorf("%s %s: versions %q do not read", o.Module, o.Option, o.Versions)
		}
		if o.Base == BaseUnknown {
			t.Errorf("%s %s: resolvesFrom %q not classified", o.Module, o.Option, o.ResolvesFrom)
		}
	}
	if _, ok := e.Lockstep("@fw/kit"); !ok {
		t.Error("@fw/kit is a lockstep package")
	}
	if _, ok := e.Lockstep("@fw/devtools"); ok {
		t.Error("@fw/devtools has its own line")
	}
	if p, ok := e.OwnLine("@fw/devtools"); !ok || p.Latest != "3.4.4" {
		t.Errorf("OwnLine(@fw/devtools) = %+v %v", p, ok)
	}
	for _, tt := range []struct {
		pkg, v string
		want   Answer
	}{
		{"@fw/kit", "4.5.2", Yes},
		{"@fw/nitro-server", "3.19.0", No}, // before 3.20.0
		{"@fw/webpack-builder", "4.5.1", Unknown},
		{"@fw/webpack-builder", "4.5.2", Yes},
		{"@fw/kit", "9.9.9", Unknown},
		{"left-pad", "4.5.2", Unknown},
	} {
		if got := e.LockstepPublished(tt.pkg, tt.v); got != tt.want {
			t.Errorf("LockstepPublished(%s, %s) = %v, want %v", tt.pkg, tt.v, got, tt.want)
		}
	}
}

// TestModuleAdmitsAgreesWithData recomputes admitsFw4/admitsFw5 of every
// module version from its declared range with AdmitsMajor: the data was
// computed with npm's semver, so this checks the matcher on the data.
func TestModuleAdmitsAgreesWithData(t *testing.T) {
	e := Eco()
	n := 0
	for _, name := range e.ModuleNames() {
		for _, v := range e.Module(name).Versions {
			if !v.Declares() {
				continue
			}
			for _, major := range []int{4, 5} {
				want := v.Admits(major)
				if got := AdmitsMajor(v.Declared(), major); got != want {
					t.Errorf("%s@%s %q admits %d: data %v, ours %v", name, v.Version, v.Declared(), major, want, got)
				}
				n++
			}
		}
	}
	if n < 600 {
		t.Errorf("only %d declarations compared", n)
	}
	// fw4Min: the lowest published 4.x the range admits.
	var raw struct {
		Modules []struct {
			Name     string
			Versions []struct {
				Version, CompatibilityFw, PeerFw, Fw4Min string
			}
		}
	}
	if err := json.Unmarshal(ecosystemJSON, &raw); err != nil {
		t.Fatal(err)
	}
	for _, m := range raw.Modules {
		for _, v := range m.Versions {
			if v.Fw4Min == "" {
				continue
			}
			declared := v.CompatibilityFw
			if declared == "" {
				declared = v.PeerFw
			}
			got := e.HighestRelease(4, nil)
			for _, r := range e.ReleasesOf(4) {
				if AdmitsVersion(declared, r.Version.String()) == Yes {
					got = r
					break
				}
			}
			if got == nil || got.Version.String() != v.Fw4Min {
				t.Errorf("%s@%s %q: lowest 4.x admitted %v, data %s", m.Name, v.Version, declared, got, v.Fw4Min)
			}
		}
	}
}

func TestModuleMajorAndCheck(t *testing.T) {
	e := Eco()
	i18n := e.Module("@nuxtjs/i18n")
	if i18n == nil {
		t.Fatal("no @nuxtjs/i18n")
	}
	if mm := i18n.Major(4); mm.FirstCompatible != "8.3.2" || mm.LastExcluding != "8.3.1" || mm.NewestAdmits != Yes || !mm.Known {
		t.Errorf("i18n major 4 = %+v", mm)
	}
	if mm := i18n.Major(6); mm.Known {
		t.Errorf("the data says nothing of major 6: %+v", mm)
	}
	for _, tt := range []struct {
		mod, v   string
		major    int
		admits   Answer
		declares Answer
		read     bool
	}{
		{"@nuxtjs/i18n", "8.3.1", 4, No, Yes, true},
		{"@nuxtjs/i18n", "8.3.2", 4, Yes, Yes, true},
		{"@nuxtjs/i18n", "8.1.0", 4, No, Yes, false},    // between 8.0.2 and 8.2.0, both ^3.0.0-rc.11
		{"@nuxtjs/i18n", "9.3.0", 4, Yes, Yes, false},   // between 9.1.5 and 9.5.6
		{"@nuxtjs/i18n", "7.0.0", 4, Unknown, No, true}, // declares nothing
		{"@nuxtjs/i18n", "99.0.0", 4, Unknown, Unknown, false},
		{"@nuxtjs/i18n", "1.0.0", 4, Unknown, Unknown, false},
		{"@nuxtjs/i18n", "not-a-version", 4, Unknown, Unknown, false},
		{"@nuxtjs/i18n", "8.3.2", 6, Unknown, Yes, true}, // the data has no admitsFw6
	} {
		got := e.Module(tt.mod).Check(tt.v, tt.major)
		if got.Admits != tt.admits || got.Declares != tt.declares || got.Read != tt.read || got.Why == "" {
			t.Errorf("%s@%s major %d = %+v", tt.mod, tt.v, tt.major, got)
		}
	}
	if e.Module("left-pad") != nil {
		t.Error("left-pad is not a module of the table")
	}
	vm := e.Module("@vue-macros/nuxt").Major(4)
	if vm.FirstCompatible != "" || vm.LastExcluding != "3.1.2" || vm.NewestAdmits != No {
		t.Errorf("@vue-macros/nuxt major 4 = %+v: the newest still excludes it", vm)
	}
	if mm := e.Module("shadcn-nuxt").Major(4); mm.NewestAdmits != Unknown || mm.FirstCompatible != "" || !mm.Known {
		t.Errorf("shadcn-nuxt declares nothing: %+v", mm)
	}
}

func TestPathOptions(t *testing.T) {
	e := Eco()
	var langDir []PathOption
	for _, o := range e.PathOptions("@nuxtjs/i18n") {
		if o.Option == "i18n.langDir" {
			langDir = append(langDir, o)
		}
	}
	if len(langDir) != 4 {
		t.Fatalf("%d langDir entries", len(langDir))
	}
	if langDir[0].AppliesTo("8.3.3") != Yes || langDir[0].AppliesTo("8.4.0") != No || langDir[0].Base != BaseSrcDir || langDir[0].HasDefault {
		t.Errorf("langDir 8.0-8.3: %+v", langDir[0])
	}
	if langDir[0].AppliesTo("eight") != Unknown {
		t.Error("a version that does not read is unknown")
	}
	caret8 := mustRange(t, "^8.0.0")
	if got := langDir[0].AppliesToRange(caret8); got != Unknown {
		t.Errorf("^8.0.0 is 8.0-8.3 or 8.4+: %v", got)
	}
	if got := langDir[0].AppliesToRange(mustRange(t, "~8.2.1")); got != Yes {
		t.Errorf("~8.2.1 lies in >=8.0.0 <8.4.0: %v", got)
	}
	if got := langDir[0].AppliesToRange(mustRange(t, "^9.1.0")); got != No {
		t.Errorf("^9.1.0 is outside >=8.0.0 <8.4.0: %v", got)
	}
	var hub PathOption
	for _, o := range e.PathOptions("@nuxthub/core") {
		hub = o
	}
	if !hub.RangeOK || hub.AppliesTo("0.9.3") != Yes || hub.Default != ".data/hub" {
		t.Errorf("@nuxthub/core: %+v", hub)
	}
	for _, o := range e.PathOptions("shadcn-nuxt") {
		if o.Base != BaseRoot || !o.HasDefault {
			t.Errorf("shadcn %s: %+v", o.Versions, o)
		}
	}
}

func TestParseEcosystemErrors(t *testing.T) {
	for _, bad := range []string{`[`, `{"framework": {"package": "other"}}`, `{"framework": {"package": "fw", "versions": [{"version": "x"}]}}`} {
		if _, err := ParseEcosystem([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func mustRange(t *testing.T, s string) semver.Range {
	t.Helper()
	r, err := semver.ParseRange(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
