package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetManifestVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "package.json")
	text := "{\n  \"name\": \"x\",\n  \"version\": \"0.1.0\",\n  \"dependencies\": { \"y\": \"0.1.0\" }\n}\n"
	writeFile := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(text)
	if err := setManifestVersion(path, "1.2.3-rc.1"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := strings.Replace(text, `"version": "0.1.0"`, `"version": "1.2.3-rc.1"`, 1); string(got) != want {
		t.Errorf("set as\n%s", got)
	}
	// Two fields that could be it: refused, not guessed.
	writeFile("{\"version\": \"1\", \"a\": {\"version\": \"1\"}}")
	if err := setManifestVersion(path, "2.0.0"); err == nil {
		t.Error("an ambiguous version was set")
	}
}

// TestPackVSCode packs the extension with vsce (npm ci installs vsce and
// vscode-languageclient from the lock) and checks the .vsix: the layout
// VS Code installs (the manifest, the content types, extension/), the
// release's version, the extension's code as it is in editors/vscode, its
// runtime dependency bundled and nothing of its tests or of vsce; unpacked,
// the extension loads with its own node_modules.
func TestPackVSCode(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the extension's packages with npm and runs vsce: not under -short")
	}
	needTools(t, "node", "npm")
	root := repoRoot(t)
	out := t.TempDir()
	const ver = "1.2.3-test.4"
	vsix, err := packVSCode(options{root: root, out: out, version: ver, log: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	if vsix != filepath.Join(out, "fwmigrate-vscode-"+ver+".vsix") {
		t.Errorf("packed %s", vsix)
	}
	if left, _ := filepath.Glob(filepath.Join(out, "*")); len(left) != 1 {
		t.Errorf("--out holds %v, want the .vsix alone", left)
	}

	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	unpacked := t.TempDir()
	files := map[string][]byte{}
	for _, f := range zr.File {
		if strings.Contains(f.Name, "..") || filepath.IsAbs(f.Name) {
			t.Fatalf("entry %q", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = data
		dst := filepath.Join(unpacked, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"extension.vsixmanifest", "[Content_Types].xml", "extension/package.json", "extension/readme.md",
		"extension/LICENSE.txt", "extension/src/extension.js", "extension/src/binary.js", "extension/node_modules/vscode-languageclient/package.json"} {
		if files[name] == nil {
			t.Errorf("no %s in the .vsix", name)
		}
	}
	for name := range files {
		if strings.HasPrefix(name, "extension/test/") || strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "extension/node_modules/@vscode/") {
			t.Errorf("%s is in the .vsix", name)
		}
	}
	for _, name := range []string{"src/extension.js", "src/binary.js"} {
		want, _ := os.ReadFile(filepath.Join(root, "editors", "vscode", filepath.FromSlash(name)))
		if !bytes.Equal(files["extension/"+name], want) {
			t.Errorf("extension/%s is not editors/vscode/%s", name, name)
		}
	}
	var pj struct{ Name, Publisher, Version, Main string }
	if err := json.Unmarshal(files["extension/package.json"], &pj); err != nil || pj.Name != "fwmigrate" || pj.Publisher != "fwmigrate" || pj.Version != ver || pj.Main != "./src/extension.js" {
		t.Errorf("extension/package.json: %+v, %v", pj, err)
	}
	if m := string(files["extension.vsixmanifest"]); !strings.Contains(m, `Id="fwmigrate" Version="`+ver+`" Publisher="fwmigrate"`) {
		t.Errorf("extension.vsixmanifest:\n%s", m)
	}

	// The packed extension loads (the `vscode` module stubbed as in its
	// test) and takes vscode-languageclient from its own node_modules.
	ext := filepath.Join(unpacked, "extension")
	script := `
const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? process.env.STUB : resolve.call(this, request, ...rest);
};
const ext = require(process.env.EXT + '/src/extension.js');
const lc = require.resolve('vscode-languageclient/node', { paths: [process.env.EXT + '/src'] });
if (typeof ext.activate !== 'function' || typeof ext.deactivate !== 'function') throw new Error('no activate/deactivate');
if (!lc.startsWith(process.env.EXT + '/node_modules/')) throw new Error('vscode-languageclient from ' + lc);
console.log('loaded');
`
	env := []string{"EXT=" + ext, "STUB=" + filepath.Join(root, "editors", "vscode", "test", "vscode-stub.js"), "NODE_PATH=" + filepath.Join(ext, "node_modules")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NODE_PATH=") {
			env = append(env, kv)
		}
	}
	stdout, stderr, code := run(t, t.TempDir(), env, "node", "-e", script)
	if code != 0 || strings.TrimSpace(stdout) != "loaded" {
		t.Errorf("the packed extension does not load: exit %d\n%s%s", code, stdout, stderr)
	}
}
