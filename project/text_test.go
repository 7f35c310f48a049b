package project_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/project"
)

// TestReadText: files of the project and of its local layers are read;
// a path that leads outside them (by .. or by a symlink) is refused.
func TestReadText(t *testing.T) {
	dir := writeArchive(t, `
-- p/fw.config.ts --
export default defineFwConfig({ extends: ['../base'] })
-- p/app/spa-loading-template.html --
<div class="loader"></div>
-- base/fw.config.ts --
export default defineFwConfig({})
-- base/assets/theme.css --
#__fw .loader {}
-- secret.txt --
s3cret
`)
	p := project.LoadProject(filepath.Join(dir, "p", "fw.config.ts"), "p/fw.config.ts")
	f, err := p.ReadText("app/spa-loading-template.html")
	if err != nil || string(f.Src) != "<div class=\"loader\"></div>\n" || f.Display != filepath.Join("p", "app", "spa-loading-template.html") {
		t.Fatalf("ReadText in the project: %+v, %v", f, err)
	}
	if _, err := p.ReadText(filepath.Join(dir, "base", "assets", "theme.css")); err != nil {
		t.Errorf("ReadText in a local layer: %v", err)
	}
	if _, err := p.ReadText("../secret.txt"); err == nil {
		t.Errorf("ReadText read a file outside the project")
	}
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "p", "link.txt")); err != nil {
		t.Skip(err)
	}
	if _, err := p.ReadText("link.txt"); err == nil {
		t.Errorf("ReadText followed a symlink out of the project")
	}
	if _, err := p.ReadText("missing.html"); err == nil {
		t.Errorf("ReadText of a missing file: no error")
	}
}

func TestTestSources(t *testing.T) {
	dir := writeArchive(t, `
-- fw.config.ts --
export default defineFwConfig({})
-- tests/unit/button.spec.ts --
-- test/e2e.test.js --
-- __tests__/a.test.tsx --
-- tests/fixtures/node_modules/x.js --
-- tests/README.md --
-- components/Button.vue --
`)
	p := project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
	var got []string
	for _, s := range p.TestSources() {
		got = append(got, s.Role.String()+" "+s.Rel)
	}
	want := []string{"test __tests__/a.test.tsx", "test test/e2e.test.js", "test tests/unit/button.spec.ts"}
	if len(got) != len(want) {
		t.Fatalf("TestSources = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("TestSources = %q, want %q", got, want)
		}
	}
}
