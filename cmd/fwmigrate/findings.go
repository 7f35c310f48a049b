package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules"
)

// findings holds a run's findings until they are printed, and gives them
// back in print order: by file, line, column, code and message, then by
// project (its config as shown) and by the order the project's check gave
// them, which is what sorting every project's findings together used to
// give.
//
// A monorepo's findings outgrow the projects that make them: a 100,000-file
// monorepo of 20 generated projects has 237,080 findings, about 540 bytes
// each in memory, more than the check of any one project holds. So each
// project's findings are encoded (what a report prints: no fix edits, the
// frame's line), and once spillAt bytes of them are held they are merged
// into one sorted run written to a temporary file; printing merges the
// runs. The report's memory is then spillAt, whatever the repository's
// size, and the run's peak follows the projects being checked. When no
// temporary file can be made, the findings stay in memory.
type findings struct {
	mu      sync.Mutex
	pending [][]byte  // sorted runs held in memory, one per project
	held    int       // their bytes
	file    spillFile // the spill file; nil until needed
	noFile  bool      // it could not be made: everything stays in memory
	runs    []fileRun
	size    int64
	nextID  int32
	dead    map[int32]bool // adds taken back (take)
	err     error          // the first error reading or writing the spill file
}

type fileRun struct{ off, n int64 }

// spillAt is the size of the encoded findings a run holds in memory before
// it writes them out (tests lower it).
var spillAt = 8 << 20

// record is a finding as findings keeps it.
type record struct {
	d       *rules.Diagnostic
	frame   frameSource
	display string // its project's config, as shown
	id      int32  // the add it came with
	idx     int    // its place among that add's findings
}

// recordLess is the print order.
func recordLess(a, b *record) bool {
	if c := compareDiag(a.d, b.d); c != 0 {
		return c < 0
	}
	if a.display != b.display {
		return a.display < b.display
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.idx < b.idx
}

// compareDiag is rules.SortDiagnostics's order.
func compareDiag(a, b *rules.Diagnostic) int {
	switch {
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Line != b.Line:
		return a.Line - b.Line
	case a.Column != b.Column:
		return a.Column - b.Column
	case a.Code != b.Code:
		return strings.Compare(a.Code, b.Code)
	}
	return strings.Compare(a.Message, b.Message)
}

// add keeps the findings of one project's check (display: its config as
// shown), with the lines of their code frames from texts when frames is
// set, and returns the number that take gives back to drop them.
func (s *findings) add(display string, diags []*rules.Diagnostic, texts map[string][]byte, frames bool) int32 {
	s.mu.Lock()
	id := s.nextID
	s.nextID++
	s.mu.Unlock()
	if len(diags) == 0 {
		return id
	}
	order := make([]int, len(diags))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return compareDiag(diags[order[i]], diags[order[j]]) < 0 })
	var e encoder
	for _, i := range order {
		r := record{d: diags[i], display: display, id: id, idx: i}
		if frames {
			r.frame = frameLine(r.d, texts[r.d.File])
		}
		e.record(&r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, e.b)
	s.held += len(e.b)
	if s.held >= spillAt {
		s.spill()
	}
	return id
}

// take drops the findings of add number id (a project checked again).
func (s *findings) take(id int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead == nil {
		s.dead = map[int32]bool{}
	}
	s.dead[id] = true
}

// spill merges the runs held in memory into one and writes it to the spill
// file. s.mu is held.
func (s *findings) spill() {
	if s.noFile || s.err != nil {
		return
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "fwmigrate-findings-*")
		if err != nil {
			s.noFile = true // kept in memory: slower to grow, never lost
			return
		}
		// Readable by its owner only (CreateTemp's 0600), and gone from
		// the folder at once where the system allows it: a killed run
		// leaves nothing behind, and no other user reads the findings.
		s.file = f
		if os.Remove(f.Name()) != nil {
			s.file = &removeOnClose{f}
		}
	}
	w := bufio.NewWriterSize(io.NewOffsetWriter(s.file, s.size), 64<<10)
	var e encoder
	n := int64(0)
	err := merge(s.memCursors(), s.dead, func(r *record) error {
		e.b = e.b[:0]
		e.record(r)
		n += int64(len(e.b))
		_, err := w.Write(e.b)
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		s.err = fmt.Errorf("writing the findings to %s: %w", s.file.Name(), err)
		return
	}
	s.runs = append(s.runs, fileRun{s.size, n})
	s.size += n
	s.pending, s.held = nil, 0
}

// removeOnClose is a spill file that could not be removed while open
// (Windows): it is removed when closed.
type removeOnClose struct{ *os.File }

func (f *removeOnClose) Close() error {
	err := f.File.Close()
	os.Remove(f.Name())
	return err
}

func (s *findings) memCursors() []*cursor {
	cs := make([]*cursor, 0, len(s.pending))
	for _, b := range s.pending {
		cs = append(cs, &cursor{dec: decoder{r: bytes.NewReader(b)}})
	}
	return cs
}

// all yields the findings in print order with their frames. An error
// reading them back ends the sequence; err says what it was.
func (s *findings) all(yield func(*rules.Diagnostic, frameSource) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	cs := s.memCursors()
	for _, run := range s.runs {
		sr := io.NewSectionReader(s.file, run.off, run.n)
		cs = append(cs, &cursor{dec: decoder{r: bufio.NewReaderSize(sr, 32<<10)}})
	}
	stop := errors.New("stop")
	err := merge(cs, s.dead, func(r *record) error {
		if !yield(r.d, r.frame) {
			return stop
		}
		return nil
	})
	if err != nil && err != stop {
		s.err = fmt.Errorf("reading the findings back from %s: %w", s.file.Name(), err)
	}
}

// list is every finding, in print order.
func (s *findings) list() []*rules.Diagnostic {
	var out []*rules.Diagnostic
	for d := range s.all {
		out = append(out, d)
	}
	return out
}

// close removes the spill file.
func (s *findings) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
}

// spillFile is an open spill file.
type spillFile interface {
	io.ReaderAt
	io.WriterAt
	Name() string
	Close() error
}

var _ spillFile = (*os.File)(nil)

// merge calls fn with the records of the sorted runs cs in print order,
// leaving out those of the adds in dead.
func merge(cs []*cursor, dead map[int32]bool, fn func(*record) error) error {
	h := make(cursorHeap, 0, len(cs))
	for _, c := range cs {
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		c := h[0]
		if !dead[c.rec.id] {
			if err := fn(&c.rec); err != nil {
				return err
			}
		}
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// A cursor reads one sorted run.
type cursor struct {
	dec decoder
	rec record
}

func (c *cursor) next() (bool, error) {
	c.rec = record{}
	return c.dec.record(&c.rec)
}

type cursorHeap []*cursor

func (h cursorHeap) Len() int           { return len(h) }
func (h cursorHeap) Less(i, j int) bool { return recordLess(&h[i].rec, &h[j].rec) }
func (h cursorHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)        { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// The encoding of a record: what the formats of check print of a finding
// (a fix's description and applicability, not its edits; not the fix a
// rule held back), the line of its frame, and its place in the order.
// Numbers are varints, strings and lists a length then their contents.
// TestRecordFields fails when Diagnostic gains a field this leaves out.
type encoder struct{ b []byte }

func (e *encoder) int(v int)    { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *encoder) str(s string) { e.int(len(s)); e.b = append(e.b, s...) }
func (e *encoder) strs(l []string) {
	if l == nil {
		e.int(-1)
		return
	}
	e.int(len(l))
	for _, s := range l {
		e.str(s)
	}
}

func (e *encoder) record(r *record) {
	d := r.d
	e.str(r.display)
	e.int(int(r.id))
	e.int(r.idx)
	e.str(d.Code)
	e.str(d.Name)
	e.str(string(d.Category))
	e.int(int(d.Severity))
	e.str(d.File)
	e.int(d.Span.Start)
	e.int(d.Span.End)
	e.int(d.Line)
	e.int(d.Column)
	e.int(d.EndLine)
	e.int(d.EndColumn)
	e.int(d.ColumnUTF16)
	e.int(d.EndColumnUTF16)
	e.str(d.Option)
	e.str(d.Path)
	e.str(d.Message)
	e.strs(d.Notes)
	if d.Fix == nil {
		e.int(0)
	} else {
		e.int(1)
		e.str(d.Fix.Description)
		e.int(int(d.Fix.Applicability))
		e.int(int(d.Fix.Layout))
		e.strs(d.Fix.Also)
	}
	e.str(d.Withheld)
	if !r.frame.ok {
		e.int(-1)
	} else {
		e.int(r.frame.length)
		e.str(string(r.frame.line))
	}
}

type byteReader interface {
	io.Reader
	io.ByteScanner
}

type decoder struct {
	r   byteReader
	err error
}

func (d *decoder) int() int {
	if d.err != nil {
		return 0
	}
	v, err := binary.ReadVarint(d.r)
	if err != nil {
		d.err = err
	}
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.int()
	if d.err == io.EOF {
		d.err = io.ErrUnexpectedEOF
	}
	if d.err != nil || n <= 0 {
		if n < 0 && d.err == nil {
			d.err = errors.New("corrupt record")
		}
		return nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.err = err
		return nil
	}
	return b
}

func (d *decoder) str() string { return string(d.bytes()) }

func (d *decoder) strs() []string {
	n := d.int()
	if n < 0 || d.err != nil {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = d.str()
	}
	return l
}

// record reads the next record into r; false at the end of the run.
func (d *decoder) record(r *record) (bool, error) {
	if _, err := d.r.ReadByte(); err == io.EOF {
		return false, nil // the end of the run, between records
	}
	d.r.UnreadByte()
	r.display = d.str()
	r.id = int32(d.int())
	r.idx = d.int()
	x := &rules.Diagnostic{}
	x.Code = d.str()
	x.Name = d.str()
	x.Category = rules.Category(d.str())
	x.Severity = rules.Severity(d.int())
	x.File = d.str()
	x.Span = ast.Span{Start: d.int(), End: d.int()}
	x.Line = d.int()
	x.Column = d.int()
	x.EndLine = d.int()
	x.EndColumn = d.int()
	x.ColumnUTF16 = d.int()
	x.EndColumnUTF16 = d.int()
	x.Option = d.str()
	x.Path = d.str()
	x.Message = d.str()
	x.Notes = d.strs()
	if d.int() == 1 {
		x.Fix = &rules.Fix{Description: d.str(), Applicability: rules.Applicability(d.int()), Layout: rules.FixLayout(d.int()), Also: d.strs()}
	}
	x.Withheld = d.str()
	if n := d.int(); n >= 0 {
		r.frame = frameSource{length: n, line: d.bytes(), ok: true}
	}
	r.d = x
	if d.err != nil {
		if d.err == io.EOF {
			d.err = io.ErrUnexpectedEOF
		}
		return false, d.err
	}
	return true, nil
}
