package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// stream is the base protocol of LSP (header lines, one of them
// Content-Length, a blank line, a JSON body) under the jsonrpc2 connection.
// jsonrpc2's own reader ends the connection at the first message it cannot
// read, with no answer: a client's one bad message ended the server with
// exit status 0. JSON-RPC wants an error response instead (-32700 for a
// body that is not JSON, -32600 for one that is not a request, both with
// id null) and the server to go on; this reader answers such messages
// itself and reads the next. A header it cannot frame is answered too and
// skipped to the next Content-Length header; only when no message follows
// does reading end, with err set, which Serve returns.
type stream struct {
	rwc io.ReadWriteCloser
	r   *bufio.Reader

	wmu sync.Mutex // one write at a time: the connection's and the stream's own answers
	w   *bufio.Writer

	// pending is a header line already read by resync.
	pending *string

	mu     sync.Mutex
	err    error // why reading ended, when the input did not end cleanly
	closed bool
}

// The base protocol's limits: a header line is short, and a body larger
// than maxBody (a whole file of an editor's buffer is one) is not framed.
const (
	maxHeaderLine = 4 << 10
	maxBody       = 256 << 20
)

// JSON-RPC's codes for messages that cannot be read.
const (
	codeParseError = -32700
)

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{rwc: rwc, r: bufio.NewReader(rwc), w: bufio.NewWriter(rwc)}
}

// errFrame is a header that does not frame a message.
type errFrame struct{ why string }

func (e errFrame) Error() string { return "malformed message header: " + e.why }

// WriteObject writes one message, as jsonrpc2.VSCodeObjectCodec does.
func (s *stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	return s.write(data)
}

func (s *stream) write(data []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, err := fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	if _, err := s.w.Write(data); err != nil {
		return err
	}
	return s.w.Flush()
}

func (s *stream) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.rwc.Close()
}

// failed returns why reading ended, nil when the input ended cleanly
// (between messages) or the server had closed it (exit).
func (s *stream) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *stream) fail(err error) error {
	s.mu.Lock()
	if !s.closed {
		s.err = err
	}
	s.mu.Unlock()
	return err
}

// ReadObject reads the next message the connection can take into v,
// answering the others.
func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readMessage()
		var bad errFrame
		switch {
		case errors.As(err, &bad):
			s.reject(nil, codeParseError, bad.Error())
			if err := s.resync(); err != nil {
				return s.fail(fmt.Errorf("%v; no message header follows: %w", bad, err))
			}
			continue
		case errors.Is(err, io.EOF):
			return err // the client closed the stream between messages
		case err != nil:
			return s.fail(err)
		}
		if code, msg := invalid(body); code != 0 {
			s.reject(requestID(body), code, msg)
			continue
		}
		if err := json.Unmarshal(body, v); err != nil {
			s.reject(requestID(body), codeInvalidRequest, "not a JSON-RPC request, response or notification: "+err.Error())
			continue
		}
		return nil
	}
}

// invalid says why a body is not one message the connection can take: not
// JSON, a batch (LSP has none; an empty one is invalid in JSON-RPC too),
// not an object.
func invalid(body []byte) (int64, string) {
	if !json.Valid(body) {
		return codeParseError, "parse error: the message body is not JSON"
	}
	switch t := bytes.TrimLeft(body, " \t\r\n"); t[0] {
	case '{':
		return 0, ""
	case '[':
		var batch []json.RawMessage
		if json.Unmarshal(t, &batch) == nil && len(batch) == 0 {
			return codeInvalidRequest, "invalid request: an empty batch"
		}
		return codeInvalidRequest, "invalid request: batches are not supported by the Language Server Protocol"
	}
	return codeInvalidRequest, "invalid request: the message is not a JSON object"
}

// requestID is the id of a body that is an object with a usable one, so
// that the client can match the error to its request; nil otherwise.
func requestID(body []byte) *jsonrpc2.ID {
	var m struct {
		ID *jsonrpc2.ID `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return m.ID
}

// reject answers a message that cannot be handled. id nil is written as
// null, as JSON-RPC wants when the id cannot be known.
func (s *stream) reject(id *jsonrpc2.ID, code int64, msg string) {
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      *jsonrpc2.ID    `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, &jsonrpc2.Error{Code: code, Message: msg}}
	data, err := json.Marshal(resp)
	if err == nil {
		err = s.write(data)
	}
	_ = err // the next read finds a broken stream
}

// readMessage reads one message's headers and body. io.EOF means the input
// ended before any header; errFrame a header block that frames nothing.
func (s *stream) readMessage() ([]byte, error) {
	length, seen := -1, false
	for {
		line, err := s.headerLine()
		if err != nil {
			if !seen && err == io.EOF {
				return nil, io.EOF
			}
			if _, ok := err.(errFrame); ok {
				return nil, err
			}
			return nil, fmt.Errorf("the input ended inside a message header: %w", err)
		}
		if line == "" {
			if !seen {
				continue // blank lines between messages frame nothing: skipped
			}
			break
		}
		seen = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, errFrame{fmt.Sprintf("a header line without a colon: %s", strconv.Quote(short(line)))}
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type, or a header of a later version
		}
		n, err := strconv.Atoi(strings.TrimSpace(value))
		switch {
		case err != nil || n < 0:
			return nil, errFrame{fmt.Sprintf("Content-Length is not a length: %s", strconv.Quote(short(value)))}
		case n > maxBody:
			return nil, errFrame{fmt.Sprintf("Content-Length %d is over the limit of %d bytes", n, maxBody)}
		}
		length = n
	}
	if length < 0 {
		return nil, errFrame{"no Content-Length header"}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, fmt.Errorf("the input ended inside a message body of %d bytes: %w", length, err)
	}
	return body, nil
}

// headerLine reads one header line without its line end (CRLF, or a bare
// LF as some clients write).
func (s *stream) headerLine() (string, error) {
	if s.pending != nil {
		line := *s.pending
		s.pending = nil
		return line, nil
	}
	var b []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxHeaderLine {
			// Not a header: the bytes up to the next Content-Length are
			// skipped by resync.
			return "", errFrame{fmt.Sprintf("a header line longer than %d bytes", maxHeaderLine)}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(b) > 0 && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
	}
}

// resync skips the input up to the next "Content-Length:" (a body is not
// followed by a line end, so it may be anywhere in a line) and keeps that
// header line for readMessage.
func (s *stream) resync() error {
	const key = "content-length:"
	matched := 0
	for matched < len(key) {
		c, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		switch {
		case lower(c) == key[matched]:
			matched++
		case lower(c) == key[0]:
			matched = 1
		default:
			matched = 0
		}
	}
	rest, err := s.headerLine()
	if err != nil {
		return err
	}
	line := "Content-Length:" + rest
	s.pending = &line
	return nil
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// short cuts a quoted header value for a message.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
