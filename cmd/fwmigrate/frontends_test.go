package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/lsp"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// TestFrontEnds: check, apply --dry-run and the language server see a
// project through the one workspace, so they report the same findings at
// the same places and count the same safe fixes: check's "fixable", the
// fixes apply makes (or accounts for: by the move, not made with the
// reason, settled by the other fixes), and the editor's fix actions. One
// table over the shared corpus, the example shop and a generated app.
func TestFrontEnds(t *testing.T) {
	type tc struct {
		name  string
		setup func(t *testing.T, dir string)
	}
	var cases []tc
	files, err := filepath.Glob("../../testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for i, file := range files {
		if testing.Short() && i%4 != 0 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		if major2Corpus[name] {
			continue // apply refuses it whole (FW907): nothing to count
		}
		file, _ := filepath.Abs(file)
		cases = append(cases, tc{name, func(t *testing.T, dir string) { testtree.WriteFile(t, dir, file, "") }})
	}
	cases = append(cases,
		tc{"shop", func(t *testing.T, dir string) {
			if err := os.CopyFS(dir, os.DirFS("../../examples/shop")); err != nil {
				t.Fatal(err)
			}
		}},
		// Module options whose fixes are config edits (FW720, FW721) and
		// folders that move with the sources (FW721's Fix.Also).
		tc{"module-paths", func(t *testing.T, dir string) {
			testtree.Map(t, dir, map[string]string{
				"fw.config.ts": "export default defineFwConfig({\n  modules: ['@nuxtjs/i18n', '@pinia/nuxt', 'shadcn-nuxt', '@fw/image'],\n" +
					"  i18n: { langDir: 'locales' },\n  shadcn: { componentDir: './components/ui' },\n  image: { dir: 'public/img' },\n})\n",
				"package.json":                           `{"dependencies": {"fw": "^3.13.0", "@nuxtjs/i18n": "^8.3.0", "@pinia/nuxt": "^0.11.0", "shadcn-nuxt": "^2.1.0", "@fw/image": "^1.8.0"}}`,
				"node_modules/@nuxtjs/i18n/package.json": `{"name": "@nuxtjs/i18n", "version": "8.5.6"}`,
				"node_modules/shadcn-nuxt/package.json":  `{"name": "shadcn-nuxt", "version": "2.1.0"}`,
				"locales/en.json":                        "{}\n",
				"stores/cart.ts":                         "export const useCartStore = defineStore('cart', {})\n",
				"components/ui/Button.vue":               "<template><button /></template>\n",
				"pages/index.vue":                        "<template><p /></template>\n",
				"public/img/a.png":                       "",
			})
		}},
		tc{"generated", func(t *testing.T, dir string) {
			n := 120
			if testing.Short() {
				n = 40
			}
			files := map[string]string{
				"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n  dir: { static: 'static' },\n})\n",
				"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
			}
			for name, src := range appgen.Dense(n) {
				files[name] = string(src)
			}
			testtree.Map(t, dir, files)
		}},
	)
	ran := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ran++
			dir := t.TempDir()
			c.setup(t, dir)
			compareFrontEnds(t, dir)
		})
	}
	// The whole table (not a case picked with -run) must find enough.
	if ran == len(cases) && totalFindings.Load() < 100 {
		t.Errorf("the table found %d findings in all: too few for the comparison to prove anything", totalFindings.Load())
	}
}

var totalFindings atomic.Int64

// finding is a diagnostic as all three front ends can say it: the file,
// the 0-based line and UTF-16 column of its start, the code.
type finding struct {
	file      string
	line, col int
	code      string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d:%d %s", f.file, f.line+1, f.col+1, f.code)
}

func findingOf(d *rules.Diagnostic) finding {
	file, _ := filepath.Abs(d.File)
	line, col := d.Line-1, d.ColumnUTF16-1
	if d.Line <= 0 {
		line, col = 0, 0
	}
	return finding{file, line, col, d.Code}
}

func compareFrontEnds(t *testing.T, dir string) {
	t.Helper()
	// check
	rep := runCheck([]string{dir}, workspace.New(settings.Flags{}), checkRun{})
	for _, err := range rep.errs {
		t.Fatalf("check: %v", err)
	}
	diags := rep.findings.list()
	checked := map[finding]int{}
	configs := map[string]bool{}
	for _, d := range diags {
		checked[findingOf(d)]++
		if strings.HasPrefix(filepath.Base(d.File), "fw.config.") {
			f, _ := filepath.Abs(d.File)
			configs[f] = true
		}
	}
	fixable := rep.summary().Fixable

	// apply --dry-run: the findings it starts from, and every safe fix
	// accounted for.
	results, err := runApply([]string{dir}, workspace.New(settings.Flags{}), false, migrate.Options{DryRun: true, Layout: migrate.LayoutMove})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	applied := map[finding]int{}
	made, accounted := 0, 0
	for _, r := range results {
		// A fix is check's when the finding it fixes had a safe fix before
		// the rounds; one that a round made safe (FW205's deletion, once
		// the version step is made) is apply's own.
		safeBefore := map[string]bool{}
		for _, d := range r.Found {
			applied[findingOf(d)]++
			if d.Fix != nil && d.Fix.Applicability == rules.Safe {
				safeBefore[d.Code+"\x00"+d.Option+"\x00"+d.File+"\x00"+d.Path] = true
			}
		}
		made += len(r.Fixed) + len(r.ByMove)
		accounted += len(r.ByMove)
		for _, f := range r.Fixed {
			d := f.D
			if safeBefore[d.Code+"\x00"+d.Option+"\x00"+d.File+"\x00"+d.Path] {
				accounted++
			}
		}
		for _, n := range r.NotFixed {
			if n.D.Fix.Applicability == rules.Safe {
				accounted++
			}
		}
		for _, d := range r.Settled {
			if d.Fix != nil && d.Fix.Applicability == rules.Safe {
				accounted++
			}
		}
	}
	diffFindings(t, "apply --dry-run", checked, applied)
	if accounted != fixable {
		t.Errorf("check counts %d safe fixes; apply --dry-run makes %d and accounts for %d", fixable, made, accounted)
	}

	// The language server: open every config, take what it publishes, and
	// ask for the actions at each finding.
	ed := startEditor(t)
	var cfgs []string
	for c := range configs {
		cfgs = append(cfgs, c)
	}
	sort.Strings(cfgs)
	for _, c := range cfgs {
		ed.open(c)
	}
	ed.sync(cfgs)
	published := map[finding]int{}
	editorFixes := 0
	for uri, ds := range ed.published() {
		path := uriFile(t, uri)
		for _, d := range ds {
			published[finding{path, d.Range.Start.Line, d.Range.Start.Character, d.Code}]++
			for _, a := range ed.actions(uri, d) {
				if len(a.Diagnostics) == 1 && a.Diagnostics[0].Code == d.Code && a.Diagnostics[0].Range == d.Range &&
					!strings.HasPrefix(a.Title, "Suppress ") && !strings.Contains(a.Title, "(unsafe)") {
					editorFixes++
					break
				}
			}
		}
	}
	t.Logf("%d findings, %d safe fixes: apply makes %d; %d published, %d editor fixes", len(diags), fixable, made, len(published), editorFixes)
	totalFindings.Add(int64(len(diags)))
	diffFindings(t, "lsp", checked, published)
	// A fix that moves folders with the sources (Fix.Also) is apply's
	// alone: the editor edits files, it does not move the sources.
	moves := 0
	for _, d := range diags {
		if d.Fix != nil && d.Fix.Applicability == rules.Safe && len(d.Fix.Also) > 0 && len(d.Fix.Ops) == 0 {
			moves++
		}
	}
	if editorFixes != fixable-moves {
		t.Errorf("check counts %d safe fixes (%d of them folder moves, apply's alone); the editor offers %d", fixable, moves, editorFixes)
	}
}

func diffFindings(t *testing.T, who string, want, got map[finding]int) {
	t.Helper()
	var missing, extra []string
	for f, n := range want {
		if got[f] < n {
			missing = append(missing, f.String())
		}
	}
	for f, n := range got {
		if want[f] < n {
			extra = append(extra, f.String())
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("%s differs from check: missing %d %v; extra %d %v", who, len(missing), first(missing), len(extra), first(extra))
	}
}

func first(s []string) []string {
	if len(s) > 5 {
		return s[:5]
	}
	return s
}

func uriFile(t *testing.T, uri lsp.DocumentURI) string {
	u, err := url.Parse(string(uri))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// editor is a language client in the test's process.
type editor struct {
	t    *testing.T
	conn *jsonrpc2.Conn
	mu   sync.Mutex
	pub  map[lsp.DocumentURI][]lsp.Diagnostic
}

func startEditor(t *testing.T) *editor {
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { lsp.Serve(ctx, a, lsp.Options{}); close(done) }()
	e := &editor{t: t, pub: map[lsp.DocumentURI][]lsp.Diagnostic{}}
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" {
			var p lsp.PublishDiagnosticsParams
			if err := json.Unmarshal(*req.Params, &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			e.mu.Lock()
			e.pub[p.URI] = p.Diagnostics
			e.mu.Unlock()
		}
		return nil, nil
	})
	e.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}), handler)
	t.Cleanup(func() {
		e.conn.Close()
		cancel()
		<-done
	})
	caps := json.RawMessage(`{"textDocument": {"codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}, "isPreferredSupport": true, "disabledSupport": true}}}`)
	var res json.RawMessage
	if err := e.conn.Call(ctx, "initialize", map[string]any{"processId": nil, "capabilities": caps}, &res); err != nil {
		t.Fatal(err)
	}
	if err := e.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *editor) open(path string) {
	text, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	item := lsp.TextDocumentItem{URI: lsp.DocumentURI(fileURI(path)), LanguageID: "typescript", Version: 1, Text: string(text)}
	if err := e.conn.Notify(context.Background(), "textDocument/didOpen", lsp.DidOpenTextDocumentParams{TextDocument: item}); err != nil {
		e.t.Fatal(err)
	}
}

// sync waits until the server has checked the projects of the configs: a
// code action request checks a project whose check is due before it
// answers, and its diagnostics are published before the answer.
func (e *editor) sync(configs []string) {
	for _, c := range configs {
		e.actions(lsp.DocumentURI(fileURI(c)), lsp.Diagnostic{})
	}
}

func (e *editor) published() map[lsp.DocumentURI][]lsp.Diagnostic {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[lsp.DocumentURI][]lsp.Diagnostic{}
	for k, v := range e.pub {
		out[k] = v
	}
	return out
}

func (e *editor) actions(uri lsp.DocumentURI, d lsp.Diagnostic) []lsp.CodeAction {
	var out []lsp.CodeAction
	p := lsp.CodeActionParams{TextDocument: lsp.TextDocumentIdentifier{URI: uri}, Range: d.Range}
	if d.Code != "" {
		p.Context.Diagnostics = []lsp.Diagnostic{d}
	}
	if err := e.conn.Call(context.Background(), "textDocument/codeAction", p, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}
