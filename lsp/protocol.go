package lsp

import "encoding/json"

// The parts of the Language Server Protocol 3.17 that the server speaks,
// as JSON (the specification's names). sourcegraph/jsonrpc2 carries the
// messages; it has no LSP types of its own, and the typed packages that
// have them (go.lsp.dev/protocol) stop at 3.16 and bring a logger and an
// HTTP stack with them.

// DocumentURI is a file:// URI, as the client spells it.
type DocumentURI string

// Position is a 0-based line and a UTF-16 column (positionEncoding utf-16,
// the protocol's default and the one the server announces).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Location struct {
	URI   DocumentURI `json:"uri"`
	Range Range       `json:"range"`
}

type TextDocumentIdentifier struct {
	URI DocumentURI `json:"uri"`
}

type VersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version int         `json:"version"`
}

type TextDocumentItem struct {
	URI        DocumentURI `json:"uri"`
	LanguageID string      `json:"languageId"`
	Version    int         `json:"version"`
	Text       string      `json:"text"`
}

type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// Lifecycle.

type InitializeParams struct {
	ProcessID    *int               `json:"processId"`
	RootURI      DocumentURI        `json:"rootUri,omitempty"`
	Capabilities ClientCapabilities `json:"capabilities"`
}

// ClientCapabilities holds the client capabilities the server adapts to.
type ClientCapabilities struct {
	TextDocument struct {
		PublishDiagnostics struct {
			RelatedInformation     bool `json:"relatedInformation"`
			CodeDescriptionSupport bool `json:"codeDescriptionSupport"`
			VersionSupport         bool `json:"versionSupport"`
		} `json:"publishDiagnostics"`
		Hover struct {
			ContentFormat []string `json:"contentFormat"`
		} `json:"hover"`
		Completion struct {
			CompletionItem struct {
				DocumentationFormat []string `json:"documentationFormat"`
			} `json:"completionItem"`
		} `json:"completion"`
		CodeAction struct {
			CodeActionLiteralSupport *json.RawMessage `json:"codeActionLiteralSupport"`
			IsPreferredSupport       bool             `json:"isPreferredSupport"`
			DisabledSupport          bool             `json:"disabledSupport"`
		} `json:"codeAction"`
	} `json:"textDocument"`
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
}

type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type ServerCapabilities struct {
	PositionEncoding   string                   `json:"positionEncoding,omitempty"`
	TextDocumentSync   *TextDocumentSyncOptions `json:"textDocumentSync,omitempty"`
	HoverProvider      bool                     `json:"hoverProvider,omitempty"`
	CompletionProvider *CompletionOptions       `json:"completionProvider,omitempty"`
	CodeActionProvider *CodeActionOptions       `json:"codeActionProvider,omitempty"`
	// ExecuteCommandProvider lists the commands of commands.go.
	ExecuteCommandProvider *ExecuteCommandOptions `json:"executeCommandProvider,omitempty"`
	// Workspace asks for the editor's file operations (a file created,
	// deleted or renamed in the editor).
	Workspace *WorkspaceServerCapabilities `json:"workspace,omitempty"`
}

type WorkspaceServerCapabilities struct {
	FileOperations *FileOperationOptions `json:"fileOperations,omitempty"`
}

type FileOperationOptions struct {
	DidCreate *FileOperationRegistrationOptions `json:"didCreate,omitempty"`
	DidRename *FileOperationRegistrationOptions `json:"didRename,omitempty"`
	DidDelete *FileOperationRegistrationOptions `json:"didDelete,omitempty"`
}

type FileOperationRegistrationOptions struct {
	Filters []FileOperationFilter `json:"filters"`
}

type FileOperationFilter struct {
	Pattern FileOperationPattern `json:"pattern"`
}

type FileOperationPattern struct {
	Glob string `json:"glob"`
}

// CreateFilesParams and DeleteFilesParams are the files of
// workspace/didCreateFiles and workspace/didDeleteFiles.
type CreateFilesParams struct {
	Files []FileCreate `json:"files"`
}

type FileCreate struct {
	URI DocumentURI `json:"uri"`
}

type DeleteFilesParams = CreateFilesParams

// RenameFilesParams are the files of workspace/didRenameFiles.
type RenameFilesParams struct {
	Files []FileRename `json:"files"`
}

type FileRename struct {
	OldURI DocumentURI `json:"oldUri"`
	NewURI DocumentURI `json:"newUri"`
}

// RegistrationParams is client/registerCapability's (the watched files).
type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

type FileSystemWatcher struct {
	GlobPattern string `json:"globPattern"`
}

// TextDocumentSyncKind: how the client sends changes.
const (
	SyncFull        = 1
	SyncIncremental = 2
)

type TextDocumentSyncOptions struct {
	OpenClose bool         `json:"openClose"`
	Change    int          `json:"change"`
	Save      *SaveOptions `json:"save,omitempty"`
}

type SaveOptions struct {
	IncludeText bool `json:"includeText"`
}

type CompletionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters,omitempty"`
}

type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds,omitempty"`
}

// Text synchronization.

type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// TextDocumentContentChangeEvent replaces Range with Text, or the whole
// text when Range is nil.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

type FileEvent struct {
	URI  DocumentURI `json:"uri"`
	Type int         `json:"type"`
}

// Diagnostics.

// DiagnosticSeverity values.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity,omitempty"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type CodeDescription struct {
	Href string `json:"href"`
}

type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Code actions.

type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
	// TriggerKind is 1 when the user asked, 2 when the editor asked by
	// itself (0: a client older than 3.17 did not say).
	TriggerKind int `json:"triggerKind,omitempty"`
}

// CodeActionKind values.
const KindQuickFix = "quickfix"

type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind,omitempty"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Disabled    *Disabled      `json:"disabled,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

type Disabled struct {
	Reason string `json:"reason"`
}

type WorkspaceEdit struct {
	Changes map[DocumentURI][]TextEdit `json:"changes"`
}

type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// Hover and completion.

type MarkupContent struct {
	Kind  string `json:"kind"` // plaintext or markdown
	Value string `json:"value"`
}

type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

type CompletionParams struct {
	TextDocumentPositionParams
}

// CompletionItemKind values the server uses.
const (
	CompletionProperty = 10
	CompletionValue    = 12
	CompletionEnum     = 13
)

// CompletionItemTagDeprecated strikes an item through.
const CompletionItemTagDeprecated = 1

type CompletionItem struct {
	Label         string         `json:"label"`
	Kind          int            `json:"kind,omitempty"`
	Tags          []int          `json:"tags,omitempty"`
	Detail        string         `json:"detail,omitempty"`
	Documentation *MarkupContent `json:"documentation,omitempty"`
	SortText      string         `json:"sortText,omitempty"`
	FilterText    string         `json:"filterText,omitempty"`
	TextEdit      *TextEdit      `json:"textEdit,omitempty"`
}

type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// Window.

// MessageType values.
const (
	MessageError   = 1
	MessageWarning = 2
)

type ShowMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}
