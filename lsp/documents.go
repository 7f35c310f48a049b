package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// The editor's open buffers. The server never reads an open file from the
// disk: the checks see the buffers through the project Loader's Overlay.

// document is one open buffer. Its text is never changed in place: a
// change makes a new slice, so that a check may keep reading the one it
// took.
type document struct {
	uri     DocumentURI
	path    string // absolute, clean, as the URI names it
	real    string // path with symlinks resolved ("" when the same)
	version int
	text    []byte
	// owner is the config of the project the file belongs to, found when
	// it was opened ("" when none).
	owner string
}

// uriPath returns the file path of a file:// URI.
func uriPath(uri DocumentURI) (string, error) {
	u, err := url.Parse(string(uri))
	if err != nil {
		return "", fmt.Errorf("%s: %v", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%s: not a file:// URI", uri)
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///c:/x on Windows
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathURI returns the file:// URI of an absolute path.
func pathURI(path string) DocumentURI {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return DocumentURI((&url.URL{Scheme: "file", Path: p}).String())
}

// position is the editor position of a byte offset in lines' text.
func position(lines ast.Lines, off int) Position {
	p := lines.Position(off)
	return Position{Line: p.Line - 1, Character: p.ColumnUTF16 - 1}
}

// applyChanges returns text with the changes of one didChange made, in
// order; a change without a range replaces the whole text.
func applyChanges(text []byte, changes []TextDocumentContentChangeEvent) []byte {
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		lines := ast.NewLines(text)
		start := lines.Offset(c.Range.Start.Line+1, c.Range.Start.Character+1)
		end := lines.Offset(c.Range.End.Line+1, c.Range.End.Character+1)
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		next = append(next, text[:start]...)
		next = append(next, c.Text...)
		next = append(next, text[end:]...)
		text = next
	}
	return text
}
