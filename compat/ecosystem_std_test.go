package compat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/semver"
)

// The reading of ecosystem.json by encoding/json that ParseEcosystem
// replaced (it cost a check run a fifth of its CPU), kept as the oracle
// TestParseEcosystemAgreesWithEncodingJSON compares ParseEcosystem with.

// ecosystemFile is the JSON's shape.
type ecosystemFile struct {
	Generated string `json:"generated"`
	Framework struct {
		Package  string `json:"package"`
		Versions []struct {
			Version           string            `json:"version"`
			EnginesNode       string            `json:"enginesNode"`
			Released          string            `json:"released"`
			Pins              map[string]string `json:"pins"`
			LockstepPublished []string          `json:"lockstepPublished"`
		} `json:"versions"`
		Majors map[string]struct {
			Latest      string            `json:"latest"`
			EnginesNode string            `json:"enginesNode"`
			Pins        map[string]string `json:"pins"`
		} `json:"majors"`
		LockstepPackages map[string]struct {
			FirstWithFw string   `json:"firstWithFw"`
			MissingFor  []string `json:"missingFor"`
		} `json:"lockstepPackages"`
		OwnLinePackages map[string]struct {
			First  string `json:"first"`
			Latest string `json:"latest"`
			Majors []int  `json:"majors"`
		} `json:"ownLinePackages"`
	} `json:"framework"`
	Modules []struct {
		Name                  string             `json:"name"`
		Group                 string             `json:"group"`
		Latest                string             `json:"latest"`
		DeclaresCompatibility bool               `json:"declaresCompatibility"`
		LastExcluding         map[string]*string `json:"lastExcluding"`
		FirstCompatible       map[string]*string `json:"firstCompatible"`
		NewestAdmits          map[string]*bool   `json:"newestAdmits"`
		Versions              []map[string]json.RawMessage
	} `json:"modules"`
	PathOptions []struct {
		Module       string          `json:"module"`
		Versions     string          `json:"versions"`
		Option       string          `json:"option"`
		ResolvesFrom string          `json:"resolvesFrom"`
		Default      json.RawMessage `json:"default"`
		Kind         string          `json:"kind"`
		Note         string          `json:"note"`
		Evidence     []struct {
			Version string   `json:"version"`
			Refs    []string `json:"refs"`
		} `json:"evidence"`
	} `json:"pathOptions"`
}

// fwKeyStd reads "fw4" as 4.
func fwKeyStd(k string) (int, bool) {
	var m int
	if _, err := fmt.Sscanf(k, "fw%d", &m); err != nil || fmt.Sprintf("fw%d", m) != k {
		return 0, false
	}
	return m, true
}

// parseEcosystemStd reads data in ecosystem.json's shape with encoding/json.
func parseEcosystemStd(data []byte) (*Ecosystem, error) {
	var f ecosystemFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Framework.Package != FrameworkPackage {
		return nil, fmt.Errorf("framework.package is %q, not %q", f.Framework.Package, FrameworkPackage)
	}
	e := &Ecosystem{Generated: f.Generated, byVersion: map[string]*FwRelease{}, majors: map[int]FwMajor{}, modules: map[string]*Module{}}
	for _, v := range f.Framework.Versions {
		ver, err := semver.Parse(v.Version)
		if err != nil {
			return nil, fmt.Errorf("framework version: %w", err)
		}
		r := &FwRelease{Version: ver, EnginesNode: v.EnginesNode, Released: v.Released, Pins: v.Pins, LockstepPublished: v.LockstepPublished}
		if rng, err := semver.ParseRange(v.EnginesNode); err == nil && v.EnginesNode != "" {
			r.Node, r.NodeOK = rng, true
		}
		e.releases = append(e.releases, r)
		e.byVersion[ver.String()] = r
	}
	sort.Slice(e.releases, func(i, j int) bool { return e.releases[i].Version.Less(e.releases[j].Version) })
	for k, m := range f.Framework.Majors {
		var n int
		if _, err := fmt.Sscanf(k, "%d", &n); err != nil {
			return nil, fmt.Errorf("framework.majors: key %q", k)
		}
		e.majors[n] = FwMajor{Major: n, Latest: m.Latest, EnginesNode: m.EnginesNode, Pins: m.Pins}
	}
	for name, p := range f.Framework.LockstepPackages {
		e.lockstep = append(e.lockstep, LockstepPackage{Name: name, FirstWithFw: p.FirstWithFw, MissingFor: p.MissingFor})
	}
	sort.Slice(e.lockstep, func(i, j int) bool { return e.lockstep[i].Name < e.lockstep[j].Name })
	for name, p := range f.Framework.OwnLinePackages {
		e.ownLine = append(e.ownLine, OwnLinePackage{Name: name, First: p.First, Latest: p.Latest, Majors: p.Majors})
	}
	sort.Slice(e.ownLine, func(i, j int) bool { return e.ownLine[i].Name < e.ownLine[j].Name })

	for _, m := range f.Modules {
		mod := &Module{Name: m.Name, Group: m.Group, Latest: m.Latest, DeclaresCompatibility: m.DeclaresCompatibility,
			lastExcluding: map[int]string{}, firstCompatible: map[int]string{}, newestAdmits: map[int]Answer{}}
		for k, v := range m.LastExcluding {
			if n, ok := fwKeyStd(k); ok && v != nil {
				mod.lastExcluding[n] = *v
			}
		}
		for k, v := range m.FirstCompatible {
			if n, ok := fwKeyStd(k); ok && v != nil {
				mod.firstCompatible[n] = *v
			}
		}
		for k, v := range m.NewestAdmits {
			if n, ok := fwKeyStd(k); ok {
				a := Unknown
				if v != nil {
					a = answer(*v)
				}
				mod.newestAdmits[n] = a
			}
		}
		for _, raw := range m.Versions {
			mv, err := moduleVersionStd(raw)
			if err != nil {
				return nil, fmt.Errorf("module %s: %w", m.Name, err)
			}
			mod.Versions = append(mod.Versions, mv)
		}
		sort.Slice(mod.Versions, func(i, j int) bool { return mod.Versions[i].Version.Less(mod.Versions[j].Version) })
		if e.modules[m.Name] != nil {
			return nil, fmt.Errorf("module %s listed twice", m.Name)
		}
		e.modules[m.Name] = mod
		e.names = append(e.names, m.Name)
	}
	sort.Strings(e.names)

	for _, p := range f.PathOptions {
		o := PathOption{Module: p.Module, Versions: p.Versions, Option: p.Option, Kind: p.Kind, ResolvesFrom: p.ResolvesFrom, Note: p.Note}
		// "0.9.x (the only line read)": the range is before the remark.
		text, _, _ := strings.Cut(p.Versions, " (")
		if r, err := semver.ParseRange(text); err == nil {
			o.Range, o.RangeOK = r, true
		}
		o.Base = pathBase(p.ResolvesFrom)
		var s string
		if len(p.Default) > 0 && string(p.Default) != "null" {
			if err := json.Unmarshal(p.Default, &s); err != nil {
				return nil, fmt.Errorf("pathOptions %s %s: default is not a string", p.Module, p.Option)
			}
			o.Default, o.HasDefault = s, true
		}
		for _, ev := range p.Evidence {
			o.Evidence = append(o.Evidence, PathEvidence{Version: ev.Version, Refs: ev.Refs})
		}
		e.paths = append(e.paths, o)
	}
	return e, nil
}

func moduleVersionStd(raw map[string]json.RawMessage) (ModuleVersion, error) {
	var mv ModuleVersion
	str := func(k string) string {
		var s string
		if b, ok := raw[k]; ok {
			_ = json.Unmarshal(b, &s)
		}
		return s
	}
	v, err := semver.Parse(str("version"))
	if err != nil {
		return mv, err
	}
	mv.Version = v
	mv.CompatibilityFw, mv.PeerFw, mv.KitRange, mv.MetaFrom = str("compatibilityFw"), str("peerFw"), str("kitRange"), str("metaFrom")
	for k, b := range raw {
		rest, ok := strings.CutPrefix(k, "admitsFw")
		if !ok {
			continue
		}
		n, ok := fwKeyStd("fw" + rest)
		if !ok {
			continue
		}
		var a bool
		if err := json.Unmarshal(b, &a); err != nil {
			return mv, fmt.Errorf("%s %s: %w", v, k, err)
		}
		if mv.admits == nil {
			mv.admits = map[int]Answer{}
		}
		mv.admits[n] = answer(a)
	}
	return mv, nil
}

// TestParseEcosystemAgreesWithEncodingJSON: ParseEcosystem reads the
// embedded data exactly as encoding/json did: every release, major,
// package, module with every version read and its admits, and path option,
// unexported fields included; and each accessor answers the same for
// every module, version and major.
func TestParseEcosystemAgreesWithEncodingJSON(t *testing.T) {
	want, err := parseEcosystemStd(ecosystemJSON)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseEcosystem(ecosystemJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseEcosystem differs from encoding/json's reading:\n got %s\nwant %s", dump(got), dump(want))
	}
	lazy, err := parseEcosystem(ecosystemJSON, true)
	if err != nil {
		t.Fatal(err)
	}
	if lazy.lazy == nil {
		t.Fatal("parseEcosystem(lazy) read the modules")
	}
	sameEcosystem(t, "parseEcosystem(lazy)", lazy, want)
	sameEcosystem(t, "Eco", Eco(), want)
	if len(want.modules) != 55 || len(want.releases) != 113 || len(want.paths) == 0 {
		t.Fatalf("%d modules, %d releases, %d path options: not the data", len(want.modules), len(want.releases), len(want.paths))
	}
	majors := []int{2, 3, 4, 5, 6}
	for _, name := range want.ModuleNames() {
		g, w := got.Module(name), want.Module(name)
		for _, m := range majors {
			if g.Major(m) != w.Major(m) {
				t.Errorf("%s Major(%d) = %+v, want %+v", name, m, g.Major(m), w.Major(m))
			}
		}
		for _, mv := range w.Versions {
			v := mv.Version.String()
			gv, _ := g.Version(v)
			if !reflect.DeepEqual(gv, mv) {
				t.Errorf("%s Version(%s) = %+v, want %+v", name, v, gv, mv)
			}
			for _, m := range majors {
				if gv.Admits(m) != mv.Admits(m) || g.Check(v, m) != w.Check(v, m) {
					t.Errorf("%s %s major %d: Admits %v Check %+v, want %v %+v", name, v, m, gv.Admits(m), g.Check(v, m), mv.Admits(m), w.Check(v, m))
				}
			}
		}
		if !reflect.DeepEqual(got.PathOptions(name), want.PathOptions(name)) {
			t.Errorf("%s PathOptions differ", name)
		}
	}
	for _, r := range want.Releases() {
		v := r.Version.String()
		if !reflect.DeepEqual(got.Release(v), r) {
			t.Errorf("Release(%s) = %+v, want %+v", v, got.Release(v), r)
		}
		for _, p := range want.lockstep {
			if got.LockstepPublished(p.Name, v) != want.LockstepPublished(p.Name, v) {
				t.Errorf("LockstepPublished(%s, %s) differs", p.Name, v)
			}
		}
	}
	for _, m := range majors {
		gm, gok := got.Major(m)
		wm, wok := want.Major(m)
		if !reflect.DeepEqual(gm, wm) || gok != wok {
			t.Errorf("Major(%d) = %+v %v, want %+v %v", m, gm, gok, wm, wok)
		}
		if !reflect.DeepEqual(got.ReleasesOf(m), want.ReleasesOf(m)) || !reflect.DeepEqual(got.HighestRelease(m, nil), want.HighestRelease(m, nil)) {
			t.Errorf("releases of %d differ", m)
		}
	}
}

// ecosystemEdges are the values the embedded data does not hold today but
// the format allows (nulls, empty lists and maps, escapes, skipped keys, a
// missing default), and errors.
var ecosystemEdges = []string{
	`{"framework": {"package": "fw"}}`,
	`{"generated": "2026-01-01", "extra": [1, 2.5e-3, {"a": [true, false, null]}, "\u00fc\ud83d\ude00"], "framework": {"package": "fw", "versions": [], "majors": {}, "lockstepPackages": {}, "ownLinePackages": {}}, "modules": [], "pathOptions": []}`,
	`{"framework": {"package": "fw", "versions": [{"version": "4.0.0", "enginesNode": "", "pins": null, "lockstepPublished": []}, {"version": "3.1.0", "enginesNode": "^18 || >=20", "pins": {"@fw/kit": "3.1.0", "a": null}, "lockstepPublished": null}],
		"majors": {"4": {"latest": "4.0.0", "pins": {}}, "3": {"latest": null}},
		"lockstepPackages": {"@fw/kit": {"firstWithFw": "3.0.0", "missingFor": []}, "@fw/schema": {"missingFor": null}},
		"ownLinePackages": {"fwi": {"first": "1.0.0", "majors": []}, "@fw/cli": {"majors": [1, -0, 3]}, "x": {"majors": null}}}}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m", "lastExcluding": {"fw4": "1.0.0", "fw5": null, "fw04": "x", "other": "y"}, "firstCompatible": null, "newestAdmits": {"fw4": null, "fw5": true, "fw6": false},
		"versions": [{"version": "1.1.0", "admitsFw4": null, "admitsFw5": true, "admitsFw05": 3, "compatibilityFw": 5, "peerFw": "^4", "kitRange": null, "metaFrom": "a\"b"}, {"version": "1.0.0"}]},
		{"name": "n", "versions": []}, {"name": "o"}]}`,
	`{"framework": {"package": "fw"}, "pathOptions": [{"module": "m", "versions": "1.x (read)", "default": null, "evidence": []}, {"module": "m", "versions": "no", "default": "x\\y", "evidence": [{"version": "1.0.0", "refs": []}, {"version": "1.1.0", "refs": null}, {"refs": ["a"]}], "resolvesFrom": "srcDir"}, {"module": "n"}]}`,
	// Errors.
	`[`, `{"framework": {"package": "other"}}`, `{"framework": {"package": "fw", "versions": [{"version": "x"}]}}`,
	`null`, `{"framework": {"package": "fw"}} x`, `{"framework": {"package": "fw", "versions": {}}}`,
	`{"framework": {"package": "fw", "majors": {"x": {}}}}`,
	`{"framework": {"package": "fw", "ownLinePackages": {"a": {"majors": [1.5]}}}}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m", "versions": [{"version": "1.0.0", "admitsFw4": "yes"}]}]}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m"}, {"name": "m"}]}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m", "lastExcluding": {"other": 1}}]}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m", "newestAdmits": {"fw4": "yes"}}]}`,
	`{"framework": {"package": "fw"}, "modules": [{"name": "m", "versions": [{}]}]}`,
	`{"framework": {"package": "fw"}, "pathOptions": [{"module": "m", "default": true}]}`,
	`{"framework": {"package": "fw", "released": "a` + "\x01" + `"}}`,
	`{"framework": {"package": "fw", "x": [01]}}`,
	`{"framework": {"package": "fw", "x": "\q"}}`,
	`{"framework": {"package": "fw",}}`,
}

// TestParseEcosystemAgreesOnEdges: ecosystemEdges read as encoding/json
// reads them.
func TestParseEcosystemAgreesOnEdges(t *testing.T) {
	for _, doc := range ecosystemEdges {
		want, wantErr := parseEcosystemStd([]byte(doc))
		got, gotErr := ParseEcosystem([]byte(doc))
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: error %v, encoding/json's %v", doc, gotErr, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", doc, dump(got), dump(want))
		}
		if wantErr == nil {
			lazy, err := parseEcosystem([]byte(doc), true)
			if err != nil {
				t.Errorf("%s: lazily: %v", doc, err)
				continue
			}
			sameEcosystem(t, doc, lazy, want)
		}
	}
}

// sameEcosystem compares got, read lazily, with want, read at once: the
// same module names, each Module the same, and every other field.
func sameEcosystem(t *testing.T, what string, got, want *Ecosystem) {
	t.Helper()
	if !reflect.DeepEqual(got.ModuleNames(), want.ModuleNames()) {
		t.Errorf("%s: module names %v, want %v", what, got.ModuleNames(), want.ModuleNames())
	}
	for _, n := range want.ModuleNames() {
		if g, w := got.Module(n), want.Module(n); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: module %s:\n got %+v\nwant %+v", what, n, g, w)
		}
	}
	if got.Module("no such module") != nil {
		t.Errorf("%s: a module for a name not in the data", what)
	}
	g, w := *got, *want
	g.modules, g.lazy, w.modules, w.lazy = nil, nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs from encoding/json's reading:\n got %+v\nwant %+v", what, g, w)
	}
}

// dump shows an Ecosystem's fields, unexported ones included.
func dump(e *Ecosystem) string {
	if e == nil {
		return "nil"
	}
	s := fmt.Sprintf("%+v\n", *e)
	for _, n := range e.names {
		s += fmt.Sprintf("module %+v\n", *e.Module(n))
	}
	return s
}

// FuzzParseEcosystem: on any input, ParseEcosystem ends without a panic and
// agrees with encoding/json's reading (an error for an error, else the same
// Ecosystem), as TestParseEcosystemAgreesOnEdges checks on its documents.
func FuzzParseEcosystem(f *testing.F) {
	for _, doc := range ecosystemEdges {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if foldedKey(data) {
			t.Skip("encoding/json matches a key in another case; ParseEcosystem does not")
		}
		want, wantErr := parseEcosystemStd(data)
		got, gotErr := ParseEcosystem(data)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", data, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", data, dump(got), dump(want))
		}
	})
}

// ecosystemKeys are the keys of ecosystem.json's objects.
var ecosystemKeys = strings.Fields(`generated framework package versions version enginesNode released
	pins lockstepPublished majors latest lockstepPackages firstWithFw missingFor ownLinePackages first
	modules name group declaresCompatibility lastExcluding firstCompatible newestAdmits pathOptions
	module option resolvesFrom default kind note evidence refs`)

// foldedKey reports whether a JSON document holds a key that is one of
// ecosystemKeys in another case, which encoding/json takes for it.
func foldedKey(data []byte) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				for _, key := range ecosystemKeys {
					if k != key && strings.EqualFold(k, key) {
						return true
					}
				}
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
