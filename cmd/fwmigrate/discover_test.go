package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

// preCommitHook is one hook of .pre-commit-hooks.yaml.
type preCommitHook struct{ id, entry, files, language, passFilenames string }

// preCommitHooks reads .pre-commit-hooks.yaml (a list of flat maps: a line
// reader is enough).
func preCommitHooks(t *testing.T) []preCommitHook {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "- "); ok {
			hooks = append(hooks, preCommitHook{})
			l = rest
		}
		key, value, ok := strings.Cut(l, ": ")
		if !ok || len(hooks) == 0 {
			continue
		}
		h := &hooks[len(hooks)-1]
		value = strings.Trim(value, "'")
		switch key {
		case "id":
			h.id = value
		case "entry":
			h.entry = value
		case "files":
			h.files = value
		case "language":
			h.language = value
		case "pass_filenames":
			h.passFilenames = value
		}
	}
	return hooks
}

// TestPreCommitFiles checks that the files pattern of each hook in
// .pre-commit-hooks.yaml (read by pre-commit with Python's re.search,
// which agrees with Go's regexp on it) passes exactly the names discovery
// acts on: configs, .env files and code files (a declaration file too:
// discovery passes over it).
func TestPreCommitFiles(t *testing.T) {
	hooks := preCommitHooks(t)
	if len(hooks) != 2 || hooks[0].id != "fwmigrate-check" || hooks[1].id != "fwmigrate-check-strict" {
		t.Fatalf("hooks %+v, want fwmigrate-check and fwmigrate-check-strict", hooks)
	}
	for _, h := range hooks {
		if h.language != "golang" || h.passFilenames != "true" || !strings.HasPrefix(h.entry, "fwmigrate check") {
			t.Errorf("%s: %+v", h.id, h)
		}
		re, err := regexp.Compile(h.files)
		if err != nil {
			t.Fatalf("%s: files pattern %q: %v", h.id, h.files, err)
		}
		for _, path := range []string{
			"fw.config.ts", "fw.config.js", "fw.config.mjs", "fw.config.cjs", "fw.config.mts", "fw.config.cts",
			"apps/web/fw.config.ts", ".env", ".env.production", "apps/web/.env.local",
			"fw.config.json", "myfw.config.ts", "fw.config.ts.bak", "README.md", ".envrc", ".env.", "a/.env/x", "env",
			"pages/index.vue", "composables/useX.ts", "plugins/a.client.mjs", "b.cjs", "c.mts", "d.cts", "e.tsx", "f.jsx",
			"g.vuex", "h.tsv", "styles.css",
		} {
			base := path[strings.LastIndex(path, "/")+1:]
			want := compat.IsConfigName(base) || isEnvName(base) || project.IsCodeName(base) || strings.HasSuffix(base, ".d.ts")
			if got := re.MatchString(path); got != want {
				t.Errorf("%s: pattern matches %s: %v, discovery acts on it: %v", h.id, path, got, want)
			}
		}
	}
}

// TestPreCommitHooks runs each hook's entry as pre-commit does (the entry,
// then the files) on a project that has not migrated: fwmigrate-check lets
// its warnings through and stops its errors; fwmigrate-check-strict stops
// the warnings too, unless the project's baseline knows them.
func TestPreCommitHooks(t *testing.T) {
	hooks := map[string][]string{}
	for _, h := range preCommitHooks(t) {
		hooks[h.id] = strings.Fields(h.entry)[1:] // the arguments, from the subcommand on
	}
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"warn/fw.config.ts":    "export default defineFwConfig({ generate: { routes: ['/a'] } })\n",
		"warn/package.json":    `{"dependencies": {"fw": "^4.1.0"}}`,
		"error/fw.config.ts":   "export default defineFwConfig({ dir: { static: 'static' } })\n",
		"error/package.json":   `{"dependencies": {"fw": "^4.1.0"}}`,
		"known/fw.config.ts":   "export default defineFwConfig({ generate: { routes: ['/a'] } })\n",
		"known/package.json":   `{"dependencies": {"fw": "^4.1.0"}}`,
		"known/fwmigrate.json": `{"baseline": "baseline.json"}`,
		"README.md":            "not a config\n",
		"error/pages/a.vue":    "<script setup>\nconst { data } = await useFetch('/a')\n</script>\n<template><p v-if=\"data === null\"/></template>\n",
	})
	if _, _, code := runIn(t, dir, []string{"check", "--update-baseline", "known"}); code != 0 {
		t.Fatalf("--update-baseline: exit %d", code)
	}
	for _, c := range []struct {
		hook, file string
		want       int
	}{
		{"fwmigrate-check", "warn/fw.config.ts", exitOK},
		{"fwmigrate-check", "error/fw.config.ts", exitFindings},
		{"fwmigrate-check", "README.md", exitOK},
		{"fwmigrate-check", "error/pages/a.vue", exitOK}, // a warning, alone in its project with an error
		{"fwmigrate-check-strict", "error/pages/a.vue", exitFindings},
		{"fwmigrate-check-strict", "warn/fw.config.ts", exitFindings},
		{"fwmigrate-check-strict", "known/fw.config.ts", exitOK},
	} {
		out, errOut, code := runIn(t, dir, append(append([]string(nil), hooks[c.hook]...), c.file))
		if code != c.want {
			t.Errorf("%s %s: exit %d, want %d\n%s%s", c.hook, c.file, code, c.want, out, errOut)
		}
	}
}
