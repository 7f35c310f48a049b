package sarif_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fwmigrate/fwmigrate/cmd/fwmigrate/internal/sarif"
	"github.com/fwmigrate/fwmigrate/internal/schematest"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// TestSchema validates the SARIF document against the SARIF 2.1.0 JSON
// schema (testdata/sarif/sarif-schema-2.1.0.json, from the OASIS
// specification as published in @microsoft/jest-sarif, MIT): every rule in
// the driver, and the results of checking the projects of the command's
// TestSARIF (one fine, one with findings, one that cannot be parsed, one in
// a folder with a space), checked as the command checks them, paths
// relative to the working directory.
func TestSchema(t *testing.T) {
	schema := schematest.Compile(t, "../../../../testdata/sarif/sarif-schema-2.1.0.json")

	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testtree.Map(t, dir, map[string]string{
		"ok/fw.config.ts":        "export default defineFwConfig({ ssr: true })\n",
		"bad/fw.config.ts":       "export default defineFwConfig({\n  dir: { static: 'static' }, // ü\n  generate: { routes: ['/a'] },\n})\n",
		"bad/.env":               "FW_NOTHING=1\n",
		"broken/fw.config.ts":    "export default defineFwConfig({ ssr: , })\n",
		"space dir/fw.config.js": "module.exports = { generate: { routes: [] } }\n",
	})
	t.Chdir(dir)
	w := workspace.New(settings.Flags{})
	var diags []*rules.Diagnostic
	for _, config := range []string{"ok/fw.config.ts", "bad/fw.config.ts", "broken/fw.config.ts", "space dir/fw.config.js"} {
		p := w.Loader().Load(filepath.Join(dir, config), config)
		diags = append(diags, w.Check(p).Diags...)
	}

	doc := sarif.Document("0.0.0-test", dir)
	codes := map[string]bool{}
	for _, d := range diags {
		doc.Runs[0].Results = append(doc.Runs[0].Results, doc.Result(d))
		codes[d.Code] = true
	}
	for _, want := range []string{"FW107", "FW201", "FW901"} {
		if !codes[want] {
			t.Errorf("no %s finding to validate: %v", want, codes)
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(out)))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("the SARIF document does not validate: %v", err)
	}
	results, _ := json.MarshalIndent(doc.Runs[0].Results, "", "  ")
	if !strings.Contains(string(out), `"uri":"space%20dir/fw.config.js"`) {
		t.Errorf("the URI of space dir/fw.config.js is not relative and escaped:\n%s", results)
	}
}
