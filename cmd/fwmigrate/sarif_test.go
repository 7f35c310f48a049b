package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// sarifGolden is the SARIF document TestSARIFGolden's fixture gives,
// byte for byte. internal/schematest's TestSARIFGolden validates it against
// the SARIF 2.1.0 JSON schema (testdata/sarif/sarif-schema-2.1.0.json, from
// the OASIS specification as published in @microsoft/jest-sarif, MIT): the
// two tests together say that what fwmigrate writes is valid SARIF. The
// validation lives there so that this test binary, which every testscript
// line runs as fwmigrate, does not link the schema library (its package
// init compiles meta-schemas, a third of a `fwmigrate version` run), and so
// that an edit in rules/ does not rebuild it. The rules' documentation is
// left out (sarifShape). After a change to the output, or a new rule:
//
//	go test ./cmd/fwmigrate -run TestSARIFGolden -update
//	go test ./internal/schematest
const sarifGolden = "../../testdata/sarif/check.golden.sarif"

// sarifGoldenVersion stands for fwmigrate's version in the golden, which
// would otherwise change with every release.
const sarifGoldenVersion = "0.0.0-golden"

// sarifGoldenRoot stands for the fixture's (temporary) folder in the
// golden: the SRCROOT base the results' URIs are relative to.
const sarifGoldenRoot = "file:///fixture/"

// TestSARIFGolden compares fwmigrate's SARIF output on a fixed fixture with
// the golden, which internal/schematest validates against SARIF's schema,
// and checks what the document says: the results' rules and their URIs,
// relative to SRCROOT and escaped.
func TestSARIFGolden(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"ok/fw.config.ts":        "export default defineFwConfig({ ssr: true })\n",
		"bad/fw.config.ts":       "export default defineFwConfig({\n  dir: { static: 'static' }, // ü\n  generate: { routes: ['/a'] },\n})\n",
		"bad/.env":               "FW_NOTHING=1\n",
		"broken/fw.config.ts":    "export default defineFwConfig({ ssr: , })\n",
		"space dir/fw.config.js": "module.exports = { generate: { routes: [] } }\n",
	})

	defer func(v string) { buildVersion = v }(buildVersion)
	buildVersion = sarifGoldenVersion
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
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	base := fileURI(root) + "/"
	if !bytes.Contains(out.Bytes(), []byte(`"uri": "`+base+`"`)) {
		t.Fatalf("SRCROOT is not %s:\n%s", base, out.String())
	}
	got := bytes.ReplaceAll(out.Bytes(), []byte(`"uri": "`+base+`"`), []byte(`"uri": "`+sarifGoldenRoot+`"`))
	golden.Check(t, sarifGolden, sarifShape(t, got))

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

// sarifDocText stands in the golden for each rule's documentation (its
// fullDescription and help, text and markdown): strings whatever they say,
// so the schema's verdict does not depend on them, and a rule's edited
// documentation leaves the golden as it is (a new rule changes it).
const sarifDocText = "(the rule's documentation)"

// sarifShape is doc, a SARIF document, with every rule's documentation
// replaced by sarifDocText, indented as fwmigrate indents it.
func sarifShape(t *testing.T, doc []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	runs, _ := v["runs"].([]any)
	for _, r := range runs {
		driver, _ := r.(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)
		rules, _ := driver["rules"].([]any)
		for _, rule := range rules {
			for _, field := range []string{"fullDescription", "help"} {
				m, _ := rule.(map[string]any)[field].(map[string]any)
				for _, k := range []string{"text", "markdown"} {
					if _, ok := m[k]; ok {
						m[k] = sarifDocText
					}
				}
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
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

// TestSARIFHelpURI: every rule's helpUri names its generated page, which
// exists in the repository at that path.
func TestSARIFHelpURI(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fw.config.ts"), []byte("export default defineFwConfig({})\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	run([]string{"check", "--format=sarif", dir}, &out, &errOut)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) == 0 {
		t.Fatal("no rules in the SARIF driver")
	}
	for _, r := range rules {
		rel, ok := strings.CutPrefix(r.HelpURI, "https://github.com/fwmigrate/fwmigrate/blob/main/")
		if !ok || rel != "docs/rules/"+r.ID+".md" {
			t.Errorf("%s: helpUri %q is not its page", r.ID, r.HelpURI)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s: %v", r.ID, err)
		}
	}
}
