package testtree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// LayoutB returns a generated layout-B project of n source files whose
// imports cross the move in every direction: moved to moved (unchanged),
// moved to staying and staying to moved (rewritten), ~/ into staying
// folders (rewritten to ~~/), and stores/ found through ~/.
func LayoutB(n int) map[string]string {
	files := map[string]string{
		"fw.config.ts":  "export default defineFwConfig({})\n",
		"app.vue":       "<template><FwPage /></template>\n",
		"tsconfig.json": "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		".fwignore":     "components/legacy/**\n*.log\n",
	}
	share := []struct {
		dir  string
		part int // per mille of n
		gen  func(i int) (string, string)
	}{
		{"components", 400, func(i int) (string, string) {
			return fmt.Sprintf("components/c%d/C%d.vue", i%40, i), fmt.Sprintf(`<script setup lang="ts">
import { u } from '../../utils/u%d'
import { useX } from '~/composables/use%d'
import type { Row } from '~/server/types'
const label = "import x from '../nope'"
</script>
<template><p>{{ u }} don't</p></template>
<style scoped>
.c { background: url(../../assets/img.png); }
</style>
`, i%100, i%100)
		}},
		{"pages", 100, func(i int) (string, string) {
			return fmt.Sprintf("pages/p%d.vue", i), fmt.Sprintf(`<script setup>
import C from '../components/c%d/C%d.vue'
import { s } from '~/stores/s%d'
</script>
<template><C /></template>
`, i%40, i, i%60)
		}},
		{"composables", 100, func(i int) (string, string) {
			return fmt.Sprintf("composables/use%d.ts", i), fmt.Sprintf(`import { u } from '../utils/u%d'
import type { Row } from '../server/types'
export const useX = (): Row => ({ id: u })
`, i%100)
		}},
		{"utils", 100, func(i int) (string, string) {
			return fmt.Sprintf("utils/u%d.ts", i), "export const u = `${1 / 2}` // import('../no')\n"
		}},
		{"stores", 60, func(i int) (string, string) {
			return fmt.Sprintf("stores/s%d.ts", i), "import { u } from '~/utils/u1'\nexport const s = u\n"
		}},
		{"server", 140, func(i int) (string, string) {
			return fmt.Sprintf("server/api/a%d.ts", i), fmt.Sprintf(`import { u } from '../../utils/u%d'
import { s } from '~/stores/s%d'
export default defineEventHandler(() => u + s)
`, i%100, i%60)
		}},
		{"assets", 100, func(i int) (string, string) {
			return fmt.Sprintf("assets/css/s%d.css", i), "@import '../base.css';\n.a { background: url(../../public/bg.png) }\n"
		}},
	}
	for _, s := range share {
		for i := 0; i < n*s.part/1000; i++ {
			name, data := s.gen(i)
			files[name] = data
		}
	}
	files["server/types.ts"] = "export interface Row { id: string }\n"
	files["assets/base.css"] = "body {}\n"
	files["assets/img.png"] = ""
	files["public/bg.png"] = ""
	return files
}

// WriteMap writes files (slash-separated names relative to dir, with their
// contents) under dir. Any error fails the test.
func WriteMap(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// Snapshot lists every entry under dir, symlinks not followed, by its path
// relative to dir: "dir <mode>", "link <target>", or "file <mode> <quoted
// contents>". Two snapshots are equal when the trees are the same byte for
// byte, modes included.
func Snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			dest, _ := os.Readlink(path)
			snap[rel] = "link " + dest
		case d.IsDir():
			snap[rel] = fmt.Sprintf("dir %v", info.Mode())
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			snap[rel] = fmt.Sprintf("file %v %q", info.Mode(), data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

// DiffSnapshots lists how b differs from a, one path a line ("- " gone,
// "+ " new, "~ " changed, with both values), sorted; "" when they are equal.
func DiffSnapshots(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, "- "+k)
		} else if v != w {
			out = append(out, "~ "+k+"\n    "+v+"\n    "+w)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "+ "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
