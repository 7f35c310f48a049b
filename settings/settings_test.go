package settings_test

import (
	"encoding/json"
	"github.com/fwmigrate/fwmigrate/settings"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/schematest"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestSchemaAgrees: the published schema and the reader accept and refuse
// the same files, and name the same settings.
func TestSchemaAgrees(t *testing.T) {
	schema := schematest.Compile(t, "fwmigrate.schema.json")
	var doc struct {
		ID         string                     `json:"$id"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	raw, _ := os.ReadFile("fwmigrate.schema.json")
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ID != settings.SchemaURL {
		t.Errorf("$id %q, want SchemaURL %q", doc.ID, settings.SchemaURL)
	}
	var props []string
	for k := range doc.Properties {
		props = append(props, k)
	}
	sort.Strings(props)
	if !reflect.DeepEqual(props, settings.Keys()) {
		t.Errorf("schema properties %v, reader keys %v", props, settings.Keys())
	}
	cases := []struct {
		text string
		ok   bool
	}{
		{`{}`, true},
		{`{"$schema": "` + settings.SchemaURL + `", "select": ["FW1", "version", "generate-routes", "all"], "ignore": ["FW204"]}`, true},
		{`{"severity": {"FW201": "error", "layout": "off", "FW3": "info"}, "failOn": "never", "framework": 3}`, true},
		{`{"overrides": [{"files": ["legacy/**", "*.env"], "ignore": ["FW2"], "severity": {"FW403": "warning"}}], "baseline": "b.json"}`, true},
		{`{"selcet": ["FW1"]}`, false},
		{`{"select": "FW1"}`, false},
		{`{"select": ["FW 1"]}`, false},
		{`{"severity": {"FW201": "fatal"}}`, false},
		{`{"failOn": "warn"}`, false},
		{`{"framework": 5}`, false},
		{`{"framework": "4"}`, false},
		{`{"overrides": [{"ignore": ["FW2"]}]}`, false},
		{`{"overrides": [{"files": []}]}`, false},
		{`{"overrides": [{"files": ["/abs/**"]}]}`, false},
		{`{"overrides": [{"files": ["a"], "select": ["FW1"]}]}`, false},
		{`{"baseline": ""}`, false},
		{`[]`, false},
	}
	for _, c := range cases {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.text))
		if err != nil {
			t.Fatal(err)
		}
		schemaOK := schema.Validate(inst) == nil
		_, _, err = settings.Parse("fwmigrate.json", []byte(c.text))
		readerOK := err == nil
		if schemaOK != c.ok || readerOK != c.ok {
			t.Errorf("%s: schema accepts %v, reader accepts %v (%v), want %v", c.text, schemaOK, readerOK, err, c.ok)
		}
	}
}

// TestErrorsHavePositions: every error of a settings file names the file,
// line and column of the value at fault.
func TestErrorsHavePositions(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\n  \"select\": [\"FW1\", 3]\n}", `fwmigrate.json:2:21: want a string, not a number`},
		{"{\n  \"overrides\": [\n    {\"files\": [\"a\"], \"sevrity\": {}}\n  ]\n}", `fwmigrate.json:3:22: "sevrity" is not a setting of an override (did you mean "severity"?)`},
		{"{\"failOn\": \"warn\"}", `fwmigrate.json:1:12: failOn must be one of info, warning, error, never, not "warn"`},
		{"{\"select\": [], \"select\": []}", `fwmigrate.json:1:16: "select" is set twice`},
		{"{\"a\": 1", `fwmigrate.json:1:8: invalid JSON: unexpected end of the file`},
		{"\uFEFF{\"zzz\": 1}", `fwmigrate.json:1:2: "zzz" is not a setting (known: $schema, extends, select, ignore, severity, failOn, framework, overrides, baseline)`},
	} {
		_, _, err := settings.Parse("fwmigrate.json", []byte(c.text))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
	// package.json: only the fwmigrate key is read, and judged.
	for _, c := range []struct {
		text string
		ok   bool
		want string
	}{
		{`{"name": "x", "devDependencies": {"fwmigrate": "1"}}`, false, ""},
		{`{"name": "x", "fwmigrate": {"ignore": ["FW204"]}}`, true, ""},
		{"{\"name\": \"x\",\n \"fwmigrate\": {\"ignore\": [\"FW20X\"]}}", true, `package.json:2:27: "FW20X" matches no rule (did you mean FW201?)`},
		{`["fwmigrate"]`, false, ""},
	} {
		f, ok, err := settings.Parse("package.json", []byte(c.text))
		if ok != c.ok || (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("%s: ok %v, err %v; want ok %v, err %q", c.text, ok, err, c.ok, c.want)
		}
		if ok && err == nil && f.Name != "package.json#fwmigrate" {
			t.Errorf("%s: name %q", c.text, f.Name)
		}
	}
}

// TestFinderPrecedence: the nearest file wins, fwmigrate.json and
// package.json alike; flags win over files; results are cached.
func TestFinderPrecedence(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fwmigrate.json", `{"failOn": "error", "ignore": ["FW204"]}`)
	write("apps/package.json", `{"name": "apps"}`)
	write("apps/web/package.json", `{"fwmigrate": {"failOn": "info"}}`)
	write("apps/web/src/x", ``)
	write("apps/docs/fwmigrate.json", `{"framework": 3}`)

	fd := settings.NewFinder(settings.Flags{})
	get := func(dir string) *settings.Resolved {
		t.Helper()
		r, err := fd.For(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := get("apps"); r.FailOn != "error" || r.File.Path != filepath.Join(root, "fwmigrate.json") {
		t.Errorf("apps: %+v", r)
	}
	if r := get("apps/web/src"); r.FailOn != "info" || r.Ignore != nil || r.From["failOn"] != r.File.Name {
		t.Errorf("apps/web/src: the nearest file (package.json) applies alone: %+v", r)
	}
	if r := get("apps/docs"); r.Framework != 3 || r.FailOn != "warning" || r.From["failOn"] != "default" {
		t.Errorf("apps/docs: %+v", r)
	}
	if get("apps") != get("apps/web/..") {
		t.Errorf("not cached")
	}
	fd = settings.NewFinder(settings.Flags{FailOn: "never", FailOnSet: true, Ignore: []string{}, IgnoreSet: true})
	if r, _ := fd.For(root); r.FailOn != "never" || r.From["failOn"] != "--fail-on" || len(r.Ignore) != 0 || r.From["ignore"] != "--ignore" {
		t.Errorf("flags do not win: %+v", r)
	}
	fd = settings.NewFinder(settings.Flags{Isolated: true})
	if r, _ := fd.For(root); r.File != nil || r.FailOn != "warning" {
		t.Errorf("--isolated read a file: %+v", r)
	}
}

// TestFinish: severities and overrides in the order written, "off", the
// untouchable codes.
func TestFinish(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	os.Chdir(dir)
	defer os.Chdir(wd)
	if err := os.WriteFile(settings.FileName, []byte(`{
		"severity": {"version": "error", "FW204": "off"},
		"overrides": [
			{"files": ["legacy"], "ignore": ["FW201"]},
			{"files": ["*.env"], "severity": {"env": "warning"}},
			{"files": ["apps/*/fw.config.ts"], "severity": {"FW204": "info"}}
		]
	}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := settings.NewFinder(settings.Flags{}).For(dir)
	if err != nil {
		t.Fatal(err)
	}
	finish := finish(t, r, nil)
	diag := func(code, file string) *rules.Diagnostic {
		return rules.Find(code).Diagnose(file, ast.Span{}, "", "m")
	}
	for _, c := range []struct {
		code, file string
		keep       bool
		sev        rules.Severity
	}{
		{"FW201", "fw.config.ts", true, rules.Error},
		{"FW201", "legacy/fw.config.ts", false, 0},
		{"FW201", "legacy/sub/fw.config.ts", false, 0},
		{"FW204", "fw.config.ts", false, 0},
		{"FW204", "apps/web/fw.config.ts", true, rules.Info},
		{"FW403", "apps/web/.env", true, rules.Warning},
		{"FW403", "apps/web/.env.production", true, rules.Find("FW403").Severity},
		{"FW901", "legacy/fw.config.ts", true, rules.Error},
		{"FW201", "../elsewhere/fw.config.ts", true, rules.Error},
	} {
		d := diag(c.code, c.file)
		keep := finish(d)
		if keep != c.keep || keep && d.Severity != c.sev {
			t.Errorf("%s in %s: keep %v severity %v, want %v %v", c.code, c.file, keep, d.Severity, c.keep, c.sev)
		}
	}
}

// TestBaselineCounts: the same finding twice is two entries' worth; a
// third is new.
func TestBaselineCounts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	b, err := settings.LoadBaseline(path, true)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "fw.config.ts")
	d := func(msg string) *rules.Diagnostic {
		return rules.Find("FW313").Diagnose(file, ast.Span{}, "plugins", msg)
	}
	n, err := b.Write(settings.KnownFindings(path, []*rules.Diagnostic{d("dup"), d("dup"), d("other")}), map[string]bool{file: true})
	if err != nil || n != 3 {
		t.Fatalf("wrote %d, %v", n, err)
	}
	b, err = settings.LoadBaseline(path, false)
	if err != nil {
		t.Fatal(err)
	}
	// A check with no other settings keeps exactly the findings b does not
	// know (and counts off those it knows).
	none, err := settings.NewFinder(settings.Flags{Isolated: true}).For(dir)
	if err != nil {
		t.Fatal(err)
	}
	take := func(d *rules.Diagnostic) bool { return !finish(t, none, b)(d) }
	for i, want := range []bool{true, true, false} {
		if got := take(d("dup")); got != want {
			t.Errorf("dup #%d known: %v", i+1, got)
		}
	}
	if take(d("changed message")) {
		t.Error("a finding with another message is known")
	}
	if s := b.Stale(map[string]bool{file: true}); s != 1 {
		t.Errorf("stale %d, want 1 (other)", s)
	}
}
