package appgen_test

import (
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
)

// TestFiles: sizes are 1-4 KB, about half the files are .vue, and the
// output is the same on every call. (That the code reader reads every file
// and esbuild every script is ast's TestReadGeneratedApp: this test binary
// does not import ast, so an edit of ast does not relink it.)
func TestFiles(t *testing.T) {
	files := appgen.Files(200)
	if !reflect.DeepEqual(files, appgen.Files(200)) {
		t.Fatal("two calls differ")
	}
	vue := 0
	for name, src := range files {
		if len(src) < 1024 || len(src) > 4096+512 {
			t.Errorf("%s: %d bytes", name, len(src))
		}
		if path.Ext(name) == ".vue" {
			vue++
		}
	}
	if vue < 80 || vue > 120 {
		t.Errorf("%d of 200 files are .vue", vue)
	}
	n := 0
	for name, src := range files {
		if strings.HasPrefix(name, "pages/") && strings.Contains(string(src), "useFetch") {
			n++
		}
	}
	if n == 0 {
		t.Error("no page calls a data composable")
	}
}
