package lsp_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// shopConfig has a non-ASCII string before its finding on the same line
// (é: 2 bytes, one UTF-16 unit; 😀: 4 bytes, two units), so that byte and
// UTF-16 columns differ.
const shopConfig = `export default defineFwConfig({
  app: { head: { title: 'Café 😀 shop' } }, dir: { static: 'public' },
  future: { compatibilityVersion: 4 },
  logLevel: 'info',
})
`

func shopTree(t testing.TB) string {
	return writeTree(t, map[string]string{
		// The disk's config has no finding: the buffer's is what is checked.
		"fw.config.ts":        "export default defineFwConfig({ future: { compatibilityVersion: 4 } })\n",
		"package.json":        `{ "dependencies": { "fw": "^3.15.0" } }`,
		".env":                "FW_PUBLIC_APIBASE=x\n",
		"app/pages/index.vue": "<script setup lang=\"ts\">\nconst route = useRoute()\nconst title = route.meta.name\n</script>\n",
	})
}

// TestSession runs an editor's session: open an unsaved config, get its
// diagnostics with exact UTF-16 ranges, take the fix's code action, apply
// its edit to the buffer and send it as an incremental change, see the
// diagnostic cleared; hover an option key and a rule code; complete keys
// and values; shut down with no goroutine left.
func TestSession(t *testing.T) {
	before := runtime.NumGoroutine()
	dir := shopTree(t)
	c := startClient(t, lsp.Options{})
	cfg := filepath.Join(dir, "fw.config.ts")
	uri := c.open(cfg, shopConfig)

	pub := c.waitDiags(uri, version(1))
	d := find(pub.Diagnostics, "FW107")
	if d == nil {
		t.Fatalf("no FW107 in %+v", pub.Diagnostics)
	}
	at := strings.Index(shopConfig, "static:")
	want := lsp.Range{Start: utf16Pos(shopConfig, at), End: utf16Pos(shopConfig, at+len("static"))}
	if d.Range != want {
		t.Errorf("FW107 range %+v, want %+v (UTF-16)", d.Range, want)
	}
	if want.Start.Character == at-strings.LastIndex(shopConfig[:at], "\n")-1 {
		t.Fatal("the test's line has the same byte and UTF-16 columns")
	}
	if d.Severity != lsp.SeverityError || d.Source != "fwmigrate" || d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "/docs/rules/FW107.md") {
		t.Errorf("FW107: %+v", d)
	}
	// The .env file, not open, has its finding too, with its note as
	// related information.
	env := c.waitDiags(fileURI(filepath.Join(dir, ".env")), func(lsp.PublishDiagnosticsParams) bool { return true })
	if e := find(env.Diagnostics, "FW403"); e == nil || e.Severity != lsp.SeverityWarning || len(e.RelatedInformation) == 0 {
		t.Errorf(".env: %+v", env.Diagnostics)
	}

	// The fix, as a code action, applied to the buffer.
	var actions []lsp.CodeAction
	c.call("textDocument/codeAction", lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Range: d.Range, Context: lsp.CodeActionContext{Diagnostics: []lsp.Diagnostic{*d}}}, &actions)
	var fix, suppress *lsp.CodeAction
	for i, a := range actions {
		switch {
		case strings.Contains(a.Title, "(FW107)"):
			fix = &actions[i]
		case strings.HasPrefix(a.Title, "Suppress FW107"):
			suppress = &actions[i]
		}
	}
	if fix == nil || !fix.IsPreferred || fix.Edit == nil || fix.Kind != lsp.KindQuickFix {
		t.Fatalf("no preferred FW107 fix among %+v", actions)
	}
	if suppress == nil || suppress.Edit == nil {
		t.Fatalf("no suppression among %+v", actions)
	}
	edits := fix.Edit.Changes[uri]
	fixed := applyEdits(shopConfig, edits)
	if want := strings.Replace(shopConfig, "static:", "public:", 1); fixed != want {
		t.Fatalf("the fix makes\n%s\nwant\n%s", fixed, want)
	}
	var changes []lsp.TextDocumentContentChangeEvent
	for i := len(edits) - 1; i >= 0; i-- { // incremental changes apply in order: last edit first
		e := edits[i]
		changes = append(changes, lsp.TextDocumentContentChangeEvent{Range: &e.Range, Text: e.NewText})
	}
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: changes})
	pub = c.waitDiags(uri, version(2))
	if len(pub.Diagnostics) != 0 {
		t.Errorf("after the fix: %+v", pub.Diagnostics)
	}

	// The suppression comment, on the text the action was made for.
	suppressed := applyEdits(shopConfig, suppress.Edit.Changes[uri])
	if !strings.Contains(suppressed, "\n  // fwmigrate-ignore FW107\n  app: { head:") {
		t.Errorf("suppression:\n%s", suppressed)
	}
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 3}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: suppressed}}})
	pub = c.waitDiags(uri, version(3))
	if len(pub.Diagnostics) != 0 {
		t.Errorf("after the suppression: %+v", pub.Diagnostics)
	}

	// Hovers: an option key, a rule code in the comment.
	var h lsp.Hover
	c.call("textDocument/hover", lsp.TextDocumentPositionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Position: utf16Pos(suppressed, strings.Index(suppressed, "static")+2)}, &h)
	for _, w := range []string{"dir.static", "default (B)", "removed", "dir.public"} {
		if !strings.Contains(h.Contents.Value, w) {
			t.Errorf("hover on dir.static lacks %q:\n%s", w, h.Contents.Value)
		}
	}
	if h.Contents.Kind != "markdown" || h.Range == nil || *h.Range != (lsp.Range{utf16Pos(suppressed, strings.Index(suppressed, "static")), utf16Pos(suppressed, strings.Index(suppressed, "static")+6)}) {
		t.Errorf("hover: kind %s, range %+v", h.Contents.Kind, h.Range)
	}
	h = lsp.Hover{}
	c.call("textDocument/hover", lsp.TextDocumentPositionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Position: utf16Pos(suppressed, strings.Index(suppressed, "FW107")+3)}, &h)
	for _, w := range []string{"FW107 dir-static", "Why:", "Fix:", "Online: https://"} {
		if !strings.Contains(h.Contents.Value, w) {
			t.Errorf("hover on FW107 lacks %q:\n%s", w, h.Contents.Value)
		}
	}

	// Completion: keys of dir not written yet, values of logLevel.
	var list lsp.CompletionList
	c.call("textDocument/completion", lsp.CompletionParams{lsp.TextDocumentPositionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Position: utf16Pos(suppressed, strings.Index(suppressed, "static"))}}, &list)
	labels := map[string]lsp.CompletionItem{}
	for _, it := range list.Items {
		labels[it.Label] = it
	}
	if _, ok := labels["pages"]; !ok {
		t.Errorf("no dir.pages among %d keys", len(list.Items))
	}
	if _, ok := labels["public"]; !ok {
		t.Errorf("no dir.public among %d keys", len(list.Items))
	}
	if it, ok := labels["static"]; !ok || len(it.Tags) == 0 {
		t.Errorf("dir.static (the key under the cursor) not offered as deprecated: %+v", it)
	}
	list = lsp.CompletionList{}
	c.call("textDocument/completion", lsp.CompletionParams{lsp.TextDocumentPositionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Position: utf16Pos(suppressed, strings.Index(suppressed, "'info'")+2)}}, &list)
	var values []string
	for _, it := range list.Items {
		values = append(values, it.Label)
		if it.Label == "'verbose'" && (it.TextEdit == nil || applyEdits(suppressed, []lsp.TextEdit{*it.TextEdit}) != strings.Replace(suppressed, "'info'", "'verbose'", 1)) {
			t.Errorf("'verbose' replaces badly: %+v", it.TextEdit)
		}
	}
	if strings.Join(values, " ") != "'silent' 'info' 'verbose'" {
		t.Errorf("logLevel values %q", values)
	}

	c.shutdown()
	settle(t, before)
}
