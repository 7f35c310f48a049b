// Package modpath holds what the module path rules (FW720-FW722) share:
// which version of a module the project has (installed, locked, or only a
// range), the outcome of a path option for each version range the data
// (compat's pathOptions) distinguishes, and whether those outcomes agree
// over the versions the project may have.
//
// Specs are the path options the rules check, with where to find each in a
// module's options objects (specs.go). It knows nothing of the rules: the
// rules find the option values in the config, decide the outcome of each
// case, and report.
package modpath

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/project"
)

// Which is what the project says of one module's version.
type Which struct {
	Module string
	// Version is the version installed (node_modules) or locked (the
	// lockfile), "" when neither says.
	Version string
	// From is the file Version was read from, as shown to the user.
	From string
	// Range is package.json's range for the module ("" when package.json
	// does not list it); RangeOK says it parsed as a semver range
	// (catalog:, workspace:, npm: aliases and tags do not).
	Range   string
	RangeOK bool
	r       semver.Range
}

// Of returns what p says of module's version: node_modules first, then the
// lockfile (project.Packages decides), then package.json's range.
func Of(p *project.Project, module string) Which {
	w := Which{Module: module}
	ps := p.Packages()
	if ps == nil {
		return w
	}
	d := ps.Dep(module)
	if d == nil {
		return w
	}
	w.Range = d.Range
	if r, err := semver.ParseRange(d.Range); err == nil {
		w.r, w.RangeOK = r, true
	}
	if d.Installed != nil {
		if _, err := semver.Parse(d.Installed.Version); err == nil {
			w.Version, w.From = d.Installed.Version, d.Installed.File
		}
	}
	return w
}

// Known reports that the version is known (installed or locked).
func (w Which) Known() bool { return w.Version != "" }

// Applies says whether the data's entry o holds for the project's module:
// for the known version, Yes or No; for a range, Yes when every version it
// admits is in o's range, No when none is, Unknown when some are; Unknown
// when nothing says (the module is not in package.json, or its range is
// not a semver range).
func (w Which) Applies(o compat.PathOption) compat.Answer {
	switch {
	case w.Version != "":
		return o.AppliesTo(w.Version)
	case w.RangeOK:
		return o.AppliesToRange(w.r)
	}
	return compat.Unknown
}

// Describe says which version the project has, for a note: "8.5.6
// (node_modules/@nuxtjs/i18n/package.json)", or why it is unknown.
func (w Which) Describe() string {
	switch {
	case w.Version != "":
		return fmt.Sprintf("%s %s (%s)", w.Module, w.Version, w.From)
	case w.Range == "":
		return fmt.Sprintf("the installed version of %s is unknown: package.json does not list it, and no lockfile or node_modules says", w.Module)
	case !w.RangeOK:
		return fmt.Sprintf("the installed version of %s is unknown: package.json gives `%s`, which is not a version range, and no lockfile or node_modules says", w.Module, w.Range)
	}
	return fmt.Sprintf("the installed version of %s is unknown: package.json asks for `%s`, and no lockfile or node_modules says which version that is", w.Module, w.Range)
}

// Kind is what an option value needs once the sources are in app/.
type Kind uint8

const (
	// None: the value names the same place after the move.
	None Kind = iota
	// Rewrite: the value resolves from the root into a folder that moves;
	// one of Outcome.Texts names its new place.
	Rewrite
	// MoveFolder: the module reads the value from srcDir, and the root
	// folder Outcome.Folder stays: it must move into app/ with the
	// sources.
	MoveFolder
	// Advice: the value breaks, and only a person can make the change
	// Outcome.Advice says.
	Advice
	// Unknown: the rule cannot tell (a value only known at run time).
	Unknown
)

// Outcome is what one value needs under one case of the data.
type Outcome struct {
	Kind Kind
	// Texts are the values that name the place after the move, the
	// preferred first (Rewrite).
	Texts []string
	// Folder is the root folder to move into app/ (MoveFolder), or the
	// one the value names (Advice), without a trailing slash.
	Folder string
	// Advice is what to do (Advice).
	Advice string
	// Src reports that the module reads the value from srcDir (else from
	// the root, or as given).
	Src bool
	// Says is what the case does with the value, in words: "resolves
	// it from the config's folder", "reads it from srcDir".
	Says string
}

// Case is one entry of the data that may hold for the project's module,
// with the outcome of the value under it.
type Case struct {
	Entry compat.PathOption
	// Sure is true when the entry holds for the module's version (Yes),
	// false when it may (Unknown).
	Sure bool
	Out  Outcome
}

// Cases returns the data's entries of module whose Option is one of
// options and that may hold for w (Yes or Unknown), each with the outcome
// eval gives; nil when none does. When one entry surely holds, it is the
// only case.
func Cases(w Which, module string, options []string, eval func(compat.PathOption) Outcome) []Case {
	var out []Case
	for _, o := range compat.Eco().PathOptions(module) {
		if !slices.Contains(options, o.Option) {
			continue
		}
		switch w.Applies(o) {
		case compat.Yes:
			return []Case{{Entry: o, Sure: true, Out: eval(o)}}
		case compat.Unknown:
			out = append(out, Case{Entry: o, Out: eval(o)})
		}
	}
	return out
}

// Agree returns the outcome every case shares, and true; false when the
// cases need different things (or there is none). Rewrites agree on the
// texts they all accept, in the first case's order of preference.
func Agree(cases []Case) (Outcome, bool) {
	if len(cases) == 0 {
		return Outcome{}, false
	}
	out := cases[0].Out
	out.Texts = slices.Clone(out.Texts)
	for _, c := range cases[1:] {
		o := c.Out
		if o.Kind != out.Kind || o.Folder != out.Folder || o.Advice != out.Advice || o.Src != out.Src {
			return Outcome{}, false
		}
		if out.Kind == Rewrite {
			out.Texts = slices.DeleteFunc(out.Texts, func(t string) bool { return !slices.Contains(o.Texts, t) })
			if len(out.Texts) == 0 {
				return Outcome{}, false
			}
		}
		if o.Says != out.Says {
			out.Says = ""
		}
	}
	if out.Kind == Unknown {
		return Outcome{}, false
	}
	return out, true
}

// Versions shows an entry's version range for a note: "@nuxtjs/i18n
// >=8.0.0 <8.4.0".
func Versions(o compat.PathOption) string {
	return o.Module + " " + o.Versions
}

// Imported returns, of the root folders names, those that the project's
// app code imports through the srcDir aliases (`~/name/...`, `@/name`):
// apply's move takes such a folder along with the sources (move's
// discover scans every file; the app sources are where such imports are).
// A file that cannot be read is skipped.
func Imported(p *project.Project, names []string) map[string]bool {
	out := map[string]bool{}
	if len(names) == 0 {
		return out
	}
	var pats [][]byte
	for _, n := range names {
		pats = append(pats, []byte("~/"+n), []byte("@/"+n))
	}
	for _, s := range p.Sources() {
		if s.Role != project.RoleApp || s.Layer != nil {
			continue
		}
		text, err := s.Read()
		if err != nil {
			continue
		}
		for i, n := range names {
			if out[n] {
				continue
			}
			if follows(text, pats[2*i]) || follows(text, pats[2*i+1]) {
				out[n] = true
			}
		}
		if len(out) == len(names) {
			break
		}
	}
	return out
}

// follows reports whether pat occurs in text followed by a character that
// ends a path segment (/, a quote, a backtick, or the end), and preceded
// by one that starts a specifier (a quote, a backtick, `(` or a space).
func follows(text, pat []byte) bool {
	for i := 0; i < len(text); {
		j := indexFrom(text, pat, i)
		if j < 0 {
			return false
		}
		end := j + len(pat)
		before := j == 0 || strings.IndexByte("'\"`( ", text[j-1]) >= 0
		after := end == len(text) || strings.IndexByte("/'\"`", text[end]) >= 0
		if before && after {
			return true
		}
		i = j + 1
	}
	return false
}

func indexFrom(text, pat []byte, from int) int {
	if k := bytes.Index(text[from:], pat); k >= 0 {
		return from + k
	}
	return -1
}

// SplitRel splits a relative path value ("./components/ui", "locales/",
// "stores/**") into its leading "./"s (or "") and the rest as written;
// ok is false for anything else: absolute paths, aliases, values that
// climb out (../), the folder itself, segments that are not plain names
// (a/../b), or names with backslashes.
func SplitRel(v string) (lead, rel string, ok bool) {
	if v == "" || strings.ContainsAny(v, "\\\x00") || strings.HasPrefix(v, "/") || filepath.IsAbs(v) {
		return "", "", false
	}
	for strings.HasPrefix(v[len(lead):], "./") {
		lead += "./"
	}
	rest := v[len(lead):]
	if rest == "" || rest == "." || rest == ".." || strings.HasPrefix(rest, "../") {
		return "", "", false
	}
	switch rest[0] {
	case '~', '@', '#', '$':
		return "", "", false // an alias, a package scope, a variable
	}
	if strings.Contains(rest, "://") || strings.HasPrefix(rest, "data:") {
		return "", "", false
	}
	// Only plain segments (a trailing slash aside): "a/../b", "a//b" and
	// "a/./b" are not judged, so that a rewrite can keep the text as
	// written.
	for _, seg := range strings.Split(strings.TrimSuffix(rest, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", "", false
		}
	}
	return lead, rest, true
}

// First returns the first segment of a slash path.
func First(rel string) string {
	seg, _, _ := strings.Cut(rel, "/")
	return seg
}
