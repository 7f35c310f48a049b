package move

import (
	"fmt"
	"hash/crc64"
	"os"
	"sync"

	"github.com/aymanbagabas/go-udiff"
)

// A plan is made before the project's checks run (apply decides from it
// which fixes the config gets), and carried out after them. Its edited
// files' texts, old and new, are as large as the app's scripts: held
// through the checks, they are held beside the checks' own reading of the
// same files. Shed lets them go, keeping each file's byte edits and a sum
// of its old text; Load (or LoadEdit, for one file) reads them back and
// refuses a file that changed in between.

// crcTable is made at the first move that sheds a file's bytes: making it
// (crc64 builds its slicing tables) at init cost every fwmigrate process.
var crcTable = sync.OnceValue(func() *crc64.Table { return crc64.MakeTable(crc64.ECMA) })

// shed is what Shed keeps of a file's old text.
type shed struct {
	size int
	sum  uint64
}

// Shed drops the texts of the plan's edits (Old and New) until Load.
func (p *Plan) Shed() {
	for i := range p.Edits {
		e := &p.Edits[i]
		if e.shed != nil {
			continue
		}
		e.shed = &shed{len(e.Old), crc64.Checksum(e.Old, crcTable())}
		e.Old, e.New = nil, nil
	}
}

// Load reads back the texts Shed dropped: an error names a file that
// changed since the move was planned, or cannot be read.
func (p *Plan) Load() error {
	for i := range p.Edits {
		if err := p.LoadEdit(&p.Edits[i]); err != nil {
			return err
		}
	}
	return nil
}

// LoadEdit reads back the texts of e, one of the plan's Edits, if Shed
// dropped them.
func (p *Plan) LoadEdit(e *FileEdit) error {
	if e.shed == nil {
		return nil
	}
	data, err := os.ReadFile(e.Path)
	if err != nil {
		return fmt.Errorf("move: %w", err)
	}
	if len(data) != e.shed.size || crc64.Checksum(data, crcTable()) != e.shed.sum {
		return fmt.Errorf("%s: changed since the move was planned", e.Path)
	}
	out, err := udiff.ApplyBytes(data, e.Edits)
	if err != nil {
		return fmt.Errorf("%s: %w", e.Path, err)
	}
	e.Old, e.New, e.shed = data, out, nil
	return nil
}
