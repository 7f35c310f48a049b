package move

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/txn"
)

// MergeContent makes the plan write content as the new text of the file at
// path (its path today), within the plan's transaction: content is what
// another rewriter (the config rewriter) made of old, the file's bytes
// today. When the plan edits the file too (a config's relative imports
// follow the move), both sets of edits are merged; edits that overlap are an
// error and leave the plan as it was. Executing the plan then writes the
// file with the moves, or not at all.
func (p *Plan) MergeContent(path string, old, content []byte, mode fs.FileMode, why string) error {
	if bytes.Equal(old, content) {
		return nil
	}
	theirs := rewrite.Edits(old, content)
	// The merge below trusts theirs to give content byte for byte: prove
	// it, so that no drift of a diff ever writes a shifted edit.
	if got, err := udiff.ApplyBytes(old, theirs); err != nil || !bytes.Equal(got, content) {
		return fmt.Errorf("%s: the edits could not be computed byte-exactly", path)
	}
	if e := p.EditFor(path); e != nil {
		if err := p.LoadEdit(e); err != nil {
			return err
		}
		if !bytes.Equal(e.Old, old) {
			return fmt.Errorf("%s: changed since the move was planned", path)
		}
		ours := append([]udiff.Edit(nil), e.Edits...)
		udiff.SortEdits(ours)
		merged, ok := udiff.Merge(ours, theirs)
		if !ok || touching(old, ours, theirs) {
			return fmt.Errorf("%s: the move's edits and the config rewrite change the same bytes", path)
		}
		out, err := udiff.ApplyBytes(old, merged)
		if err != nil {
			return fmt.Errorf("%s: merging edits: %w", path, err)
		}
		e.New, e.Edits, e.Why = out, merged, append(e.Why, why)
		return nil
	}
	p.appendEdit(FileEdit{
		Edit:  txn.Edit{Path: path, NewPath: p.Paths.Map(path), Old: old, New: content, Mode: mode},
		Edits: theirs, Why: []string{why},
	})
	return nil
}

// touching reports whether an edit of a and one of b fall on a common line
// of old, as git's merge judges a conflict. Byte ranges are not enough: two
// rewriters that both put app/ into the same string compute their edits
// from their own texts, and a diff may place the same insertion one byte
// apart ("./" + "app/" or "." + "/app"); udiff.Merge keeps both and the
// text names ./app/app/pages.
func touching(old []byte, a, b []udiff.Edit) bool {
	lines := ast.NewLines(old)
	span := func(e udiff.Edit) (int, int) {
		return lines.Position(e.Start).Line, lines.Position(e.End).Line
	}
	for _, x := range a {
		xs, xe := span(x)
		for _, y := range b {
			ys, ye := span(y)
			if max(xs, ys) <= min(xe, ye) {
				return true
			}
		}
	}
	return false
}
