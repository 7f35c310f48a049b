package workspace_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// TestMajor: the framework major is decided in one place, in one order:
// package.json's (or the extending apps', set by the loader) before the
// settings', and a setting it overrides is named in a note.
func TestMajor(t *testing.T) {
	fromFile := &settings.Resolved{Framework: 4, From: map[string]string{"framework": "fwmigrate.json"}}
	fromFlag := &settings.Resolved{Framework: 4, From: map[string]string{"framework": "--framework"}}
	for _, c := range []struct {
		name       string
		major      int
		source     string
		res        *settings.Resolved
		want       int
		wantSource string
		note       string
	}{
		{"unknown, no setting", 0, "", &settings.Resolved{}, 0, "", ""},
		{"unknown, settings file", 0, "", fromFile, 4, "fwmigrate.json", ""},
		{"unknown, flag", 0, "", fromFlag, 4, "--framework", ""},
		{"package.json agrees", 4, "package.json", fromFlag, 4, "package.json", ""},
		{"package.json wins over the flag", 3, "package.json", fromFlag, 3, "package.json", "--framework=4 ignored: package.json says 3"},
		{"package.json wins over the file", 3, "package.json", fromFile, 3, "package.json", "framework 4 (fwmigrate.json) ignored: package.json says 3"},
		{"the extending apps win", 3, "the projects that extend it", fromFile, 3, "the projects that extend it", "framework 4 (fwmigrate.json) ignored: the projects that extend it say 3"},
		{"decided before by the same setting", 4, "fwmigrate.json", fromFile, 4, "fwmigrate.json", ""},
	} {
		p := &project.Project{Framework: c.major, FrameworkSource: c.source}
		note := workspace.Major(p, c.res)
		if p.Framework != c.want || p.FrameworkSource != c.wantSource || note != c.note {
			t.Errorf("%s: major %d from %q, note %q; want %d from %q, note %q", c.name, p.Framework, p.FrameworkSource, note, c.want, c.wantSource, c.note)
		}
	}
}

// TestOptions: a project's options come from the settings file nearest to
// it; for a check its baseline is loaded once and hides known findings,
// for a fix there is none.
func TestOptions(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"fwmigrate.json": `{"ignore": ["FW205"], "baseline": "base.json"}`,
		"base.json":      `{"version": 1, "findings": []}`,
		"a/fw.config.ts": "export default defineFwConfig({})\n",
	})
	ws := workspace.New(settings.Flags{})
	cfg := filepath.Join(dir, "a", "fw.config.ts")
	opts, res, err := ws.Options(cfg, workspace.ForCheck)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Ignore) != 1 || opts.Ignore[0] != "FW205" || res.Baseline == "" || opts.Finish == nil {
		t.Errorf("check options: %+v (settings %+v)", opts, res)
	}
	if len(ws.Baselines()) != 1 {
		t.Errorf("the baseline is loaded once: %d", len(ws.Baselines()))
	}
	fixOpts, _, err := ws.Options(cfg, workspace.ForFix)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixOpts.Ignore) != 1 || fixOpts.Finish != nil {
		t.Errorf("fix options: the settings without the baseline, got %+v", fixOpts)
	}
	testtree.Map(t, dir, map[string]string{"fwmigrate.json": `{"selcet": []}`})
	ws.Reload()
	if _, _, err := ws.Options(cfg, workspace.ForCheck); err == nil || !strings.Contains(err.Error(), "selcet") {
		t.Errorf("a bad settings file after Reload: %v", err)
	}
}
