package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestApplyNonUTF8: files in Latin-1 and Windows-1252 get the move's path
// edits and the code fixes on their own bytes, next to bytes that are not
// UTF-8, byte-exactly; a UTF-16 file (NUL bytes: not text to the reader)
// is moved as it is and never edited.
func TestApplyNonUTF8(t *testing.T) {
	page := func(comment string) string {
		return "<script setup>\n// " + comment + "\nimport X from '../../shared/x'\n" +
			"const { data } = await useAsyncData('k', () => $fetch('/a'))\n" +
			"if (data.value === null) {\n  console.log('" + comment + "')\n}\n</script>\n<template><div/></template>\n"
	}
	utf16 := "\xff\xfe" + strings.Join(strings.Split("<template><div/></template>\n", ""), "\x00") + "\x00"
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"fw.config.ts":     "export default defineFwConfig({})\n",
		"package.json":     `{ "dependencies": { "fw": "^3.12.0" } }` + "\n",
		"pages/latin1.vue": page("caf\xe9 \xe9\xe9 na\xefve"),
		"pages/cp1252.vue": page("\x93quoted\x94 \x80 \x85"),
		"pages/utf8.vue":   page("café ünïcode"),
		"pages/utf16.vue":  utf16,
		"../shared/x.ts":   "export default 1\n",
	})
	_, stderr, code := runIn(t, dir, []string{"apply", "--to=4", "--allow-dirty", "."})
	if code != 0 && code != 1 {
		t.Fatalf("apply: exit %d\n%s", code, stderr)
	}
	want := func(comment string) string {
		return strings.Replace(strings.Replace(page(comment), "'../../shared/x'", "'../../../shared/x'", 1), "=== null", "== null", 1)
	}
	for name, w := range map[string]string{
		"app/pages/latin1.vue": want("caf\xe9 \xe9\xe9 na\xefve"),
		"app/pages/cp1252.vue": want("\x93quoted\x94 \x80 \x85"),
		"app/pages/utf8.vue":   want("café ünïcode"),
		"app/pages/utf16.vue":  utf16,
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if string(got) != w {
			t.Errorf("%s:\n got %q\nwant %q", name, got, w)
		}
	}
}
