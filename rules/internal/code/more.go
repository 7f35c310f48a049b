package code

import (
	"sort"
	"sync"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
)

// More is the code the type rules (FW85x) read beyond what the code rules
// parsed: the server's files, which Read leaves out (server code is not the
// app's), and the files Read read but did not parse (Index.Rest). Each
// file is read once per check and parsed at most once, when a detector's
// words are in its text: the type rules add no second pass over the files
// the code rules read.
//
// The files the code rules parsed (Index.Files) are not here: the type
// rules' detectors take them from the index as they are. More's files are
// never among Index.Files, so the code rules' detectors never see them.
type More struct {
	ci *Index

	serverOnce sync.Once
	server     []*File // read, not parsed until a detector wants one

	mu     sync.Mutex
	parsed map[*File]bool // files a detector has asked about and that were parsed
	// copies are the code rules' files that had no tree when a detector
	// asked for them (not parsed yet: the types rules' scan runs before
	// the walk; or released after it), parsed again as files of their own.
	copies map[*File]*File
}

// NewMore returns the type rules' reading of ci's project.
func NewMore(ci *Index) *More {
	return &More{ci: ci, parsed: map[*File]bool{}, copies: map[*File]*File{}}
}

// Server returns the project's server files (and its local layers' without
// a config of their own), read but not parsed, in path order.
func (m *More) Server() []*File {
	m.serverOnce.Do(func() {
		p := m.ci.Project
		if p == nil {
			return
		}
		var srcs []*project.Source
		for _, s := range p.Sources() {
			if s.Role == project.RoleServer && (s.Layer == nil || s.Layer.ConfigPath == "") {
				srcs = append(srcs, s)
			}
		}
		read := make([]*File, len(srcs))
		par.For(len(srcs), func(i int) {
			s := srcs[i]
			f := &File{Src: s, Path: s.Path, Display: s.Display, Rel: s.Rel}
			f.Text, f.Err = s.Read()
			read[i] = f
		})
		m.server = read
	})
	return m.server
}

// Files returns the files among the code rules' parsed files (Index.Files),
// the files
// they read without parsing and (when roles has RoleServer) the server's
// files, whose role is among roles and that want accepts (it sees the
// file's path and text, not its code), parsed: the ones not parsed yet are
// parsed now, on every core. A want that only reads the text may keep its
// answer with the project's Memo. Files that could not be read at all are left out; a file that could be
// read only in part is kept with its Err (a detector may report in it,
// but no fix edits it). In path order.
func (m *More) Files(roles []project.Role, want func(f *File) bool) []*File {
	p := m.ci.Project
	server := false
	for _, r := range roles {
		server = server || r == project.RoleServer
	}
	hasRole := func(f *File) bool {
		if f.Src == nil {
			return false
		}
		for _, r := range roles {
			if f.Src.Role == r {
				return true
			}
		}
		return false
	}
	wanted := want
	var out, parse []*File
	fresh := map[*File]bool{} // copies made now
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.ci.Files {
		switch {
		case f.Config || !hasRole(f) || !wanted(f):
		case f.Code != nil && !f.Released:
			out = append(out, f)
		case f.Code == nil && f.Err != nil:
			// Could not be read at all.
		case m.copies[f] != nil:
			out = append(out, m.copies[f])
		default:
			// No tree now (the walk has not parsed it yet, or has let it
			// go): a copy of its own, parsed once. It is not among Extra's
			// files: the code rules' walk sees the file itself.
			c := &File{Src: f.Src, Path: f.Path, Display: f.Display, Rel: f.Rel, Text: f.Text}
			m.copies[f] = c
			fresh[c] = true
			parse = append(parse, c)
			out = append(out, c)
		}
	}
	candidates := m.ci.Rest
	if server {
		candidates = append(append([]*File(nil), candidates...), m.Server()...)
	}
	for _, f := range candidates {
		switch {
		case !hasRole(f):
		case m.parsed[f]:
			if wanted(f) {
				out = append(out, f)
			}
		case f.Err == nil && wanted(f):
			// Read, never parsed (a read error leaves it out).
			parse = append(parse, f)
			out = append(out, f)
		}
	}
	par.For(len(parse), func(i int) {
		f := parse[i]
		if p != nil {
			f.Code, f.Err = p.ReadCode(f.Path, f.Text)
		} else {
			f.Parse()
		}
	})
	for _, f := range parse {
		if !fresh[f] {
			m.parsed[f] = true
		}
	}
	kept := out[:0]
	for _, f := range out {
		if f.Code != nil {
			kept = append(kept, f)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Path < kept[j].Path })
	return kept
}

// Parsed returns the files More parsed (for any detector), in path order.
func (m *More) Parsed() []*File {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*File, 0, len(m.parsed))
	for f := range m.parsed {
		if f.Code != nil {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Extra is Files without the code rules' parsed files: the files no code
// rule's detector walks, which a type rule walks itself (once).
func (m *More) Extra(roles []project.Role, want func(f *File) bool) []*File {
	files := m.Files(roles, want)
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*File
	for _, f := range files {
		if m.parsed[f] {
			out = append(out, f)
		}
	}
	return out
}
