package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	udiff "github.com/aymanbagabas/go-udiff"
)

// WriteFile replaces the file at path with data atomically: data goes to a
// temporary file in the same directory, which is synced and then renamed
// over the original, so that a crash leaves either the old or the new file,
// never a torn one. The file's permission bits are kept. A symbolic link is
// followed, so that the link stays a link and its target is rewritten.
func WriteFile(path string, data []byte) (err error) {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := fs.FileMode(0o644)
	info, err := os.Stat(target)
	switch {
	case err == nil:
		if !info.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("write %s: %w", path, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".fwmigrate-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	// Make the rename itself durable. The data is already safe, so a
	// failure here is ignored.
	SyncDir(dir)
	return nil
}

// Diff returns a unified diff from old to new for the file at path, with
// the a/ and b/ prefixes that `git apply` and `patch -p1` expect (the names
// quoted as git quotes them: GitQuote), or "" when they are equal. Lines keep their own line endings, so CRLF files
// diff and apply as they are; a missing final newline is marked as diff(1)
// does.
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	name := filepath.ToSlash(filepath.Clean(path))
	edits := udiff.Lines(string(old), string(new))
	out, err := udiff.ToUnified(GitQuote("a/"+name), GitQuote("b/"+name), string(old), edits, udiff.DefaultContextLines)
	if err != nil {
		// Lines computes its edits from old itself: they cannot be out of
		// range or overlap. Say so loudly rather than print nothing.
		return fmt.Sprintf("# fwmigrate: cannot diff %s: %v\n", name, err)
	}
	return out
}
