package rewrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WriteNew creates the file name, which must not exist, holding data with
// permissions perm (umask not applied). With sync the data is on disk
// (fsync) before it returns, so that a rename of the file over another one
// can never leave an empty or torn file after a crash. A failed write
// removes what it created.
func WriteNew(name string, data []byte, perm fs.FileMode, sync bool) (err error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if sync {
		return f.Sync()
	}
	return nil
}

// SyncDir makes the entries of the directory name durable: the creations,
// renames and removals in it survive a crash once it returns. Systems that
// cannot sync a directory (EINVAL) have nothing more to give, which is not
// an error.
func SyncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}

// ReplaceFile writes data to name atomically and durably, outside any
// journal: a temporary beside it (synced), renamed over it, the directory
// synced. It keeps name's permissions (0644 for a new file). For files that
// are fwmigrate's own (a baseline), not a project's sources, which apply
// writes through its journal.
func ReplaceFile(name string, data []byte) error {
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(name); err == nil {
		perm = st.Mode().Perm()
	}
	dir, base := filepath.Split(name)
	tmp := filepath.Join(dir, "."+base+".fwmigrate-tmp")
	os.Remove(tmp) // a leftover of a crash
	if err := WriteNew(tmp, data, perm, true); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	if dir == "" {
		dir = "."
	}
	return SyncDir(dir)
}
