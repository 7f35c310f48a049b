// Package marked renders Markdown to HTML with marked, the npm package,
// for tests: the Markdown fwmigrate writes (apply's and check's pull
// request summaries, the escapers of internal/text) is checked by what a
// real renderer makes of it, not by our own reading of CommonMark.
//
// marked is installed once into a cache folder (the user's cache, else the
// temporary folder) with npm. Node and npm are test oracles only: the
// tests skip with a message where they are missing, and under -short.
package marked

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Version is the marked release the tests render with.
const Version = "18.2.1"

// script reads a JSON array of Markdown documents on stdin and writes the
// JSON array of their HTML, rendered as GitHub-flavoured Markdown.
const script = `
import { marked } from 'marked';
let buf = '';
process.stdin.on('data', d => buf += d).on('end', () => {
  const docs = JSON.parse(buf);
  process.stdout.write(JSON.stringify(docs.map(d => marked.parse(d, { gfm: true, async: false }))));
});`

// Render returns the HTML marked makes of each document.
func Render(t testing.TB, docs ...string) []string {
	t.Helper()
	dir := install(t)
	in, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "--input-type=module", "-e", script)
	cmd.Dir = dir // where the bare 'marked' resolves
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node with marked: %v\n%s", err, stderr.Bytes())
	}
	var html []string
	if err := json.Unmarshal(out, &html); err != nil || len(html) != len(docs) {
		t.Fatalf("marked's output: %v (%d documents for %d)", err, len(html), len(docs))
	}
	return html
}

// install puts marked into the cache folder, once, and returns the folder
// that holds its node_modules. A fresh install goes to a folder of its own
// first and is renamed into place: tests of two packages that install at
// the same time do not see half an install.
func install(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("renders Markdown with marked from npm (node): not under -short")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the Markdown is not rendered with marked")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	base := filepath.Join(cache, "fwmigrate-oracle")
	dir := filepath.Join(base, "marked-"+Version)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "marked", "package.json")); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: cannot install marked to render the Markdown")
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Skip(err)
	}
	tmp, err := os.MkdirTemp(base, "marked-install-")
	if err != nil {
		t.Skip(err)
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(npm, "install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "marked@"+Version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install marked@%s failed, the Markdown is not rendered: %v\n%s", Version, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test installed it meanwhile.
		if _, serr := os.Stat(filepath.Join(dir, "node_modules", "marked", "package.json")); serr != nil {
			t.Fatalf("installing marked: %v", err)
		}
	}
	return dir
}
