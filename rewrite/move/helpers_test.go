package move_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/txn"
)

func TestRewriteIgnorePattern(t *testing.T) {
	moved := map[string]bool{"components": true, "pages": true, "app.vue": true, "stores": true}
	tests := []struct {
		in, want string
	}{
		{"components/X.vue", "app/components/X.vue"},
		{"components", "app/components"},
		{"components/", "app/components/"},
		{"/pages/admin/**", "/app/pages/admin/**"},
		{"./pages/*.vue", "./app/pages/*.vue"},
		{"!components/Keep.vue", "!app/components/Keep.vue"},
		{"app.vue", "app/app.vue"},
		{"stores/**/*.spec.ts", "app/stores/**/*.spec.ts"},
		{"*.log", "*.log"},
		{"**/components/tmp", "**/components/tmp"},
		{"server/tmp", "server/tmp"},
		{"componentsx/a", "componentsx/a"},
		{"comp*/a", "comp*/a"}, // a glob in the first segment: left (the plan notes it)
		{"", ""},
		{"!", "!"},
	}
	for _, tt := range tests {
		got, changed := move.RewriteIgnorePattern(tt.in, moved)
		if got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("RewriteIgnorePattern(%q) = %q, %v; want %q", tt.in, got, changed, tt.want)
		}
	}
}

func TestPlanRewriteIgnoreNotes(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "src/pages/index.vue")
	mkfile(t, dir, "src/server/api/x.ts")
	p, err := move.PlanMove(move.Input{Root: dir, SrcDir: filepath.Join(dir, "src"), Target: filepath.Join(dir, "app")})
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	checkRewrites(t, "RewriteIgnore", p.RewriteIgnore, []rewriteCase{
		{"src/pages/old/**", "app/pages/old/**", ""},
		{"src/server/tmp", "server/tmp", ""},
		{"src/**/*.draft.vue", "src/**/*.draft.vue", "covers moved"},
		{"s*/pages", "s*/pages", "may match moved"},
	})
	// A tool config's globs, on the same tree: with a custom srcDir the
	// moved entries are inside it.
	checkRewrites(t, "rewriteGlob", p.RewriteGlob, []rewriteCase{
		{"src/pages/**/*.vue", "app/pages/**/*.vue", ""},
		{"./src/server/**", "./server/**", ""},
		{"src/**/*.vue", "src/**/*.vue", "covers moved and staying"},
		{"s*/pages/*.vue", "s*/pages/*.vue", "matches moved src/pages"},
		{"{src/pages,tests}/**", "{app/pages,tests}/**", ""},
	})
}

func TestRewriteAliasValue(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"components/A.vue", "stores/x.ts", "server/api/x.ts", "app/router.options.ts", "modules/m.ts", "public/a.png", "app.config.ts"} {
		mkfile(t, dir, f)
	}
	mkfile(t, dir, "pages/index.vue")
	mkfile(t, dir, "app.vue")
	mkfile(t, dir, "x.ts")
	must(t, os.WriteFile(filepath.Join(dir, "x.ts"), []byte("import '~/stores/x'\n"), 0o644))
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	tests := []struct {
		in   string
		base move.Base
		want string
	}{
		{"~/server/utils", move.FromRoot, "~~/server/utils"},
		{"@/server", move.FromRoot, "@@/server"},
		{"~/components", move.FromRoot, "~/components"},
		{"~/stores", move.FromRoot, "~/stores"},
		{"~/app/router.options", move.FromRoot, "~/router.options"},
		{"~/public/a.png", move.FromRoot, "~~/public/a.png"},
		{"~~/modules/m", move.FromRoot, "~~/modules/m"},
		{"~~/components", move.FromRoot, "~~/app/components"},
		{"./components", move.FromRoot, "./app/components"},
		{"./modules/m", move.FromRoot, "./modules/m"},
		{"./app.config", move.FromRoot, "./app/app.config"},
		{"./app/router.options", move.FromSrc, "./router.options"},
		{"./stores", move.FromSrc, "./stores"},
		{"stores", move.FromSrc, "stores"},
		{"server/utils", move.FromSrc, "../server/utils"},
		{"@fw/ui", move.FromRoot, "@fw/ui"},
		{"some-module", move.FromRoot, "some-module"},
		{"#shared/types", move.FromRoot, "#shared/types"},
		{"assets/x.png", move.FromRoot, "assets/x.png"}, // no assets/ here: a package name
		{filepath.Join(dir, "components/A.vue"), move.FromRoot, filepath.Join(dir, "app/components/A.vue")},
		{"", move.FromRoot, ""},
	}
	for _, tt := range tests {
		got, changed := move.RewriteAliasValue(tt.in, p.Paths, tt.base)
		if got != tt.want || changed != (tt.in != tt.want) {
			t.Errorf("RewriteAliasValue(%q, %d) = %q, %v; want %q", tt.in, tt.base, got, changed, tt.want)
		}
	}
}

// TestTsconfig: the move never edits tsconfig.json (switching it to
// layout A's references is FW211's fix, offered on its own), whatever it
// extends; a server/tsconfig.json extending the generated server file is
// noted.
func TestTsconfig(t *testing.T) {
	for _, in := range []string{
		"{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		"{\n\t/* c */ \"extends\": \"./.fw/tsconfig.json\", // why\n\t\"compilerOptions\": { \"strict\": true, },\n}\n",
		"{\n  \"extends\": [\"@tsconfig/strictest\", \"./.fw/tsconfig.json\"]\n}\n",
		"{ extends: './.fw/tsconfig.json' }\n",
	} {
		dir := t.TempDir()
		mkfile(t, dir, "pages/index.vue")
		must(t, os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(in), 0o644))
		p, err := move.PlanMove(defaultInput(dir))
		if err != nil || len(p.Conflicts) > 0 {
			t.Fatal(err, p.Conflicts)
		}
		for _, e := range p.Edits {
			if filepath.Base(e.Path) == "tsconfig.json" {
				t.Errorf("the move edits %s:\n%s", e.Path, e.New)
			}
		}
		if len(p.Notes) > 0 {
			t.Errorf("notes %q, want none", p.Notes)
		}
	}
	dir := t.TempDir()
	mkfile(t, dir, "pages/index.vue")
	must(t, os.MkdirAll(filepath.Join(dir, "server"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "server/tsconfig.json"), []byte(`{ "extends": "../.fw/tsconfig.server.json" }`), 0o644))
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "server/tsconfig.json extends the generated tsconfig.server.json") {
		t.Errorf("notes %q, want the server/tsconfig.json note", notes)
	}
}

// TestRewriteSpec pins the specifier rules on one project: moved
// components/, utils/, stores/ and app.vue; staying server/, public/, lib/,
// tests/ and the root file constants.ts.
func TestRewriteSpec(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"components/A.vue", "utils/x.ts", "utils/index.ts", "stores/s.ts", "app.vue", "server/api/h.ts",
		"public/bg.png", "lib/l.ts", "tests/t.ts", "constants.ts", "assets/a.png", "assets/_vars.scss"} {
		mkfile(t, dir, f)
	}
	must(t, os.WriteFile(filepath.Join(dir, "utils/x.ts"), []byte("import '~/stores/s'\n"), 0o644))
	p, err := move.PlanMove(defaultInput(dir))
	if err != nil || len(p.Conflicts) > 0 {
		t.Fatal(err, p.Conflicts)
	}
	m := p.Paths
	comp, server := filepath.Join(dir, "components"), filepath.Join(dir, "server/api")
	newComp := filepath.Join(dir, "app/components")
	tests := []struct {
		spec, from, to      string
		style, prefix, frgn bool
		want, note          string
	}{
		{spec: "../utils/x", from: comp, to: newComp, want: "../utils/x"},
		{spec: "../utils", from: comp, to: newComp, want: "../utils"},
		{spec: "../lib/l", from: comp, to: newComp, want: "../../lib/l"},
		{spec: "../server/api/h.ts?raw", from: comp, to: newComp, want: "../../server/api/h.ts?raw"},
		{spec: "./A.vue", from: comp, to: newComp, want: "./A.vue"},
		{spec: "../../utils/x", from: server, to: server, want: "../../app/utils/x"},
		{spec: "../../app.vue", from: server, to: server, want: "../../app/app.vue"},
		{spec: "../../app", from: server, to: server, want: "../../app/app"}, // app.vue: app/ does not exist yet
		{spec: "../../lib/", from: server, to: server, want: "../../lib/"},
		{spec: "~/utils/x", from: server, to: server, want: "~/utils/x"},
		{spec: "~/server/api/h", from: comp, to: newComp, want: "~~/server/api/h"},
		{spec: "@/lib/l", from: comp, to: newComp, want: "@@/lib/l"},
		{spec: "~/constants", from: comp, to: newComp, want: "~~/constants"},
		{spec: "~~/components/A.vue", from: server, to: server, want: "~~/app/components/A.vue"},
		{spec: "~~/lib/l", from: comp, to: newComp, want: "~~/lib/l"},
		{spec: "#shared/x", from: comp, to: newComp, want: "#shared/x"},
		{spec: "assets/a.png", from: comp, to: newComp, want: "~/assets/a.png"},
		{spec: "public/bg.png", from: comp, to: newComp, want: "~~/public/bg.png"},
		{spec: "public", from: comp, to: newComp, want: "public"}, // a bare name is a package
		{spec: "vue", from: comp, to: newComp, want: "vue"},
		{spec: "@vue/runtime-core", from: comp, to: newComp, want: "@vue/runtime-core"},
		{spec: "~/../outside/x", from: comp, to: newComp, want: "~/../outside/x", note: "no alias reaches"},
		{spec: "~/server/x", from: server, to: server, frgn: true, want: "~/server/x"},
		{spec: "../../utils/x", from: server, to: server, frgn: true, want: "../../app/utils/x"},
		{spec: "../server/", from: comp, to: newComp, prefix: true, want: "../../server/"},
		{spec: "~/server/", from: comp, to: newComp, prefix: true, want: "~~/server/"},
		// Style sheets: bare paths are relative when the file exists.
		{spec: "../public/bg.png#frag", from: comp, to: newComp, style: true, want: "../../public/bg.png#frag"},
		{spec: "a.png", from: filepath.Join(dir, "assets"), to: filepath.Join(dir, "app/assets"), style: true, want: "a.png"},
		{spec: "vars", from: filepath.Join(dir, "assets"), to: filepath.Join(dir, "app/assets"), style: true, want: "vars"},
		{spec: "../../assets/vars", from: server, to: server, style: true, want: "../../app/assets/vars"},
		{spec: "assets/a.png", from: server, to: server, style: true, want: "~/assets/a.png"},
		{spec: "~assets/a.png", from: comp, to: newComp, style: true, want: "~/assets/a.png"},
		{spec: "~public/bg.png", from: comp, to: newComp, style: true, want: "~~/public/bg.png"},
		{spec: "bootstrap/scss/x", from: comp, to: newComp, style: true, want: "bootstrap/scss/x"},
		{spec: "data:image/png;base64,AA", from: comp, to: newComp, style: true, want: "data:image/png;base64,AA"},
		{spec: "https://x/y.png", from: comp, to: newComp, style: true, want: "https://x/y.png"},
		{spec: "/abs.png", from: comp, to: newComp, style: true, want: "/abs.png"},
		{spec: "", from: comp, to: newComp, want: ""},
	}
	for _, tt := range tests {
		got, _, note := m.RewriteSpecifier(tt.spec, tt.from, tt.to, tt.style, tt.prefix, tt.frgn)
		if got != tt.want || !strings.Contains(note, tt.note) || tt.note == "" && note != "" {
			t.Errorf("rewrite(%q from %s) = %q (note %q); want %q (note %q)", tt.spec, tt.from, got, note, tt.want, tt.note)
		}
	}
}

// TestAliasOverride: an alias the config sets keeps its value, so imports
// through it change only when their target moves.
func TestAliasOverride(t *testing.T) {
	dir := t.TempDir()
	mkfile(t, dir, "components/A.vue")
	mkfile(t, dir, "src/x.ts")
	mkfile(t, dir, "server/h.ts")
	in := defaultInput(dir)
	in.Alias = map[string]string{"~": filepath.Join(dir, "src")}
	p, err := move.PlanMove(in)
	if err != nil {
		t.Fatal(err)
	}
	comp, newComp := filepath.Join(dir, "components"), filepath.Join(dir, "app/components")
	for spec, want := range map[string]string{"~/x": "~/x", "~/../server/h": "~/../server/h", "@/server/h": "@@/server/h"} {
		if got, _, _ := p.Paths.RewriteSpecifier(spec, comp, newComp, false, false, false); got != want {
			t.Errorf("%s: got %q, want %q", spec, got, want)
		}
	}
}

// execute carries p out as apply does, but without the journal
// (txn.Plan.Run): every step synced, and all of it undone on a failure.
func execute(p *move.Plan) error {
	tx, err := p.Txn()
	if err != nil {
		return err
	}
	return tx.Run(txn.Exec{Sync: true})
}
