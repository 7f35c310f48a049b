package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/version"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// TestOptionsJSONGolden checks the CLI's JSON against the knowledge base's
// golden file (refreshed by go test ./compat -run TestOptionsGolden -update).
func TestOptionsJSONGolden(t *testing.T) {
	out, stderr, code := runCLI(t, "options", "--format=json")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want, err := os.ReadFile("../../compat/testdata/options.json")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("options --format=json differs from compat/testdata/options.json\n%s", golden.Diff("options.json", want, []byte(out)))
	}
}

func TestOptionsBaseURL(t *testing.T) {
	out, _, code := runCLI(t, "options", "app.baseURL")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"app.baseURL", "default (A)  \"/\"", "default (B)  \"/\"", "Relative values such as `./`", "FW_APP_BASE_URL=./"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "app.buildAssetsDir") {
		t.Errorf("output shows more than the option:\n%s", out)
	}
}

func TestOptionsSelect(t *testing.T) {
	for _, c := range []struct {
		args       []string
		code       int
		has, lacks []string
	}{
		{[]string{"options", "dir"}, exitOK, []string{"dir.static", "dir.pages", "DEFAULT (A)", "DEFAULT (B)", "\"app/pages\"", "\"pages\"", "removed in the next major"}, []string{"app.baseURL"}},
		{[]string{"options", "dir", "--layout=A"}, exitOK, []string{"dir.pages", "DEFAULT (A)"}, []string{"dir.static", "DEFAULT (B)"}},
		{[]string{"options", "dir", "--layout=b"}, exitOK, []string{"dir.static", "DEFAULT (B)"}, []string{"DEFAULT (A)"}},
		{[]string{"options", "experimental.compileTemplate"}, exitOK, []string{"removed in the next major", "default (B)  true", "default (A)  -"}, nil},
		{[]string{"options", "experimental.externalUi"}, exitOK, []string{"experimental.externalVue", "aliases      experimental.externalUi"}, nil},
		{[]string{"options", "app.rootId"}, exitOK, []string{"deprecated -> app.rootAttrs.id"}, nil},
		{[]string{"options", "typescript.nodeTsConfig", "--layout=B"}, exitError, nil, nil},
		{[]string{"options", "app.baseUrl"}, exitError, nil, nil},
		{[]string{"options", "--layout=C"}, exitError, nil, nil},
		{[]string{"options", "--format=xml"}, exitError, nil, nil},
		{[]string{"options", "a", "b"}, exitError, nil, nil},
	} {
		out, stderr, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, stderr)
			continue
		}
		for _, s := range c.has {
			if !strings.Contains(out, s) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, s, out)
			}
		}
		for _, s := range c.lacks {
			if strings.Contains(out, s) {
				t.Errorf("%v: output has %q", c.args, s)
			}
		}
		if c.code == exitError && !strings.Contains(stderr, "fwmigrate: ") {
			t.Errorf("%v: stderr %q", c.args, stderr)
		}
	}
	_, stderr, _ := runCLI(t, "options", "app.baseUrl")
	if !strings.Contains(stderr, "did you mean app.baseURL?") {
		t.Errorf("no suggestion: %q", stderr)
	}
}

func TestOptionsJSONPrefix(t *testing.T) {
	out, _, code := runCLI(t, "options", "--format=json", "--layout=A", "experimental.externalVue")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0]["path"] != "experimental.externalVue" || got[0]["defaultA"] != true {
		t.Errorf("got %v", got)
	}
	for _, k := range []string{"path", "type", "defaultA", "defaultB", "layouts", "status", "replacement", "doc"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("no field %s", k)
		}
	}
}

func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "version")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"fwmigrate " + version.String() + "\n", "  3: 3 (default), 4\n", "  4: 4 (default), 5 (preview)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCLI(t, "version", "extra"); code != exitError {
		t.Errorf("version extra: exit %d", code)
	}
}
