package rewrite

import (
	"bytes"
	"fmt"
	"path/filepath"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/internal/gitquote"
)

// Diff returns a unified diff from old to new for the file at path, with
// the a/ and b/ prefixes that `git apply` and `patch -p1` expect (the names
// quoted as git quotes them: gitquote.Quote), or "" when they are equal. Lines keep their own line endings, so CRLF files
// diff and apply as they are; a missing final newline is marked as diff(1)
// does.
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	name := filepath.ToSlash(filepath.Clean(path))
	edits := udiff.Lines(string(old), string(new))
	out, err := udiff.ToUnified(gitquote.Quote("a/"+name), gitquote.Quote("b/"+name), string(old), edits, udiff.DefaultContextLines)
	if err != nil {
		// Lines computes its edits from old itself: they cannot be out of
		// range or overlap. Say so loudly rather than print nothing.
		return fmt.Sprintf("# fwmigrate: cannot diff %s: %v\n", name, err)
	}
	return out
}
