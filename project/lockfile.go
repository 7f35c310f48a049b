package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/semver"
)

// The lockfiles of the package managers, read for the versions they
// resolved the project's own dependencies to. Each reader takes the file's
// text and runs in time linear in its length; none follows what the file
// names (paths, URLs). A file that does not read is a *LockError with the
// position of the failure.

// LockError is a lockfile that cannot be read.
type LockError struct {
	File         string // as shown to the user
	Line, Column int    // 1-based (bytes); 0 when the error has no position
	Msg          string
}

func (e *LockError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// lockErrAt is a LockError at byte offset off of src.
func lockErrAt(src []byte, off int, format string, args ...any) *LockError {
	off = max(0, min(off, len(src)))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return &LockError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// Resolved is what a lockfile says of the project's direct dependencies.
type Resolved interface {
	// Version returns the version the lockfile resolved dependency name,
	// declared with range rng in package.json, to; false when it does not
	// say, or says something that is not a version (a link, a path).
	Version(name, rng string) (string, bool)
}

// flat is a lockfile that gives one version per direct dependency.
type flat map[string]string

func (f flat) Version(name, _ string) (string, bool) {
	v, ok := f[name]
	return v, ok
}

// cleanVersion keeps v when it is a version ("3.12.0"), and strips what
// the lockfiles add after one: pnpm's peer suffixes ("3.12.0(vue@3.5.0)",
// "3.12.0_vue@3.5.0") and yarn berry's "npm:" resolution prefix.
func cleanVersion(v string) (string, bool) {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(v, "npm:")
	if i := strings.IndexAny(v, "(_"); i >= 0 {
		v = v[:i]
	}
	ver, err := semver.Parse(v)
	if err != nil {
		return "", false
	}
	return ver.String(), true
}

// ParsePackageLock reads package-lock.json or npm-shrinkwrap.json
// (lockfileVersion 1, 2 or 3): the top-level node_modules/<name> entries
// (v2, v3) or dependencies (v1).
func ParsePackageLock(src []byte) (Resolved, error) {
	var lock struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Version string `json:"version"`
			Link    bool   `json:"link"`
		} `json:"packages"`
		Dependencies map[string]struct {
			Version string `json:"version"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(src, &lock); err != nil {
		return nil, jsonErr(src, err)
	}
	out := flat{}
	for key, p := range lock.Packages {
		name, ok := strings.CutPrefix(key, "node_modules/")
		if !ok || strings.Contains(name, "/node_modules/") || p.Link {
			continue
		}
		if v, ok := cleanVersion(p.Version); ok {
			out[name] = v
		}
	}
	if lock.Packages == nil {
		for name, d := range lock.Dependencies {
			if v, ok := cleanVersion(d.Version); ok {
				out[name] = v
			}
		}
	}
	return out, nil
}

// jsonErr is encoding/json's error with its position.
func jsonErr(src []byte, err error) *LockError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return lockErrAt(src, int(se.Offset)-1, "invalid JSON: %v", err)
	case errors.As(err, &te):
		return lockErrAt(src, int(te.Offset)-1, "%s is %s, not what a lockfile holds there", te.Field, te.Value)
	}
	return &LockError{Msg: "invalid JSON: " + err.Error()}
}

// ParseBunLock reads bun.lock, JSON with comments and trailing commas: the
// hoisted entries of packages ("fw": ["fw@3.12.0", ...]).
func ParseBunLock(src []byte) (Resolved, error) {
	var lock struct {
		LockfileVersion *int                         `json:"lockfileVersion"`
		Packages        map[string][]json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(stripJSONC(src), &lock); err != nil {
		return nil, jsonErr(src, err)
	}
	if lock.LockfileVersion == nil {
		return nil, &LockError{Msg: "no lockfileVersion: not a bun lockfile"}
	}
	out := flat{}
	for key, entry := range lock.Packages {
		if len(entry) == 0 {
			continue
		}
		var ident string
		if json.Unmarshal(entry[0], &ident) != nil {
			continue
		}
		name, v, ok := splitIdent(ident)
		if !ok || name != key {
			continue // a nested entry ("a/fw"), or one of another name
		}
		if v, ok := cleanVersion(v); ok {
			out[name] = v
		}
	}
	return out, nil
}

// splitIdent splits "name@version" and "@scope/name@version".
func splitIdent(s string) (name, version string, ok bool) {
	i := strings.LastIndexByte(s, '@')
	if i <= 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// stripJSONC returns src with its comments and trailing commas turned into
// spaces (newlines kept), so that encoding/json reads it and its offsets
// are src's.
func stripJSONC(src []byte) []byte {
	out := append([]byte(nil), src...)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	lastComma := -1 // a comma outside strings not yet followed by a value
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"':
			lastComma = -1
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			j := bytes.IndexByte(out[i:], '\n')
			if j < 0 {
				j = len(out) - i
			}
			blank(i, i+j)
			i += j - 1
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			end := len(out)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			blank(i, end)
			i = end - 1
		case c == ',':
			if lastComma >= 0 {
				lastComma = -1 // two commas: left for the JSON error
			} else {
				lastComma = i
			}
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}

// yamlLine is one line of a lockfile in YAML's block style, as the
// lockfile readers see it: its indentation, key and inline value.
type yamlLine struct {
	indent     int
	key, value string
	hasKey     bool
	off        int // the line's offset in the file
}

// yamlLines calls f for each line of src that is not blank or a comment,
// stopping at f's error. A tab in the indentation, or a quoted key without
// its closing quote, is an error at its position.
func yamlLines(src []byte, f func(yamlLine) error) error {
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := strings.TrimRight(string(src[off:end]), "\r")
		ln := yamlLine{off: off}
		for ln.indent < len(line) && line[ln.indent] == ' ' {
			ln.indent++
		}
		rest := line[ln.indent:]
		next := end + 1
		switch {
		case rest == "" || rest[0] == '#':
		case rest[0] == '\t':
			return lockErrAt(src, off+ln.indent, "a tab in the indentation")
		default:
			if err := splitYAMLKey(src, &ln, rest); err != nil {
				return err
			}
			if err := f(ln); err != nil {
				return err
			}
		}
		off = next
	}
	return nil
}

// splitYAMLKey reads "key: value", "'key':", "\"key\": value" into ln; a
// line without a key (a list item, "---") keeps hasKey false.
func splitYAMLKey(src []byte, ln *yamlLine, rest string) error {
	at := ln.off + ln.indent
	if rest[0] == '\'' || rest[0] == '"' {
		q := rest[0]
		end := strings.IndexByte(rest[1:], q)
		if end < 0 {
			return lockErrAt(src, at, "a quoted key without its closing quote")
		}
		key, after := rest[1:1+end], rest[2+end:]
		if v, ok := strings.CutPrefix(after, ":"); ok {
			ln.key, ln.value, ln.hasKey = key, strings.TrimSpace(v), true
		}
		return nil
	}
	if strings.HasPrefix(rest, "- ") || rest == "-" {
		return nil
	}
	i := strings.Index(rest, ": ")
	if i < 0 {
		if !strings.HasSuffix(rest, ":") {
			return nil
		}
		i = len(rest) - 1
	}
	ln.key, ln.value, ln.hasKey = rest[:i], strings.TrimSpace(rest[i+1:]), true
	return nil
}

// unquoteYAML removes a scalar's quotes.
func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// depFields are the package.json fields of the dependencies fwmigrate
// reads, as the lockfiles name their sections too.
var lockDepFields = map[string]bool{"dependencies": true, "devDependencies": true, "optionalDependencies": true}

// ParsePnpmLock reads pnpm-lock.yaml: the root importer's dependencies
// (lockfileVersion 9: importers['.']; 6: the top-level sections with
// version: keys; 5: the top-level sections' inline versions).
func ParsePnpmLock(src []byte) (Resolved, error) {
	out := flat{}
	var stack []yamlLine // the keys enclosing the current line
	sawVersion := false
	err := yamlLines(src, func(ln yamlLine) error {
		for len(stack) > 0 && stack[len(stack)-1].indent >= ln.indent {
			stack = stack[:len(stack)-1]
		}
		if !ln.hasKey {
			if ln.indent == 0 && bytes.HasPrefix(src[ln.off:], []byte("---")) {
				stack = stack[:0] // another document
			}
			return nil
		}
		if len(stack) == 0 && ln.key == "lockfileVersion" {
			sawVersion = true
		}
		path := make([]string, 0, len(stack)+1)
		for _, s := range stack {
			path = append(path, s.key)
		}
		path = append(path, ln.key)
		var name, value string
		switch {
		case len(path) == 5 && path[0] == "importers" && path[1] == "." && lockDepFields[path[2]] && path[4] == "version":
			name, value = unquoteYAML(path[3]), ln.value
		case len(path) == 3 && lockDepFields[path[0]] && path[2] == "version":
			name, value = unquoteYAML(path[1]), ln.value
		case len(path) == 2 && lockDepFields[path[0]] && ln.value != "":
			name, value = unquoteYAML(path[1]), ln.value
		}
		if name != "" {
			if v, ok := cleanVersion(unquoteYAML(value)); ok {
				out[name] = v
			}
		}
		if len(stack) < 8 {
			stack = append(stack, ln) // deeper keys are never read
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !sawVersion {
		return nil, &LockError{Msg: "no lockfileVersion: not a pnpm lockfile"}
	}
	return out, nil
}

// yarnLock is yarn.lock (classic v1 or berry): each descriptor
// (name@range) with the version it resolved to.
type yarnLock struct {
	byDesc map[[2]string]string // {name, range} -> version
	byName map[string]string    // name -> version, "" when entries disagree
}

func (y *yarnLock) Version(name, rng string) (string, bool) {
	if v, ok := y.byDesc[[2]string{name, strings.TrimPrefix(rng, "npm:")}]; ok {
		return v, true
	}
	v := y.byName[name]
	return v, v != ""
}

// ParseYarnLock reads yarn.lock, classic (`version "3.12.0"`) or berry
// (`version: 3.12.0`): entries at the top level whose descriptors name the
// package and range, each with its version.
func ParseYarnLock(src []byte) (Resolved, error) {
	y := &yarnLock{byDesc: map[[2]string]string{}, byName: map[string]string{}}
	var descs [][2]string // the current entry's descriptors
	err := yamlLines(src, func(ln yamlLine) error {
		if ln.indent == 0 {
			descs = descs[:0]
			header := strings.TrimRight(string(src[ln.off:ln.off+lineLen(src[ln.off:])]), "\r ")
			if !strings.HasSuffix(header, ":") {
				return lockErrAt(src, ln.off, "an entry that does not end with a colon")
			}
			header = strings.TrimSuffix(header, ":")
			if strings.Count(header, `"`)%2 != 0 {
				return lockErrAt(src, ln.off, "a descriptor without its closing quote")
			}
			for _, d := range strings.Split(header, ",") {
				d = strings.Trim(d, `" `)
				name, rng, ok := splitIdent(d)
				if ok {
					descs = append(descs, [2]string{name, strings.TrimPrefix(rng, "npm:")})
				}
			}
			return nil
		}
		key, value := ln.key, ln.value
		if !ln.hasKey {
			// classic: `version "3.12.0"`
			line := strings.TrimSpace(string(src[ln.off : ln.off+lineLen(src[ln.off:])]))
			key, value, _ = strings.Cut(line, " ")
		}
		if ln.indent > 2 || key != "version" || len(descs) == 0 {
			return nil
		}
		v, ok := cleanVersion(unquoteYAML(strings.TrimSpace(value)))
		if !ok {
			return nil
		}
		for _, d := range descs {
			y.byDesc[d] = v
			if old, seen := y.byName[d[0]]; !seen {
				y.byName[d[0]] = v
			} else if old != v {
				y.byName[d[0]] = ""
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return y, nil
}

func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b)
}
