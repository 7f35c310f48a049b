package schematest_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fwmigrate/fwmigrate/internal/schematest"
)

// TestSARIFGolden validates the SARIF document fwmigrate writes for
// cmd/fwmigrate's TestSARIFGolden fixture (that test compares its output
// with the golden, each rule's documentation replaced by a placeholder
// string) against the SARIF 2.1.0 JSON schema
// (testdata/sarif/sarif-schema-2.1.0.json, from the OASIS specification
// as published in @microsoft/jest-sarif, MIT). The validation is here, in a
// test binary that depends on neither rules/ nor ast/, so that the command's
// test binary does not link the schema library.
func TestSARIFGolden(t *testing.T) {
	schema := schematest.Compile(t, "../../testdata/sarif/sarif-schema-2.1.0.json")
	out, err := os.ReadFile("../../testdata/sarif/check.golden.sarif")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("the golden is not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("the golden SARIF document does not validate: %v", err)
	}
}

// TestSARIFSchemaRejects: the schema, as compiled, rejects documents that
// break it, so that TestSARIFGolden's pass says something.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := schematest.Compile(t, "../../testdata/sarif/sarif-schema-2.1.0.json")
	for _, doc := range []string{
		`{"version": "2.1.0"}`, // no runs
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`, // driver without name
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "FW1"}]}]}`,       // result without message
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "columnKind": "bytes"}]}`,                // not a column kind
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [{"id": "a", "helpUri": 5}]}}}]}`, // helpUri not a string
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(inst) == nil {
			t.Errorf("%s validates", doc)
		}
	}
	ok := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}}]}]}`
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(ok)))
	if err := schema.Validate(inst); err != nil {
		t.Errorf("%s does not validate: %v", ok, err)
	}
}
