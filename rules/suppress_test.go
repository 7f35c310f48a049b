package rules_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// suppressBase is the project the SuppressEdit cases put their file in.
var suppressBase = map[string]string{
	"fw.config.ts":  "export default defineFwConfig({})\n",
	"package.json":  `{ "dependencies": { "fw": "^4.1.0" } }`,
	"tsconfig.json": "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
}

// TestSuppressEdit: the edit SuppressEdit makes for a finding of code on
// line of file (rel), applied to text; "" where it must make none.
func TestSuppressEdit(t *testing.T) {
	const vueScript = "<script setup lang=\"ts\">\nconst route = useRoute()\n"
	for _, tc := range []struct {
		name, rel, text string
		code            string
		line            int
		want            string
	}{
		// The config.
		{"config new", "fw.config.ts", "export default defineFwConfig({\n  dir: {\n    static: 'public',\n  },\n})\n", "FW107", 3,
			"export default defineFwConfig({\n  dir: {\n    // fwmigrate-ignore FW107\n    static: 'public',\n  },\n})\n"},
		{"config new CRLF", "fw.config.ts", "export default defineFwConfig({\r\n\tssr: false,\r\n})\r\n", "FW301", 2,
			"export default defineFwConfig({\r\n\t// fwmigrate-ignore FW301\r\n\tssr: false,\r\n})\r\n"},
		{"config add", "fw.config.ts", "export default defineFwConfig({\n  dir: {\n    // fwmigrate-ignore FW302: why\n    static: 'public',\n  },\n})\n", "FW107", 4,
			"export default defineFwConfig({\n  dir: {\n    // fwmigrate-ignore FW302, FW107: why\n    static: 'public',\n  },\n})\n"},
		{"config add block", "fw.config.ts", "export default defineFwConfig({\n  /* fwmigrate-ignore FW302, */\n  ssr: false,\n})\n", "FW301", 3,
			"export default defineFwConfig({\n  /* fwmigrate-ignore FW302, FW301, */\n  ssr: false,\n})\n"},
		{"config every rule above", "fw.config.ts", "export default defineFwConfig({\n  // fwmigrate-ignore: all of it\n  ssr: false,\n})\n", "FW301", 3, ""},
		{"config marker after code above", "fw.config.ts", "export default defineFwConfig({\n  a: 1, // fwmigrate-ignore FW302\n  ssr: false,\n})\n", "FW301", 3, ""},
		{"config template literal", "fw.config.ts", "export default defineFwConfig({\n  app: { head: { script: [{ innerHTML: `a\n  ${1}` }] } },\n})\n", "FW301", 3, ""},
		{"config FW903", "fw.config.ts", "export default defineFwConfig({\n  // fwmigrate-ignore FW302\n  ssr: false,\n})\n", "FW903", 2, ""},
		{"config unsuppressible", "fw.config.ts", "export default defineFwConfig({\n  ssr: false,\n})\n", "FW901", 2, ""},

		// A .env file.
		{"env new", ".env", "FW_PUBLIC_APIBASE=x\n", "FW403", 1,
			"# fwmigrate-ignore FW403\nFW_PUBLIC_APIBASE=x\n"},
		{"env add", ".env", "A=1\n  # fwmigrate-ignore FW506 FW405: why\nFW_PUBLIC_APIBASE=x\n", "FW403", 3,
			"A=1\n  # fwmigrate-ignore FW506 FW405, FW403: why\nFW_PUBLIC_APIBASE=x\n"},
		{"env every rule above", ".env", "# fwmigrate-ignore\nFW_PUBLIC_APIBASE=x\n", "FW403", 2, ""},
		{"env multi-line value", ".env", "A=\"one\ntwo\"\nB=x\n", "FW403", 2, ""},

		// tsconfig.json.
		{"tsconfig new", "tsconfig.json", "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n", "FW211", 2,
			"{\n  // fwmigrate-ignore FW211\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n"},
		{"tsconfig add", "tsconfig.json", "{\n  // fwmigrate-ignore FW301: r\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n", "FW211", 3,
			"{\n  // fwmigrate-ignore FW301, FW211: r\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n"},

		// A script file.
		{"script new", "app/composables/a.ts", "const r = useRoute()\nif (r) {\n\tr.meta.name\n}\n", "FW606", 3,
			"const r = useRoute()\nif (r) {\n\t// fwmigrate-ignore FW606\n\tr.meta.name\n}\n"},
		{"script add block", "app/composables/a.ts", "const r = useRoute()\n  /* fwmigrate-ignore FW601 */\n  r.meta.name\n", "FW606", 3,
			"const r = useRoute()\n  /* fwmigrate-ignore FW601, FW606 */\n  r.meta.name\n"},
		{"script template literal", "app/composables/a.ts", "const r = useRoute()\nconst s = `\n${r.meta.name}`\n", "FW606", 3, ""},
		{"script multi-line string", "app/composables/a.ts", "const r = useRoute()\nconst s = 'a\\\nb' + r.meta.name\n", "FW606", 3, ""},
		{"script JSX text", "app/composables/a.tsx", "const r = useRoute()\nexport const A = () => <p>\n{r.meta.name}</p>\n", "FW606", 3, ""},
		{"script marker in a string above", "app/composables/a.ts", "const r = useRoute()\nconst s = '// fwmigrate-ignore FW601'\nr.meta.name\n", "FW606", 3, ""},

		// A .vue file's script and template.
		{"vue script new", "app/pages/index.vue", vueScript + "const t = route.meta.name\n</script>\n", "FW606", 3,
			vueScript + "// fwmigrate-ignore FW606\nconst t = route.meta.name\n</script>\n"},
		{"vue script every rule above", "app/pages/index.vue", vueScript + "// fwmigrate-ignore\nconst t = route.meta.name\n</script>\n", "FW606", 4, ""},
		{"vue outside the blocks", "app/pages/index.vue", "<script setup>const n = useRoute().meta.name\n</script>\n", "FW606", 1, ""},
		{"vue template new", "app/pages/index.vue", vueScript + "</script>\n<template>\n  <p>{{ route.meta.name }}</p>\n</template>\n", "FW606", 5,
			vueScript + "</script>\n<template>\n  <!-- fwmigrate-ignore FW606 -->\n  <p>{{ route.meta.name }}</p>\n</template>\n"},
		{"vue template add", "app/pages/index.vue", vueScript + "</script>\n<template>\n  <!-- fwmigrate-ignore FW601: r -->\n  <p>{{ route.meta.name }}</p>\n</template>\n", "FW606", 6,
			vueScript + "</script>\n<template>\n  <!-- fwmigrate-ignore FW601, FW606: r -->\n  <p>{{ route.meta.name }}</p>\n</template>\n"},
		{"vue template script-form above", "app/pages/index.vue", vueScript + "</script>\n<template>\n  // fwmigrate-ignore FW601\n  <p>{{ route.meta.name }}</p>\n</template>\n", "FW606", 6, ""},
		{"vue start tag", "app/pages/index.vue", vueScript + "</script>\n<template>\n  <p\n    :title=\"route.meta.name\">x</p>\n</template>\n", "FW606", 6, ""},
		{"vue interpolation", "app/pages/index.vue", vueScript + "</script>\n<template>\n  <p>{{\n  route.meta.name }}</p>\n</template>\n", "FW606", 6, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range suppressBase {
				files[k] = v
			}
			files[tc.rel] = tc.text
			dir := t.TempDir()
			testtree.Map(t, dir, files)
			cfg := filepath.Join(dir, "fw.config.ts")
			p := project.NewLoader().Load(cfg, cfg)
			path := filepath.Join(dir, filepath.FromSlash(tc.rel))
			e, ok := rules.SuppressEdit(p, &rules.Diagnostic{Code: tc.code, Line: tc.line, File: path}, path)
			switch {
			case !ok && tc.want != "":
				t.Fatal("no edit")
			case ok && tc.want == "":
				t.Fatalf("an edit: %+v", e)
			case ok:
				if got := tc.text[:e.Offset] + e.Text + tc.text[e.Offset:]; got != tc.want {
					t.Errorf("got\n%q\nwant\n%q", got, tc.want)
				}
				if line := strings.Count(tc.text[:e.Offset], "\n") + 1; e.At.Line != line {
					t.Errorf("At %+v, offset %d is on line %d", e.At, e.Offset, line)
				}
			}
		})
	}
}

// TestSuppressRoundTrip: the findings the check reports on a line, those
// of a fixture's rule in its projects (testdata/rules) and all of a
// project with findings in each kind of file, get their SuppressEdit applied, and the project is
// checked again: the findings of that code on that line are gone, no
// FW903 comes, and every other finding is the same (on the next line when
// a line was inserted above it). Each kind of file must have had one
// round trip at least: the config, a .env file, tsconfig.json, a script
// file, a .vue file's script and its template, and a code added to a
// comment in the config and in a template.
func TestSuppressRoundTrip(t *testing.T) {
	vue := "<script setup lang=\"ts\">\n" +
		"const { data: posts } = await useFetch('/api/posts')\n" +
		"const route = useRoute()\n" +
		"const title = route.meta.name\n" +
		"</script>\n" +
		"<template>\n" +
		"  <div>\n" +
		"    <!-- fwmigrate-ignore FW601: keep -->\n" +
		"    <p v-if=\"posts === null && route.meta.name\">x</p>\n" +
		"    <span>{{ route.meta.name }}</span>\n" +
		"  </div>\n" +
		"</template>\n"
	own := map[string]string{
		"fw.config.ts":             "export default defineFwConfig({\n  dir: {\n    // fwmigrate-ignore FW302: why\n    static: 'public',\n  },\n  generate: { routes: ['/a'] },\n  sourcemap: { client: true },\n})\n",
		"package.json":             `{ "dependencies": { "fw": "^4.1.0" } }`,
		"tsconfig.json":            "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		".env":                     "A=1\nFW_PUBLIC_APIBASE=x\n",
		"app/pages/index.vue":      vue,
		"app/composables/title.ts": "export function useTitle() {\n  const route = useRoute()\n  return route.meta.name\n}\n",
	}
	trees := map[string]string{} // name to the root of a project
	only := map[string]string{}  // name to the code a fixture is about
	dir := t.TempDir()
	testtree.Map(t, filepath.Join(dir, "own"), own)
	trees["own"] = filepath.Join(dir, "own")
	fixtures, err := filepath.Glob("../testdata/rules/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		fixtures = nil
	}
	for _, file := range fixtures {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		root := filepath.Join(dir, name)
		// The trees only: the goldens (diagnostics, fixed*) are not files
		// of the project.
		var tree []txtar.File
		for _, f := range ar.Files {
			if c, rank := caseSection(f.Name); rank == 0 {
				tree = append(tree, f)
				trees[name+"/"+c] = filepath.Join(root, c)
				only[name+"/"+c] = name
			}
		}
		testtree.Files(t, root, tree)
	}
	kinds := map[string]int{}
	for name, root := range trees {
		cfg := findConfig(t, root)
		if cfg == "" {
			continue
		}
		kinds = mergeCounts(kinds, roundTrips(t, name, cfg, only[name]))
	}
	t.Logf("round trips: %v", kinds)
	for _, k := range []string{"config", "config add", "env", "tsconfig", "script", "vue script", "vue template", "vue template add"} {
		if kinds[k] == 0 {
			t.Errorf("no round trip in a %s (%v)", k, kinds)
		}
	}
}

func mergeCounts(a, b map[string]int) map[string]int {
	for k, n := range b {
		a[k] += n
	}
	return a
}

// roundTrips checks the SuppressEdit of the findings of the project of cfg
// (those of code only, unless it is "") by checking again, and counts them
// by the kind of file and place.
func roundTrips(t *testing.T, name, cfg, code string) map[string]int {
	opts := rules.Options{Target: 4}
	p := project.NewLoader().Load(cfg, cfg)
	diags := rules.Check(p, opts)
	kinds := map[string]int{}
	// One round trip for each code, file and form of edit (a new line or a
	// code added), and place in a .vue file: the fixtures repeat their
	// rule's finding, and each round trip checks the project again.
	done := map[string]bool{}
	for _, d := range diags {
		key := fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Code)
		if d.Line <= 0 || code != "" && d.Code != code {
			continue
		}
		e, ok := rules.SuppressEdit(p, d, d.File)
		if !ok {
			continue
		}
		form := fmt.Sprint(d.File, d.Code, strings.HasPrefix(e.Text, ", "), strings.Contains(e.Text, "<!--"))
		if done[form] {
			continue
		}
		done[form] = true
		src, err := p.ReadText(d.File)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, key, err)
		}
		next := string(src.Src[:e.Offset]) + e.Text + string(src.Src[e.Offset:])
		l := project.NewLoader()
		l.Overlay = func(path string) ([]byte, bool) {
			if path == d.File {
				return []byte(next), true
			}
			return nil, false
		}
		after := rules.Check(l.Load(cfg, cfg), opts)
		inserted := strings.Count(e.Text, "\n")
		covered := d.Line + inserted
		var want, got []string
		for _, o := range diags {
			if o.File == d.File && o.Line == d.Line && o.Code == d.Code || regroups[o.Code] && o.Code == d.Code {
				continue // hidden, or regrouped
			}
			line := o.Line
			if o.File == d.File && line >= e.At.Line {
				line += inserted
			}
			want = append(want, diagKey(o, line))
		}
		for _, o := range after {
			if o.File == d.File && o.Line == covered && o.Code == d.Code {
				t.Errorf("%s: %s suppressed by %q at %d, and still reported: %s", name, key, e.Text, e.Offset, diagKey(o, o.Line))
			}
			if !regroups[o.Code] || o.Code != d.Code {
				got = append(got, diagKey(o, o.Line))
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s suppressed by %q at %d:\n%s\nchecked again:\n  %s\nwant:\n  %s", name, key, e.Text, e.Offset, next, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			continue
		}
		line, _, _ := strings.Cut(next[strings.LastIndex(next[:e.Offset], "\n")+1:], "\n")
		kind := suppressKind(p, d.File, line)
		if strings.HasPrefix(e.Text, ", ") {
			kind += " add"
		}
		kinds[kind]++
	}
	return kinds
}

// regroups are the rules that group sites into one diagnostic and report
// a suppressed site's neighbours on their own (Pass.suppressedAt): hiding
// one site changes how the others of the rule are grouped.
var regroups = map[string]bool{"FW402": true}

func diagKey(d *rules.Diagnostic, line int) string {
	return fmt.Sprintf("%s %s:%d:%d %s", d.Code, d.File, line, d.Column, d.Message)
}

// suppressKind names the kind of file path is in p, and for a .vue file
// the block the comment went in (by line, the comment's line).
func suppressKind(p *project.Project, path, line string) string {
	switch {
	case path == p.ConfigPath:
		return "config"
	case p.TSConfig != nil && path == p.TSConfig.Path:
		return "tsconfig"
	case strings.HasPrefix(filepath.Base(path), ".env"):
		return "env"
	case strings.HasSuffix(path, ".vue") && strings.Contains(line, "<!--"):
		return "vue template"
	case strings.HasSuffix(path, ".vue"):
		return "vue script"
	}
	return "script"
}
