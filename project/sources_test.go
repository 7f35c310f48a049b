package project_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

func sourceList(t *testing.T, p *project.Project) string {
	t.Helper()
	var b strings.Builder
	for _, s := range p.Sources() {
		layer := ""
		if s.Layer != nil {
			layer = " layer=" + filepath.Base(s.Layer.Root)
		}
		b.WriteString(s.Role.String() + " " + s.Rel + " " + s.Lang() + layer + "\n")
	}
	return b.String()
}

func TestSources(t *testing.T) {
	for _, tc := range []struct {
		name, tree, cfg, want string
	}{
		{
			name: "layout B",
			cfg:  "app/fw.config.ts",
			tree: `
-- app/fw.config.ts --
export default defineFwConfig({ extends: ['../base'] })
-- app/package.json --
{"dependencies": {"fw": "^3.12.0"}}
-- app/.gitignore --
generated/
-- app/app.vue --
-- app/error.vue --
-- app/app.config.ts --
-- app/pages/index.vue --
-- app/pages/[slug].vue --
-- app/components/Card.vue --
-- app/components/deep/Item.tsx --
-- app/components/types.d.ts --
-- app/components/generated/x.ts --
-- app/components/.hidden/y.ts --
-- app/composables/usePosts.ts --
-- app/utils/format.mjs --
-- app/plugins/a.client.js --
-- app/middleware/auth/index.ts --
-- app/layouts/default.vue --
-- app/modules/hook.ts --
-- app/server/api/x.get.ts --
-- app/node_modules/lib/index.js --
-- app/dist/out.js --
-- app/scripts/build.ts --
-- app/tests/a.spec.ts --
-- app/README.md --
-- base/fw.config.ts --
export default defineFwConfig({})
-- base/components/Base.vue --
-- base/composables/useBase.ts --
`,
			want: `app app.config.ts ts
app app.vue vue
app components/Card.vue vue
app components/deep/Item.tsx tsx
app composables/usePosts.ts ts
app error.vue vue
app layouts/default.vue vue
app middleware/auth/index.ts ts
module modules/hook.ts ts
app pages/[slug].vue vue
app pages/index.vue vue
app plugins/a.client.js js
server server/api/x.get.ts ts
app utils/format.mjs js
app components/Base.vue vue layer=base
app composables/useBase.ts ts layer=base
`,
		},
		{
			name: "layout A",
			cfg:  "fw.config.ts",
			tree: `
-- fw.config.ts --
export default defineFwConfig({})
-- package.json --
{"dependencies": {"fw": "^4.0.0"}}
-- app/app.vue --
-- app/stores/cart.ts --
-- app/public/sw.js --
-- public/sw.js --
-- server/routes/a.ts --
-- shared/utils/b.ts --
-- modules/m/index.ts --
`,
			want: `app app/app.vue vue
app app/public/sw.js js
app app/stores/cart.ts ts
module modules/m/index.ts ts
server server/routes/a.ts ts
shared shared/utils/b.ts ts
`,
		},
		{
			name: "custom srcDir on version 3",
			cfg:  "fw.config.ts",
			tree: `
-- fw.config.ts --
export default defineFwConfig({ srcDir: 'src/' })
-- package.json --
{"dependencies": {"fw": "^3.12.0"}}
-- src/app.vue --
-- src/server/api/a.ts --
-- src/lib/x.ts --
`,
			want: `app src/app.vue vue
app src/lib/x.ts ts
server src/server/api/a.ts ts
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeArchive(t, tc.tree)
			cfg := filepath.Join(dir, filepath.FromSlash(tc.cfg))
			p := project.LoadProject(cfg, tc.cfg)
			if got := sourceList(t, p); got != tc.want {
				t.Errorf("sources:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestSourcesSymlinks: a symlinked directory is not walked (it may lead out
// of the project or in circles); a symlinked file is a source.
func TestSourcesSymlinks(t *testing.T) {
	dir := writeArchive(t, `
-- p/fw.config.ts --
export default defineFwConfig({})
-- p/components/A.vue --
-- outside/B.vue --
-- outside/c.ts --
`)
	p := filepath.Join(dir, "p")
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(p, "components", "linked")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside", "c.ts"), filepath.Join(p, "components", "c.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(p, filepath.Join(p, "components", "loop")); err != nil {
		t.Fatal(err)
	}
	got := sourceList(t, project.LoadProject(filepath.Join(p, "fw.config.ts"), "fw.config.ts"))
	if want := "app components/A.vue vue\napp components/c.ts ts\n"; got != want {
		t.Errorf("sources:\n%s\nwant:\n%s", got, want)
	}
}
