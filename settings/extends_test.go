package settings_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
)

// TestExtends: a package's settings build on the root's through extends:
// ignore adds up, its own scalars win, severities and overrides apply the
// root's first with the root's globs relative to the root; provenance
// names the file each setting comes from.
func TestExtends(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write("fwmigrate.json", `{"failOn": "error", "ignore": ["FW204"], "severity": {"FW601": "info"},
		"overrides": [{"files": ["apps/web/legacy/**"], "ignore": ["FW602"]}]}`)
	write("apps/web/package.json", `{"fwmigrate": {"extends": "../../fwmigrate.json", "ignore": ["FW603"], "severity": {"FW601": "error"}}}`)
	write("apps/docs/fwmigrate.json", `{"extends": ["../../fwmigrate.json"], "failOn": "info"}`)

	fd := settings.NewFinder(settings.Flags{})
	web, err := fd.For(filepath.Join(root, "apps/web"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(web.Ignore, ",") != "FW204,FW603" || web.FailOn != "error" {
		t.Errorf("web: ignore %v, failOn %s", web.Ignore, web.FailOn)
	}
	rootName := filepath.Join(root, "fwmigrate.json")
	if !strings.HasSuffix(web.From["failOn"], "fwmigrate.json") || !strings.HasSuffix(web.From["ignore"], "package.json#fwmigrate") {
		t.Errorf("web provenance: %v (root %s)", web.From, rootName)
	}
	// The package's severity wins over the root's; the root's override
	// matches apps/web/legacy/ by the root's globs.
	d := &rules.Diagnostic{Code: "FW601", Severity: rules.Warning, File: filepath.Join(root, "apps/web/pages/a.vue")}
	if !finish(t, web, nil)(d) || d.Severity != rules.Error {
		t.Errorf("FW601 in web: kept %v, severity %v; want error", d != nil, d.Severity)
	}
	d = &rules.Diagnostic{Code: "FW602", Severity: rules.Warning, File: filepath.Join(root, "apps/web/legacy/b.vue")}
	if finish(t, web, nil)(d) {
		t.Errorf("the root's override (apps/web/legacy/**, relative to the root) does not reach web")
	}
	docs, err := fd.For(filepath.Join(root, "apps/docs"))
	if err != nil {
		t.Fatal(err)
	}
	if docs.FailOn != "info" || strings.Join(docs.Ignore, ",") != "FW204" {
		t.Errorf("docs: %+v", docs)
	}
}

// TestExtendsErrors: each wrong extends is an error at its position.
func TestExtendsErrors(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"a/fwmigrate.json": `{"extends": "../missing.json"}`}, `fwmigrate.json:1:13: extends ../missing.json: no such file`},
		{map[string]string{"a/fwmigrate.json": `{"extends": "../x.yaml"}`}, `fwmigrate.json:1:13: extends names a settings file, a .json file: "../x.yaml" is not one`},
		{map[string]string{"a/fwmigrate.json": `{"extends": 3}`}, `fwmigrate.json:1:13: extends must be the path of a settings file`},
		{map[string]string{
			"a/fwmigrate.json": `{"extends": "../b/fwmigrate.json"}`,
			"b/fwmigrate.json": `{"extends": "../a/fwmigrate.json"}`,
		}, `a cycle (`},
		{map[string]string{
			"a/fwmigrate.json": `{"extends": "../b/fwmigrate.json"}`,
			"b/fwmigrate.json": `{"extends": "../b/package.json"}`,
			"b/package.json":   `{"name": "b"}`,
		}, `it holds no settings (a package.json without a "fwmigrate" key)`},
		{map[string]string{
			"a/.git/HEAD":      "ref: x\n",
			"a/fwmigrate.json": `{"extends": "../b/fwmigrate.json"}`,
			"b/fwmigrate.json": `{}`,
		}, `outside the git work tree`},
		{map[string]string{
			"a/fwmigrate.json": `{"extends": "../b/fwmigrate.json"}`,
			"b/fwmigrate.json": `{"zzz": 1}`,
		}, `"zzz" is not a setting`},
	} {
		root := t.TempDir()
		for rel, text := range tc.files {
			p := filepath.Join(root, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := settings.NewFinder(settings.Flags{}).For(filepath.Join(root, "a"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.files, err, tc.want)
		}
	}
}
