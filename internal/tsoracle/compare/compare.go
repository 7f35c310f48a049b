// Package compare runs the types rules (FW8xx) and the real type checker
// on one fixture project and compares them: every error cause the checker
// reports must be predicted by a finding (same code, same file, same
// count), and after the safe fixes are applied the checker reports only
// what the remaining findings (those without a mechanical fix) predict.
// The rules test (rules/fw80x_oracle_test.go) and the command
// tools/tscompare use it.
//
// It imports the rules: it is a test tool above them, never imported by
// them.
package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/tsoracle"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Case is one fixture: its files and how the checker runs on it.
type Case struct {
	Name  string
	Files map[string]string
	// Framework is what generates the context files; its TSConfig
	// include and compilerOptions are read from the project's config (and
	// again from the fixed one).
	Framework tsoracle.Framework
	// Checker and Args run the check (vue-tsc -b --noEmit by default: the
	// upgrade guide's typecheck).
	Checker tsoracle.Checker
	Args    []string
}

// Cause is one error cause: a code in a file, counted.
type Cause struct {
	Code, File string
}

// Counts are causes with how many errors each gives.
type Counts map[Cause]int

func (c Counts) String() string {
	var keys []Cause
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].File != keys[j].File {
			return keys[i].File < keys[j].File
		}
		return keys[i].Code < keys[j].Code
	})
	var parts []string
	for _, k := range keys {
		s := k.Code
		if k.File != "" {
			s += " " + k.File
		}
		if c[k] != 1 {
			s += fmt.Sprintf(" ×%d", c[k])
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// Report is the comparison of one case.
type Report struct {
	Name string
	// Before: what the rules predict and what the checker reports on the
	// project as it is; After: the same once the safe fixes are applied
	// (Predicted then being the predictions of the findings that remain,
	// the causes to fix by hand).
	Before, After Side
	Fixed         []string // the fixes applied
	Output        string   // the checker's output, before and after
}

// Side is one run.
type Side struct {
	Predicted, Reported Counts
	Findings            []string // the FW8xx findings, one line each
}

// Match reports whether the checker reported exactly what was predicted.
func (s Side) Match() bool { return s.Predicted.String() == s.Reported.String() }

// Run compares the case in the empty directory dir.
func Run(tl *tsoracle.Tools, dir string, c Case) (*Report, error) { return run(tl, dir, c, true) }

// Predict is Run without the checker (no npm needed): the findings and
// their predictions before and after the safe fixes; Reported stays nil.
func Predict(dir string, c Case) (*Report, error) { return run(nil, dir, c, false) }

func run(tl *tsoracle.Tools, dir string, c Case, checked bool) (*Report, error) {
	if c.Checker == "" {
		c.Checker = tsoracle.VueTSC
	}
	if len(c.Args) == 0 {
		c.Args = []string{"-b", "--noEmit"}
	}
	rep := &Report{Name: c.Name}
	src := filepath.Join(dir, "project")
	for name, text := range c.Files {
		if err := write(src, name, text); err != nil {
			return nil, err
		}
	}
	p, diags, err := check(src)
	if err != nil {
		return nil, err
	}
	rep.Before.Predicted, rep.Before.Findings = predicted(diags)
	files := c.Files
	if checked {
		rep.Before.Reported, err = typecheck(tl, filepath.Join(dir, "before"), c, p, files, &rep.Output)
		if err != nil {
			return nil, err
		}
	}
	// The safe fixes, as `apply` makes them (the layout kept: the oracle
	// fixtures are in their target layout).
	fixed, applied, err := applySafe(p, diags)
	if err != nil {
		return nil, err
	}
	rep.Fixed = applied
	files = map[string]string{}
	for k, v := range c.Files {
		files[k] = v
	}
	for rel, text := range fixed {
		files[rel] = text
		if err := write(src, rel, text); err != nil {
			return nil, err
		}
	}
	p2, diags2, err := check(src)
	if err != nil {
		return nil, err
	}
	for _, d := range diags2 {
		if d.Fix != nil && len(d.Fix.Ops) > 0 && d.Fix.Applicability == rules.Safe {
			return nil, fmt.Errorf("after the safe fixes, %s still offers one: %s", d.Code, d.Message)
		}
	}
	rep.After.Predicted, rep.After.Findings = predicted(diags2)
	if checked {
		rep.After.Reported, err = typecheck(tl, filepath.Join(dir, "after"), c, p2, files, &rep.Output)
		if err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func write(root, name, text string) error {
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

func check(root string) (*project.Project, []*rules.Diagnostic, error) {
	var cfg string
	for _, n := range compat.ConfigNames {
		if _, err := os.Stat(filepath.Join(root, n)); err == nil {
			cfg = filepath.Join(root, n)
			break
		}
	}
	if cfg == "" {
		return nil, nil, fmt.Errorf("no fw.config.* in the case")
	}
	p := project.LoadProject(cfg, cfg)
	diags := rules.Check(p, rules.Options{Target: 4, Select: []string{"types"}})
	return p, diags, nil
}

var (
	rePrediction = regexp.MustCompile(`^(TS\d+)(?: (\S+))?(?: ×(\d+))?$`)
	notePrefix   = "type-check errors this causes"
)

// predicted reads the findings' prediction notes.
func predicted(diags []*rules.Diagnostic) (Counts, []string) {
	out := Counts{}
	var findings []string
	for _, d := range diags {
		if !strings.HasPrefix(d.Code, "FW8") {
			continue
		}
		line := d.Code + " " + d.Path + ": " + d.Message
		if d.Fix != nil {
			line += " [fix: " + d.Fix.Applicability.String() + "]"
		}
		findings = append(findings, line)
		for _, n := range d.Notes {
			if !strings.HasPrefix(n, notePrefix) {
				continue
			}
			_, list, _ := strings.Cut(n, "): ")
			for _, part := range strings.Split(list, "; ") {
				m := rePrediction.FindStringSubmatch(part)
				if m == nil {
					continue
				}
				k := 1
				if m[3] != "" {
					k, _ = strconv.Atoi(m[3])
				}
				out[Cause{m[1], m[2]}] += k
			}
		}
	}
	return out, findings
}

// typecheck writes files with the generated context files into dir and
// runs the checker. The config's typescript.tsConfig (include and
// compilerOptions), engine.typescript.tsConfig.compilerOptions and
// experimental.engineAutoImports reach the generated files.
func typecheck(tl *tsoracle.Tools, dir string, c Case, p *project.Project, files map[string]string, log *string) (Counts, error) {
	fw := c.Framework
	cfg := project.ConfigValues(p.File)
	if v, st := cfg.Value("typescript.tsConfig.include"); st == compat.Static {
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if s, ok := e.(string); ok {
					fw.TSConfig.Include = append(fw.TSConfig.Include, s)
				}
			}
		}
	}
	if v, st := cfg.Value("typescript.tsConfig.compilerOptions"); st == compat.Static {
		if m, ok := v.(map[string]any); ok {
			fw.TSConfig.CompilerOptions = m
		}
	}
	if v, st := cfg.Value("engine.typescript.tsConfig.compilerOptions"); st == compat.Static {
		if m, ok := v.(map[string]any); ok {
			fw.EngineCompilerOptions = m
		}
	}
	if v, st := cfg.Value("experimental.engineAutoImports"); st == compat.Static {
		if b, ok := v.(bool); ok {
			fw.EngineAutoImports = &b
		}
	}
	if _, err := tl.Write(dir, files, fw); err != nil {
		return nil, err
	}
	res, err := tl.Run(dir, c.Checker, c.Args...)
	if err != nil {
		return nil, err
	}
	*log += fmt.Sprintf("== %s %s %s\n%s\n", filepath.Base(dir), c.Checker, strings.Join(c.Args, " "), res.Output)
	out := Counts{}
	for _, d := range res.Diags {
		out[Cause{d.Code, d.File}]++
	}
	return out, nil
}

// applySafe applies the safe fixes of diags as apply does (config groups
// through fix.Config, other files' byte edits through fix.Code) and
// returns the new texts by root-relative path.
func applySafe(p *project.Project, diags []*rules.Diagnostic) (map[string]string, []string, error) {
	var groups [][]rewrite.Op
	edits := map[string][]rewrite.Op{}
	var applied []string
	for _, d := range diags {
		if d.Fix == nil || len(d.Fix.Ops) == 0 || d.Fix.Applicability != rules.Safe || d.Fix.Layout == rules.MoveOnly {
			continue
		}
		applied = append(applied, d.Code+": "+d.Fix.Description)
		if d.Fix.File != "" {
			edits[d.Fix.File] = append(edits[d.Fix.File], d.Fix.Ops...)
			if len(d.Fix.ConfigOps) > 0 {
				groups = append(groups, d.Fix.ConfigOps)
			}
			continue
		}
		groups = append(groups, d.Fix.Ops)
	}
	out := map[string]string{}
	root := filepath.Dir(p.ConfigPath)
	if len(groups) > 0 {
		res, err := fix.Config(p.ConfigDisplay, p.File, groups)
		if err != nil {
			return nil, nil, err
		}
		for g, why := range res.Skipped {
			return nil, nil, fmt.Errorf("a fix was not made: %v: %s", groups[g], why)
		}
		out[filepath.Base(p.ConfigPath)] = string(res.Src)
	}
	for path, ops := range edits {
		e, err := fix.Code(path, os.ReadFile, ops)
		if err != nil {
			return nil, nil, err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil, nil, err
		}
		out[filepath.ToSlash(rel)] = string(e.New)
	}
	sort.Strings(applied)
	return out, applied, nil
}

// LoadCases reads the cases of dir/*.txtar: each archive is one case, its
// comment's "key: value" lines set version (the framework release the
// context files are generated for, e.g. 4.5.2), compat, src (srcDir),
// checker (tsc or vue-tsc) and args.
func LoadCases(dir string) ([]Case, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			return nil, err
		}
		c := Case{Name: strings.TrimSuffix(filepath.Base(name), ".txtar"), Files: map[string]string{}}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch strings.TrimSpace(k) {
			case "version":
				c.Framework.Version = v
			case "compat":
				c.Framework.Compat, err = strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("%s: compat: %v", name, err)
				}
			case "src":
				c.Framework.SrcDir = v
			case "checker":
				c.Checker = tsoracle.Checker(v)
			case "args":
				c.Args = strings.Fields(v)
			}
		}
		if c.Framework.Version == "" {
			return nil, fmt.Errorf("%s: no `version:` line in its comment", name)
		}
		for _, f := range ar.Files {
			c.Files[f.Name] = string(f.Data)
		}
		out = append(out, c)
	}
	return out, nil
}
