package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fwmigrate/fwmigrate/lsp"
)

// rawClient writes bytes to a server as they are, to send what an editor's
// well-behaved JSON-RPC library never would, and reads its responses.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	done chan error
}

func startRaw(t *testing.T) *rawClient {
	a, b := net.Pipe()
	c := &rawClient{t: t, conn: b, r: bufio.NewReader(b), done: make(chan error, 1)}
	go func() { c.done <- lsp.Serve(context.Background(), a, lsp.Options{}) }()
	t.Cleanup(func() { b.Close() })
	return c
}

func (c *rawClient) send(raw string) {
	c.t.Helper()
	c.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c.conn, raw); err != nil {
		c.t.Fatalf("write %q: %v", raw, err)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

type rawResponse struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// response reads the server's next response, skipping its notifications
// and requests.
func (c *rawClient) response() rawResponse {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		length := -1
		for {
			line, err := c.r.ReadString('\n')
			if err != nil {
				c.t.Fatalf("reading a response: %v", err)
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(c.r, body); err != nil {
			c.t.Fatalf("reading a response body: %v", err)
		}
		var m rawResponse
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Fatalf("response %s: %v", body, err)
		}
		if m.Method == "" {
			return m
		}
	}
}

// wantError reads the next response and checks that it is the error code
// for id ("null" when the message's id cannot be known).
func (c *rawClient) wantError(what string, code int, id string) {
	c.t.Helper()
	m := c.response()
	if m.Error == nil || m.Error.Code != code || string(m.ID) != id {
		c.t.Errorf("%s: got id %s error %+v, want id %s code %d", what, m.ID, m.Error, id, code)
	}
}

func (c *rawClient) wantResult(what, id string) {
	c.t.Helper()
	m := c.response()
	if m.Error != nil || string(m.ID) != id {
		c.t.Errorf("%s: got id %s error %+v, want the result of %s", what, m.ID, m.Error, id)
	}
}

func (c *rawClient) served() error {
	c.t.Helper()
	select {
	case err := <-c.done:
		return err
	case <-time.After(30 * time.Second):
		c.t.Fatal("the server did not end")
		return nil
	}
}

// TestMalformedMessages: each message the server cannot take gets its
// JSON-RPC error, with id null where the id cannot be known, and the
// server answers the next request as if nothing had happened; a bad
// header is skipped to the next one.
func TestMalformedMessages(t *testing.T) {
	c := startRaw(t)
	c.send(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`))
	c.wantResult("initialize", "1")
	c.send(frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))

	c.send(frame(`this is not JSON`))
	c.wantError("a body that is not JSON", jsonrpc2.CodeParseError, "null")
	c.send(frame(`{"jsonrpc":"2.0","id":2,"method":`))
	c.wantError("a body cut short", jsonrpc2.CodeParseError, "null")
	c.send(frame(`[]`))
	c.wantError("an empty batch", jsonrpc2.CodeInvalidRequest, "null")
	c.send(frame(`[{"jsonrpc":"2.0","id":3,"method":"shutdown"}]`))
	c.wantError("a batch", jsonrpc2.CodeInvalidRequest, "null")
	c.send(frame(`42`))
	c.wantError("a number", jsonrpc2.CodeInvalidRequest, "null")
	c.send(frame(`{"jsonrpc":"2.0","id":4,"method":"x","result":1}`))
	c.wantError("a request with a result", jsonrpc2.CodeInvalidRequest, "4")
	c.send("Content-Length: 0\r\n\r\n")
	c.wantError("an empty body", jsonrpc2.CodeParseError, "null")

	// Bad headers: each is answered, and what follows up to the next
	// Content-Length is skipped, however it is written (the request of
	// id 5 in the first is never run: the server would have shut down).
	for i, bad := range []struct{ what, raw string }{
		{"a Content-Length that is not a number", "Content-Length: abc\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"shutdown\"}"},
		{"no Content-Length", "Content-Type: application/json\r\n\r\n{}"},
		{"a header line without a colon", "garbage without a colon\r\n\r\n{}\r\n"},
		{"a Content-Length over the limit", "Content-Length: 99999999999\r\n\r\n{}"},
		{"a header line too long", strings.Repeat("x", 5000) + "\r\n"},
	} {
		id := strconv.Itoa(10 + i)
		c.send(bad.raw + frame(`{"jsonrpc":"2.0","id":`+id+`,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/fw.config.ts"},"position":{"line":0,"character":0}}}`))
		c.wantError(bad.what, jsonrpc2.CodeParseError, "null")
		c.wantResult("a hover after "+bad.what, id)
	}

	// A header with bare line feeds, as some clients write, is read; then
	// the session ends as it should.
	body := `{"jsonrpc":"2.0","id":7,"method":"shutdown"}`
	c.send(fmt.Sprintf("Content-Length: %d\n\n%s", len(body), body))
	c.wantResult("shutdown", "7")
	c.send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	if err := c.served(); err != nil {
		t.Errorf("Serve after shutdown and exit: %v", err)
	}
}

// TestBrokenStream: when no message can follow (the input ends inside a
// header or a body, or after a bad header), Serve ends with an error that
// says why, which `fwmigrate lsp` prints before exiting with status 2; an
// input that ends between messages is a clean end.
func TestBrokenStream(t *testing.T) {
	for _, tc := range []struct {
		name, raw, err string
	}{
		{"bad header, then nothing", "Content-Length: x\r\n\r\n{}", "no message header follows"},
		{"inside a header", "Content-Len", "the input ended inside a message header"},
		{"inside a body", "Content-Length: 100\r\n\r\n{\"jsonrpc\"", "the input ended inside a message body of 100 bytes"},
		{"between messages", frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startRaw(t)
			c.send(tc.raw)
			if strings.HasPrefix(tc.raw, "Content-Length: x") {
				c.wantError("the bad header", jsonrpc2.CodeParseError, "null")
			}
			c.conn.Close()
			err := c.served()
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Serve = %v, want nil", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("Serve = %v, want an error with %q", err, tc.err)
			}
		})
	}
}
