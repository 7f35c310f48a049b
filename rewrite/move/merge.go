package move

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/aymanbagabas/go-udiff"
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
	theirs := udiff.Bytes(old, content)
	if e := p.EditFor(path); e != nil {
		if !bytes.Equal(e.Old, old) {
			return fmt.Errorf("%s: changed since the move was planned", path)
		}
		ours := append([]udiff.Edit(nil), e.Edits...)
		udiff.SortEdits(ours)
		merged, ok := udiff.Merge(ours, theirs)
		if !ok {
			return fmt.Errorf("%s: the move's edits and the config rewrite change the same bytes", path)
		}
		out, err := udiff.ApplyBytes(old, merged)
		if err != nil {
			return fmt.Errorf("%s: merging edits: %w", path, err)
		}
		e.New, e.Edits, e.Why = out, merged, append(e.Why, why)
		return nil
	}
	p.Edits = append(p.Edits, FileEdit{
		Path: path, NewPath: p.Paths.Map(path), Old: old, New: content, Mode: mode, Edits: theirs, Why: []string{why},
	})
	return nil
}
