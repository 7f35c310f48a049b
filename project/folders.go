package project

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// The folders' listing that the walks of a project share: the source walk
// (Sources, TestSources) and the TypeScript walk (TSFiles) read each
// folder's entries through Project.readDir, so that a check lists each
// folder of the disk once, not once per walk.
//
// A long-lived front end (the language server) keeps the listing in its
// Cache between checks: a check after an edit of a file's content walks no
// folder at all. The listing then says what the disk held when it was
// read, until the front end forgets it (Cache.ForgetFolders): on a file
// created, deleted or renamed (the editor's file events and watched
// files), a file opened, closed or first saved, and a change of the
// settings. The texts the Cache read are the disk's as of the same look:
// a text read since the listing was last forgotten is not stat'ed again
// (Cache.read), so that a check after an edit makes no system call for
// the thousands of files it did not change; the next check after a
// ForgetFolders stats each file once more and reads the changed ones.

// folders is a listing of folders: each one's entries as os.ReadDir gave
// them (sorted by name), or the error.
type folders struct {
	mu   sync.Mutex
	gen  atomic.Int64 // bumped by forget: a listing read before is not kept
	dirs map[string]folder
}

type folder struct {
	entries []fs.DirEntry
	err     error
}

// readDir is os.ReadDir(dir), once per listing.
func (fo *folders) readDir(dir string) ([]fs.DirEntry, error) {
	fo.mu.Lock()
	if d, ok := fo.dirs[dir]; ok {
		fo.mu.Unlock()
		return d.entries, d.err
	}
	gen := fo.gen.Load()
	fo.mu.Unlock()
	entries, err := os.ReadDir(dir)
	fo.mu.Lock()
	if fo.gen.Load() == gen {
		if fo.dirs == nil {
			fo.dirs = map[string]folder{}
		}
		fo.dirs[dir] = folder{entries, err}
	}
	fo.mu.Unlock()
	return entries, err
}

// forget drops the listing: the next walk reads the folders again.
func (fo *folders) forget() {
	fo.mu.Lock()
	fo.gen.Add(1)
	fo.dirs = nil
	fo.mu.Unlock()
}

// len is the number of folders listed.
func (fo *folders) len() int {
	fo.mu.Lock()
	defer fo.mu.Unlock()
	return len(fo.dirs)
}

// readDir lists a folder of the project for its walks: from the Cache's
// listing when the project has a Cache (kept between checks), else from
// the project's own (kept for the project's life: one check).
func (p *Project) readDir(dir string) ([]fs.DirEntry, error) {
	if p.cache != nil {
		return p.cache.folders.readDir(dir)
	}
	return p.files().folders.readDir(dir)
}

// ForgetFolders drops the folders listed so far: a file was created,
// deleted or renamed, or may have been (a file opened, closed or saved; a
// watched file changed; the settings changed). The next check lists the
// folders it walks again.
func (c *Cache) ForgetFolders() { c.folders.forget() }

// Folders is the number of folders the cache holds the listing of.
func (c *Cache) Folders() int { return c.folders.len() }

// Stale reports whether the listing misses path: the nearest folder
// above it that was listed does not hold the next name on the way (a new
// file saved for the first time, maybe in a new folder), which the next
// walk must find.
func (c *Cache) Stale(path string) bool {
	fo := &c.folders
	fo.mu.Lock()
	defer fo.mu.Unlock()
	for child := filepath.Clean(path); ; {
		dir := filepath.Dir(child)
		if dir == child {
			return false
		}
		if d, ok := fo.dirs[dir]; ok {
			if d.err != nil {
				return true
			}
			name := filepath.Base(child)
			for _, e := range d.entries {
				if e.Name() == name {
					return false
				}
			}
			return true
		}
		child = dir
	}
}
