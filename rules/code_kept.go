package rules

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// The code rules' walk results kept between checks: a long-lived front
// end (the language server; a project with a Cache, whose trees are kept)
// checks the same project again after every edit, and most edits change
// one file's text. The detection of a check (its code index, and each
// detector's file scan with its per-file results) is kept in the project's
// Cache, and the next check walks only the files whose text changed
// (code.Index.Again), then makes every detector's sites again from the
// per-file results (fileScan.sites: what needs several files is worked out
// there, from what each file's walk kept).
//
// The kept detection is reused only for the same inputs besides the
// files' texts (detectionKey: the config's text, the detectors, the
// versions, the project's resolution, its layers and its sources' list),
// when it ended in no panic, and when no changed file may change what
// other files' results depend on (code.Index.Again says which). The
// detectors in impureScans read more than the code index, the config and
// the sources' list (other files' texts through the project, the type
// rules' extra files): their scans are made again and run over every
// file, as in a check of their own. Anything else: the detection is made
// anew, as a cold check makes it.

// impureScans are the detectors whose scans read what detectionKey does
// not cover: FW612 the SPA loading template's file, FW613 the files an
// addTemplate names, FW850 and FW851 the files the code rules do not read
// (code.More) and tsconfig.json. In a reused detection their file() is
// first asked on the stub of a file whose trees were released (wantsWalk):
// it must choose the files it walks by their texts, blocks and roles.
var impureScans = map[string]bool{"FW612": true, "FW613": true, "FW850": true, "FW851": true}

// keptDetection is what a check keeps for the next (project.Cache.Keep).
type keptDetection struct {
	key [sha256.Size]byte
	d   *detection
}

const keptSlot = "rules.detection\x00"

// detectKept is detect for the detectors the check predicted, reusing the
// detection the last check of the project kept when it can.
func (x *Index) detectKept(rules []*Rule) *codeIndex {
	p := x.project
	if p == nil || !p.KeepsResults() {
		return x.detect(rules)
	}
	slot := keptSlot + p.ConfigPath
	key := detectionKey(x, rules)
	k, _ := p.Take(slot).(*keptDetection)
	if k != nil && k.key == key && k.d.clean() && k.d.again(x) {
		x.reusedDetection = true
		if k.d.clean() {
			x.kept = k
		}
		return k.d.ci
	}
	d := x.newDetection(rules)
	if d.clean() {
		x.kept = &keptDetection{key: key, d: d}
	}
	return d.ci
}

// keepCode gives the detection the check made or reused to the project's
// Cache for the next check, once the check is over: the next one changes
// it in place (code.Index.Again), so no rule of this check may still read
// it. Run calls it last.
func (x *Index) keepCode() {
	if x != nil && x.kept != nil {
		// Nothing kept holds a tree: the files' trees went after their
		// walk, the files of Rest a type rule parsed go now, and so do
		// the impure scans (made again by the next check) and this
		// check's index (its type rules' parsed files: more).
		d := x.kept.d
		d.ci.Index.Forget()
		for _, rn := range d.runs {
			if impureScans[rn.r.Code] {
				rn.scan = nil
			}
		}
		d.scans = slices.DeleteFunc(d.scans, func(rn *detectorRun) bool { return rn.scan == nil })
		d.x, d.ci.index = nil, nil
		x.project.Keep(keptSlot+x.project.ConfigPath, x.kept)
		x.kept = nil
	}
}

// clean reports whether no detector panicked: a detection that did is
// never reused (the panic is the rule's finding of this check).
func (d *detection) clean() bool {
	for _, rn := range d.runs {
		if rn.fail != nil {
			return false
		}
	}
	for _, f := range d.fails {
		if len(f) > 0 {
			return false
		}
	}
	for _, p := range d.dataFails {
		if p != nil {
			return false
		}
	}
	return true
}

// again makes d, a detection a check of an earlier text made, x's: the
// files whose text changed are walked by the scans, the impure scans are
// made again and run over every file, and every detector's sites are made
// again. It reports false when the code index cannot be reused (d is then
// dropped).
func (d *detection) again(x *Index) bool {
	ci := d.ci
	var pure, impure []*detectorRun
	for _, rn := range d.runs {
		switch {
		case impureScans[rn.r.Code]:
			impure = append(impure, rn)
		case rn.scan != nil:
			pure = append(pure, rn)
		}
	}
	d.fails = make([]map[*detectorRun]*detected, len(ci.Files))
	d.dataFails = make([]*detected, len(ci.Files))
	d.x, ci.index = x, x // the scans read the check's index (when it fails, d is dropped)
	if !ci.Index.Again(x.project, x.config, func(i int, f *code.File) { d.fileWith(i, f, pure, true) }) {
		return false
	}
	var run []*detectorRun
	for _, rn := range impure {
		rn.scan, rn.fail = nil, nil
		if rn.r.scan != nil {
			rn.fail = protect(func() { rn.scan = rn.r.scan(ci) })
		}
		if rn.scan != nil && rn.fail == nil {
			run = append(run, rn)
		}
	}
	if len(run) > 0 {
		// The other files' trees were let go after their walk: a file
		// that one of these detectors walks (wantsWalk) is parsed again
		// for them, and let go again.
		par.For(len(ci.Files), func(i int) {
			f := ci.Files[i]
			if f.Released {
				if !wantsWalk(i, f, run) {
					return // their results are in: file() assigned them
				}
				f.Revive()
				defer f.Release()
			}
			d.fileWith(i, f, run, false)
		})
	}
	d.scans = nil
	for _, rn := range d.runs {
		if rn.scan != nil && rn.fail == nil {
			d.scans = append(d.scans, rn)
		}
	}
	d.finish()
	return true
}

// wantsWalk reports whether one of the scans of run walks f, a file whose
// trees were released: each scan's file() is asked on f's stub (texts,
// blocks, roles, script spans: an impure scan's filters read those, never
// the tree). One that returns no visitor has assigned its results for f
// (fileScan's contract), and f is not parsed again; one that returns
// visitors, or panics, has f parsed again and the scans' files made
// afresh (fileWith), as after a panic.
func wantsWalk(i int, f *code.File, run []*detectorRun) (yes bool) {
	defer func() {
		if recover() != nil {
			yes = true
		}
	}()
	for _, rn := range run {
		if len(rn.scan.file(i, f)) > 0 {
			yes = true
		}
	}
	return yes
}

// detectionKey sums what a detection depends on besides the texts of the
// files the code rules read: the detectors, the versions, the config's
// text, the project's resolution and framework, its local layers, and its
// sources' list (the component and page names, the roles).
func detectionKey(x *Index, rules []*Rule) [sha256.Size]byte {
	k := project.NewKeySum()
	str := k.Str
	for _, r := range rules {
		str(r.Code)
	}
	str(fmt.Sprint(x.target, x.before))
	if x.file != nil {
		str("config")
		str(string(x.file.Src))
	}
	p := x.project
	str(p.Root)
	str(p.ConfigPath)
	str(p.ConfigDisplay)
	str(fmt.Sprint(p.Framework, p.FrameworkSource))
	if p.Detection != nil {
		str(fmt.Sprintf("%+v", *p.Detection))
	}
	for _, ly := range p.Layers {
		str(ly.Root)
		str(ly.ConfigPath)
		str(ly.ConfigDisplay)
		str(string(ly.Src))
		str(fmt.Sprint(ly.Err))
		if ly.Detection != nil {
			str(fmt.Sprintf("%+v", *ly.Detection))
		}
	}
	for _, s := range p.Sources() {
		str(s.Path)
		str(s.Display)
		str(s.Role.String())
		if s.Layer != nil {
			str(s.Layer.Root)
		}
	}
	return k.Sum()
}
