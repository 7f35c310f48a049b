package txn

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// FS is the file system as the steps use it. OS is the real one; tests wrap
// it to make the Nth operation fail (as root, chmod cannot produce EACCES).
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	// ReadFileMode is ReadFile with the file's permission bits, both
	// from one open.
	ReadFileMode(name string) ([]byte, fs.FileMode, error)
	Mkdir(name string, perm fs.FileMode) error
	Chmod(name string, mode fs.FileMode) error
	Remove(name string) error
	Rename(oldpath, newpath string) error
	// Link makes newname a second name of the file oldname (a hard link;
	// a symlink is linked, not followed); newname must not exist.
	Link(oldname, newname string) error
	// WriteNew creates the file name, which must not exist, holding data
	// with permissions perm; with sync, the data is on disk (fsync) when
	// it returns.
	WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error
	// SyncDir makes the entries of directory name durable (fsync).
	SyncDir(name string) error
	// SyncFS makes everything written to the file system holding path
	// durable at once (syncfs), or returns errors.ErrUnsupported.
	SyncFS(path string) error
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Lstat(name string) (fs.FileInfo, error)    { return os.Lstat(name) }
func (osFS) ReadFile(name string) ([]byte, error)      { return os.ReadFile(name) }
func (osFS) Mkdir(name string, perm fs.FileMode) error { return os.Mkdir(name, perm) }
func (osFS) ReadFileMode(name string) ([]byte, fs.FileMode, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	// One byte more than the size, so that the file's end is read with
	// its bytes (a file that grew since the stat is read whole).
	b := bytes.NewBuffer(make([]byte, 0, st.Size()+1))
	if _, err := b.ReadFrom(f); err != nil {
		return nil, 0, err
	}
	return b.Bytes(), st.Mode().Perm(), nil
}
func (osFS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }
func (osFS) Remove(name string) error                  { return os.Remove(name) }
func (osFS) Rename(oldpath, newpath string) error      { return os.Rename(oldpath, newpath) }
func (osFS) Link(oldname, newname string) error        { return os.Link(oldname, newname) }
func (osFS) SyncDir(name string) error                 { return syncDir(name) }
func (osFS) SyncFS(path string) error                  { return syncFS(path) }
func (osFS) WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error {
	return writeNew(name, data, perm, sync)
}

// writeNew creates the file name, which must not exist, holding data with
// permissions perm (umask not applied). With sync the data is on disk
// (fsync) before it returns, so that a rename of the file over another one
// can never leave an empty or torn file after a crash. A failed write
// removes what it created.
func writeNew(name string, data []byte, perm fs.FileMode, sync bool) (err error) {
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

// syncDir makes the entries of the directory name durable: the creations,
// renames and removals in it survive a crash once it returns. Systems that
// cannot sync a directory (EINVAL) have nothing more to give, which is not
// an error.
func syncDir(name string) error {
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
	if err := writeNew(tmp, data, perm, true); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	if dir == "" {
		dir = "."
	}
	return syncDir(dir)
}
