package rules_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestDetectionKept: a project checked again and again through one Cache
// (the language server's way: each check after an edit walks only the
// files whose text changed, code_kept.go) gives, after every edit, exactly
// the findings of a cold check of the same texts without a Cache. The
// edits put in and take out lines that make data calls, composables (which
// change what other files' reads are), route reads, template calls, syntax
// errors; now and then the config changes, a file is created on disk, or a
// file is deleted: the kept detection must be dropped then. Run for a
// project on major 3 and for one under compatibility version 5 (whose
// detectors read files beyond the code index: FW850, FW851).
func TestDetectionKept(t *testing.T) {
	for _, tc := range []struct {
		name, config, pkg string
	}{
		{"v3", "export default defineFwConfig({\n  ssr: true,\n  dir: { static: 'static' },\n  generate: { routes: ['/a'] },\n})\n", `{"dependencies": {"fw": "^3.12.0"}}`},
		{"compat5", "export default defineFwConfig({\n  ssr: false,\n  future: { compatibilityVersion: 5 },\n  spaLoadingTemplate: 'spa.html',\n})\n", `{"dependencies": {"fw": "^4.1.0"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) { detectionKept(t, tc.config, tc.pkg) })
	}
}

func detectionKept(t *testing.T, config, pkg string) {
	edits := 400
	if testing.Short() {
		edits = 20
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"fw.config.ts":                  config,
		"package.json":                  pkg,
		"spa.html":                      "<div id=\"__fw-loader\" class=\"spin\"></div>\n",
		"modules/tpl/index.ts":          "import { resolve } from 'node:path'\nexport default defineFwModule({ setup() { addTemplate({ filename: 'x.mjs', src: resolve(__dirname, 'tpl.ejs') }) } })\n",
		"modules/tpl/tpl.ejs":           "export default 1\n",
		"modules/tpl/x.ts":              "export const x = 1\n",
		"server/api/list.ts":            "export default defineEventHandler(() => { const q = getQuery(); return [q.a[0]] })\n",
		"composables/useShared.ts":      "export function useShared() { return useFetch('/api/shared') }\n",
		"pages/users/[id].vue":          "<script setup>\nconst { data } = await useShared()\nconst route = useRoute()\n</script>\n<template><p>{{ data }}</p></template>\n",
		"components/KeepList.vue":       "<template><KeepAlive include=\"UserCard\"><slot /></KeepAlive></template>\n",
		"components/user/UserCard.vue":  "<template><p>card</p></template>\n",
		"pages/guard.vue":               "<script setup>\nconst list = [1]\nconsole.log(list[0])\n</script>\n",
		"composables/unrelated/util.ts": "export const nothing = 1\n",
	}
	for name, src := range appgen.Dense(16) {
		files[name] = string(src)
	}
	testtree.Map(t, dir, files)
	cfg := filepath.Join(dir, "fw.config.ts")
	var docs []string
	for name := range files {
		if strings.HasSuffix(name, ".vue") || strings.HasSuffix(name, ".ts") && name != "fw.config.ts" {
			docs = append(docs, name)
		}
	}
	sort.Strings(docs)
	rng := rand.New(rand.NewSource(19))
	// A few documents typed into, so that what one defines the others use.
	rng.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	docs = append(docs[:5:5], "composables/useShared.ts", "pages/users/[id].vue", "modules/tpl/index.ts")
	texts := map[string]string{}
	overlay := func(path string) ([]byte, bool) {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return nil, false
		}
		if s, ok := texts[filepath.ToSlash(rel)]; ok {
			return []byte(s), true
		}
		return nil, false
	}
	cache := project.NewCache()
	reused := int64(0) // the checks that reused the kept detection
	check := func(c *project.Cache) string {
		l := project.NewLoader()
		l.Cache, l.Overlay = c, overlay
		p := l.Load(cfg, "fw.config.ts")
		res := rules.Run(p, rules.Options{Target: 4})
		if res.ReusedDetection {
			reused++
		}
		return diagList(res.Diags)
	}
	lines := []string{"const { data } = await useFetch('/api/x')\n", "if (data.value === null) console.log(1)\n",
		"const { refresh } = useAsyncData('k', () => 1)\n", "refresh({ dedupe: true })\n", "const route = useRoute()\n",
		"console.log(route.meta.name)\n", "// fwmigrate-ignore FW601\n", "window.__FW__ = {}\n", "function f() {\n", "}\n",
		"export function useMine() { return useFetch('/api/mine') }\n", "const { data: m } = await useMine()\n",
		"if (m.value === null) m.value = 1\n", "export const useMine = () => useAsyncData('m', () => 1)\n", "const { data: m } = await useMine()\n", "const { data: s } = await useShared()\n", "s.value.items.push(1)\n",
		"const a = [1]; console.log(a[0])\n", "addTemplate({ filename: 'y.mjs', src: './y.ts' })\n", "x\n"}
	if first := check(cache); strings.Count(first, "\n") < 20 {
		t.Fatalf("the cold check finds too little to compare:\n%s", first)
	}
	total := 0
	compare := func(i int) {
		t.Helper()
		warm, cold := check(cache), check(nil)
		total += strings.Count(cold, "\n")
		if warm != cold {
			t.Fatalf("after %d edits, the check through the cache gives\n%s\nwhere a cold check gives\n%s", i, warm, cold)
		}
	}
	// First, what other files depend on: a composable defined in one file,
	// used in another (whose edit alone is walked again), then no longer
	// defined, then defined again elsewhere.
	def, use := "composables/unrelated/util.ts", "pages/guard.vue"
	docs = append(docs, def, use)
	texts[def] = "export function useMine() { return useFetch('/api/mine') }\n" + files[def]
	compare(-5)
	texts[use] = strings.Replace(files[use], "const list", "const { data: m } = await useMine()\nif (m.value === null) m.value = 1\nconst list", 1)
	compare(-4)
	texts[def] = files[def]
	compare(-3)
	texts["composables/useShared.ts"] = files["composables/useShared.ts"] + "export const useMine = () => useAsyncData('m', () => 1)\n"
	compare(-2)
	// A file the code rules do not read, which a module's template names
	// (FW613 reads it: its scan is made again every check).
	texts["modules/tpl/tpl.ejs"] = "export default <%= serialize(options) %>\n"
	compare(-1)
	// A file the code rules read without parsing it (no word of theirs),
	// broken, which the type rules parse (FW851 under compatibility 5);
	// then an edit of another file: the broken one is as a cold check
	// reads it.
	broken := "composables/unrelated/broken.ts"
	texts[broken] = "export const a = [1]\nconsole.log(a[0]\n"
	docs = append(docs, broken)
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(broken)), []byte(texts[broken]), 0o644); err != nil {
		t.Fatal(err)
	}
	cache.ForgetFolders()
	compare(0)
	texts[use] = texts[use] + "<!-- -->\n"
	compare(0)
	texts[use] = texts[use] + "<!-- -->\n"
	compare(0)
	for i := 1; i <= edits; i++ {
		switch k := rng.Intn(40); {
		case k == 0:
			// The config: the kept detection's key changes.
			texts["fw.config.ts"] = strings.Replace(config, "defineFwConfig({\n", fmt.Sprintf("defineFwConfig({\n  app: { baseURL: '/%d/' },\n", i), 1)
		case k == 1:
			// A new file on disk, seen once the listing is forgotten.
			name := fmt.Sprintf("pages/new%d.vue", i)
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte("<script setup>\nconst { data } = await useFetch('/n')\nif (data.value === null) {}\n</script>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, name)
			cache.ForgetFolders()
		case k == 2 && len(docs) > 6:
			// A file deleted.
			j := rng.Intn(len(docs))
			name := docs[j]
			docs = append(docs[:j], docs[j+1:]...)
			delete(texts, name)
			os.Remove(filepath.Join(dir, filepath.FromSlash(name)))
			cache.ForgetFolders()
		default:
			name := docs[rng.Intn(len(docs))]
			text, ok := texts[name]
			if !ok {
				src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil {
					t.Fatal(err)
				}
				text = string(src)
			}
			// A line of the script taken out, or one put in.
			lo, hi := 0, len(text)
			if strings.HasSuffix(name, ".vue") {
				lo, hi = -1, strings.Index(text, "</script>")
				if s := strings.Index(text, "<script"); s >= 0 {
					lo = s + strings.Index(text[s:], ">") + 1
				}
			}
			if lo < 0 || hi < lo {
				continue
			}
			var starts []int
			for at := lo; at <= hi; {
				starts = append(starts, at)
				j := strings.Index(text[at:], "\n")
				if j < 0 {
					break
				}
				at += j + 1
			}
			at := starts[rng.Intn(len(starts))]
			if end := strings.Index(text[at:], "\n"); rng.Intn(3) == 0 && end >= 0 && at+end < hi {
				texts[name] = text[:at] + text[at+end+1:]
			} else {
				texts[name] = text[:at] + lines[rng.Intn(len(lines))] + text[at:]
			}
		}
		compare(i)
	}
	if reused < int64(edits)/10 || reused == 0 {
		t.Errorf("the kept detection was reused in %d of %d checks", reused, edits)
	}
	t.Logf("%d edits, %d checks reused the kept detection, %d findings compared", edits, reused, total)
}

// diagList renders findings with everything a client is shown of them.
func diagList(diags []*rules.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s %s %s %d:%d-%d:%d %s %q %q", d.Code, d.Severity, d.File, d.Line, d.Column, d.EndLine, d.EndColumn, d.Option, d.Message, d.Notes)
		for _, f := range []*rules.Fix{d.Fix, d.Held} {
			if f != nil {
				fmt.Fprintf(&b, " fix(%s %v %s %+v %+v)", f.Description, f.Applicability, f.File, f.Ops, f.ConfigOps)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
