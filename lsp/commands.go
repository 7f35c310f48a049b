package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
)

// Commands (workspace/executeCommand).
//
// fwmigrate.migrate, "Migrate this project", names the project a document
// belongs to and the `fwmigrate apply` that migrates it; it runs nothing.
// The client runs that command where the user sees it (the VS Code
// extension: in a terminal). The migration is apply's alone: it moves the
// sources into app/ and rewrites the config and the code as one journaled
// transaction behind its git guard, refuses what it must, and finishes or
// undoes an interrupted run. The same move sent back as a workspace/applyEdit
// of RenameFile and TextEdit operations would have none of that: an editor
// applies such an edit file by file, with no journal to finish it after a
// crash, no check that the tree is still as planned, and no git guard; and
// the move's plan is apply's (package migrate), which the server does not
// import.

// CommandMigrate is the command of "Migrate this project".
const CommandMigrate = "fwmigrate.migrate"

// MigrateTarget is fwmigrate.migrate's answer: run `fwmigrate` with Args in
// Cwd, in a terminal.
type MigrateTarget struct {
	Config string   `json:"config"` // the project's config, absolute
	Cwd    string   `json:"cwd"`    // its folder
	Args   []string `json:"args"`   // fwmigrate's arguments: apply and the config's name
}

type ExecuteCommandOptions struct {
	Commands []string `json:"commands"`
}

type ExecuteCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// executeCommand runs a command of ExecuteCommandOptions.
func (s *Server) executeCommand(p ExecuteCommandParams) (any, error) {
	switch p.Command {
	case CommandMigrate:
		return s.migrateTarget(p.Arguments)
	}
	return nil, &jsonrpc2.Error{Code: codeInvalidParams, Message: "fwmigrate lsp has no command " + text.Escape(p.Command)}
}

// migrateTarget answers fwmigrate.migrate: its argument is the URI of a
// file of the project (a string, or a TextDocumentIdentifier).
func (s *Server) migrateTarget(args []json.RawMessage) (*MigrateTarget, error) {
	bad := func(format string, a ...any) error {
		return &jsonrpc2.Error{Code: codeInvalidParams, Message: fmt.Sprintf(format, a...)}
	}
	if len(args) != 1 {
		return nil, bad("%s: one argument wanted, the URI of a file of the project", CommandMigrate)
	}
	var uri DocumentURI
	if err := json.Unmarshal(args[0], &uri); err != nil {
		var id TextDocumentIdentifier
		if err := json.Unmarshal(args[0], &id); err != nil || id.URI == "" {
			return nil, bad("%s: the argument is neither a URI nor a text document identifier", CommandMigrate)
		}
		uri = id.URI
	}
	path, err := uriPath(uri)
	if err != nil {
		return nil, bad("%s: %s", CommandMigrate, text.Escape(err.Error()))
	}
	s.mu.Lock()
	owner := ""
	if d := s.docs[path]; d != nil {
		owner = d.owner
	}
	s.mu.Unlock()
	if owner == "" {
		owner = project.OwnerConfig(path)
	}
	if owner == "" {
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: fmt.Sprintf("%s is in no project: no fw.config.* in its folder or above", text.Escape(path))}
	}
	return &MigrateTarget{Config: owner, Cwd: filepath.Dir(owner), Args: []string{"apply", filepath.Base(owner)}}, nil
}
