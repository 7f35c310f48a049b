package settings

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/txn"
)

// A baseline is the list of findings a project has accepted for now, so
// that a check fails only on new ones: the way to adopt fwmigrate in CI
// or pre-commit before migrating. A finding is known by its rule code, its
// file (relative to the baseline's directory), its option path (or for a
// finding about a file or variable, that path) and a hash of its message;
// not by its line, so that edits elsewhere in the file do not make it new.
// The same finding twice is counted.

// baselineVersion is the format's version, written in every file.
const baselineVersion = 1

type baselineFile struct {
	Version  int             `json:"version"`
	Comment  string          `json:"comment"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Code   string `json:"code"`
	File   string `json:"file"`
	Option string `json:"option,omitempty"`
	Path   string `json:"path,omitempty"`
	Hash   string `json:"hash"`
	Count  int    `json:"count,omitempty"` // 0 means 1
	// Message is for the reader: the hash is what is matched.
	Message string `json:"message"`
}

type baselineKey struct{ code, file, option, path, hash string }

func (e baselineEntry) key() baselineKey {
	return baselineKey{e.Code, e.File, e.Option, e.Path, e.Hash}
}

// Baseline is a loaded baseline file. Its methods are safe for concurrent
// use: the projects of a run are checked in parallel.
type Baseline struct {
	Path string // absolute
	dir  string
	mu   sync.Mutex
	left map[baselineKey]int // known findings not matched yet
	all  []baselineEntry
	// Matched counts the findings the baseline has hidden.
	matched int
}

// LoadBaseline reads the baseline at path (absolute). A file that does not
// exist is an error unless missingOK (it is about to be written).
func LoadBaseline(path string, missingOK bool) (*Baseline, error) {
	b := &Baseline{Path: path, dir: filepath.Dir(path), left: map[baselineKey]int{}}
	src, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) && missingOK {
			return b, nil
		}
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("baseline %s does not exist: write it with --update-baseline", pathx.Display(path))
		}
		return nil, fmt.Errorf("baseline %s: %v", pathx.Display(path), err)
	}
	var f baselineFile
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, located(pathx.Display(path), src, fmt.Errorf("not a fwmigrate baseline: %w", jsonError(err, src)))
	}
	if f.Version != baselineVersion {
		return nil, fmt.Errorf("baseline %s: version %d, this fwmigrate reads version %d: write it again with --update-baseline", pathx.Display(path), f.Version, baselineVersion)
	}
	for _, e := range f.Findings {
		b.left[e.key()] += max(e.Count, 1)
	}
	b.all = f.Findings
	return b, nil
}

// entry is the baseline entry of d.
func (b *Baseline) entry(d *rules.Diagnostic) baselineEntry { return entryIn(b.dir, d) }

// entryIn is d as the baseline file in the folder dir records it.
func entryIn(dir string, d *rules.Diagnostic) baselineEntry {
	file := relTo(dir, d.File)
	if file == "" {
		abs, _ := filepath.Abs(d.File)
		file = filepath.ToSlash(abs)
	}
	sum := sha256.Sum256([]byte(d.Message))
	return baselineEntry{
		Code: d.Code, File: file, Option: d.Option, Path: filepath.ToSlash(d.Path),
		Hash: hex.EncodeToString(sum[:6]), Message: d.Message,
	}
}

// Known are findings as the baseline file at a path records them, made
// by KnownFindings when a project's check is done: a run that rewrites
// its baselines (check --update-baseline) holds these, not the projects'
// findings with their fixes.
type Known []baselineEntry

// KnownFindings returns the findings of diags the baseline file at path
// (absolute) records: those a user may hide.
func KnownFindings(path string, diags []*rules.Diagnostic) Known {
	dir := filepath.Dir(path)
	var out Known
	for _, d := range diags {
		if rules.Suppressible(d.Code) {
			out = append(out, entryIn(dir, d))
		}
	}
	return out
}

// take reports whether d is a known finding, and counts it off.
func (b *Baseline) take(d *rules.Diagnostic) bool {
	if !rules.Suppressible(d.Code) {
		return false
	}
	k := b.entry(d).key()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.left[k] == 0 {
		return false
	}
	b.left[k]--
	b.matched++
	return true
}

// Matched returns how many findings the baseline has hidden.
func (b *Baseline) Matched() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.matched
}

// Stale returns how many known findings in the files of covered (absolute
// paths of the files the run checked) were not found: fixed since, or
// changed. --update-baseline drops them.
func (b *Baseline) Stale(covered map[string]bool) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for k, c := range b.left {
		if covered[b.abs(k.file)] {
			n += c
		}
	}
	return n
}

func (b *Baseline) abs(file string) string {
	if filepath.IsAbs(filepath.FromSlash(file)) {
		return filepath.FromSlash(file)
	}
	return filepath.Join(b.dir, filepath.FromSlash(file))
}

// Write replaces the baseline's findings in the files of covered with
// known (KnownFindings for this baseline's path), keeps those of other
// files (a run over some projects leaves the others' alone), and writes
// the file. It returns how many findings the file holds.
func (b *Baseline) Write(known Known, covered map[string]bool) (int, error) {
	counts := map[baselineKey]int{}
	var entries []baselineEntry
	add := func(e baselineEntry, n int) {
		k := e.key()
		if counts[k] == 0 {
			entries = append(entries, e)
		}
		counts[k] += n
	}
	for _, e := range b.all {
		if !covered[b.abs(e.File)] {
			add(e, max(e.Count, 1))
		}
	}
	for _, e := range known {
		add(e, 1)
	}
	slices.SortFunc(entries, func(a, c baselineEntry) int {
		return cmp.Or(strings.Compare(a.File, c.File), strings.Compare(a.Code, c.Code),
			strings.Compare(a.Option, c.Option), strings.Compare(a.Path, c.Path), strings.Compare(a.Hash, c.Hash))
	})
	total := 0
	for i := range entries {
		n := counts[entries[i].key()]
		entries[i].Count = 0
		if n > 1 {
			entries[i].Count = n
		}
		total += n
	}
	f := baselineFile{
		Version:  baselineVersion,
		Comment:  "fwmigrate's known findings: 'fwmigrate check' fails only on others. Rewrite with 'fwmigrate check --update-baseline'.",
		Findings: entries,
	}
	if f.Findings == nil {
		f.Findings = []baselineEntry{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return 0, err
	}
	if err := txn.ReplaceFile(b.Path, buf.Bytes()); err != nil {
		return 0, fmt.Errorf("baseline: %v", err)
	}
	return total, nil
}
