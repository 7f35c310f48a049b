package lsp

// paths are the files the snapshot has a buffer for (the Loader's
// Buffers): a file only the editor has (created, not saved) is checked as
// one of its project's sources.
func (snap snapshot) paths() []string {
	out := make([]string, 0, len(snap))
	for path := range snap {
		out = append(out, path)
	}
	return out
}
