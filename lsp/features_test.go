package lsp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/lsp"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// actionsAt returns the code actions of uri over r.
func (c *testClient) actionsAt(uri lsp.DocumentURI, r lsp.Range) []lsp.CodeAction {
	c.t.Helper()
	var out []lsp.CodeAction
	c.call("textDocument/codeAction", lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Range: r}, &out)
	return out
}

func titled(actions []lsp.CodeAction, prefix string) *lsp.CodeAction {
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, prefix) || strings.Contains(actions[i].Title, prefix) {
			return &actions[i]
		}
	}
	return nil
}

// TestCodeFileFix: a code rule's finding in an open .vue file, its fix made
// by rewrite.EditCode on the buffer, applied and checked again.
func TestCodeFileFix(t *testing.T) {
	dir := shopTree(t)
	c := startClient(t, lsp.Options{})
	vue := filepath.Join(dir, "app/pages/index.vue")
	text := "<script setup lang=\"ts\">\n// ünïcode first\nconst route = useRoute()\nconst title = route.meta.name\n</script>\n"
	uri := c.open(vue, text)
	pub := c.waitDiags(uri, version(1))
	d := find(pub.Diagnostics, "FW606")
	if d == nil {
		t.Fatalf("no FW606 in %+v", pub.Diagnostics)
	}
	at := strings.Index(text, "route.meta.name")
	if d.Range.Start != utf16Pos(text, at) {
		t.Errorf("FW606 at %+v, want %+v", d.Range.Start, utf16Pos(text, at))
	}
	actions := c.actionsAt(uri, d.Range)
	fix := titled(actions, "(FW606)")
	if fix == nil || fix.Edit == nil || !fix.IsPreferred {
		t.Fatalf("no FW606 fix among %+v", actions)
	}
	if titled(actions, "Suppress FW606") == nil {
		t.Errorf("no suppression among %+v", actions)
	}
	fixed := applyEdits(text, fix.Edit.Changes[uri])
	if !strings.Contains(fixed, "const title = route.name\n") {
		t.Fatalf("fixed:\n%s", fixed)
	}
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: fixed}}})
	if pub := c.waitDiags(uri, version(2)); find(pub.Diagnostics, "FW606") != nil {
		t.Errorf("FW606 still there: %+v", pub.Diagnostics)
	}
	c.shutdown()
}

// TestEnvSuppression: a .env file's finding hidden by the `#` comment the
// code action inserts above it; a second code on the same line is added
// to that comment.
func TestEnvSuppression(t *testing.T) {
	dir := shopTree(t)
	c := startClient(t, lsp.Options{})
	text := "FW_PUBLIC_APIBASE=x\n"
	uri := c.open(filepath.Join(dir, ".env"), text)
	pub := c.waitDiags(uri, version(1))
	d := find(pub.Diagnostics, "FW403")
	if d == nil {
		t.Fatalf("no FW403 in %+v", pub.Diagnostics)
	}
	a := titled(c.actionsAt(uri, d.Range), "Suppress FW403")
	if a == nil {
		t.Fatal("no suppression")
	}
	next := applyEdits(text, a.Edit.Changes[uri])
	if next != "# fwmigrate-ignore FW403\nFW_PUBLIC_APIBASE=x\n" {
		t.Fatalf("suppressed:\n%s", next)
	}
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: next}}})
	if pub := c.waitDiags(uri, version(2)); len(pub.Diagnostics) != 0 {
		t.Errorf("after the suppression: %+v", pub.Diagnostics)
	}
	c.shutdown()

	// In a config, a comment above that names another code gets this one.
	cfg := "export default defineFwConfig({\n  dir: {\n    // fwmigrate-ignore FW302: why\n    static: 'public',\n  },\n})\n"
	cfgPath := filepath.Join(dir, "fw.config.ts")
	diag := &rules.Diagnostic{Code: "FW107", Line: 4, File: cfgPath}
	act := suppressions(t, cfgPath, cfg, diag)[0]
	if act == nil {
		t.Fatal("no suppression in the config")
	}
	var edits []lsp.TextEdit
	for _, e := range act.Edit.Changes {
		edits = e
	}
	if got := applyEdits(cfg, edits); !strings.Contains(got, "// fwmigrate-ignore FW302, FW107: why\n") {
		t.Errorf("suppression added as\n%s", got)
	}
	// Inside a template literal, a comment would be text: no action.
	cfg = "export default defineFwConfig({\n  app: { head: { script: [{ innerHTML: `a\n  ${1}` }] } },\n})\n"
	if act := suppressions(t, cfgPath, cfg, &rules.Diagnostic{Code: "FW301", Line: 3, File: cfgPath})[0]; act != nil {
		t.Errorf("a suppression inside a template literal: %+v", act.Edit)
	}
}

// TestCodeSuppression: fwmigrate-ignore comments inserted by the code
// action in the files besides the config and .env that the check reads
// them in: a .vue file's script (`//`) and template (`<!-- -->`, and a
// second code added to it), a script file and tsconfig.json; each edit is
// checked again and its finding is gone. No action inside a multi-line
// template literal or start tag, where the comment would be text.
func TestCodeSuppression(t *testing.T) {
	vue := "<script setup lang=\"ts\">\n" +
		"const { data: posts } = await useFetch('/api/posts')\n" +
		"const route = useRoute()\n" +
		"const title = route.meta.name\n" +
		"</script>\n" +
		"<template>\n" +
		"  <div>\n" +
		"    <p v-if=\"posts === null && route.meta.name\">x</p>\n" +
		"    <p\n" +
		"      v-if=\"posts === null\">y</p>\n" +
		"  </div>\n" +
		"</template>\n"
	ts := "export function useTitle() {\n  const route = useRoute()\n  const s = `a\n${route.meta.name}`\n  return route.meta.name + s\n}\n"
	dir := writeTree(t, map[string]string{
		"fw.config.ts":             "export default defineFwConfig({})\n",
		"package.json":             `{ "dependencies": { "fw": "^4.1.0" } }`,
		"tsconfig.json":            "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		"app/pages/index.vue":      vue,
		"app/composables/title.ts": ts,
	})
	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	// at returns the diagnostic of code on line (1-based) of pub.
	at := func(pub lsp.PublishDiagnosticsParams, code string, line int) *lsp.Diagnostic {
		for i, d := range pub.Diagnostics {
			if d.Code == code && d.Range.Start.Line == line-1 {
				return &pub.Diagnostics[i]
			}
		}
		return nil
	}
	// suppress takes the action that suppresses code on line of the
	// document uri at version v, checks its edit makes want, and sends
	// want as version v+1.
	suppress := func(uri lsp.DocumentURI, pub lsp.PublishDiagnosticsParams, code string, line int, text, want string) lsp.PublishDiagnosticsParams {
		t.Helper()
		d := at(pub, code, line)
		if d == nil {
			t.Fatalf("no %s on line %d in %+v", code, line, pub.Diagnostics)
		}
		a := titled(c.actionsAt(uri, d.Range), "Suppress "+code)
		if a == nil || a.Edit == nil {
			t.Fatalf("no suppression of %s on line %d", code, line)
		}
		if got := applyEdits(text, a.Edit.Changes[uri]); got != want {
			t.Fatalf("suppressed %s as\n%s\nwant\n%s", code, got, want)
		}
		v := *pub.Version + 1
		c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: want}}})
		return c.waitDiags(uri, version(v))
	}
	noSuppression := func(uri lsp.DocumentURI, pub lsp.PublishDiagnosticsParams, code string, line int) {
		t.Helper()
		d := at(pub, code, line)
		if d == nil {
			t.Fatalf("no %s on line %d in %+v", code, line, pub.Diagnostics)
		}
		if a := titled(c.actionsAt(uri, d.Range), "Suppress"); a != nil {
			t.Errorf("a suppression of %s on line %d, where a comment would be text: %+v", code, line, a.Edit)
		}
	}

	uri := c.open(filepath.Join(dir, "app/pages/index.vue"), vue)
	pub := c.waitDiags(uri, version(1))
	// A script line.
	next := strings.Replace(vue, "const title", "// fwmigrate-ignore FW606\nconst title", 1)
	pub = suppress(uri, pub, "FW606", 4, vue, next)
	if at(pub, "FW606", 4) != nil || at(pub, "FW606", 5) != nil || at(pub, "FW606", 9) == nil {
		t.Fatalf("after the script's suppression: %+v", pub.Diagnostics)
	}
	// A template line, then a second code on it, added to the comment.
	vue, next = next, strings.Replace(next, "    <p v-if", "    <!-- fwmigrate-ignore FW601 -->\n    <p v-if", 1)
	pub = suppress(uri, pub, "FW601", 9, vue, next)
	if at(pub, "FW601", 10) != nil || at(pub, "FW606", 10) == nil {
		t.Fatalf("after the template's suppression: %+v", pub.Diagnostics)
	}
	vue, next = next, strings.Replace(next, "FW601 -->", "FW601, FW606 -->", 1)
	pub = suppress(uri, pub, "FW606", 10, vue, next)
	// What is left: the finding in the multi-line start tag, which gets
	// no suppression.
	if len(pub.Diagnostics) != 1 || at(pub, "FW601", 12) == nil {
		t.Fatalf("after the suppressions: %+v", pub.Diagnostics)
	}
	noSuppression(uri, pub, "FW601", 12)

	// A script file: no suppression inside a multi-line template literal.
	uri = c.open(filepath.Join(dir, "app/composables/title.ts"), ts)
	pub = c.waitDiags(uri, version(1))
	noSuppression(uri, pub, "FW606", 4)
	pub = suppress(uri, pub, "FW606", 5, ts, strings.Replace(ts, "  return", "  // fwmigrate-ignore FW606\n  return", 1))
	if len(pub.Diagnostics) != 1 || at(pub, "FW606", 4) == nil {
		t.Fatalf("after the script file's suppression: %+v", pub.Diagnostics)
	}

	// tsconfig.json, not open: its finding is published with the project's.
	tsconfig := filepath.Join(dir, "tsconfig.json")
	uri = fileURI(tsconfig)
	pub = c.waitDiags(uri, func(p lsp.PublishDiagnosticsParams) bool { return find(p.Diagnostics, "FW211") != nil })
	d := find(pub.Diagnostics, "FW211")
	a := titled(c.actionsAt(uri, d.Range), "Suppress FW211")
	if a == nil {
		t.Fatal("no suppression in tsconfig.json")
	}
	text := "{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n"
	next = applyEdits(text, a.Edit.Changes[uri])
	if next != "{\n  // fwmigrate-ignore FW211\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n" {
		t.Fatalf("tsconfig.json suppressed as\n%s", next)
	}
	c.open(tsconfig, next)
	if pub := c.waitDiags(uri, version(1)); len(pub.Diagnostics) != 0 {
		t.Errorf("after tsconfig.json's suppression: %+v", pub.Diagnostics)
	}
}

// TestSuppressForms: the forms and refusals of suppressAction in code
// files, on the text as the check reads it: CRLF, a tab's indentation, a
// code added to a `/* */` comment above; nothing on a line that starts
// outside a .vue block's content, inside a multi-line interpolation or
// inside an HTML comment.
func TestSuppressForms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		want       string // "" for no action
		ok         int    // with want "", a line that gets one
	}{
		{"a.ts", "const r = useRoute()\r\nif (r) {\r\n\tr.meta.name\r\n}\r\n", 3,
			"const r = useRoute()\r\nif (r) {\r\n\t// fwmigrate-ignore FW606\r\n\tr.meta.name\r\n}\r\n", 0},
		{"b.ts", "const r = useRoute()\n  /* fwmigrate-ignore FW601 */\n  r.meta.name\n", 3,
			"const r = useRoute()\n  /* fwmigrate-ignore FW601, FW606 */\n  r.meta.name\n", 0},
		{"c.ts", "const r = useRoute()\nconst s = 'x' + `\n// fwmigrate-ignore FW601\n${r.meta.name}`\n", 4, "", 2},
		{"d.vue", "<script setup>const n = useRoute().meta.name\nconst m = 1</script>\n", 1, "", 2},
		{"e.vue", "<script setup>\nconst route = useRoute()\n</script>\n<template>\n  <p>{{\n  route.meta.name }}</p>\n</template>\n", 6, "", 5},
		{"f.vue", "<script setup>\nconst route = useRoute()\n</script>\n<template>\n  <!-- a\n  --> <p>{{ route.meta.name }}</p>\n</template>\n", 6, "", 5},
		{"g.vue", "<script setup>\nconst route = useRoute()\n</script>\n<template>\n  <textarea>\n  {{ route.meta.name }}</textarea>\n</template>\n", 6, "", 5},
	} {
		rel := "app/composables/" + tc.name
		if strings.HasSuffix(tc.name, ".vue") {
			rel = "app/pages/" + tc.name
		}
		dir := writeTree(t, map[string]string{
			"fw.config.ts": "export default defineFwConfig({})\n",
			"package.json": `{ "dependencies": { "fw": "^4.1.0" } }`,
			rel:            tc.text,
		})
		cfg := filepath.Join(dir, "fw.config.ts")
		path := filepath.Join(dir, filepath.FromSlash(rel))
		diags := []*rules.Diagnostic{{Code: "FW606", Line: tc.line, File: path}}
		if tc.ok > 0 {
			diags = append(diags, &rules.Diagnostic{Code: "FW606", Line: tc.ok, File: path})
		}
		acts := suppressions(t, cfg, "export default defineFwConfig({})\n", diags...)
		act := acts[0]
		switch {
		case act == nil && tc.want != "":
			t.Errorf("%s: no action", tc.name)
		case act != nil && tc.want == "":
			t.Errorf("%s: an action: %+v", tc.name, act.Edit)
		case act != nil:
			if got := applyEdits(tc.text, act.Edit.Changes[fileURI(path)]); got != tc.want {
				t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
			}
		}
		if tc.ok > 0 && acts[1] == nil {
			t.Errorf("%s: no action on line %d", tc.name, tc.ok)
		}
	}
}

// suppressions returns, for each finding of ds (a finding of the project
// of cfg, in its file d.File, on its line d.Line), the code action that
// hides it with a fwmigrate-ignore comment, nil when the server offers
// none. The server checks the project with text as the config's buffer
// (the project's files besides it as on the disk), and its check reports
// ds alone: an editor asks for the actions on each finding's line.
func suppressions(t *testing.T, cfg, text string, ds ...*rules.Diagnostic) []*lsp.CodeAction {
	t.Helper()
	var parsed atomic.Bool
	c := startClient(t, lsp.Options{Check: func(p *project.Project, _ rules.Options) *rules.Result {
		parsed.Store(p.File != nil)
		out := make([]*rules.Diagnostic, len(ds))
		for i, d := range ds {
			cp := *d
			out[i] = &cp
		}
		return &rules.Result{Diags: out}
	}})
	defer c.shutdown()
	c.waitDiags(c.open(cfg, text), version(1))
	if !parsed.Load() {
		t.Fatalf("%s does not parse", text)
	}
	out := make([]*lsp.CodeAction, len(ds))
	for i, d := range ds {
		line := lsp.Position{Line: d.Line - 1}
		out[i] = titled(c.actionsAt(fileURI(d.File), lsp.Range{Start: line, End: line}), "Suppress "+d.Code)
	}
	return out
}

// counter counts the checks of each project.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) check(p *project.Project, opts rules.Options) *rules.Result {
	c.mu.Lock()
	c.n[filepath.Base(filepath.Dir(p.ConfigPath))]++
	c.mu.Unlock()
	return rules.Run(p, opts)
}

func (c *counter) get() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.n {
		out[k] = v
	}
	return out
}

// TestIncremental: a change checks the projects it reaches and no other.
// A layer's config reaches the app that extends it; a project's
// package.json (unsaved: the overlay) reaches that project, whose
// framework major then changes its findings.
func TestIncremental(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"apps/a/fw.config.ts":      "export default defineFwConfig({ extends: ['../../layers/base'], future: { compatibilityVersion: 4 } })\n",
		"apps/a/package.json":      `{ "dependencies": { "fw": "^3.15.0" } }`,
		"apps/b/fw.config.ts":      "export default defineFwConfig({ ssr: true })\n",
		"apps/b/package.json":      `{ "dependencies": { "fw": "^3.15.0" } }`,
		"layers/base/fw.config.ts": "export default defineFwConfig({})\n",
	})
	cnt := &counter{n: map[string]int{}}
	c := startClient(t, lsp.Options{Check: cnt.check})
	a := c.open(filepath.Join(dir, "apps/a/fw.config.ts"), "export default defineFwConfig({ extends: ['../../layers/base'], future: { compatibilityVersion: 4 } })\n")
	b := c.open(filepath.Join(dir, "apps/b/fw.config.ts"), "export default defineFwConfig({ ssr: true })\n")
	c.waitDiags(a, version(1))
	pubB := c.waitDiags(b, version(1))
	if find(pubB.Diagnostics, "FW206") == nil {
		t.Fatalf("b on framework 3: no FW206 in %+v", pubB.Diagnostics)
	}
	if got := cnt.get(); got["a"] != 1 || got["b"] != 1 {
		t.Fatalf("checks after opening: %v", got)
	}

	// The layer's config: checked itself, and a with it.
	base := c.open(filepath.Join(dir, "layers/base/fw.config.ts"), "export default defineFwConfig({})\n")
	c.waitDiags(base, version(1))
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: base, Version: 2}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: "export default defineFwConfig({ dir: { static: 'p' } })\n"}}})
	c.waitDiags(base, version(2))
	waitFor(t, func() bool { return cnt.get()["a"] == 3 }, "a checked again after its layer changed: %v", cnt.get)
	if got := cnt.get(); got["b"] != 1 || got["base"] != 2 {
		t.Errorf("checks after the layer's change: %v (b must not be checked, base twice)", got)
	}

	// b's package.json, unsaved, says framework 4: FW206 goes.
	c.open(filepath.Join(dir, "apps/b/package.json"), `{ "dependencies": { "fw": "^4.0.0" } }`)
	c.waitDiags(b, func(p lsp.PublishDiagnosticsParams) bool { return find(p.Diagnostics, "FW206") == nil })
	if got := cnt.get(); got["a"] != 3 || got["b"] != 2 {
		t.Errorf("checks after b's package.json: %v", got)
	}
	c.shutdown()
}

func waitFor(t *testing.T, ok func() bool, format string, arg func() map[string]int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf(format, arg())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDebounce: a burst of changes is checked once.
func TestDebounce(t *testing.T) {
	dir := shopTree(t)
	cnt := &counter{n: map[string]int{}}
	c := startClient(t, lsp.Options{Check: cnt.check, Debounce: 300 * time.Millisecond})
	uri := c.open(filepath.Join(dir, "fw.config.ts"), shopConfig)
	c.waitDiags(uri, version(1))
	for v := 2; v <= 6; v++ {
		c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: v}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: shopConfig + strings.Repeat("\n", v)}}})
	}
	c.waitDiags(uri, version(6))
	if n := cnt.get()[filepath.Base(dir)]; n != 2 {
		t.Errorf("%d checks for an open and a burst of 5 changes, want 2", n)
	}
	c.shutdown()
}

// TestPanic: a check that panics is an FW999 diagnostic, and the server
// goes on answering.
func TestPanic(t *testing.T) {
	dir := shopTree(t)
	c := startClient(t, lsp.Options{Check: func(*project.Project, rules.Options) *rules.Result { panic("boom") }})
	uri := c.open(filepath.Join(dir, "fw.config.ts"), shopConfig)
	pub := c.waitDiags(uri, version(1))
	d := find(pub.Diagnostics, rules.CodeInternal)
	if d == nil || d.Severity != lsp.SeverityError || !strings.Contains(d.Message, "boom") {
		t.Fatalf("no FW999 for the panic: %+v", pub.Diagnostics)
	}
	var h lsp.Hover
	c.call("textDocument/hover", lsp.TextDocumentPositionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Position: utf16Pos(shopConfig, strings.Index(shopConfig, "logLevel"))}, &h)
	if !strings.Contains(h.Contents.Value, "logLevel") {
		t.Errorf("hover after the panic: %+v", h)
	}
	c.shutdown()
}

// TestSettings: the project's fwmigrate.json applies as in check.
func TestSettings(t *testing.T) {
	dir := shopTree(t)
	writeFile(t, filepath.Join(dir, "fwmigrate.json"), `{ "severity": { "FW107": "info", "FW403": "off" } }`)
	c := startClient(t, lsp.Options{})
	uri := c.open(filepath.Join(dir, "fw.config.ts"), shopConfig)
	pub := c.waitDiags(uri, version(1))
	if d := find(pub.Diagnostics, "FW107"); d == nil || d.Severity != lsp.SeverityInformation {
		t.Errorf("FW107 under severity info: %+v", pub.Diagnostics)
	}
	// The .env finding is off: its file never hears of it.
	c.mu.Lock()
	envPub, ok := c.diags[fileURI(filepath.Join(dir, ".env"))]
	c.mu.Unlock()
	if ok && len(envPub.Diagnostics) > 0 {
		t.Errorf(".env: %+v", envPub.Diagnostics)
	}
	// A broken settings file is shown, and the project checked without it.
	writeFile(t, filepath.Join(dir, "fwmigrate.json"), `{ "severity": { "FW107": "loud" } }`)
	c.notify("textDocument/didSave", lsp.DidSaveTextDocumentParams{TextDocument: lsp.TextDocumentIdentifier{URI: fileURI(filepath.Join(dir, "fwmigrate.json"))}})
	pub = c.waitDiags(uri, func(p lsp.PublishDiagnosticsParams) bool {
		d := find(p.Diagnostics, "FW107")
		return d != nil && d.Severity == lsp.SeverityError
	})
	c.mu.Lock()
	msgs := fmt.Sprint(c.messages)
	c.mu.Unlock()
	if !strings.Contains(msgs, "fwmigrate.json") {
		t.Errorf("the broken settings file was not shown: %s", msgs)
	}
	c.shutdown()
}

// TestSyntaxError: a config that does not parse has its FW901 at the
// error's position in UTF-16 columns (esbuild gives bytes), and a client
// that sends exit without shutdown ends the session with ErrNoShutdown.
func TestSyntaxError(t *testing.T) {
	dir := shopTree(t)
	c := startClient(t, lsp.Options{})
	text := "export default defineFwConfig({\n  app: { head: { title: 'Café 😀' } }, ssr: tru e,\n})\n"
	uri := c.open(filepath.Join(dir, "fw.config.ts"), text)
	pub := c.waitDiags(uri, version(1))
	d := find(pub.Diagnostics, rules.CodeSyntax)
	if d == nil {
		t.Fatalf("no FW901 in %+v", pub.Diagnostics)
	}
	if want := utf16Pos(text, strings.Index(text, " e,")+1); d.Range.Start != want {
		t.Errorf("FW901 at %+v, want %+v: %s", d.Range.Start, want, d.Message)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != lsp.ErrNoShutdown {
			t.Errorf("Serve after exit without shutdown: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
	}
}
