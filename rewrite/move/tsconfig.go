package move

import (
	"bytes"
	"path/filepath"
)

// planTsconfig notes a server/tsconfig.json that extends the generated
// server file. The move leaves tsconfig.json alone: switching the root
// tsconfig.json to the project references of framework major 4 is a fix of
// its own (rules FW211), offered by the check and made by apply's fix loop
// when its safety allows, never silently part of the move.
func (p *Plan) planTsconfig(serverBefore string) {
	spath := filepath.Join(serverBefore, "tsconfig.json")
	if sdata, _, ok, _ := readRegular(spath); ok && bytes.Contains(sdata, []byte("tsconfig.server.json")) {
		p.note("%s extends the generated tsconfig.server.json; once the root tsconfig.json references the generated projects (FW211, on framework major 4), they cover server code: delete it then (not done here)", p.rel(p.Paths.Map(spath)))
	}
}
