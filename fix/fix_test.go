package fix_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestRoundsBump: with FW701's bump of fw among the fixes, Rounds makes
// the config's fixes for major 4 (FW206 sets no compatibilityVersion, whose
// step the bump is) and says so; the checks after the bump carry the
// versions the project runs today (Before). KeepMajor (apply --pin), an
// unsafe bump without Unsafe and a skipped one keep major 3.
func TestRoundsBump(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"fw.config.ts":     "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json":     `{ "dependencies": { "fw": "^3.15.0" } }`,
		"app/utils/one.ts": "export const first = (names: string[]): string => names[0]\n",
	})
	load := func() *project.Project {
		return project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	}
	ro := rules.Options{Target: 4}
	var befores []rules.Versions
	check := func(p *project.Project, o rules.Options) []*rules.Diagnostic {
		befores = append(befores, o.Before)
		return rules.Check(p, o)
	}
	run := func(o fix.RoundOptions) (*project.Project, *fix.Outcome) {
		t.Helper()
		p := load()
		o.Rules, o.Check = ro, check
		befores = nil
		out, err := fix.Rounds(p, rules.Check(p, ro), nil, o)
		if err != nil || out.Fatal {
			t.Fatalf("rounds: %v (fatal %v)", err, out.Fatal)
		}
		return p, out
	}

	p, out := run(fix.RoundOptions{})
	if out.Bump == nil || out.Bump.Code != "FW701" || out.Project.Framework != 4 || p.Framework != 3 {
		t.Fatalf("bump %v, major %d (the project's %d)", out.Bump, out.Project.Framework, p.Framework)
	}
	cfg := string(out.Project.File.Src)
	if !out.Changed(p) || strings.Contains(cfg, "compatibilityVersion") || !strings.Contains(cfg, "noUncheckedIndexedAccess: false") {
		t.Errorf("the config made for major 4:\n%s", cfg)
	}
	for _, b := range befores {
		if b != (rules.Versions{Framework: 3, Compat: 3}) {
			t.Errorf("a check after the bump ran with Before %+v", b)
		}
	}
	if len(befores) == 0 {
		t.Error("no check after the bump")
	}

	for name, o := range map[string]fix.RoundOptions{
		"KeepMajor": {KeepMajor: true},
		"skipped":   {Skip: func(d *rules.Diagnostic) string { return map[bool]string{true: "no"}[d.Code == "FW701"] }},
	} {
		p, out := run(o)
		cfg := string(out.Project.File.Src)
		if out.Bump != nil || out.Project.Framework != 3 || !out.Changed(p) || !strings.Contains(cfg, "compatibilityVersion: 4") {
			t.Errorf("%s: bump %v, major %d, config\n%s", name, out.Bump, out.Project.Framework, cfg)
		}
		for _, b := range befores {
			if b != (rules.Versions{}) {
				t.Errorf("%s: a check ran with Before %+v", name, b)
			}
		}
	}
}
