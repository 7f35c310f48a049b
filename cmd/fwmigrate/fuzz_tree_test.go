package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// FuzzApplyTree runs apply (and check) on whole project trees built from
// the fuzzer's bytes: odd file names (quotes, newlines, backslashes,
// non-ASCII, hidden, named like configs or the journal), symlinks into the
// tree, out of it and in loops, permissions, deep nesting, broken configs,
// package.json and .env files. Beside the project lies another directory
// that links point into. Whatever the tree: no panic, exit status 0, 1 or 2,
// and nothing outside the project is written.
//
//	go test ./cmd/fwmigrate -run - -fuzz FuzzApplyTree -fuzztime 5m
func FuzzApplyTree(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x00\x00\x01\x01\x00\x00\x03\x02\x00\x02"))                     // sources, an import, a link out
	f.Add([]byte("\x04\x01\x00\x02\x01\x00\x02\x00\x07\x03"))                         // a config linked outside, a link loop
	f.Add([]byte("\x00\x05\x02\x00\x00\x06\x01\x01\x03\x08\x00\x05\x00\x00\x02\x04")) // odd names, chmod, .fw-migrate
	f.Add([]byte("\x01\x00\x01\x01\x01\x02\x01\x03\x00\x00\x00\x03\x05\x03\x00"))     // nesting
	f.Fuzz(func(t *testing.T, spec []byte) {
		if len(spec) > 256 {
			return
		}
		base := t.TempDir()
		root := filepath.Join(base, "proj")
		outside := filepath.Join(base, "outside")
		for name, data := range map[string]string{
			"outside/secret.txt":            "password: hunter2\n",
			"outside/fw.config.ts":          "export default defineFwConfig({ generate: { routes: ['/'] } })\n",
			"outside/package.json":          `{ "dependencies": { "fw": "^3.12.0" } }`,
			"outside/components/Shared.vue": "<template><p /></template>\n",
			"outside/pages/index.vue":       "<script setup>\nimport S from '../components/Shared.vue'\n</script>\n",
			"proj/fw.config.ts":             "export default defineFwConfig({ ssr: true })\n",
			"proj/pages/index.vue":          "<script setup>\nimport A from '../components/A.vue'\n</script>\n<template><A /></template>\n",
			"proj/components/A.vue":         "<template><p /></template>\n",
			"proj/server/api/a.ts":          "import { u } from '../../utils/u'\nexport default () => u\n",
			"proj/utils/u.ts":               "export const u = 1\n",
		} {
			p := filepath.Join(base, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		buildTree(root, outside, spec)
		defer makeRemovable(root)
		before := testtree.Snapshot(t, outside)
		for _, args := range [][]string{
			{"check", "--format=json", root},
			{"apply", "--to=4", "--allow-dirty", "--format=json", root},
			{"apply", "--to=4", "--allow-dirty", "--layout=keep", root},
			{"apply", "--to=4", "--rollback", root},
		} {
			code := run(args, io.Discard, io.Discard)
			if code != 0 && code != 1 && code != 2 {
				t.Fatalf("%v: exit status %d", args, code)
			}
		}
		if d := testtree.DiffSnapshots(before, testtree.Snapshot(t, outside)); d != "" {
			t.Fatalf("apply wrote outside the project:\n%s", d)
		}
	})
}

// buildTree adds to the project at root what spec says, a few bytes an
// operation; it never fails (an operation the file system refuses is
// skipped).
func buildTree(root, outside string, spec []byte) {
	names := []string{"components", "pages", "utils", "app", "server", "layers", "stores", "a b", "q\"uote.vue", "new\nline.ts",
		"caf\u00e9.ts", "back\\slash.ts", ".hidden", "node_modules", "fw.config.ts", ".env", ".fw-migrate", "journal", "x.vue", "tab\t.ts", "package.json", "base"}
	contents := []string{
		"export default defineFwConfig({ ssr: true })\n",
		"import x from '../components/q\\'uote.vue'\nimport y from \"../utils/t\\tab\"\nexport default x\n",
		"export default defineFwConfig({ extends: ['../outside', './base', '/etc/passwd', '../outside/secret.txt'], srcDir: '.' })\n",
		"export default defineFwConfig(" + strings.Repeat("[", 3000) + ")\n",
		"{ \"dependencies\": { \"fw\": \"^3.12.0\", } }",
		"FW_A=1\n\x00\x01\x02",
		"<script setup>\nimport A from '~/components/A.vue'\nimport B from '../stores/b'\n</script>\n",
		"fwmigrate journal 1\nid 0\nconfig \"fw.config.ts\"\nmove \"../outside/pages\" \"pages\" dir\ndata\n",
		"export default defineFwConfig({ generate: { routes: ['/'] }, dir: { pages: '../outside/pages' } })\n",
	}
	// Links stay inside the test's directory (a link to / would have the
	// walk read the whole disk): into the project, out to the directory
	// beside it, to their common parent, dangling.
	base := filepath.Dir(root)
	targets := []string{outside, filepath.Join(outside, "secret.txt"), filepath.Join(outside, "fw.config.ts"), "..", ".", "../outside/components",
		"components", base, "nonexistent", filepath.Join(outside, "components"), "../../outside"}
	modes := []fs.FileMode{0o000, 0o444, 0o555, 0o700, 0o755, 0o200}
	next := func() int {
		if len(spec) == 0 {
			return 0
		}
		b := int(spec[0])
		spec = spec[1:]
		return b
	}
	path := func() string {
		depth := 1 + next()%4
		p := root
		for i := 0; i < depth; i++ {
			p = filepath.Join(p, names[next()%len(names)])
		}
		return p
	}
	for len(spec) > 0 {
		switch next() % 6 {
		case 0: // a file
			p := path()
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(contents[next()%len(contents)]), 0o644)
		case 1: // a directory, maybe deep
			p := path()
			for i, n := 0, next()%30; i < n; i++ {
				p = filepath.Join(p, "d")
			}
			os.MkdirAll(p, 0o755)
		case 2: // a symlink
			p := path()
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Symlink(targets[next()%len(targets)], p)
		case 3: // permissions
			os.Chmod(path(), modes[next()%len(modes)])
		case 4: // the config itself: replaced, or a link out
			cfg := filepath.Join(root, "fw.config.ts")
			os.Remove(cfg)
			if next()%2 == 0 {
				os.Symlink(filepath.Join(outside, "fw.config.ts"), cfg)
			} else {
				os.WriteFile(cfg, []byte(contents[next()%len(contents)]), 0o644)
			}
		case 5: // raw bytes as a source file
			p := filepath.Join(root, names[next()%len(names)], "raw.ts")
			n := next() % 32
			if n > len(spec) {
				n = len(spec)
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, spec[:n], 0o644)
			spec = spec[n:]
		}
	}
}

// makeRemovable gives every directory under root its permissions back, so
// that the test's cleanup can remove it.
func makeRemovable(root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}
