package move

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fwmigrate/fwmigrate/internal/gitquote"
)

// GitDiff renders the plan as one git patch, with paths relative to base:
// every file a move renames is a rename (`rename from` / `rename to`, with
// its edits as hunks when it is edited too), every other edited file a plain
// diff. `git apply` (or `patch -p1` for the edits) turns the tree into what
// the plan's transaction (Txn) makes of it, so `fwmigrate apply --dry-run |
// git apply` performs the migration. It reads the moved directories to list
// their files; call it before the transaction runs. Names are quoted as git
// quotes them (gitquote.Quote). Symlinks cannot be renamed by a text patch,
// so a plan that moves one returns an error (Diff describes such a plan).
func (p *Plan) GitDiff(base string) (string, error) {
	rel := func(path string) string {
		r, err := filepath.Rel(base, path)
		if err != nil {
			return filepath.ToSlash(path)
		}
		return filepath.ToSlash(r)
	}
	type change struct {
		from, to string
		edit     *FileEdit
	}
	byFrom := map[string]*change{}
	for _, mv := range p.Moves {
		if mv.Link {
			return "", fmt.Errorf("the move of symlink %s cannot be written as a patch", rel(mv.From))
		}
		if !mv.Dir {
			byFrom[mv.From] = &change{from: mv.From, to: mv.To}
			continue
		}
		err := filepath.WalkDir(mv.From, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				return fmt.Errorf("the move of symlink %s cannot be written as a patch", rel(path))
			}
			if d.IsDir() {
				return nil
			}
			sub, _ := filepath.Rel(mv.From, path)
			byFrom[path] = &change{from: path, to: filepath.Join(mv.To, sub)}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	for i := range p.Edits {
		e := &p.Edits[i]
		c := byFrom[e.Path]
		if c == nil {
			c = &change{from: e.Path, to: e.NewPath}
			byFrom[e.Path] = c
		}
		c.edit = e
	}
	froms := make([]string, 0, len(byFrom))
	for f := range byFrom {
		froms = append(froms, f)
	}
	sort.Strings(froms)
	var b strings.Builder
	for _, f := range froms {
		c := byFrom[f]
		a, bn := rel(c.from), rel(c.to)
		fmt.Fprintf(&b, "diff --git %s %s\n", gitquote.Quote("a/"+a), gitquote.Quote("b/"+bn))
		if a != bn {
			fmt.Fprintf(&b, "rename from %s\nrename to %s\n", gitquote.Quote(a), gitquote.Quote(bn))
		}
		if c.edit == nil {
			continue
		}
		old, new := string(c.edit.Old), string(c.edit.New)
		u, err := udiff.ToUnified(gitquote.Quote("a/"+a), gitquote.Quote("b/"+bn), old, udiff.Lines(old, new), udiff.DefaultContextLines)
		if err != nil {
			return "", fmt.Errorf("%s: %w", a, err)
		}
		b.WriteString(u)
	}
	return b.String(), nil
}

// Diff renders the plan for --dry-run: the directories created, every move
// and the directories removed, then a unified diff (a/ and b/ prefixes, as
// git apply takes it after the moves) of every edited file at its new path.
// Paths are relative to the project root (the workspace when set).
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, d := range p.Mkdirs {
		fmt.Fprintf(&b, "mkdir %s\n", gitquote.Quote(p.rel(d)+"/"))
	}
	for _, mv := range p.Moves {
		slash := ""
		if mv.Dir {
			slash = "/"
		}
		fmt.Fprintf(&b, "move %s -> %s\n", gitquote.Quote(p.rel(mv.From)+slash), gitquote.Quote(p.rel(mv.To)+slash))
	}
	for _, d := range p.Rmdirs {
		fmt.Fprintf(&b, "rmdir %s\n", gitquote.Quote(p.rel(d)+"/"))
	}
	for _, e := range p.Edits {
		name := p.rel(e.NewPath)
		// A line diff of the result groups the changed lines of a hunk,
		// which the byte edits themselves would interleave.
		a, bn := gitquote.Quote("a/"+name), gitquote.Quote("b/"+name)
		u, err := udiff.ToUnified(a, bn, string(e.Old), udiff.Lines(string(e.Old), string(e.New)), udiff.DefaultContextLines)
		if err != nil {
			fmt.Fprintf(&b, "# %s: %v\n", gitquote.Quote(name), err)
			continue
		}
		fmt.Fprintf(&b, "diff --git %s %s\n%s", a, bn, u)
	}
	return b.String()
}
