package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
)

// TestPreCommitFiles checks that the files pattern of .pre-commit-hooks.yaml
// (read by pre-commit with Python's re.search, which agrees with Go's regexp
// on it) passes exactly the names discovery acts on: configs and .env files.
func TestPreCommitFiles(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var pattern string
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "files: "); ok {
			pattern = strings.Trim(v, "'")
		}
	}
	for _, want := range []string{"id: fwmigrate-check", "entry: fwmigrate check", "language: golang", "pass_filenames: true"} {
		if !strings.Contains(string(data), want) {
			t.Errorf(".pre-commit-hooks.yaml lacks %q", want)
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatalf("files pattern %q: %v", pattern, err)
	}
	for _, path := range []string{
		"fw.config.ts", "fw.config.js", "fw.config.mjs", "fw.config.cjs", "fw.config.mts", "fw.config.cts",
		"apps/web/fw.config.ts", ".env", ".env.production", "apps/web/.env.local",
		"fw.config.json", "myfw.config.ts", "fw.config.ts.bak", "README.md", ".envrc", ".env.", "a/.env/x", "env",
	} {
		base := path[strings.LastIndex(path, "/")+1:]
		want := compat.IsConfigName(base) || isEnvName(base)
		if got := re.MatchString(path); got != want {
			t.Errorf("pattern matches %s: %v, discovery acts on it: %v", path, got, want)
		}
	}
}
