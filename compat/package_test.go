package compat

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestPackageMajorErrors: a package.json that cannot be used says why, at
// its line and column when it is not JSON; one that is missing or does not
// pin a major is no error.
func TestPackageMajorErrors(t *testing.T) {
	for _, c := range []struct {
		name, pkg string
		line, col int
		msg       string
	}{
		{"trailing comma", "{\n  \"dependencies\": {\n    \"fw\": \"^3.1\",\n  }\n}\n", 4, 3, "invalid JSON: invalid character '}' looking for beginning of object key string"},
		{"cut short", "{ \"dependencies\": ", 1, 18, "invalid JSON: unexpected end of JSON input"},
		{"wrong type", "{ \"dependencies\": [\"fw\"] }", 1, 19, "dependencies is array, not an object"},
		{"fine", "{ \"dependencies\": { \"fw\": \"^4.0.0\" } }", 0, 0, ""},
		{"no pin", "{ \"dependencies\": { \"fw\": \"latest\" } }", 0, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(c.pkg), 0o644)
			_, err := PackageMajor(dir)
			if c.msg == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			var pe *PackageError
			if !errors.As(err, &pe) || pe.Msg != c.msg || pe.Line != c.line || pe.Column != c.col {
				t.Fatalf("got %#v, want %d:%d %s", err, c.line, c.col, c.msg)
			}
		})
	}
	dir := t.TempDir()
	if _, err := PackageMajor(dir); err != nil {
		t.Errorf("no package.json: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "package.json")
	os.WriteFile(outside, []byte(`{ "dependencies": { "fw": "^4.0.0" } }`), 0o644)
	os.Symlink(outside, filepath.Join(dir, "package.json"))
	if major, err := PackageMajor(dir); major != 0 || err == nil {
		t.Errorf("a package.json linked from outside the project was read: %d, %v", major, err)
	}
}
