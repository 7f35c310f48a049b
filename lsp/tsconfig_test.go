package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// TestTwoFileFix: FW211's finding in tsconfig.json, whose fix edits
// tsconfig.json and carries its compilerOptions into the config: the code
// action is one workspace edit over both files.
func TestTwoFileFix(t *testing.T) {
	dir := shopTree(t)
	const ts = "{\n  \"extends\": \"./.fw/tsconfig.json\",\n  \"compilerOptions\": { \"strict\": true }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(ts), 0o644); err != nil {
		t.Fatal(err)
	}
	// FW211 is for framework major 4, which generates the referenced files.
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{ "dependencies": { "fw": "^4.1.0" } }`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, lsp.Options{})
	cfg := filepath.Join(dir, "fw.config.ts")
	const text = "export default defineFwConfig({ future: { compatibilityVersion: 4 } })\n"
	cfgURI := c.open(cfg, text)
	c.waitDiags(cfgURI, version(1))
	tsURI := fileURI(filepath.Join(dir, "tsconfig.json"))
	pub := c.waitDiags(tsURI, func(p lsp.PublishDiagnosticsParams) bool { return find(p.Diagnostics, "FW211") != nil })
	d := find(pub.Diagnostics, "FW211")
	fix := titled(c.actionsAt(tsURI, d.Range), "(FW211)")
	if fix == nil || fix.Edit == nil {
		t.Fatalf("no FW211 fix at %+v", d.Range)
	}
	if len(fix.Edit.Changes) != 2 {
		t.Fatalf("the edit changes %d files, want tsconfig.json and the config: %+v", len(fix.Edit.Changes), fix.Edit.Changes)
	}
	newTS := applyEdits(ts, fix.Edit.Changes[tsURI])
	if strings.Contains(newTS, "compilerOptions") || !strings.Contains(newTS, `"references": [`) {
		t.Errorf("tsconfig.json:\n%s", newTS)
	}
	newCfg := applyEdits(text, fix.Edit.Changes[cfgURI])
	if !strings.Contains(newCfg, "typescript: { tsConfig: { compilerOptions: { strict: true } } }") {
		t.Errorf("config:\n%s", newCfg)
	}
	c.shutdown()
}
