package code

import (
	"bytes"
	"sort"
	"sync/atomic"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
)

// Again makes ci, the Index a check of an earlier text of the project
// read (Read), the Index of p: a long-lived front end (the language
// server) keeps an Index and the results of its walk between checks, and
// after an edit only the files whose text changed are read, parsed and
// walked again; every other file's part of the index (its File, its data
// calls, the walk's results its caller kept) is reused. walk is called
// for each file of ci.Files whose text changed (ci.Files[i] is then its
// new File), on many workers at once, as Read calls its pass's function.
//
// The caller vouches for what is not the files' texts: p's config, its
// sources' list and what the detectors read beyond the code are those of
// the check that made ci. Again vouches for the rest, and says false
// (ci is then left as it was or half updated: read the project anew) when
// a changed file may change what other files' results depend on:
//
//   - a file whose text changed must keep its place: among the files read
//     (a trigger word), those read for the composables' names, or those
//     read but not parsed (Rest); one whose reading fails (before or now)
//     is not reused;
//   - it must not define a composable, before or now (MayDefine, and its
//     walk finds no function named use*): the composables are what the
//     reads of every other file depend on.
//
// Its data calls are its own (CallsOf), and Calls are gathered again; so
// are the files that could not be read fully (Failed).
func (ci *Index) Again(p *project.Project, cfg compat.Config, walk func(i int, f *File)) bool {
	if ci.Project == nil || p == nil || ci.Data == nil {
		return false
	}
	srcs := codeSources(p)
	if len(srcs) != len(ci.read) {
		return false
	}
	type change struct {
		old, new *File
		at       int // in ci.Files, -1 for a file of Rest
	}
	news := make([]*File, len(srcs))
	var failed atomic.Bool
	par.For(len(srcs), func(i int) {
		s, old := srcs[i], ci.read[i]
		if s.Path != old.Path {
			failed.Store(true)
			return
		}
		text, err := s.Read()
		if err != nil {
			failed.Store(true)
			return
		}
		if len(text) == len(old.Text) && (len(text) == 0 || &text[0] == &old.Text[0] || bytes.Equal(text, old.Text)) {
			return
		}
		news[i] = &File{Src: s, Path: s.Path, Display: s.Display, Rel: s.Rel, Text: text}
	})
	if failed.Load() {
		return false
	}
	var changes []*change
	at := make(map[*File]int, len(ci.Files))
	for i, f := range ci.Files {
		at[f] = i
	}
	rest := make(map[*File]bool, len(ci.Rest))
	for _, f := range ci.Rest {
		rest[f] = true
	}
	for i, nf := range news {
		if nf == nil {
			continue
		}
		old := ci.read[i]
		c := &change{old: old, new: nf, at: -1}
		if k, ok := at[old]; ok {
			c.at = k
		} else if !rest[old] {
			return false // neither parsed nor in Rest: its reading failed
		}
		// Its place among the files.
		trig := p.Memo(nf.Path, nf.Text, "code.Triggers", func() bool { return Triggered(nf.Text, Triggers) })
		more := !trig && len(ci.names) > 0 && Triggered(nf.Text, ci.names)
		switch {
		case c.at < 0 && (trig || more), c.at >= 0 && (trig == old.more || more != old.more):
			return false
		}
		if c.at >= 0 {
			if MayDefine(old.Text) || p.Memo(nf.Path, nf.Text, "code.mayDefine", func() bool { return MayDefine(nf.Text) }) {
				return false
			}
			nf.triggered, nf.more = true, more
		}
		changes = append(changes, c)
	}
	// Parse the files read, and take their data calls: a function named
	// use* or a call inside one would change the composables.
	par.For(len(changes), func(i int) {
		c := changes[i]
		if c.at < 0 {
			return
		}
		f := c.new
		f.Code, f.Err = p.ReadCode(f.Path, f.Text)
		facts := collectFile(f)
		if facts != nil {
			if len(facts.candidates) > 0 {
				failed.Store(true)
			}
			for _, in := range facts.inside {
				if in != "" {
					failed.Store(true)
				}
			}
			f.calls = facts.calls
		}
		if f.Code == nil {
			f.Code, _ = ast.ReadCode(f.Path, nil)
		}
	})
	if failed.Load() {
		return false
	}

	// The index is p's from here on.
	ci.Project, ci.Config, ci.bySrc = p, cfg, nil
	for i, f := range ci.read {
		if news[i] != nil {
			ci.read[i] = news[i]
		} else {
			f.Src = srcs[i] // p's (its overlay, its budget, its layer)
		}
	}
	swap := map[*File]*File{}
	var walked []int
	for _, c := range changes {
		swap[c.old] = c.new
		if c.at >= 0 {
			ci.Files[c.at] = c.new
			walked = append(walked, c.at)
		}
	}
	for i, f := range ci.Rest {
		if nf := swap[f]; nf != nil {
			ci.Rest[i] = nf
		} else {
			// As Read left it: the type rules (More) parse the files of
			// Rest they need in place, each check anew.
			f.Code, f.Err, f.Released = nil, nil, false
		}
	}
	for i, f := range ci.Data.order {
		if nf := swap[f]; nf != nil {
			ci.Data.order[i] = nf
		}
	}
	par.For(len(walked), func(k int) {
		i := walked[k]
		f := ci.Files[i]
		if walk != nil {
			walk(i, f)
		}
		f.decls, f.uses = nil, nil
		if !f.Config {
			f.release()
		}
	})
	ci.Data.collectCalls()
	ci.Failed = nil
	for _, f := range ci.read {
		if f.Err != nil {
			ci.Failed = append(ci.Failed, f)
		}
	}
	for _, f := range ci.Files {
		if f.Config && f.Err != nil {
			ci.Failed = append(ci.Failed, f)
		}
	}
	sort.SliceStable(ci.Failed, func(i, j int) bool { return ci.Failed[i].Path < ci.Failed[j].Path })
	return true
}
