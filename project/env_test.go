package project_test

import (
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestEnvGitIgnored: each .env file knows whether it is in a git
// repository and whether the repository's .gitignore files, from its top
// down, exclude it.
func TestEnvGitIgnored(t *testing.T) {
	dir := writeArchive(t, `
-- repo/.git/HEAD --
ref: refs/heads/main
-- repo/.gitignore --
.env
.env.*
!.env.example
-- repo/apps/web/.gitignore --
!.env.production
-- repo/apps/web/fw.config.ts --
export default defineFwConfig({})
-- repo/apps/web/.env --
A=1
-- repo/apps/web/.env.local --
A=1
-- repo/apps/web/.env.example --
A=
-- repo/apps/web/.env.production --
A=1
-- plain/fw.config.ts --
export default defineFwConfig({})
-- plain/.env --
A=1
`)
	for _, c := range []struct {
		config string
		want   map[string][2]bool // name -> InRepo, GitIgnored
	}{
		{"repo/apps/web/fw.config.ts", map[string][2]bool{
			".env": {true, true}, ".env.local": {true, true}, ".env.example": {true, false}, ".env.production": {true, false},
		}},
		{"plain/fw.config.ts", map[string][2]bool{".env": {false, false}}},
	} {
		p := project.LoadProject(filepath.Join(dir, filepath.FromSlash(c.config)), c.config)
		if len(p.Env) != len(c.want) {
			t.Errorf("%s: %d .env files, want %d", c.config, len(p.Env), len(c.want))
		}
		for _, ef := range p.Env {
			if got := [2]bool{ef.InRepo, ef.GitIgnored}; got != c.want[ef.Name] {
				t.Errorf("%s: %s: InRepo, GitIgnored = %v, want %v", c.config, ef.Name, got, c.want[ef.Name])
			}
		}
	}
}
