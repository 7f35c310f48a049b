// Package lsp is fwmigrate's language server (`fwmigrate lsp`): the checks
// of `fwmigrate check` in the editor, over the Language Server Protocol
// 3.17 on stdio, for fw.config.* files, .env files and the app code the
// code rules (FW6xx) read.
//
// It publishes each project's diagnostics as the user types (debounced;
// only the projects a change reaches are checked again), on the unsaved
// buffers (project.Loader.Overlay), with the project's settings file as
// check applies it. Code actions carry every fix, made as `apply` makes it
// (rewrite.ApplyGroups and rewrite.Verify on the config, rewrite.EditCode
// on code files), and a fwmigrate-ignore comment; source.fixAll.fwmigrate
// makes the project's safe fixes at once, as apply does; the command
// fwmigrate.migrate names the `fwmigrate apply` that migrates a document's
// project, for the client to run; hovers show `fwmigrate
// options` and `fwmigrate explain`; completion offers option keys and enum
// values. The server never writes a file: every edit goes back to the
// editor as a WorkspaceEdit.
//
// One file per concern: protocol.go (the messages), server.go (the
// connection and its lifecycle), documents.go (open buffers), projects.go
// (which projects a file reaches, scheduling, the check), diagnostics.go,
// actions.go, fixall.go, commands.go, hover.go, complete.go.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// Options configure a server.
type Options struct {
	// Debounce is how long the server waits after a change before it
	// checks: a burst of keystrokes is checked once. 0 checks at once.
	Debounce time.Duration
	// Version is reported in serverInfo.
	Version string
	// Logf, when set, receives the server's log lines (a client's output
	// panel shows stderr); nil discards them.
	Logf func(format string, args ...any)
	// Check replaces the check of a project (tests make it panic).
	Check CheckFunc
	// CheckStarts, when set, runs as each check of a project starts, with
	// the check's context, before the check takes the buffers: a change
	// sent from it comes exactly as a check starts (the test of that race
	// places it there, deterministically, without sleeps).
	CheckStarts func(ctx context.Context)
}

// DefaultDebounce is the delay of `fwmigrate lsp`: about a keystroke's gap.
const DefaultDebounce = 100 * time.Millisecond

// ErrNoShutdown is Serve's error when the client sent exit without
// shutdown first (the protocol's exit status 1).
var ErrNoShutdown = errors.New("exit without shutdown")

// Server is one client's session.
type Server struct {
	opts  Options
	conn  *jsonrpc2.Conn
	ready chan struct{} // closed once conn is set: the first message may come before

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	exited      bool
	caps        ClientCapabilities
	docs        map[string]*document // by path and by real path
	projects    map[string]*projectState
	published   map[string]map[string][]Diagnostic // file -> config -> diagnostics
	sent        map[string][]Diagnostic            // file -> the last list sent, when not empty
	ws          *workspace.Workspace               // settings, baselines, the framework major: as check and apply have them
	shown       map[string]bool                    // messages shown once

	pubMu sync.Mutex // one publish at a time, so that a file's lists arrive in order

	sched *scheduler
}

// Serve runs a server on rwc (stdin and stdout for `fwmigrate lsp`) until
// the client sends exit or closes the stream. A message it cannot read is
// answered with an error and the next one read (stream.go). It returns
// ErrNoShutdown when exit came without shutdown, the reason when the input
// broke off inside a message or no message header followed a malformed
// one, and nil otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := newServer(opts)
	s.sched = newScheduler(opts.Debounce, s.checkPending)
	st := newStream(rwc)
	s.conn = jsonrpc2.NewConn(ctx, st, jsonrpc2.HandlerWithError(s.handle), jsonrpc2.SetLogger(logger{s}))
	close(s.ready)
	<-s.conn.DisconnectNotify()
	s.sched.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited && !s.shutdown {
		return ErrNoShutdown
	}
	if err := st.failed(); err != nil {
		// The input could not be read on: the client's stream is broken.
		// The caller logs it (`fwmigrate lsp` on stderr, exit status 2).
		return err
	}
	return nil
}

func newServer(opts Options) *Server {
	if opts.Check == nil {
		opts.Check = rules.Run
	}
	return &Server{
		opts:      opts,
		ready:     make(chan struct{}),
		docs:      map[string]*document{},
		projects:  map[string]*projectState{},
		published: map[string]map[string][]Diagnostic{},
		ws:        newWorkspace(),
		sent:      map[string][]Diagnostic{},
		shown:     map[string]bool{},
	}
}

type logger struct{ s *Server }

func (l logger) Printf(format string, args ...any) { l.s.logf(format, args...) }

func (s *Server) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}

// Errors of the protocol.
const (
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
)

// handle answers one message. It runs on the connection's read loop, one
// message at a time, so that changes are applied in the order sent; the
// checks run on the scheduler's goroutine.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		// A bug in a feature fails that request, not the server.
		if e := recover(); e != nil {
			s.logf("fwmigrate lsp: internal error in %s: %v\n%s", req.Method, e, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: codeInternalError, Message: fmt.Sprintf("fwmigrate: internal error in %s: %v", req.Method, e)}
		}
	}()
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		s.mu.Lock()
		s.exited = true
		s.mu.Unlock()
		conn.Close()
		return nil, nil
	case req.Method == "initialize":
		if initialized {
			return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "initialize was already sent"}
		}
		return s.initialize(req)
	case !initialized:
		if req.Notif {
			return nil, nil // dropped, as the protocol says
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "initialize first"}
	case shutdown && !req.Notif:
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "the server is shutting down"}
	}
	switch req.Method {
	case "initialized":
		s.watchFiles()
	case "$/cancelRequest", "$/setTrace":
		return nil, nil
	case "workspace/didChangeConfiguration":
		// The settings live in files (fwmigrate.json), read again when
		// saved; the editor's own settings may have moved files out of
		// sight (files.exclude): the folders are listed again.
		s.mu.Lock()
		s.forgetFolders()
		s.mu.Unlock()
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.sched.stop()
		return nil, nil
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didOpen(p)
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didChange(p)
	case "textDocument/didSave":
		var p DidSaveTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.saved(p.TextDocument.URI)
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didClose(p.TextDocument.URI)
	case "workspace/didChangeWatchedFiles":
		var p DidChangeWatchedFilesParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		for _, c := range p.Changes {
			s.didSave(c.URI)
		}
	case "workspace/didCreateFiles", "workspace/didDeleteFiles":
		var p CreateFilesParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		for _, f := range p.Files {
			s.didSave(f.URI)
		}
	case "workspace/didRenameFiles":
		var p RenameFilesParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		for _, f := range p.Files {
			s.didSave(f.OldURI)
			s.didSave(f.NewURI)
		}
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.codeActionsFor(p), nil
	case "workspace/executeCommand":
		var p ExecuteCommandParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.executeCommand(p)
	case "textDocument/hover":
		var p TextDocumentPositionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.hover(p), nil
	case "textDocument/completion":
		var p CompletionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.complete(p), nil
	default:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: codeMethodNotFound, Message: "fwmigrate lsp does not handle " + req.Method}
	}
	return nil, nil
}

func params(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: codeInvalidParams, Message: req.Method + ": no params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: codeInvalidParams, Message: fmt.Sprintf("%s: %v", req.Method, err)}
	}
	return nil
}

func (s *Server) initialize(req *jsonrpc2.Request) (any, error) {
	var p InitializeParams
	if err := params(req, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.initialized = true
	s.caps = p.Capabilities
	if root, err := uriPath(p.RootURI); p.RootURI != "" && err == nil {
		// Outside git, what a project reads is confined to the folder
		// the editor opened.
		s.ws.Tops = []string{root}
	}
	s.mu.Unlock()
	return InitializeResult{
		Capabilities: ServerCapabilities{
			PositionEncoding:       "utf-16",
			TextDocumentSync:       &TextDocumentSyncOptions{OpenClose: true, Change: SyncIncremental, Save: &SaveOptions{}},
			HoverProvider:          true,
			CompletionProvider:     &CompletionOptions{TriggerCharacters: []string{"'", `"`}},
			CodeActionProvider:     &CodeActionOptions{CodeActionKinds: []string{KindQuickFix, KindSourceFixAll, KindFixAll}},
			ExecuteCommandProvider: &ExecuteCommandOptions{Commands: []string{CommandMigrate}},
			Workspace:              &WorkspaceServerCapabilities{FileOperations: fileOperations()},
		},
		ServerInfo: &ServerInfo{Name: "fwmigrate", Version: s.opts.Version},
	}, nil
}

// notify sends a notification; a closed connection is not an error worth
// more than a log line.
func (s *Server) notify(method string, params any) {
	<-s.ready
	if err := s.conn.Notify(context.Background(), method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.logf("fwmigrate lsp: %s: %v", method, err)
	}
}

// showOnce shows a message to the user once per session.
func (s *Server) showOnce(typ int, msg string) {
	s.mu.Lock()
	seen := s.shown[msg]
	s.shown[msg] = true
	s.mu.Unlock()
	if !seen {
		s.logf("fwmigrate lsp: %s", msg)
		s.notify("window/showMessage", ShowMessageParams{Type: typ, Message: msg})
	}
}

// newWorkspace is the server's workspace: the settings as check has them,
// and a cache of the code read, so that a check after an edit parses the
// edited file alone.
func newWorkspace() *workspace.Workspace {
	ws := workspace.New(settings.Flags{})
	ws.Cache = project.NewCache()
	return ws
}

// fileOperations asks for every file the editor creates, deletes or
// renames: the server keeps the listing of the projects' folders between
// checks, and forgets it on such a change (didSave).
func fileOperations() *FileOperationOptions {
	all := &FileOperationRegistrationOptions{Filters: []FileOperationFilter{{Pattern: FileOperationPattern{Glob: "**/*"}}}}
	return &FileOperationOptions{DidCreate: all, DidRename: all, DidDelete: all}
}

// watchFiles asks a client that can watch files for the changes made
// outside the editor (a checkout, a build): the server keeps the listing
// of the projects' folders between checks and forgets it on a change
// (didSave). The request is sent from a goroutine: its answer comes on the
// connection's read loop, which runs this handler.
func (s *Server) watchFiles() {
	s.mu.Lock()
	ok := s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		<-s.ready
		params := RegistrationParams{Registrations: []Registration{{
			ID:              "fwmigrate-watched-files",
			Method:          "workspace/didChangeWatchedFiles",
			RegisterOptions: DidChangeWatchedFilesRegistrationOptions{Watchers: []FileSystemWatcher{{GlobPattern: "**/*"}}},
		}}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.logf("fwmigrate lsp: client/registerCapability: %v", err)
		}
	}()
}
