// Package schematest compiles JSON schemas for tests: the SARIF output is
// validated against SARIF's schema, settings files against fwmigrate's.
package schematest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles the JSON schema in file, failing the test when it
// cannot.
func Compile(t testing.TB, file string) *jsonschema.Schema {
	t.Helper()
	file, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}
