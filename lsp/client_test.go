package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// A client in the test's process, over net.Pipe: it speaks to Serve as an
// editor does, through the same JSON-RPC framing (Content-Length headers).

type testClient struct {
	t    testing.TB
	conn *jsonrpc2.Conn
	done chan error // Serve's return

	mu       sync.Mutex
	cond     *sync.Cond
	diags    map[lsp.DocumentURI]lsp.PublishDiagnosticsParams // the latest of each file
	log      []lsp.PublishDiagnosticsParams                   // every publication, in order
	messages []lsp.ShowMessageParams
}

// clientCaps are those of a recent editor.
var clientCaps = json.RawMessage(`{
  "textDocument": {
    "publishDiagnostics": {"relatedInformation": true, "codeDescriptionSupport": true, "versionSupport": true},
    "hover": {"contentFormat": ["markdown", "plaintext"]},
    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}, "isPreferredSupport": true, "disabledSupport": true}
  }
}`)

// startClient starts a server and a client, and initializes the session as
// an editor does (initialize, then initialized).
func startClient(t testing.TB, opts lsp.Options) *testClient {
	t.Helper()
	c := dial(t, opts)
	var res lsp.InitializeResult
	c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": clientCaps}, &res)
	if res.Capabilities.PositionEncoding != "utf-16" || res.Capabilities.TextDocumentSync == nil || !res.Capabilities.HoverProvider {
		t.Fatalf("initialize: capabilities %+v", res.Capabilities)
	}
	c.notify("initialized", struct{}{})
	return c
}

// dial starts a server and a client connected to it, before initialize.
func dial(t testing.TB, opts lsp.Options) *testClient {
	t.Helper()
	a, b := net.Pipe()
	c := &testClient{t: t, done: make(chan error, 1), diags: map[lsp.DocumentURI]lsp.PublishDiagnosticsParams{}}
	c.cond = sync.NewCond(&c.mu)
	go func() { c.done <- lsp.Serve(context.Background(), a, opts) }()
	handler := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch req.Method {
		case "textDocument/publishDiagnostics":
			var p lsp.PublishDiagnosticsParams
			if err := json.Unmarshal(*req.Params, &p); err != nil {
				t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags[p.URI] = p
			c.log = append(c.log, p)
		case "window/showMessage":
			var p lsp.ShowMessageParams
			json.Unmarshal(*req.Params, &p)
			c.messages = append(c.messages, p)
		}
		c.cond.Broadcast()
		return nil, nil
	})
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}), handler)
	t.Cleanup(func() { c.conn.Close() })
	return c
}

func (c *testClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) open(path, text string) lsp.DocumentURI {
	uri := fileURI(path)
	c.notify("textDocument/didOpen", lsp.DidOpenTextDocumentParams{TextDocument: lsp.TextDocumentItem{URI: uri, LanguageID: "typescript", Version: 1, Text: text}})
	return uri
}

// waitDiags waits for a publication of uri that ok accepts and returns it.
func (c *testClient) waitDiags(uri lsp.DocumentURI, ok func(lsp.PublishDiagnosticsParams) bool) lsp.PublishDiagnosticsParams {
	c.t.Helper()
	var got lsp.PublishDiagnosticsParams
	c.await(func() bool {
		p, seen := c.diags[uri]
		got = p
		return seen && ok(p)
	}, func() string { return fmt.Sprintf("no publication of %s as wanted; the last: %+v", uri, c.diags[uri]) })
	return got
}

// await waits until done, called with c.mu held after each message the
// server sends, returns true; past 30 s it fails the test with what fail
// says (called with c.mu held too).
func (c *testClient) await(done func() bool, fail func() string) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	timer := time.AfterFunc(30*time.Second, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !done() {
		if time.Now().After(deadline) {
			// Where the server is (a check stuck, or none scheduled)
			// tells a deadlock from a lost wake-up: a timeout seen once
			// in a full CI run (TestIncrementalSameAsCold, a config
			// edit's version never published) could not be made again.
			buf := make([]byte, 1<<20)
			c.t.Logf("goroutines at the timeout:\n%s", buf[:runtime.Stack(buf, true)])
			c.t.Fatalf("%s", fail())
		}
		c.cond.Wait()
	}
}

// version accepts a publication of the document's version v.
func version(v int) func(lsp.PublishDiagnosticsParams) bool {
	return func(p lsp.PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == v }
}

// shutdown ends the session as an editor does and checks that Serve
// returned cleanly.
func (c *testClient) shutdown() {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatal("Serve did not return after exit")
	}
}

func find(diags []lsp.Diagnostic, code string) *lsp.Diagnostic {
	for i := range diags {
		if diags[i].Code == code {
			return &diags[i]
		}
	}
	return nil
}

// utf16Pos is the editor position of byte offset off in text, counted
// here rune by rune (not with the server's line table).
func utf16Pos(text string, off int) lsp.Position {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	return lsp.Position{Line: line, Character: len(utf16.Encode([]rune(text[start:off])))}
}

// byteOffset is utf16Pos's inverse.
func byteOffset(text string, p lsp.Position) int {
	off := 0
	for l := 0; l < p.Line; l++ {
		off += strings.IndexByte(text[off:], '\n') + 1
	}
	for u := 0; u < p.Character; {
		r, size := utf8.DecodeRuneInString(text[off:])
		u += utf16.RuneLen(r)
		off += size
	}
	return off
}

// applyEdits applies an edit's TextEdits to text, last first.
func applyEdits(text string, edits []lsp.TextEdit) string {
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{byteOffset(text, e.Range.Start), byteOffset(text, e.Range.End), e.NewText})
	}
	for i := len(spans) - 1; i >= 0; i-- {
		// udiff's edits come sorted and do not overlap.
		s := spans[i]
		text = text[:s.start] + s.text + text[s.end:]
	}
	return text
}

// writeTree writes files (slash-separated names) under a new directory and
// returns it, symlinks resolved.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// settle waits for the goroutines to come back to n (a leak fails).
func settle(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fileURI is the file:// URI of an absolute path, made as an editor makes
// it (VS Code's Uri.file: the path, slash-separated and escaped).
func fileURI(path string) lsp.DocumentURI {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return lsp.DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}

// uriFile is the path of a file:// URI the server sent.
func uriFile(uri lsp.DocumentURI) (string, error) {
	u, err := url.Parse(string(uri))
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%s: not a file:// URI", uri)
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///c:/x on Windows
	}
	return filepath.FromSlash(p), nil
}
