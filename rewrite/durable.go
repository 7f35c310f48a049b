package rewrite

import (
	"errors"
	"io/fs"
	"os"
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
