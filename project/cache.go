package project

import (
	"crypto/sha256"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Cache keeps the code a long-lived front end (the language server) has
// read, between checks: a source file whose text is the one read last time
// is not parsed again, so that a check after an edit parses the edited file
// alone. Entries are known by path and by a SHA-256 of the text, never by
// time stamps, so an edit that keeps the size and the modification time is
// still seen. A parsed tree is never changed by the rules, so checks share
// it. A Cache is safe for concurrent use.
type Cache struct {
	mu   sync.Mutex
	gen  int // the checks begun (Next)
	code map[string]*cachedCode
}

type cachedCode struct {
	sum  [sha256.Size]byte
	code *ast.Code
	err  error
	used int // the gen of the last check that asked for it
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{code: map[string]*cachedCode{}} }

// ReadCode is ast.ReadCode(path, text), from the cache when text is what
// it read for path before.
func (c *Cache) ReadCode(path string, text []byte) (*ast.Code, error) {
	sum := sha256.Sum256(text)
	c.mu.Lock()
	e := c.code[path]
	if e != nil && e.sum == sum {
		e.used = c.gen
		c.mu.Unlock()
		return e.code, e.err
	}
	c.mu.Unlock()
	code, err := ast.ReadCode(path, text)
	c.mu.Lock()
	c.code[path] = &cachedCode{sum: sum, code: code, err: err, used: c.gen}
	c.mu.Unlock()
	return code, err
}

// Next begins a check, and forgets the trees that the last keep checks did
// not ask for (deleted files, projects closed in the editor).
func (c *Cache) Next(keep int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for path, e := range c.code {
		if c.gen-e.used > keep {
			delete(c.code, path)
		}
	}
}

// Len is the number of trees the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.code)
}

// ReadCode reads a source file's code (ast.ReadCode), through the
// Loader's Cache when it has one.
func (p *Project) ReadCode(path string, text []byte) (*ast.Code, error) {
	if p.cache != nil {
		return p.cache.ReadCode(path, text)
	}
	return ast.ReadCode(path, text)
}
