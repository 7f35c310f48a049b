package project

import (
	"path/filepath"
	"sort"
	"strings"
)

// The project's CI workflow files and Dockerfiles, read from its root: the
// Node places (node.go) are found in them, and the TypeScript rules look
// for type-check steps in the workflows.

// Limits on what is read: real workflows and Dockerfiles are a few
// kilobytes, and a repository has a few dozen at most.
const (
	maxCIFile  = 1 << 20
	maxCIFiles = 200
)

// CIFiles are the project's CI workflows and Dockerfiles.
type CIFiles struct {
	// Workflows are .github/workflows/*.yml and *.yaml, sorted by name.
	Workflows []*TextFile
	// Dockerfiles are the root's Dockerfile, Dockerfile.* and *.Dockerfile,
	// sorted by name.
	Dockerfiles []*TextFile
	// Skipped are the files found but not read, each with why (a symlink
	// out of the project, too large, binary), as shown to the user.
	Skipped []string
}

// CI returns the project's workflow files and Dockerfiles, read on first
// use.
func (p *Project) CI() *CIFiles {
	s := &p.files().deps
	s.ciOnce.Do(func() { s.ci = p.loadCI() })
	return s.ci
}

// Workflows returns the project's CI workflow files
// (.github/workflows/*.yml|yaml) with their texts.
func (p *Project) Workflows() []*TextFile { return p.CI().Workflows }

func (p *Project) loadCI() *CIFiles {
	ci := &CIFiles{}
	read := func(dir string, names []string) []*TextFile {
		sort.Strings(names)
		var out []*TextFile
		for _, n := range names {
			if len(out) >= maxCIFiles {
				ci.Skipped = append(ci.Skipped, p.display(filepath.Join(dir, n))+": more than 200 files, not read")
				continue
			}
			path := filepath.Join(dir, n)
			if !p.IsFile(path) {
				continue
			}
			src, err := p.readConfined(path, maxCIFile, true)
			if err != nil {
				ci.Skipped = append(ci.Skipped, p.display(path)+": "+err.Error())
				continue
			}
			out = append(out, &TextFile{Path: path, Display: p.display(path), Src: src})
		}
		return out
	}
	wdir := filepath.Join(p.Root, ".github", "workflows")
	var wnames []string
	for _, n := range p.List(wdir).names {
		if strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml") {
			wnames = append(wnames, n)
		}
	}
	ci.Workflows = read(wdir, wnames)
	var dnames []string
	for _, n := range p.List(p.Root).names {
		if n == "Dockerfile" || strings.HasPrefix(n, "Dockerfile.") || strings.HasSuffix(n, ".Dockerfile") || strings.HasSuffix(n, ".dockerfile") {
			dnames = append(dnames, n)
		}
	}
	ci.Dockerfiles = read(p.Root, dnames)
	return ci
}
