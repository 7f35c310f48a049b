package project

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// A repository can be hostile (a pull request from a fork checked in CI):
// millions of files, a tree thousands of folders deep, gigabytes of
// sources, or a text that some check handles slowly. Each project a run
// loads therefore gets a budget, here and nowhere else (every front end
// loads through a Loader): the entries its source walk visits, the bytes
// of source it reads, the size of one source file, and the wall-clock time
// from its load. A project that goes past one is not fully checked: the
// walk and the reads stop (the limits are checked at each folder and
// entry of the walk and each file read, not inside one file's check), the
// project says which limit it hit (BudgetExceeded), and the check reports
// it as an error naming the project, the limit and the flag that raises
// it (FW911), so that the run's exit status is 2 and apply writes nothing
// for it. The run goes on with the other projects. (A file larger than
// FileSize is not read and is reported alone, FW908: the project is
// within its budget.)
//
// The defaults are far above real apps: the generated app of 20,000
// files (internal/appgen) is some 20,000 entries and 50 MB, checked in
// seconds.

// Budget is what one project's check may use. A zero field takes its
// DefaultBudget value; a negative one is no limit.
type Budget struct {
	// Files is how many entries (files and folders) the source walks of
	// the project and its local layers visit.
	Files int
	// Bytes is how many bytes of source files the project's check reads.
	Bytes int64
	// FileSize is the largest source file read; a larger one is not
	// read, and reported alone (FW908).
	FileSize int64
	// Time is the wall-clock time from the project's load to the end of
	// its check.
	Time time.Duration
}

// DefaultBudget is the budget of a project when nothing raises it.
var DefaultBudget = Budget{Files: 200_000, Bytes: 1 << 30, FileSize: MaxSourceSize, Time: 5 * time.Minute}

// BudgetFlags are the command-line flags that raise each limit, as the
// findings name them.
var BudgetFlags = struct{ Files, Bytes, FileSize, Time string }{"--max-files", "--max-read-mb", "--max-file-mb", "--project-timeout"}

// resolved returns b with DefaultBudget's values in place of its zero
// fields.
func (b Budget) resolved() Budget {
	if b.Files == 0 {
		b.Files = DefaultBudget.Files
	}
	if b.Bytes == 0 {
		b.Bytes = DefaultBudget.Bytes
	}
	if b.FileSize == 0 {
		b.FileSize = DefaultBudget.FileSize
	}
	if b.Time == 0 {
		b.Time = DefaultBudget.Time
	}
	return b
}

// BudgetError is the first limit of its budget a project went past.
type BudgetError struct {
	// Limit is the limit: "files", "bytes" or "time".
	Limit string
	// Max is the limit's value as it is said ("200000 entries", "1024 MB",
	// "5m0s"), Flag the flag that raises it.
	Max, Flag string
	// At is the file or folder the limit was reached at (absolute), ""
	// when none.
	At string
}

func (e *BudgetError) Error() string {
	what := map[string]string{
		"files": "its source folders hold more than " + e.Max + " (files and folders)",
		"bytes": "its sources are more than " + e.Max,
		"time":  "its check took longer than " + e.Max,
	}[e.Limit]
	return fmt.Sprintf("not fully checked: %s; the rest was not read (raise the limit with %s)", what, e.Flag)
}

// budget is the running count of one project's budget, shared by its
// copies (WithFile) and safe for concurrent use. A nil budget has no
// limits (a Project made outside a Loader).
type budget struct {
	Budget
	deadline time.Time
	entries  atomic.Int64
	bytes    atomic.Int64
	hit      atomic.Pointer[BudgetError]
	counted  sync.Map // path -> true: a file read again (by another rule) counts once
}

// newBudget starts the budget b (resolved), its clock at now.
func newBudget(b Budget) *budget {
	b = b.resolved()
	bu := &budget{Budget: b}
	if b.Time > 0 {
		bu.deadline = time.Now().Add(b.Time)
	}
	return bu
}

// exceed records e unless a limit was hit before, and returns the first.
func (b *budget) exceed(e *BudgetError) *BudgetError {
	b.hit.CompareAndSwap(nil, e)
	return b.hit.Load()
}

// check returns the limit hit so far, checking the clock: nil while the
// project is within its budget.
func (b *budget) check(at string) *BudgetError {
	if b == nil {
		return nil
	}
	if e := b.hit.Load(); e != nil {
		return e
	}
	if !b.deadline.IsZero() && time.Now().After(b.deadline) {
		return b.exceed(&BudgetError{Limit: "time", Max: b.Time.String(), Flag: BudgetFlags.Time, At: at})
	}
	return nil
}

// mayRead returns the limit that stops reads: the time, or the bytes (the
// files listed before the walk stopped at its entries are still read).
func (b *budget) mayRead(path string) *BudgetError {
	if e := b.check(path); e != nil && e.Limit != "files" {
		return e
	}
	if b != nil && b.Bytes > 0 && b.bytes.Load() > b.Bytes {
		return b.exceed(&BudgetError{Limit: "bytes", Max: fmt.Sprintf("%d MB", b.Bytes>>20), Flag: BudgetFlags.Bytes, At: path})
	}
	return nil
}

// entry counts one entry of a source walk at path.
func (b *budget) entry(path string) *BudgetError {
	if b == nil {
		return nil
	}
	n := b.entries.Add(1)
	if b.Files > 0 && n > int64(b.Files) {
		return b.exceed(&BudgetError{Limit: "files", Max: fmt.Sprintf("%d entries", b.Files), Flag: BudgetFlags.Files, At: path})
	}
	if n%256 == 0 {
		return b.check(path)
	}
	return b.hit.Load()
}

// read counts n bytes of source read at path, once per path.
func (b *budget) read(path string, n int) *BudgetError {
	if b == nil {
		return nil
	}
	if _, again := b.counted.LoadOrStore(path, true); !again {
		b.bytes.Add(int64(n))
	}
	return b.mayRead(path)
}

// fileSize is the largest source file read.
func (b *budget) fileSize() int64 {
	switch {
	case b == nil:
		return MaxSourceSize
	case b.FileSize < 0:
		return 1 << 50 // no limit but the memory's
	}
	return b.FileSize
}

// BudgetExceeded returns the first limit of its budget the project went
// past, nil when it is within it: then its check is whole as far as the
// budget goes. A check that took longer than its time but had read
// everything by then is whole: the time stops what is still to be read.
func (p *Project) BudgetExceeded() *BudgetError {
	if p.budget == nil {
		return nil
	}
	return p.budget.hit.Load()
}

// Budget returns the budget the project's check runs under, with
// DefaultBudget's values in place of the zero fields it was given (what
// Reload passes on); the zero Budget for a project without one.
func (p *Project) Budget() Budget {
	if p.budget == nil {
		return Budget{}
	}
	return p.budget.Budget
}

// BudgetUsed returns what the project's check has used of its budget so
// far: the entries its source walks visited and the bytes of sources it
// read.
func (p *Project) BudgetUsed() (entries, bytes int64) {
	if p.budget == nil {
		return 0, 0
	}
	return p.budget.entries.Load(), p.budget.bytes.Load()
}
