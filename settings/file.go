package settings

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rules"
)

// File names and the package.json key of the settings.
const (
	FileName   = "fwmigrate.json"
	PackageKey = "fwmigrate"
	// SchemaURL is where settings/fwmigrate.schema.json is published, for
	// "$schema" (editors complete and check the file with it).
	SchemaURL = "https://raw.githubusercontent.com/fwmigrate/fwmigrate/main/settings/fwmigrate.schema.json"
)

// File is one settings object, as written in fwmigrate.json or under the
// "fwmigrate" key of a package.json, validated.
type File struct {
	Path string // the file it is in
	Dir  string // its directory, absolute: globs and the baseline resolve from it
	// Name is how it is shown: the path, with "#fwmigrate" for package.json.
	Name string

	Select, Ignore []string // nil when not set
	Severity       []RuleSeverity
	FailOn         string // "" when not set
	Framework      int    // 0 when not set
	Overrides      []Override
	Baseline       string // absolute, "" when not set

	// Extends are the settings files this one builds on, absolute, in
	// the order written (see Finder.extend for how they combine).
	Extends []string

	extendsAt []int             // offset of each Extends entry in src
	extendsAs []string          // each Extends entry as written
	src       []byte            // the text, for the position of an extends error
	from      map[string]string // key -> Name of the file it comes from, once extended
}

// RuleSeverity sets the severity of the rules a selector names; Severity
// "off" turns them off.
type RuleSeverity struct {
	Selector string
	Severity string
}

// Override applies to the findings in files matching one of Files
// (doublestar globs relative to the settings file's directory; a pattern
// without a slash matches a file's name in any directory).
type Override struct {
	// Dir is the directory of the settings file that holds the override:
	// its globs are relative to it, also when another file extends it.
	Dir      string
	Files    []string
	Ignore   []string
	Severity []RuleSeverity
}

// keys lists the settings a file may hold, for the "did you mean" of an
// unknown key; the schema test checks that fwmigrate.schema.json lists
// the same.
var keys = []string{"$schema", "extends", "select", "ignore", "severity", "failOn", "framework", "overrides", "baseline"}

var overrideKeys = []string{"files", "ignore", "severity"}

// FailOnValues are the values of failOn and --fail-on.
var FailOnValues = []string{"info", "warning", "error", "never"}

// SeverityValues are the values a rule's severity may be set to.
var SeverityValues = []string{"error", "warning", "info", "off"}

// Parse validates the settings in src, the text of the settings file path
// (fwmigrate.json, or a package.json: there only the "fwmigrate" key is
// read, and ok is false when it has none). An error names path, line and
// column. The files it extends are not read: a Finder combines them.
func Parse(path string, src []byte) (f *File, ok bool, err error) {
	text := src
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		// encoding/json refuses a BOM; spaces keep the offsets.
		text = append([]byte("   "), src[3:]...)
	}
	dir, _ := filepath.Abs(filepath.Dir(path))
	f = &File{Path: path, Dir: dir, Name: path, src: src}
	fail := func(err error) (*File, bool, error) {
		return nil, true, located(path, src, err)
	}
	pkg := filepath.Base(path) == "package.json"
	if pkg && !bytes.Contains(text, []byte(`"`+PackageKey+`"`)) {
		return nil, false, nil // the usual package.json: not parsed at all
	}
	root, err := parseJSON(text)
	if err != nil {
		return fail(err)
	}
	if pkg {
		if root.kind != 'o' {
			return nil, false, nil // not our file to judge
		}
		var own *value
		for _, m := range root.keys {
			if m.key == PackageKey {
				own = m.val
			}
		}
		if own == nil {
			return nil, false, nil
		}
		root = own
		f.Name = path + "#" + PackageKey
	}
	if root.kind != 'o' {
		return fail(errAt(root.off, "the settings must be an object, not %s", root.what()))
	}
	for _, m := range root.keys {
		v := m.val
		var err error
		switch m.key {
		case "$schema":
			err = wantString(v)
		case "select":
			f.Select, err = selectors(v, false)
			if f.Select == nil && err == nil {
				f.Select = []string{}
			}
		case "ignore":
			f.Ignore, err = selectors(v, true)
			if f.Ignore == nil && err == nil {
				f.Ignore = []string{}
			}
		case "severity":
			f.Severity, err = severities(v)
		case "failOn":
			if err = wantString(v); err == nil {
				if !contains(FailOnValues, v.str) {
					err = errAt(v.off, "failOn must be one of %s, not %q", strings.Join(FailOnValues, ", "), v.str)
				}
				f.FailOn = v.str
			}
		case "framework":
			if v.kind != 'n' || (v.num != "3" && v.num != "4") {
				err = errAt(v.off, "framework must be 3 or 4, not %s", describe(v))
			} else {
				f.Framework = int(v.num[0] - '0')
			}
		case "extends":
			err = f.extends(v)
		case "overrides":
			f.Overrides, err = overrides(v)
			for i := range f.Overrides {
				f.Overrides[i].Dir = dir
			}
		case "baseline":
			if err = wantString(v); err == nil {
				if v.str == "" {
					err = errAt(v.off, "baseline must name a file")
				}
				f.Baseline = filepath.Join(dir, filepath.FromSlash(v.str))
			}
		default:
			err = unknownKey(m, "", keys)
		}
		if err != nil {
			return fail(err)
		}
	}
	return f, true, nil
}

// extends reads the extends setting: a path or an array of paths of
// settings files (fwmigrate.json, another .json file, or a package.json
// with a "fwmigrate" key), relative to this file.
func (f *File) extends(v *value) error {
	list := []*value{v}
	if v.kind == 'a' {
		list = v.elem
	}
	for _, e := range list {
		if e.kind != 's' || e.str == "" {
			return errAt(e.off, "extends must be the path of a settings file (such as \"../../fwmigrate.json\") or an array of them, not %s", describe(e))
		}
		if !strings.HasSuffix(e.str, ".json") {
			return errAt(e.off, "extends names a settings file, a .json file: %q is not one", e.str)
		}
		f.Extends = append(f.Extends, filepath.Join(f.Dir, filepath.FromSlash(e.str)))
		f.extendsAt = append(f.extendsAt, e.off)
		f.extendsAs = append(f.extendsAs, e.str)
	}
	return nil
}

func unknownKey(m member, where string, known []string) error {
	msg := fmt.Sprintf("%q is not a setting%s", m.key, where)
	if s := compat.SuggestWord(m.key, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += " (known: " + strings.Join(known, ", ") + ")"
	}
	return errAt(m.keyOff, "%s", msg)
}

func describe(v *value) string {
	switch v.kind {
	case 'n':
		return v.num.String()
	case 's':
		return fmt.Sprintf("%q", v.str)
	}
	return v.what()
}

func wantString(v *value) error {
	if v.kind != 's' {
		return errAt(v.off, "want a string, not %s", v.what())
	}
	return nil
}

// selectors reads an array of rule selectors; each must name a rule, and
// one that hides (ignore) must not name an unsuppressible rule.
func selectors(v *value, hides bool) ([]string, error) {
	if v.kind != 'a' {
		return nil, errAt(v.off, "want an array of rule codes, prefixes, names or categories, not %s", v.what())
	}
	var out []string
	for _, e := range v.elem {
		if err := selector(e); err != nil {
			return nil, err
		}
		if err := rules.HidingError(e.str); hides && err != nil {
			return nil, errAt(e.off, "%v", err)
		}
		out = append(out, e.str)
	}
	return out, nil
}

func selector(v *value) error {
	if err := wantString(v); err != nil {
		return err
	}
	if err := rules.ValidateSelectors([]string{v.str}); err != nil {
		msg := err.Error()
		if s := suggestRule(v.str); s != "" {
			msg = fmt.Sprintf("%q matches no rule (did you mean %s?)", v.str, s)
		}
		return errAt(v.off, "%s", msg)
	}
	if strings.TrimSpace(v.str) == "" {
		return errAt(v.off, "an empty rule selector")
	}
	return nil
}

// suggestRule finds the rule code or name closest to s.
func suggestRule(s string) string {
	var names []string
	for _, r := range rules.All() {
		names = append(names, r.Code, r.Name)
	}
	return compat.SuggestWord(s, names)
}

// severities reads {"selector": "error" | "warning" | "info" | "off"}.
func severities(v *value) ([]RuleSeverity, error) {
	if v.kind != 'o' {
		return nil, errAt(v.off, `severity must be an object such as {"FW204": "off", "version": "error"}, not %s`, v.what())
	}
	var out []RuleSeverity
	for _, m := range v.keys {
		if err := selector(&value{off: m.keyOff, kind: 's', str: m.key}); err != nil {
			return nil, err
		}
		if err := rules.HidingError(m.key); err != nil {
			return nil, errAt(m.keyOff, "%v", err)
		}
		if err := wantString(m.val); err != nil {
			return nil, err
		}
		if !contains(SeverityValues, m.val.str) {
			return nil, errAt(m.val.off, "severity must be one of %s, not %q", strings.Join(SeverityValues, ", "), m.val.str)
		}
		out = append(out, RuleSeverity{m.key, m.val.str})
	}
	return out, nil
}

func overrides(v *value) ([]Override, error) {
	if v.kind != 'a' {
		return nil, errAt(v.off, "overrides must be an array of objects, not %s", v.what())
	}
	var out []Override
	for _, e := range v.elem {
		if e.kind != 'o' {
			return nil, errAt(e.off, "an override must be an object with files and ignore or severity, not %s", e.what())
		}
		var o Override
		hasFiles := false
		for _, m := range e.keys {
			var err error
			switch m.key {
			case "files":
				hasFiles = true
				o.Files, err = globs(m.val)
			case "ignore":
				o.Ignore, err = selectors(m.val, true)
			case "severity":
				o.Severity, err = severities(m.val)
			default:
				err = unknownKey(m, " of an override", overrideKeys)
			}
			if err != nil {
				return nil, err
			}
		}
		if !hasFiles {
			return nil, errAt(e.off, "an override needs files: the globs it applies to")
		}
		out = append(out, o)
	}
	return out, nil
}

func globs(v *value) ([]string, error) {
	if v.kind != 'a' || len(v.elem) == 0 {
		return nil, errAt(v.off, `files must be a non-empty array of globs such as ["legacy/**"], not %s`, v.what())
	}
	var out []string
	for _, e := range v.elem {
		if err := wantString(e); err != nil {
			return nil, err
		}
		p := strings.TrimPrefix(e.str, "./")
		if p == "" || strings.HasPrefix(p, "/") || !doublestar.ValidatePattern(p) {
			return nil, errAt(e.off, "%q is not a glob relative to the settings file (such as \"apps/legacy/**\")", e.str)
		}
		out = append(out, strings.TrimSuffix(p, "/"))
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Keys returns the settings a file may hold, sorted (for the schema test).
func Keys() []string {
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out
}
