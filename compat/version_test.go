package compat

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

func TestRangeMajor(t *testing.T) {
	for _, c := range []struct {
		spec string
		want int // 0: unknown
	}{
		{"^3.12.0", 3}, {"~4.0", 4}, {"3.x", 3}, {"3", 3}, {"3.*", 3}, {"4.0.0-rc.1", 4}, {"v3.8.2", 3},
		{"=3.10.0", 3}, {" ^4.1.0 ", 4}, {">=3.8.0 <4.0.0", 3}, {">=3.8 <4", 3}, {">=3.8.0 <3.12", 3},
		{">=3.8.0 <=3.12.1", 3}, {">=3.8.0 <5", 0}, {"3.1.0 - 3.9.9", 3}, {"3.1.0 - 4.0.0", 0},
		{"^3.0.0 || ^3.5.0", 3}, {"^3.0.0 || ^4.0.0", 0},
		{"latest", 0}, {"next", 0}, {"*", 0}, {"x", 0}, {"", 0}, {">=3", 0}, {"<4", 0}, {"^0.9.0", 0},
		{"npm:fw-nightly@3x", 0}, {"workspace:*", 0}, {"workspace:^3.0.0", 0}, {"catalog:", 0}, {"catalog:fw", 0},
		{"file:../fw", 0}, {"github:fw/fw#main", 0}, {"git+https://example.com/fw.git", 0}, {"fw/fw", 0},
		{"3x", 0}, {"^3.12.0 garbage", 0},
	} {
		got, ok := rangeMajor(c.spec)
		if !ok {
			got = 0
		}
		if got != c.want || ok != (c.want != 0) {
			t.Errorf("rangeMajor(%q) = %d, %v; want %d", c.spec, got, ok, c.want)
		}
	}
}

func TestFrameworkMajor(t *testing.T) {
	for _, c := range []struct {
		pkg  string
		want int
	}{
		{`{"dependencies": {"fw": "^3.12.0"}}`, 3},
		{`{"devDependencies": {"fw": "~4.0"}}`, 4},
		{`{"dependencies": {"fw": "^4.0.0"}, "devDependencies": {"fw": "^3.0.0"}}`, 4},
		{`{"dependencies": {"fw": "latest"}}`, 0},
		{`{"dependencies": {"fw-ui": "^3.0.0"}}`, 0},
		{`{"dependencies": {"fw": 3}}`, 0},
		{`{"dependencies": []}`, 0},
		{`not json`, 0},
		{``, 0},
	} {
		dir := t.TempDir()
		if c.pkg != "" {
			if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(c.pkg), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := FrameworkMajor(dir)
		if got != c.want || ok != (c.want != 0) {
			t.Errorf("FrameworkMajor(%s) = %d, %v; want %d", c.pkg, got, ok, c.want)
		}
	}
}

func TestEffectiveCompat(t *testing.T) {
	for _, c := range []struct {
		major int
		v     any
		st    ValueState
		want  int
	}{
		{3, nil, Absent, 3}, {3, 4.0, Static, 4}, {3, 3.0, Static, 3}, {3, 5.0, Static, 3}, {3, "4", Static, 3},
		{0, nil, Absent, 3}, {0, 4.0, Static, 4},
		{4, nil, Absent, 4}, {4, 3.0, Static, 4}, {4, 4.0, Static, 4}, {4, 5.0, Static, 5}, {4, 6.0, Static, 5},
		{3, nil, Dynamic, 0}, {4, nil, Dynamic, 0},
	} {
		if got, why := EffectiveCompat(c.major, c.v, c.st); got != c.want || why == "" {
			t.Errorf("EffectiveCompat(%d, %v, %s) = %d (%s), want %d", c.major, c.v, c.st, got, why, c.want)
		}
	}
}

func TestVersionModel(t *testing.T) {
	for _, f := range Flips() {
		if !Known(f.Path) {
			t.Errorf("flip %s is not a known option", f.Path)
		}
		if !f.V3.Set || !f.Restore.Set || !f.V4.Set && f.V4.Note == "" {
			t.Errorf("flip %s lacks a value", f.Path)
		}
		if o := Find(f.Path); o != nil && f.V3.Set && !o.Type.Check(f.V3.Value) {
			t.Errorf("flip %s: v3 value %v does not fit %s", f.Path, f.V3.Value, o.Type)
		}
		if o := Find(f.Path); o != nil && f.V4.Set && !o.Type.Check(f.V4.Value) {
			t.Errorf("flip %s: v4 value %v does not fit %s", f.Path, f.V4.Value, o.Type)
		}
	}
	// The reference's Versioning list of what restores earlier behaviour on 4.
	for _, p := range []string{"srcDir", "dir.app", "experimental.compileTemplate", "experimental.templateUtils",
		"experimental.relativeWatchPaths", "experimental.resetAsyncDataToUndefined",
		"experimental.defaults.useAsyncData.deep", "headmgr.renderSSRHeadOptions.omitLineBreaks"} {
		if !slices.ContainsFunc(Flips(), func(f Flip) bool { return f.Path == p }) {
			t.Errorf("no flip for %s", p)
		}
	}
	want := []string{"experimental.compileTemplate", "experimental.templateUtils", "experimental.relativeWatchPaths",
		"experimental.resetAsyncDataToUndefined", "experimental.treeshakeClientOnly", "experimental.configSchema",
		"experimental.polyfillUiUseHead", "experimental.respectNoSSRHeader", "experimental.defaults.useAsyncData.value",
		"experimental.defaults.useAsyncData.errorValue", "bundlerA.devBundler", "bundlerA.publicDir", "dir.static",
		"generate.routes", "generate.exclude"}
	var got []string
	for _, r := range Removed() {
		got = append(got, r.Path)
		o := Find(r.Path)
		if o == nil {
			t.Errorf("removal %s is not an option", r.Path)
			continue
		}
		if !r.When.Removed() || r.Why == "" {
			t.Errorf("removal %s: when %s, why %q", r.Path, r.When, r.Why)
		}
		if r.V4.Set && !o.Type.Check(r.V4.Value) {
			t.Errorf("removal %s: v4 value %v does not fit %s", r.Path, r.V4.Value, o.Type)
		}
		if o.Status == Current || o.Status == Deprecated {
			t.Errorf("removal %s has option status %s", r.Path, o.Status)
		}
		if r.Replacement != "" && !Known(r.Replacement) {
			t.Errorf("removal %s: unknown replacement %s", r.Path, r.Replacement)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("Removed() = %v\nwant %v", got, want)
	}
	for _, o := range Options() {
		if o.Status.Removed() && !slices.Contains(got, o.Path) {
			t.Errorf("%s has status %s but is not in Removed()", o.Path, o.Status)
		}
	}
	if ms := Majors(); len(ms) != 2 || ms[0].Major != 3 || ms[1].Major != 4 || !slices.Equal(ms[1].Preview, []int{5}) {
		t.Errorf("Majors() = %+v", ms)
	}
}

func TestLayers(t *testing.T) {
	root := t.TempDir()
	testtree.Map(t, root, map[string]string{"layers/b/": "", "layers/a/": "", "layers/c/": "", "layers/README.md": ""})
	got, err := Layers(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "layers/a"), filepath.Join(root, "layers/b"), filepath.Join(root, "layers/c")}
	if !slices.Equal(got, want) {
		t.Errorf("Layers = %v, want %v", got, want)
	}
	if got, err := Layers(t.TempDir()); err != nil || got != nil {
		t.Errorf("Layers(no layers) = %v, %v", got, err)
	}
}

func TestMapConfig(t *testing.T) {
	cfg := MapConfig{
		"srcDir": "src",
		"app":    map[string]any{"baseURL": "/x/", "head": map[string]any{"title": DynamicValue{}}},
		"dir":    MapConfig{"pages": "views"},
		"alias":  map[string]any{Spread: DynamicValue{}, "~": "/abs"},
		"list":   []any{1.0, DynamicValue{}},
		"ssr":    false,
		"nil":    nil,
		"dyn":    DynamicValue{},
	}
	for _, c := range []struct {
		path string
		v    any
		st   ValueState
	}{
		{"srcDir", "src", Static},
		{"app.baseURL", "/x/", Static},
		{"app.head.title", nil, Dynamic},
		{"app.head", nil, Dynamic},
		{"app.cdnURL", nil, Absent},
		{"dir.pages", "views", Static},
		{"alias.~", "/abs", Static},
		{"alias.@", nil, Dynamic},
		{"alias", nil, Dynamic},
		{"list", nil, Dynamic},
		{"ssr", false, Static},
		{"nil", nil, Static},
		{"dyn.deeper.still", nil, Dynamic},
		{"srcDir.x", nil, Absent},
		{"missing", nil, Absent},
	} {
		v, st := cfg.Value(c.path)
		if st != c.st || v != c.v {
			t.Errorf("Value(%q) = %v, %s; want %v, %s", c.path, v, st, c.v, c.st)
		}
	}
}

// TestFlipsTo5: every option compatibility version 5 flips is a known
// option, flipped from its version-4 default.
func TestFlipsTo5(t *testing.T) {
	fl := FlipsTo(5)
	if len(fl) != 17 {
		t.Errorf("%d flips, want the 17 of migration facts §8", len(fl))
	}
	for _, f := range fl {
		if !Known(f.Path) {
			t.Errorf("%s is not a known option", f.Path)
		}
		if !f.OnV4 || f.OnCompat4 || !f.Restore.Set {
			t.Errorf("%s: restore %v on v4 %v on compat 4 %v", f.Path, f.Restore, f.OnV4, f.OnCompat4)
		}
	}
	if FlipsTo(3) != nil || len(FlipsTo(4)) != len(Flips()) {
		t.Error("FlipsTo: wrong versions")
	}
}
