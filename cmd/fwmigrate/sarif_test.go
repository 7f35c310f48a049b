package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSARIFSchema validates fwmigrate's SARIF output against the SARIF
// 2.1.0 JSON schema (testdata/sarif/sarif-schema-2.1.0.json, from the
// OASIS specification as published in @microsoft/jest-sarif, MIT).
func TestSARIFSchema(t *testing.T) {
	schemaFile, err := filepath.Abs("../../testdata/sarif/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaFile, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok/fw.config.ts", "export default defineFwConfig({ ssr: true })\n")
	write("bad/fw.config.ts", "export default defineFwConfig({\n  dir: { static: 'static' }, // ü\n  generate: { routes: ['/a'] },\n})\n")
	write("bad/.env", "FW_NOTHING=1\n")
	write("broken/fw.config.ts", "export default defineFwConfig({ ssr: , })\n")
	write("space dir/fw.config.js", "module.exports = { generate: { routes: [] } }\n")

	var out, errOut bytes.Buffer
	cwd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	code := run([]string{"check", "--format=sarif", "."}, &out, &errOut)
	os.Chdir(cwd)
	if code != exitError { // broken/ has a syntax error
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitError, errOut.String())
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate: %v\n%s", err, out.String())
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	rulesSeen := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		rulesSeen[r.RuleID] = true
		uris[r.Locations[0].PhysicalLocation.ArtifactLocation.URI] = true
	}
	for _, want := range []string{"FW107", "FW201", "FW901"} {
		if !rulesSeen[want] {
			t.Errorf("no %s result in:\n%s", want, out.String())
		}
	}
	if !uris["space%20dir/fw.config.js"] || !uris["bad/fw.config.ts"] {
		t.Errorf("URIs are not relative and escaped: %v", uris)
	}
}

// TestUnreadableEnvIsAnError: an .env file that cannot be read (here a
// FIFO, which the reader refuses without blocking) is an FW904 error that
// names the file once, as an unreadable config is: the framework cannot
// load it either. The config is still checked; the exit status is 2.
func TestUnreadableEnvIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fw.config.ts"), []byte("export default defineFwConfig({ ssr: true })\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".env"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	out, _, code := runIn(t, dir, []string{"check", "--format=concise", "--select=FW904,FW201", "."})
	if code != exitError {
		t.Errorf("exit status %d for an unreadable .env, want 2\n%s", code, out)
	}
	if !strings.Contains(out, "error FW904 [unreadable-file] .env: ") {
		t.Errorf("no FW904 error for .env:\n%s", out)
	}
	if strings.Count(out, dir) > 0 {
		t.Errorf("the message repeats the absolute path:\n%s", out)
	}
}
