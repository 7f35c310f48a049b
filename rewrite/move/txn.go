package move

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/txn"
)

// ConflictError is the refusal of a plan with conflicts: it cannot become
// a transaction.
type ConflictError struct{ Conflicts []Conflict }

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "move: refusing to move: %d conflict(s)", len(e.Conflicts))
	for _, c := range e.Conflicts {
		b.WriteString("\n\t" + c.String())
	}
	return b.String()
}

// Txn returns the transaction that carries the plan out (package txn runs
// it, journaled or not): the directories created, the plain renames (which
// keep git's rename detection), the emptied directories removed with the
// modes they had, and the edited files written at their new paths. A plan
// with conflicts is refused (ConflictError).
func (p *Plan) Txn() (*txn.Plan, error) {
	if len(p.Conflicts) > 0 {
		return nil, &ConflictError{Conflicts: p.Conflicts}
	}
	t := &txn.Plan{Root: p.Root, Base: p.base, Mkdirs: slices.Clone(p.Mkdirs)}
	for _, mv := range p.Moves {
		t.Moves = append(t.Moves, mv.Move)
	}
	for _, d := range p.Rmdirs {
		t.Rmdirs = append(t.Rmdirs, txn.Rmdir{Path: d, Mode: p.dirMode[d]})
	}
	for _, e := range p.Edits {
		t.Edits = append(t.Edits, e.Edit)
	}
	return t, nil
}
