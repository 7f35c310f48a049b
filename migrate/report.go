package migrate

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules"
)

// What a Result records for apply's report, beyond what was done: where
// the findings are on disk, and which ones the changes settle.

// settle accounts for the findings on disk once the project is done with:
// the Found ones that neither a fix nor the move dealt with and that no
// longer stand are Settled; and unless the project was written, the
// diagnostics still standing are shown where they are on disk (the
// positions of Found), not in the text apply would have written.
func (r *Result) settle() {
	if !r.Written {
		// Findings alike but for their place (two dynamic extends
		// entries) are matched in order: the n-th with the n-th.
		for _, list := range [][]*rules.Diagnostic{r.Remaining, r.ByMove} {
			seen := map[string]int{}
			for i, d := range list {
				list[i] = r.onDisk(d, seen)
			}
		}
		seen := map[string]int{}
		for i := range r.NotFixed {
			r.NotFixed[i].D = r.onDisk(r.NotFixed[i].D, seen)
		}
	}
	if r.New == nil && r.Plan == nil {
		return // nothing changed: nothing went away
	}
	standing := map[string]bool{}
	byMove := map[string]bool{}
	for _, d := range r.ByMove {
		standing[findingKey(d)] = true
		byMove[moveKey(d)] = true
	}
	// Without the move made (a dry run, a refusal), its findings still
	// stand in the text checked: they are the move's, not left. (Their
	// words may differ there: FW102 says the flat layout works once the
	// version step is in the text.)
	remaining := r.Remaining[:0]
	for _, d := range r.Remaining {
		if !byMove[moveKey(d)] {
			remaining = append(remaining, d)
		}
	}
	r.Remaining = remaining
	for _, d := range r.Remaining {
		standing[findingKey(d)] = true
	}
	for _, d := range r.Found {
		// A finding the move resolves is the move's, whatever its words in
		// the text the rounds made (on the major FW701 bumps to, FW102's).
		if standing[findingKey(d)] || byMove[moveKey(d)] || d.Fix != nil && r.hasFixed(d) {
			continue
		}
		r.Settled = append(r.Settled, d)
	}
}

// onDisk returns the diagnostic of Found that is d, where it is on disk;
// d itself without a position when the finding appears only with the
// fixes. seen counts the findings of each key matched so far: the next one
// is matched with the next of Found.
func (r *Result) onDisk(d *rules.Diagnostic, seen map[string]int) *rules.Diagnostic {
	if r.byFound == nil {
		// Indexed once: a scan of Found for each finding was quadratic,
		// the most of a dry run's time on a large app.
		r.byFound = map[string][]*rules.Diagnostic{}
		for _, f := range r.Found {
			k := findingKey(f)
			r.byFound[k] = append(r.byFound[k], f)
		}
	}
	k := findingKey(d)
	n := seen[k]
	seen[k] = n + 1
	if list := r.byFound[k]; n < len(list) {
		return list[n]
	}
	if d.Line == 0 {
		return d
	}
	c := *d
	c.Span, c.Line, c.Column, c.EndLine, c.EndColumn, c.ColumnUTF16, c.EndColumnUTF16 = ast.Span{}, 0, 0, 0, 0, 0, 0
	c.Notes = append(append([]string(nil), d.Notes...), "reported once the other fixes are made")
	return &c
}

// findingKey identifies a finding across texts of the same file, where
// its position changes.
// moveKey identifies a finding the move resolves whatever its words.
func moveKey(d *rules.Diagnostic) string {
	return d.Code + "\x00" + d.File + "\x00" + d.Option + "\x00" + d.Path
}

func findingKey(d *rules.Diagnostic) string {
	return d.Code + "\x00" + d.File + "\x00" + d.Option + "\x00" + d.Path + "\x00" + d.Message
}

// PathEdits counts the paths the move rewrites so that they follow it
// (imports, style sheet URLs, template asset URLs, tsconfig.json and
// .fwignore entries, config values, the globs of the root tool configs and
// the patterns of their ignore files), and the files they are in.
func (r *Result) PathEdits() (paths, files int) {
	for _, e := range r.Plan.Edits {
		n := 0
		for _, why := range e.Why {
			if why != configFixes && why != codeFixes {
				n++
			}
		}
		if n > 0 {
			paths += n
			files++
		}
	}
	return paths, files
}
