package project

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"os"
	"sync"
	"unsafe"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Cache keeps what a long-lived front end (the language server) has read
// of the source files between checks, so that a check after an edit reads
// the edited file alone:
//
//   - a file's text, while a stat of the file says it is the same file with
//     the same size and modification time (os.SameFile: device and inode),
//     and without a stat while the folders' listing is kept (folders.go:
//     the front end forgets it when the editor says files changed);
//   - facts computed from a text (Memo: does it hold a trigger word), while
//     the text is the very slice they were computed from;
//   - what a check keeps for the next (Keep, Take): the code rules' per-file
//     results (findings, fixes, what the cross-file detectors need), with
//     each file's text to tell a changed file from the others.
//
// It keeps no syntax tree: a check parses the files it walks and lets
// their trees go once their findings are made (rules/internal/code), so
// that a server holds a few KB per file, not its tree (about 30 KB a file
// of a generated app). A check after an edit parses the edited file alone;
// whatever needs another file's tree (a code action's fix, a rule that
// reads another file) parses that file again.
//
// The rules never change a text, so checks share them. Entries not asked
// for in a number of checks are dropped (Next). A Cache is safe for
// concurrent use.
type Cache struct {
	mu    sync.Mutex
	gen   int // the checks begun (Next)
	files map[string]*cachedFile
	// folders is the listing of the folders the walks read (folders.go),
	// kept until ForgetFolders.
	folders folders
	// kept is what a check keeps for the next (Keep, Take), with the check
	// it was kept in (dropped by Next as the files are).
	kept map[string]keptValue
	// keys are the memo keys in use, each string once: the files' memos
	// share it (a key can be long: the composables' names).
	keys map[string]string
}

type keptValue struct {
	v    any
	used int
}

type cachedFile struct {
	used int // the gen of the last check that asked for it

	stat os.FileInfo // the stat the text was read after; nil: no text cached
	text []byte
	// looked is the folders' generation (folders.go) the stat was made
	// in: until the listing is forgotten, the text is the disk's.
	looked int64

	memoFor []byte         // the text memo's facts are about
	memo    map[string]any // by key: Memo's and memoValue's
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: map[string]*cachedFile{}} }

// same reports whether a and b are the same slice: the same bytes at the
// same address. A text is never changed once read, so the same slice is
// the same text, without comparing it.
func same(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}

// entry returns path's entry, made when missing. Call with c.mu held.
func (c *Cache) entry(path string) *cachedFile {
	e := c.files[path]
	if e == nil {
		e = &cachedFile{}
		c.files[path] = e
	}
	e.used = c.gen
	return e
}

// ReadSource is ReadSource(path), from the cache while the file's stat is
// the one it was read after.
func (c *Cache) ReadSource(path string) ([]byte, error) { return c.read(path, MaxSourceSize) }

// read is ReadSource with another size limit (a project's budget's).
func (c *Cache) read(path string, limit int64) ([]byte, error) {
	gen := c.folders.gen.Load()
	c.mu.Lock()
	e := c.entry(path)
	if e.stat != nil && e.looked == gen && int64(len(e.text)) <= limit {
		// Stat'ed since the disk was last said to change (folders.go).
		text := e.text
		c.mu.Unlock()
		return text, nil
	}
	c.mu.Unlock()
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e = c.entry(path)
	if e.stat != nil && os.SameFile(e.stat, st) && e.stat.Size() == st.Size() && e.stat.ModTime().Equal(st.ModTime()) && int64(len(e.text)) <= limit {
		e.looked = gen
		text := e.text
		c.mu.Unlock()
		return text, nil
	}
	c.mu.Unlock()
	// Stat first, then read: a change made while it is read gives another
	// stat next time, and the file is read again.
	text, err := readLimited(path, limit)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e = c.entry(path)
	e.stat, e.text, e.looked = st, text, gen
	c.mu.Unlock()
	return text, nil
}

// Memo returns f(), a fact about text (path's text), computed once per
// text under key.
func (c *Cache) Memo(path string, text []byte, key string, f func() bool) bool {
	return c.memoValue(path, text, "bool\x00"+key, func() any { return f() }).(bool)
}

// Next begins a check, and forgets the files that the last keep checks did
// not ask for (deleted files, projects closed in the editor).
func (c *Cache) Next(keep int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.keys = nil // the memos keep theirs; a key asked for again is kept anew
	for path, e := range c.files {
		if c.gen-e.used > keep {
			delete(c.files, path)
		}
	}
	for key, k := range c.kept {
		if c.gen-k.used > keep {
			delete(c.kept, key) // a project not checked for as long
		}
	}
}

// Len is the number of files the cache holds something of.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.files)
}

// ReadCode reads a source file's code (ast.ReadCode). No tree is kept,
// with a Cache or without: the caller lets it go when it is done.
func (p *Project) ReadCode(path string, text []byte) (*ast.Code, error) {
	return ast.ReadCode(path, text)
}

// Memo returns f(), a fact about path's text, through the Loader's Cache
// when it has one (computed once per text), else computed now.
func (p *Project) Memo(path string, text []byte, key string, f func() bool) bool {
	if p.cache != nil {
		return p.cache.Memo(path, text, key, f)
	}
	return f()
}

// KeepsResults reports whether the project is checked by a long-lived
// front end whose Cache keeps what a check made for the next (Keep, Take):
// the code rules then keep their per-file results, never the trees.
func (p *Project) KeepsResults() bool { return p.cache != nil }

// Keep stores v, what a check made that the next check may reuse (the
// code rules' walk results), under key.
func (c *Cache) Keep(key string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = map[string]keptValue{}
	}
	c.kept[key] = keptValue{v, c.gen}
}

// Take returns what Keep stored under key, nil when nothing, and forgets
// it: one check at a time owns it (a check that runs meanwhile does
// without), and gives it back with Keep when it is done.
func (c *Cache) Take(key string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.kept[key]
	delete(c.kept, key)
	return v.v
}

// Keep is Cache.Keep through the Loader's Cache (nothing without one).
func (p *Project) Keep(key string, v any) {
	if p.cache != nil {
		p.cache.Keep(key, v)
	}
}

// Take is Cache.Take through the Loader's Cache (nil without one).
func (p *Project) Take(key string) any {
	if p.cache != nil {
		return p.cache.Take(key)
	}
	return nil
}

// memoValue is Memo for a value of any kind (what a declaration file
// declares): f() is computed once per text of path under key, and the
// value is shared by the checks (never change it).
func (c *Cache) memoValue(path string, text []byte, key string, f func() any) any {
	c.mu.Lock()
	if k, ok := c.keys[key]; ok {
		key = k
	} else {
		if c.keys == nil {
			c.keys = map[string]string{}
		}
		c.keys[key] = key
	}
	e := c.entry(path)
	if e.memo == nil || !same(e.memoFor, text) {
		e.memoFor, e.memo = text, map[string]any{}
	}
	v, ok := e.memo[key]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = f()
	c.mu.Lock()
	if e.memo != nil && same(e.memoFor, text) {
		e.memo[key] = v
	}
	c.mu.Unlock()
	return v
}

// A KeySum sums what a value kept in a Cache (Keep) depends on besides
// the texts: each string with its length before it, so that two lists of
// strings never sum alike. The keys of the kept sources' list and of the
// code rules' kept detection are made with it.
type KeySum struct{ h hash.Hash }

// NewKeySum returns an empty KeySum.
func NewKeySum() KeySum { return KeySum{sha256.New()} }

// Str adds s.
func (k KeySum) Str(s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	k.h.Write(n[:])
	k.h.Write([]byte(s))
}

// Sum is the sum of what was added.
func (k KeySum) Sum() [sha256.Size]byte {
	var out [sha256.Size]byte
	k.h.Sum(out[:0])
	return out
}
