package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/lsp"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// fixAllConfig has safe fixes that change the text under each other
// (FW201 moves generate.routes, FW206 adds future) beside an unsafe one
// (FW504) that fix-all must leave, and a line with UTF-16 columns that
// differ from the bytes.
const fixAllConfig = `export default defineFwConfig({
  app: { head: { title: 'Café 😀 shop' } }, dir: { static: 'public' },
  generate: { routes: ['/a'] },
  logLevel: 'info',
  sourcemap: { client: true },
})
`

// fixAllTree is a project of framework major 3 whose fixes are in its
// config, its code and package.json: FW701 bumps fw to major 4, and the
// config's fixes are then those of major 4 (no compatibilityVersion: 4).
func fixAllTree(t *testing.T) string {
	return writeTree(t, map[string]string{
		"fw.config.ts":        fixAllConfig,
		"package.json":        `{ "dependencies": { "fw": "^3.15.0" } }`,
		"app/pages/index.vue": "<script setup lang=\"ts\">\nconst route = useRoute()\nconst title = route.meta.name\n</script>\n",
		"app/pages/about.vue": "<script setup lang=\"ts\">\nconst route = useRoute()\nconst t = route.meta.name + route.meta.name\n</script>\n",
	})
}

// fixAll asks for the code actions of uri with only and triggerKind, and
// returns them and the fix-all action among them (nil when none).
func (c *testClient) fixAll(uri lsp.DocumentURI, only []string, trigger int) ([]lsp.CodeAction, *lsp.CodeAction) {
	c.t.Helper()
	var out []lsp.CodeAction
	c.call("textDocument/codeAction", lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Context: lsp.CodeActionContext{Only: only, TriggerKind: trigger}}, &out)
	var all *lsp.CodeAction
	for i, a := range out {
		if a.Kind == lsp.KindFixAll {
			if all != nil {
				c.t.Fatalf("two fix-all actions: %+v", out)
			}
			all = &out[i]
		}
	}
	return out, all
}

// applyDisk applies a workspace edit to the files on disk, as an editor
// does to their buffers, and returns the new texts by path.
func applyDisk(t *testing.T, edit *lsp.WorkspaceEdit) map[string]string {
	t.Helper()
	out := map[string]string{}
	for uri, edits := range edit.Changes {
		path, err := uriFile(uri)
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[path] = applyEdits(string(old), edits)
	}
	return out
}

// TestFixAllAsApply: source.fixAll.fwmigrate is the one action of a
// request for that kind (no quickfixes), and its edit makes, byte for byte,
// the files `fwmigrate apply` writes for a project with nothing to move:
// the config's safe fixes in rounds, made for major 4 as FW701 bumps fw in
// package.json, and the code files' fixes, the unsafe one left. Made, the
// project has nothing more to fix. The kinds are advertised.
func TestFixAllAsApply(t *testing.T) {
	dir := fixAllTree(t)
	cfg := filepath.Join(dir, "fw.config.ts")

	// What apply writes (a dry run computes the same texts).
	p := project.LoadProject(cfg, cfg)
	r := migrate.Run([]*project.Project{p}, nil, migrate.Options{Workspace: workspace.New(settings.Flags{}), DryRun: true, Layout: migrate.LayoutMove})[0]
	if r.Fatal || r.New == nil || len(r.CodeEdits) != 3 || r.Plan != nil {
		t.Fatalf("apply: fatal %v, new config %v, %d code edits, plan %v: the comparison proves nothing", r.Fatal, r.New != nil, len(r.CodeEdits), r.Plan)
	}
	want := map[string]string{cfg: string(r.New)}
	for _, e := range r.CodeEdits {
		want[e.Path] = string(e.New)
	}
	// The bump is made, and the config's fixes are major 4's: FW206's
	// step is the bump itself.
	if pj := want[filepath.Join(dir, "package.json")]; !strings.Contains(pj, `"fw": "^4.`) || strings.Contains(want[cfg], "compatibilityVersion") {
		t.Fatalf("apply: package.json\n%s\nconfig\n%s\nthe comparison proves nothing", pj, want[cfg])
	}

	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	uri := c.open(cfg, fixAllConfig)
	c.waitDiags(uri, version(1))

	for _, only := range [][]string{{lsp.KindSourceFixAll}, {lsp.KindFixAll}, {lsp.KindSource}} {
		actions, all := c.fixAll(uri, only, 2)
		if all == nil || len(actions) != 1 || all.Edit == nil {
			t.Fatalf("only %v: %+v", only, actions)
		}
		if !strings.Contains(all.Title, "(6 fixes)") {
			t.Errorf("only %v: title %q", only, all.Title)
		}
		got := applyDisk(t, all.Edit)
		if len(got) != len(want) {
			t.Errorf("only %v: the edit changes %d files, apply %d", only, len(got), len(want))
		}
		for path, w := range want {
			if got[path] != w {
				t.Errorf("only %v: %s made\n%s\napply writes\n%s", only, path, got[path], w)
			}
		}
		if !strings.Contains(got[cfg], "client: true") {
			t.Errorf("only %v: the unsafe fix was made:\n%s", only, got[cfg])
		}
	}
	// Quickfixes alone, or the cursor's automatic request: no fix-all.
	for _, tc := range []struct {
		only    []string
		trigger int
	}{{[]string{lsp.KindQuickFix}, 1}, {nil, 2}, {nil, 0}, {[]string{"source.organizeImports"}, 1}} {
		if actions, all := c.fixAll(uri, tc.only, tc.trigger); all != nil {
			t.Errorf("only %v, trigger %d: %+v", tc.only, tc.trigger, actions)
		}
	}
	// Invoked by the user with no `only`: the quickfixes and the fix-all.
	var actions []lsp.CodeAction
	line := lsp.Range{Start: lsp.Position{Line: 1}, End: lsp.Position{Line: 1, Character: 80}}
	c.call("textDocument/codeAction", lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Range: line, Context: lsp.CodeActionContext{TriggerKind: 1}}, &actions)
	if len(actions) < 2 || titled(actions, "(FW107)") == nil || actions[len(actions)-1].Kind != lsp.KindFixAll {
		t.Errorf("invoked: %+v", actions)
	}

	// Made (the config in the buffer, the code on disk, as a save
	// leaves them), nothing is left to fix.
	_, all := c.fixAll(uri, []string{lsp.KindSourceFixAll}, 2)
	made := applyDisk(t, all.Edit)
	for path, text := range made {
		if path != cfg {
			writeFile(t, path, text)
			c.notify("workspace/didChangeWatchedFiles", lsp.DidChangeWatchedFilesParams{Changes: []lsp.FileEvent{{URI: fileURI(path), Type: 2}}})
		}
	}
	c.notify("textDocument/didChange", lsp.DidChangeTextDocumentParams{TextDocument: lsp.VersionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: []lsp.TextDocumentContentChangeEvent{{Text: made[cfg]}}})
	c.waitDiags(uri, version(2))
	if actions, all := c.fixAll(uri, []string{lsp.KindSourceFixAll}, 2); all != nil {
		t.Errorf("a second fix-all: %+v", actions)
	}
}

// TestFixAllBuffers: fix-all edits the text the editor has, not the disk's:
// from a page's document, the unsaved page's new finding is fixed in its
// buffer, and the config's fixes come with it.
func TestFixAllBuffers(t *testing.T) {
	dir := fixAllTree(t)
	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	page := filepath.Join(dir, "app/pages/index.vue")
	text := "<script setup lang=\"ts\">\n// ünïcode\nconst route = useRoute()\nconst a = route.meta.name, b = route.meta.name\n</script>\n"
	uri := c.open(page, text)
	c.waitDiags(uri, version(1))
	_, all := c.fixAll(uri, []string{lsp.KindFixAll}, 2)
	if all == nil || all.Edit == nil {
		t.Fatal("no fix-all")
	}
	if got := applyEdits(text, all.Edit.Changes[uri]); !strings.Contains(got, "const a = route.name, b = route.name\n") || !strings.Contains(got, "// ünïcode\n") {
		t.Errorf("the page's buffer made\n%s", got)
	}
	if len(all.Edit.Changes[fileURI(filepath.Join(dir, "fw.config.ts"))]) == 0 {
		t.Errorf("no config edits in %+v", all.Edit.Changes)
	}
}

// TestFixAllLayout: in a layout-B project, the fixes of a layout choice
// (FW102's pin of layout B, the paths right only once the sources move)
// are apply's, with the move: fix-all makes the others.
func TestFixAllLayout(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"fw.config.ts":    "export default defineFwConfig({\n  dir: { static: 'public' },\n})\n",
		"package.json":    `{ "dependencies": { "fw": "^3.15.0" } }`,
		"pages/index.vue": "<template><p>x</p></template>\n",
		"app.vue":         "<template><FwPage /></template>\n",
	})
	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	cfg := filepath.Join(dir, "fw.config.ts")
	uri := c.open(cfg, "export default defineFwConfig({\n  dir: { static: 'public' },\n})\n")
	pub := c.waitDiags(uri, version(1))
	if find(pub.Diagnostics, "FW102") == nil {
		t.Fatalf("no FW102 in %+v: the test proves nothing", pub.Diagnostics)
	}
	_, all := c.fixAll(uri, []string{lsp.KindSourceFixAll}, 2)
	if all == nil || all.Edit == nil {
		t.Fatal("no fix-all")
	}
	got := applyEdits("export default defineFwConfig({\n  dir: { static: 'public' },\n})\n", all.Edit.Changes[uri])
	// FW701 bumps fw: the config's fixes are major 4's, where
	// compatibility version 4 is the default (FW206 sets nothing).
	if strings.Contains(got, "srcDir") || !strings.Contains(got, "public: 'public'") || strings.Contains(got, "compatibilityVersion") {
		t.Errorf("fix-all made\n%s", got)
	}
	if pj := applyEdits(`{ "dependencies": { "fw": "^3.15.0" } }`, all.Edit.Changes[fileURI(filepath.Join(dir, "package.json"))]); !strings.Contains(pj, `"fw": "^4.`) {
		t.Errorf("fix-all made package.json\n%s", pj)
	}
}

// TestFixAllRefused: a config that is a symlink out of the project is
// never rewritten through (apply refuses it): the fix-all is disabled, with
// the reason, for a client that shows disabled actions.
func TestFixAllRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	dir := writeTree(t, map[string]string{
		"outside/fw.config.ts": "export default defineFwConfig({ dir: { static: 'public' } })\n",
		"app/package.json":     `{ "dependencies": { "fw": "^3.15.0" } }`,
		"app/app/app.vue":      "<template><p /></template>\n",
	})
	cfg := filepath.Join(dir, "app", "fw.config.ts")
	if err := os.Symlink(filepath.Join(dir, "outside", "fw.config.ts"), cfg); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	uri := c.open(cfg, "export default defineFwConfig({ dir: { static: 'public' } })\n")
	c.waitDiags(uri, version(1))
	actions, all := c.fixAll(uri, []string{lsp.KindSourceFixAll}, 2)
	if all == nil || all.Edit != nil || all.Disabled == nil || !strings.Contains(all.Disabled.Reason, "symlink") {
		t.Fatalf("fix-all through a symlink out of the project: %+v", actions)
	}
}

// TestMigrateCommand: fwmigrate.migrate names the config of the document's
// project and the `fwmigrate apply` to run; a file outside any project, a
// bad argument and an unknown command are errors. The command and the
// fix-all kinds are advertised.
func TestMigrateCommand(t *testing.T) {
	dir := fixAllTree(t)
	// The capabilities: the command, and the kinds of the actions.
	raw := json.RawMessage(`{"processId": null, "capabilities": {}}`)
	var init lsp.InitializeResult
	c0 := dial(t, lsp.Options{})
	c0.call("initialize", raw, &init)
	c0.shutdown()
	caps := init.Capabilities
	if caps.ExecuteCommandProvider == nil || strings.Join(caps.ExecuteCommandProvider.Commands, ",") != lsp.CommandMigrate ||
		caps.CodeActionProvider == nil || strings.Join(caps.CodeActionProvider.CodeActionKinds, ",") != "quickfix,source.fixAll,source.fixAll.fwmigrate" {
		t.Errorf("capabilities %+v %+v", caps.ExecuteCommandProvider, caps.CodeActionProvider)
	}

	c := startClient(t, lsp.Options{})
	defer c.shutdown()
	page := filepath.Join(dir, "app/pages/index.vue")
	var target lsp.MigrateTarget
	c.call("workspace/executeCommand", lsp.ExecuteCommandParams{Command: lsp.CommandMigrate, Arguments: []json.RawMessage{mustJSON(t, fileURI(page))}}, &target)
	cfg := filepath.Join(dir, "fw.config.ts")
	if target.Config != cfg || target.Cwd != dir || strings.Join(target.Args, " ") != "apply fw.config.ts" {
		t.Errorf("target %+v", target)
	}
	// A text document identifier works too, and an open document's
	// project is the one found when it was opened.
	uri := c.open(page, "<template />\n")
	c.call("workspace/executeCommand", lsp.ExecuteCommandParams{Command: lsp.CommandMigrate, Arguments: []json.RawMessage{mustJSON(t, lsp.TextDocumentIdentifier{URI: uri})}}, &target)
	if target.Config != cfg {
		t.Errorf("target %+v", target)
	}

	outside := writeTree(t, map[string]string{"a.ts": "x\n"})
	for _, tc := range []struct {
		params lsp.ExecuteCommandParams
		want   string
	}{
		{lsp.ExecuteCommandParams{Command: lsp.CommandMigrate, Arguments: []json.RawMessage{mustJSON(t, fileURI(filepath.Join(outside, "a.ts")))}}, "in no project"},
		{lsp.ExecuteCommandParams{Command: lsp.CommandMigrate}, "one argument"},
		{lsp.ExecuteCommandParams{Command: lsp.CommandMigrate, Arguments: []json.RawMessage{json.RawMessage(`42`)}}, "neither a URI"},
		{lsp.ExecuteCommandParams{Command: lsp.CommandMigrate, Arguments: []json.RawMessage{mustJSON(t, "https://example.com/fw.config.ts")}}, "not a file:// URI"},
		{lsp.ExecuteCommandParams{Command: "fwmigrate.\x1b[31mnope"}, `no command fwmigrate.\x1b[31mnope`},
	} {
		err := c.conn.Call(t.Context(), "workspace/executeCommand", tc.params, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.params, err, tc.want)
		}
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
