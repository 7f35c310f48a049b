// Package fix is the one way a fix is made, for every front end: apply
// (migrate), the language server's code actions and the rules' fixture
// goldens make the rules' fixes here, so that a fix offered in the editor is
// byte for byte the one apply writes.
//
//   - Config makes a set of fixes to a config at once (rewrite.ApplyGroups),
//     proves the new text (rewrite.Verify), and says why each fix that could
//     not be made was skipped.
//   - Code makes a code file's edits (rewrite.EditCode, checked by esbuild),
//     on a regular file only.
//   - One makes a single finding's fix, in its code file and in the config
//     (ConfigOps) together: the editor's action.
//   - Rounds makes the config fixes of a project's findings, checks the new
//     text again, and goes on until nothing changes (a fix can bring a new
//     fixable finding to light: moving generate.routes may leave generate
//     empty), so that a second run has nothing left to do. When the fixes
//     bump the fw dependency to the next major (FW701), the config's fixes
//     are made for that major: the project is checked again as a project
//     of it first (Bump), so apply and the editor's fix-all make the same
//     edits.
//
// Nothing here writes a file: the edits go to migrate's transaction or to
// the editor.
package fix

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Edit is a file's text before and after a fix.
type Edit struct {
	Path     string // absolute
	Old, New []byte
	Mode     os.FileMode // the file's mode, for the write (Code's edits)
}

// ConfigResult is what Config made of a set of fixes.
type ConfigResult struct {
	Src []byte // the new text (the old one when nothing changed)
	// Skipped says why a group of ops (by its index) was not made: the
	// first reason of an op that was not merely blocked by another, else
	// the first.
	Skipped map[int]string
	Changed bool
}

// Config makes the groups of ops (one group a fix) to the config f, shown
// as display, and proves the new text holds what they set.
func Config(display string, f *ast.File, groups [][]rewrite.Op) (*ConfigResult, error) {
	res, err := rewrite.ApplyGroups(f, groups)
	if err != nil {
		return nil, err
	}
	if err := rewrite.Verify(display, f, res.Src, res.Applied); err != nil {
		return nil, err
	}
	out := &ConfigResult{Src: res.Src, Skipped: map[int]string{}, Changed: res.Changed()}
	for _, s := range res.Skipped {
		if _, ok := out.Skipped[s.Group]; !ok || !s.Blocked {
			out.Skipped[s.Group] = s.Reason
		}
	}
	return out, nil
}

// errNotRegular refuses a code file that is a symlink, a device or a folder.
var errNotRegular = errors.New("not a regular file")

// Code makes ops to the code file at path, whose text read returns (the
// editor's buffer, or the disk's), and validates the result. A path that is
// not a regular file on disk is refused: a symlink or device is never
// edited through.
func Code(path string, read func(string) ([]byte, error), ops []rewrite.Op) (*Edit, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	old, err := read(path)
	if err != nil {
		return nil, err
	}
	new, err := rewrite.EditCode(path, old, ops)
	if err != nil {
		return nil, err
	}
	return &Edit{Path: path, Old: old, New: new, Mode: st.Mode()}, nil
}

// One makes d's fix alone, in p: the edit of its code file, and the config
// edits it needs first (ConfigOps), or the config's edits. why says why it
// cannot be made now (a reason for the user); err is a failure of the
// rewrite, which is a bug.
func One(p *project.Project, d *rules.Diagnostic, read func(string) ([]byte, error)) (edits []Edit, why string, err error) {
	fx := d.Fix
	configOps := fx.Ops
	if fx.File != "" {
		configOps = fx.ConfigOps
		e, err := Code(fx.File, read, fx.Ops)
		var pe *os.PathError
		switch {
		case errors.As(err, &pe) || errors.Is(err, errNotRegular):
			return nil, fmt.Sprintf("cannot edit %s: %v", d.Path, err), nil
		case err != nil:
			return nil, "", err
		}
		edits = append(edits, *e)
	}
	if fx.File == "" || len(configOps) > 0 {
		if p.File == nil {
			return nil, "the config could not be read", nil
		}
		res, err := Config(p.ConfigDisplay, p.File, [][]rewrite.Op{configOps})
		if err != nil {
			return nil, "", err
		}
		if why := res.Skipped[0]; why != "" {
			return nil, why, nil
		}
		edits = append(edits, Edit{Path: p.ConfigPath, Old: p.File.Src, New: res.Src})
	}
	kept := edits[:0]
	for _, e := range edits {
		if !bytes.Equal(e.Old, e.New) {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return nil, "nothing to change: the fix is already made", nil
	}
	return kept, "", nil
}

// MaxRounds bounds how often the checks run again on a rewritten config:
// fixes that keep undoing each other are a bug.
const MaxRounds = 3

// RoundOptions say which fixes Rounds makes.
type RoundOptions struct {
	Unsafe bool // make unsafe fixes too
	// UnsafeRules are the codes of the rules whose unsafe fixes are made
	// (apply --unsafe=FW501; all are with Unsafe). Rules.Release names
	// them too, for their held fixes (migrate sets both).
	UnsafeRules []string
	// Skip, when set, returns why d's fix is left out ("" to make it):
	// apply leaves out the fixes of the other layout choice.
	Skip func(d *rules.Diagnostic) string
	// Rules are the project's rule options, and Check checks a project (a
	// rewritten text of the config, or the project as the major FW701's
	// bump moves it to) with options: Rules, or Rules with Before set once
	// the project is bumped.
	Rules rules.Options
	Check func(p *project.Project, o rules.Options) []*rules.Diagnostic
	// KeepMajor: the fixes are made for the project's major even when
	// FW701's bump is among them (apply --pin does not make the bump).
	KeepMajor bool
	// Read reads a code file (the editor's buffer, or the disk; nil: the
	// disk): the bump moves the major only when package.json can be edited.
	Read func(string) ([]byte, error)
}

// MakesUnsafe reports whether the unsafe fixes of the rule code are made:
// all of them (all: bare --unsafe), or those of the rules named (codes:
// --unsafe=FW501,FW205).
func MakesUnsafe(all bool, codes []string, code string) bool {
	return all || slices.Contains(codes, code)
}

// NotFixed is a fix that was not made, and why.
type NotFixed struct {
	D      *rules.Diagnostic
	Reason string
}

// Outcome is what Rounds did.
type Outcome struct {
	Project *project.Project    // with the last text of the config (p when unchanged)
	Diags   []*rules.Diagnostic // the last check's findings
	// Fixed are the config fixes made (a fix of a code file whose config
	// edits were made is left to Code: it is made with its file).
	Fixed    []*rules.Diagnostic
	NotFixed []NotFixed
	Fatal    bool // a later check found the project could not be checked
	// Bump is FW701's bump of the fw dependency when the fixes were made
	// for the major it moves the project to (Bump): Project is then a
	// project of that major (its File is p's when the config is unchanged),
	// and Diags its findings, the bump's among them (made with the code
	// files' fixes). Nil when the major stays.
	Bump *rules.Diagnostic
}

// Changed reports that the config's text changed.
func (o *Outcome) Changed(p *project.Project) bool { return o.Project.File != p.File }

// Bump returns p as a project of the framework major FW701's bump of the
// fw dependency moves it to, and its findings, when diags (p's) hold that
// bump and o makes it: its fix is safe (or o.Unsafe), not skipped, and
// package.json can be edited. The findings are checked with o.Rules and
// Before set to the version p runs (the rules that report what the step
// changes judge it from there). It returns nil when the major stays.
func Bump(p *project.Project, diags []*rules.Diagnostic, o RoundOptions) (*project.Project, []*rules.Diagnostic, *rules.Diagnostic) {
	if o.KeepMajor {
		return nil, nil, nil
	}
	read := o.Read
	if read == nil {
		read = project.ReadSource
	}
	for _, d := range diags {
		major := rules.FrameworkBump(d)
		if major == 0 || major == p.Framework || d.Fix.Applicability == rules.Unsafe && !MakesUnsafe(o.Unsafe, o.UnsafeRules, d.Code) {
			continue
		}
		if o.Skip != nil && o.Skip(d) != "" {
			continue
		}
		if _, err := Code(d.Fix.File, read, d.Fix.Ops); err != nil {
			continue // the code fixes say why it is not made
		}
		q := *p
		q.Framework, q.FrameworkSource = major, "package.json, once FW701's fix bumps fw"
		return &q, o.Check(&q, o.bumped(p)), d
	}
	return nil, nil, nil
}

// bumped are the rule options of p's project once bumped: o.Rules with
// Before, p's versions.
func (o RoundOptions) bumped(p *project.Project) rules.Options {
	ro := o.Rules
	ro.Before = rules.VersionsOf(p)
	return ro
}

// Key identifies a finding's fix across rounds, when the config's
// positions have moved. A code file's fix is known by its file and place
// too: the rounds edit only the config, and a hundred pages may each get
// the same fix; each is one fix, as check counts them.
func Key(d *rules.Diagnostic) string {
	k := d.Code + "\x00" + d.Option + "\x00" + d.Fix.Description
	if d.Fix.File != "" {
		k += "\x00" + d.File + "\x00" + fmt.Sprint(d.Span.Start)
	}
	return k
}

// ConfigOps are the edits of the project's config that d's fix makes in the
// rounds: its Ops for a fix of the config, its ConfigOps for a fix of
// another file (made before that file's edits).
func ConfigOps(d *rules.Diagnostic) []rewrite.Op {
	if d.Fix.File != "" {
		return d.Fix.ConfigOps
	}
	return d.Fix.Ops
}

// Rounds makes the config fixes of diags (the findings of p), and first
// the extra fixes first (apply's pins), checks the new text again and
// makes the fixes that check offers, until nothing changes. When FW701's
// bump is among the fixes made, the config's are those of the major it
// moves the project to (Bump; Outcome.Bump). An error is a fix that failed
// its own proof, or fixes that undo each other: a bug.
func Rounds(p *project.Project, diags, first []*rules.Diagnostic, o RoundOptions) (*Outcome, error) {
	out := &Outcome{Project: p, Diags: diags}
	check := func(cur *project.Project) []*rules.Diagnostic { return o.Check(cur, o.Rules) }
	if q, qdiags, bump := Bump(p, diags, o); q != nil {
		if rules.Fatal(qdiags) {
			out.Fatal, out.Diags = true, qdiags
			return out, nil
		}
		ro := o.bumped(p)
		check = func(cur *project.Project) []*rules.Diagnostic { return o.Check(cur, ro) }
		out.Project, out.Diags, out.Bump = q, qdiags, bump
	}
	failed := map[string]bool{}
	fixed := map[string]bool{}
	notFixed := func(d *rules.Diagnostic, reason string) {
		failed[Key(d)] = true
		out.NotFixed = append(out.NotFixed, NotFixed{d, reason})
	}
	for round := 1; ; round++ {
		var groups [][]rewrite.Op
		var owners []*rules.Diagnostic
		if round == 1 {
			// The first ones (apply's pins), in the first round: the code
			// rules then find no site of a pinned change, and its code is
			// not edited.
			for _, d := range first {
				groups = append(groups, d.Fix.Ops)
				owners = append(owners, d)
			}
		}
		for _, d := range out.Diags {
			if d.Fix == nil || len(ConfigOps(d)) == 0 || d.Fix.File == "" && d.File != p.ConfigDisplay {
				continue
			}
			if failed[Key(d)] {
				continue
			}
			if d.Fix.Applicability == rules.Unsafe && !MakesUnsafe(o.Unsafe, o.UnsafeRules, d.Code) {
				continue
			}
			if o.Skip != nil {
				if reason := o.Skip(d); reason != "" {
					notFixed(d, reason)
					continue
				}
			}
			groups = append(groups, ConfigOps(d))
			owners = append(owners, d)
		}
		if len(groups) == 0 {
			return out, nil
		}
		res, err := Config(p.ConfigDisplay, out.Project.File, groups)
		if err != nil {
			return out, err
		}
		for g, d := range owners {
			if reason, ok := res.Skipped[g]; ok {
				notFixed(d, reason)
			} else if !fixed[Key(d)] && d.Fix.File == "" {
				fixed[Key(d)] = true
				out.Fixed = append(out.Fixed, d)
			}
		}
		if !res.Changed {
			return out, nil
		}
		if round == MaxRounds {
			return out, fmt.Errorf("%s: the fixes still change the file after %d rounds: two fixes undo each other", p.ConfigDisplay, MaxRounds)
		}
		f, err := ast.Parse(p.ConfigDisplay, res.Src)
		if err != nil {
			return out, err // Verify parsed it: cannot happen
		}
		out.Project = out.Project.WithFile(f)
		out.Diags = check(out.Project)
		if rules.Fatal(out.Diags) {
			out.Fatal = true
			return out, nil
		}
	}
}
