package compat

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestHooksComplete checks that every name of hooks.md and of the
// reference's Events section is known.
func TestHooksComplete(t *testing.T) {
	md, err := os.ReadFile(specDir + "hooks.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(md), "\n") {
		if m := regexp.MustCompile("^- `([^`]+)`:").FindStringSubmatch(line); m != nil {
			names = append(names, m[1])
		}
		if strings.HasPrefix(line, "- Generic engine hooks") {
			for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(line, -1) {
				names = append(names, m[1])
			}
		}
	}
	if len(names) < 80 {
		t.Fatalf("found only %d hooks in hooks.md", len(names))
	}
	ref, err := os.ReadFile(specDir + "config-reference.md")
	if err != nil {
		t.Fatal(err)
	}
	_, events, _ := strings.Cut(string(ref), "## Events")
	events, _, _ = strings.Cut(events, "## Errors")
	for _, m := range regexp.MustCompile("`([a-zA-Z]+:[a-zA-Z:-]+)`").FindAllStringSubmatch(events, -1) {
		names = append(names, m[1])
	}
	for _, n := range names {
		if !KnownHook(n) {
			t.Errorf("hook %s is unknown", n)
		}
	}
	for _, n := range []string{"build:done", "builder:watch", "app:chunkError", "dev:ssr-logs", "suspense:resolve", "bundlerC:compiled"} {
		if !KnownHook(n) {
			t.Errorf("hook %s is unknown", n)
		}
	}
}

func TestHooks(t *testing.T) {
	for _, c := range []struct {
		name string
		kind HookKind
	}{
		{"build:done", BuildHook},
		{"close", BuildHook | EngineHook},
		{"dev:ssr-logs", AppHook | EngineHook},
		{"app:mounted", AppHook},
		{"render:html", EngineHook},
		{"vite:extendConfig", BuildHook}, // the real prefix of bundlerA:extendConfig
		{"nitro:config", BuildHook},
		{"webpack:config", BuildHook},
		{"vue:setup", AppHook},
		{"content:file:beforeParse", 0}, // a module's hook
		{"build:don", 0},
		{"vite:nope", 0},
		{"", 0},
	} {
		var got HookKind
		if h := FindHook(c.name); h != nil {
			got = h.Kind
		}
		if got != c.kind || KnownHook(c.name) != (c.kind != 0) {
			t.Errorf("FindHook(%q) kind %s, want %s", c.name, got, c.kind)
		}
	}
	if got := HookName([]string{"build", "done"}); got != "build:done" {
		t.Errorf("HookName = %q", got)
	}
	if got := HookName([]string{"build:analyze", "done"}); got != "build:analyze:done" {
		t.Errorf("HookName = %q", got)
	}
	if got := SuggestHook("build:don"); got != "build:done" {
		t.Errorf("SuggestHook(build:don) = %q", got)
	}
	if got := SuggestHook("build:done"); got != "" {
		t.Errorf("SuggestHook(build:done) = %q", got)
	}
	hs := Hooks()
	for i := 1; i < len(hs); i++ {
		if hs[i-1] >= hs[i] {
			t.Fatalf("Hooks() not sorted or duplicated at %s", hs[i])
		}
	}
}
