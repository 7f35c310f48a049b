package main

import (
	"io"
	"os"

	"github.com/fwmigrate/fwmigrate/cmd/fwmigrate/internal/sarif"
)

// writeSARIF writes r as a SARIF document (package sarif), its URIs
// relative to the repository's top folder, or else the working directory.
func writeSARIF(w io.Writer, r *report) error {
	cwd, _ := os.Getwd()
	base := repoRoot(cwd)
	if base == "" {
		base = cwd
	}
	doc := sarif.Document(buildVersion, base)
	return encodeJSONList(w, doc, "results", func(emit func(any) error) error {
		for d := range r.findings.all {
			if err := emit(doc.Result(d)); err != nil {
				return err
			}
		}
		return nil
	})
}
