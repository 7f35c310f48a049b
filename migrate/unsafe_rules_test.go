package migrate_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestUnsafeRules: Unsafe makes every unsafe fix but no held one (FW501's
// move of a key browser code reads); UnsafeRules naming FW501 makes its
// unsafe fixes and its held one; naming another rule makes neither, and
// they are counted as left for --unsafe.
func TestUnsafeRules(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fw.config.ts")
	const src = "export default defineFwConfig({\n  runtimeConfig: {\n    public: {\n      stripeSecretKey: '',\n      mailPassword: '',\n    },\n  },\n})\n"
	os.WriteFile(path, []byte(src), 0o644)
	os.MkdirAll(filepath.Join(dir, "app", "pages"), 0o755)
	os.WriteFile(filepath.Join(dir, "app", "pages", "pay.vue"), []byte("<script setup lang=\"ts\">\nconst config = useRuntimeConfig()\nuse(config.public.stripeSecretKey)\n</script>\n"), 0o644)
	for _, c := range []struct {
		name       string
		o          migrate.Options
		moved      []string // keys moved out of public
		leftUnsafe int
	}{
		{"none", migrate.Options{}, nil, 1},
		{"bare --unsafe", migrate.Options{Unsafe: true}, []string{"mailPassword"}, 0},
		{"--unsafe=FW501", migrate.Options{UnsafeRules: []string{"FW501"}}, []string{"mailPassword", "stripeSecretKey"}, 0},
		{"--unsafe --unsafe=FW501", migrate.Options{Unsafe: true, UnsafeRules: []string{"FW501"}}, []string{"mailPassword", "stripeSecretKey"}, 0},
		{"--unsafe=FW203", migrate.Options{UnsafeRules: []string{"FW203"}}, nil, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := project.LoadProject(path, "fw.config.ts")
			if p.File == nil {
				t.Fatal(p.Err)
			}
			c.o.Rules = rules.Options{Target: 4, Select: []string{"FW501"}}
			r := migrate.ApplyConfig(p, c.o, rules.Check)
			if r.Fatal {
				t.Fatalf("fatal: %+v", r.Remaining)
			}
			if r.Unsafe != c.leftUnsafe {
				t.Errorf("%d unsafe fixes left, want %d", r.Unsafe, c.leftUnsafe)
			}
			public := string(r.Old)
			if r.New != nil {
				public = string(r.New)
			}
			if i := strings.Index(public, "public: {"); i >= 0 {
				public = public[i:]
				public = public[:strings.Index(public, "}")]
			} else {
				public = ""
			}
			for _, k := range []string{"mailPassword", "stripeSecretKey"} {
				moved := slices.Contains(c.moved, k)
				if moved == strings.Contains(public, k) {
					t.Errorf("%s moved: %v, want %v\n%s", k, !moved, moved, r.New)
				}
			}
		})
	}
}
