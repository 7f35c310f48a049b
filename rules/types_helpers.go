package rules

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/jsonc"
	"github.com/fwmigrate/fwmigrate/project"
)

// Helpers of the types rules (FW8xx): the generated TypeScript contexts of
// the target (compat.TSGeneration resolved by project.ResolveTSContexts
// for the layout after the migration), the root tsconfig.json read as
// members, and the note that names the type-check errors a finding
// causes, which the oracle test compares with what tsc reports.

// tsView is the target's generated contexts for one project.
type tsView struct {
	gen    *compat.TSGenerationInfo
	ctx    *project.TSContexts
	layout layoutView
	moved  []string // root entries the move puts into app/ ("x/" for a folder)
}

// tsTarget returns the view of the contexts the project gets on its
// framework major (package.json, or --framework) with the target
// compatibility version, in the layout the migration leaves; ok is false
// when the major or the layout is unknown, or the spec does not describe
// the major's files.
func (p *Pass) tsTarget() (v tsView, ok bool) {
	pr := p.Project
	if pr.Detection == nil || pr.Framework < 3 || p.Target < 4 {
		return v, false
	}
	v.gen = compat.TSGeneration(pr.Framework, p.Target)
	if v.gen == nil {
		return v, false
	}
	if v.layout, ok = p.layoutAfter(); !ok {
		return v, false
	}
	v.moved = v.layout.moved(p)
	v.ctx = project.ResolveTSContexts(v.gen, project.DirsOf(pr.Detection.Root, pr.Detection.V4, v.layout.Src), p.Config)
	return v, true
}

// after returns where a root-relative file will be after the move.
func (v tsView) after(rel string) string {
	for _, m := range v.moved {
		if rel == m || strings.HasSuffix(m, "/") && strings.HasPrefix(rel, m) {
			return "app/" + rel
		}
	}
	return rel
}

// contextNames lists the contexts of files, "a, b and c".
func contextNames(files []*project.TSContextFile) string {
	var names []string
	for _, f := range files {
		names = append(names, f.Context.String())
	}
	return andList(names)
}

func andList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// prediction is a type-check error a finding causes: its code, the file
// TypeScript reports it in (root-relative) and how many times.
type prediction struct {
	code, file string
	n          int
}

// predictPrefix starts the note that lists a finding's predictions; the
// oracle test reads the note back.
const predictPrefix = "type-check errors this causes (vue-tsc on TypeScript 6; plain tsc leaves out .vue files): "

// predictNote renders predictions as "TS6306 tsconfig.json ×4; TS2339
// app/b.ts".
func predictNote(ps []prediction) string {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].file != ps[j].file {
			return ps[i].file < ps[j].file
		}
		return ps[i].code < ps[j].code
	})
	var parts []string
	for _, p := range ps {
		s := p.code
		if p.file != "" {
			s += " " + p.file
		}
		if p.n > 1 {
			s += fmt.Sprintf(" ×%d", p.n)
		}
		parts = append(parts, s)
	}
	return predictPrefix + strings.Join(parts, "; ")
}

// readTSConfig reads a tsconfig file's members; nil when it is not an
// object this reader can follow.
func readTSConfig(data []byte) *tsconfig {
	members, ok := jsonc.Members(data)
	if !ok {
		return nil
	}
	tc := &tsconfig{data: data, members: members, at: map[string]int{}}
	for i, m := range members {
		tc.at[m.Key(data)] = i // the last of duplicate keys wins, as in JSON
	}
	return tc
}

// extendsValues returns the extends member's strings with their items (one
// item for a string value), nil when there is none or it is not strings.
func (tc *tsconfig) extendsValues() (ext jsonc.Item, elems []jsonc.Item, values []string, ok bool) {
	ext, ok = tc.member("extends")
	if !ok {
		return ext, nil, nil, false
	}
	data := tc.data
	if data[ext.ValStart] == '[' {
		if elems, ok = jsonc.Items(data, ext.ValStart); !ok {
			return ext, nil, nil, false
		}
	} else {
		elems = []jsonc.Item{ext}
	}
	for _, el := range elems {
		s, ok := el.String(data)
		if !ok {
			return ext, nil, nil, false
		}
		values = append(values, s)
	}
	return ext, elems, values, true
}

// resolveTSPath resolves a path a tsconfig in dir names (extends, a
// reference's path): "" for a package name. TypeScript adds .json to an
// extends without it, and tsconfig.json to a reference that names a
// folder.
func resolveTSPath(dir, s string) string {
	if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") && !filepath.IsAbs(s) && s != "." && s != ".." {
		return ""
	}
	return filepath.Join(dir, filepath.FromSlash(s))
}

// generatedName returns the name of the generated file abs names (abs
// with .json added when it has no extension), "" when it is not a file of
// the build dir.
func generatedName(abs, build string) string {
	if filepath.Dir(abs) != build {
		return ""
	}
	name := filepath.Base(abs)
	if !strings.HasSuffix(name, ".json") {
		name += ".json"
	}
	if !strings.HasPrefix(name, "tsconfig") {
		return ""
	}
	return name
}

// rootRel returns abs relative to the project's root, slash-separated.
func rootRel(pr *project.Project, abs string) string {
	r, err := filepath.Rel(pr.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// tsProgramFiles are the project's files that a type check may take:
// its sources (but .vue files, which only vue-tsc reads), its tests, the
// config, and the scripts and declarations TSFiles found, root-relative
// and sorted, each once.
func tsProgramFiles(pr *project.Project, vue bool) []string {
	seen := map[string]bool{}
	var out []string
	add := func(abs string) {
		rel := rootRel(pr, abs)
		if strings.HasPrefix(rel, "../") || seen[rel] {
			return
		}
		if !compat.SupportedTSExtension(rel, vue) {
			return
		}
		seen[rel] = true
		out = append(out, rel)
	}
	for _, s := range pr.Sources() {
		if s.Layer == nil {
			add(s.Path)
		}
	}
	for _, s := range pr.TestSources() {
		add(s.Path)
	}
	if pr.ConfigPath != "" {
		add(pr.ConfigPath)
	}
	for _, d := range pr.TSFiles().Declarations {
		add(d.Path)
	}
	sort.Strings(out)
	return out
}

// isDeclPath reports a declaration file's name.
func isDeclPath(rel string) bool {
	b := path.Base(rel)
	return strings.HasSuffix(b, ".d.ts") || strings.HasSuffix(b, ".d.mts") || strings.HasSuffix(b, ".d.cts")
}
