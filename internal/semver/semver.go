// Package semver reads versions and ranges the way npm's semver package
// does in its loose mode (the mode npm itself uses for package.json ranges
// and engines): versions "1.2.3-rc.1", ranges with ||, hyphen ranges,
// x-ranges ("3.x", "3", "*"), tilde and caret ranges and comparators, and
// npm's rule for pre-releases (a pre-release satisfies a range only when a
// comparator of the same set names a pre-release of the same
// major.minor.patch). Intersects is npm's Range.intersects.
//
// Masterminds/semver was tried first against npm on the ranges of
// compat/ecosystem.json: it admits pre-releases of later versions
// (">=3.0.0-rc.11" admits 4.0.0-rc.1, npm does not) and has no intersection
// test, which the module compatibility data is computed with.
package semver

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Version is a semantic version.
type Version struct {
	Major, Minor, Patch uint64
	// Pre is the pre-release, split at its dots ("rc", "11"); nil for a
	// release.
	Pre []string
}

// MaxLen is the longest version or range text read, npm's limit.
const MaxLen = 256

// maxNum is npm's Number.MAX_SAFE_INTEGER bound on a version's numbers.
const maxNum = 1<<53 - 1

// Parse reads a version as npm's loose mode does: surrounding space, a
// leading "v" or "=" and a pre-release without its "-" ("1.2.3beta") are
// allowed. Build metadata ("+sha") is read and dropped.
func Parse(s string) (Version, error) {
	v, rest, ok := parseVersion(strings.TrimSpace(s), false)
	if !ok || rest != "" {
		return Version{}, fmt.Errorf("%q is not a version", s)
	}
	return v, nil
}

// MustParse is Parse for versions known to be valid; it panics otherwise.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// partial is a version as a range writes it: each of major, minor and
// patch may be missing or a wildcard (x, X, *).
type partial struct {
	v          Version
	xM, xm, xp bool // wildcard or missing
}

// parseVersion reads a version at the start of s. With allowPartial, missing
// or wildcard parts are allowed (x-ranges); without it, all three numbers
// are required. It returns the version and what follows it.
func parseVersion(s string, allowPartial bool) (Version, string, bool) {
	p, rest, ok := parsePartial(s)
	if !ok || !allowPartial && (p.xM || p.xm || p.xp) {
		return Version{}, s, false
	}
	return p.v, rest, true
}

func parsePartial(s string) (partial, string, bool) {
	if len(s) > MaxLen {
		return partial{}, s, false
	}
	i := 0
	for i < len(s) && (s[i] == '=' || s[i] == 'v' || s[i] == ' ' || s[i] == '\t') {
		i++
	}
	var p partial
	nums := [3]*uint64{&p.v.Major, &p.v.Minor, &p.v.Patch}
	xs := [3]*bool{&p.xM, &p.xm, &p.xp}
	part := 0
	for ; part < 3; part++ {
		if part > 0 {
			if i >= len(s) || s[i] != '.' {
				break
			}
			i++
		}
		switch {
		case i < len(s) && (s[i] == 'x' || s[i] == 'X' || s[i] == '*'):
			*xs[part] = true
			i++
		case i < len(s) && s[i] >= '0' && s[i] <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.ParseUint(s[i:j], 10, 64)
			if err != nil || n > maxNum {
				return partial{}, s, false
			}
			*nums[part] = n
			i = j
		default:
			if part == 0 {
				return partial{}, s, false
			}
			i-- // the dot belongs to what follows: not a version part
			goto done
		}
	}
done:
	for k := part; k < 3; k++ {
		*xs[k] = true
	}
	if p.xM {
		p.xm, p.xp = true, true
	}
	if p.xm {
		p.xp = true
	}
	// A wildcard makes the parts after it wildcards ("3.x.5" is "3.x").
	if p.xm {
		p.v.Minor, p.v.Patch = 0, 0
	}
	if p.xp {
		p.v.Patch = 0
	}
	if p.xM {
		p.v.Major = 0
	}
	// Pre-release: "-" then dot-separated identifiers; loose mode also
	// takes one that starts without the "-" right after the patch.
	if !p.xp && i < len(s) && (s[i] == '-' || isIdentStart(s[i])) {
		j := i
		if s[j] == '-' {
			j++
		}
		start := j
		for j < len(s) && (isIdent(s[j]) || s[j] == '.') {
			j++
		}
		pre := s[start:j]
		if pre == "" {
			return partial{}, s, false
		}
		for _, id := range strings.Split(pre, ".") {
			if id == "" {
				return partial{}, s, false
			}
			p.v.Pre = append(p.v.Pre, id)
		}
		i = j
	}
	if i < len(s) && s[i] == '+' {
		j := i + 1
		for j < len(s) && (isIdent(s[j]) || s[j] == '.') {
			j++
		}
		if j == i+1 {
			return partial{}, s, false
		}
		i = j
	}
	return p, s[i:], true
}

func isIdent(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-'
}

// isIdentStart is a byte that starts a loose pre-release written without
// its "-" ("1.2.3beta"): a letter.
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// String writes v as npm does: "1.2.3" or "1.2.3-rc.1".
func (v Version) String() string {
	s := strconv.FormatUint(v.Major, 10) + "." + strconv.FormatUint(v.Minor, 10) + "." + strconv.FormatUint(v.Patch, 10)
	if len(v.Pre) > 0 {
		s += "-" + strings.Join(v.Pre, ".")
	}
	return s
}

// IsPrerelease reports whether v has a pre-release part.
func (v Version) IsPrerelease() bool { return len(v.Pre) > 0 }

// Compare returns -1, 0 or 1 as v is lower than, equal to or higher than
// w, by semver's precedence (a pre-release is lower than its release;
// numeric identifiers are lower than alphanumeric ones).
func (v Version) Compare(w Version) int {
	if c := cmpNum(v.Major, w.Major); c != 0 {
		return c
	}
	if c := cmpNum(v.Minor, w.Minor); c != 0 {
		return c
	}
	if c := cmpNum(v.Patch, w.Patch); c != 0 {
		return c
	}
	switch {
	case len(v.Pre) == 0 && len(w.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(w.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(w.Pre); i++ {
		if c := cmpIdent(v.Pre[i], w.Pre[i]); c != 0 {
			return c
		}
	}
	return cmpNum(uint64(len(v.Pre)), uint64(len(w.Pre)))
}

// Less reports whether v is lower than w.
func (v Version) Less(w Version) bool { return v.Compare(w) < 0 }

// sameTuple reports whether v and w have the same major.minor.patch.
func (v Version) sameTuple(w Version) bool {
	return v.Major == w.Major && v.Minor == w.Minor && v.Patch == w.Patch
}

func cmpNum(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpIdent(a, b string) int {
	an, aerr := strconv.ParseUint(a, 10, 64)
	bn, berr := strconv.ParseUint(b, 10, 64)
	anum, bnum := aerr == nil && isDigits(a), berr == nil && isDigits(b)
	switch {
	case anum && bnum:
		return cmpNum(an, bn)
	case anum:
		return -1
	case bnum:
		return 1
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// op is a comparator's operator.
type op uint8

const (
	opAny op = iota // matches every version (npm's empty comparator)
	opEQ
	opLT
	opLE
	opGT
	opGE
)

func (o op) String() string {
	return [...]string{"", "", "<", "<=", ">", ">="}[o]
}

// comparator is one bound of a comparator set.
type comparator struct {
	op op
	v  Version
}

func (c comparator) String() string {
	if c.op == opAny {
		return "*"
	}
	return c.op.String() + c.v.String()
}

func (c comparator) test(v Version) bool {
	switch c.op {
	case opAny:
		return true
	case opEQ:
		return v.Compare(c.v) == 0
	case opLT:
		return v.Compare(c.v) < 0
	case opLE:
		return v.Compare(c.v) <= 0
	case opGT:
		return v.Compare(c.v) > 0
	case opGE:
		return v.Compare(c.v) >= 0
	}
	return false
}

// Range is an npm range: a union of comparator sets.
type Range struct {
	sets [][]comparator
	raw  string
}

var errTooLong = errors.New("longer than 256 characters")

// ParseRange reads an npm range in loose mode. "" and "*" match every
// release. Specs that are not ranges (a tag such as "latest", "npm:",
// "workspace:", a git or file spec, a URL) are errors.
func ParseRange(s string) (Range, error) {
	if len(s) > MaxLen {
		return Range{}, fmt.Errorf("range %q...: %w", s[:40], errTooLong)
	}
	r := Range{raw: s}
	for _, alt := range strings.Split(s, "||") {
		set, err := parseSet(strings.TrimSpace(alt))
		if err != nil {
			return Range{}, fmt.Errorf("range %q: %w", s, err)
		}
		r.sets = append(r.sets, set)
	}
	return r, nil
}

// MustParseRange is ParseRange for ranges known to be valid.
func MustParseRange(s string) Range {
	r, err := ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}

// String is the range as written.
func (r Range) String() string { return r.raw }

// Normal writes the range's comparator sets as npm does
// (">=3.0.0-rc.11 <4.0.0-0 || >=4.1.0").
func (r Range) Normal() string {
	var alts []string
	for _, set := range r.sets {
		var cs []string
		for _, c := range set {
			cs = append(cs, c.String())
		}
		alts = append(alts, strings.Join(cs, " "))
	}
	return strings.Join(alts, " || ")
}

func parseSet(s string) ([]comparator, error) {
	if s == "" {
		return []comparator{{op: opAny}}, nil
	}
	// Hyphen range: "1.2 - 2.3.4".
	if lo, hi, ok := cutHyphen(s); ok {
		a, arest, aok := parsePartial(lo)
		b, brest, bok := parsePartial(hi)
		if !aok || !bok || strings.TrimSpace(arest) != "" || strings.TrimSpace(brest) != "" {
			return nil, fmt.Errorf("bad hyphen range %q", s)
		}
		var set []comparator
		if !a.xM {
			set = append(set, comparator{op: opGE, v: floor(a)})
		}
		switch {
		case b.xM:
		case b.xm:
			set = append(set, comparator{op: opLT, v: Version{Major: b.v.Major + 1, Pre: []string{"0"}}})
		case b.xp:
			set = append(set, comparator{op: opLT, v: Version{Major: b.v.Major, Minor: b.v.Minor + 1, Pre: []string{"0"}}})
		default:
			set = append(set, comparator{op: opLE, v: b.v})
		}
		if len(set) == 0 {
			set = append(set, comparator{op: opAny})
		}
		return set, nil
	}
	var set []comparator
	rest := s
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		cs, next, err := parseComparator(rest)
		if err != nil {
			return nil, err
		}
		set = append(set, cs...)
		rest = next
	}
	// npm drops the match-all comparators of a set that has others.
	var out []comparator
	for _, c := range set {
		if c.op != opAny {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = []comparator{{op: opAny}}
	}
	return out, nil
}

// cutHyphen splits "A - B" (space, hyphen, space).
func cutHyphen(s string) (string, string, bool) {
	i := strings.Index(s, " - ")
	if i < 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+3:]), true
}

// floor is the lowest version a partial stands for ("1.2" is 1.2.0).
func floor(p partial) Version {
	v := p.v
	if p.xm {
		v.Minor = 0
	}
	if p.xp {
		v.Patch = 0
	}
	return v
}

// parseComparator reads one comparator at the start of s, which has no
// leading space: it returns the comparators it stands for (a tilde, caret
// or x-range is two) and what follows.
func parseComparator(s string) ([]comparator, string, error) {
	kind := ""
	switch {
	case strings.HasPrefix(s, "~>"):
		kind, s = "~", s[2:]
	case strings.HasPrefix(s, "~"), strings.HasPrefix(s, "^"):
		kind, s = s[:1], s[1:]
	case strings.HasPrefix(s, ">="), strings.HasPrefix(s, "<="):
		kind, s = s[:2], s[2:]
	case strings.HasPrefix(s, ">"), strings.HasPrefix(s, "<"), strings.HasPrefix(s, "="):
		kind, s = s[:1], s[1:]
	}
	s = strings.TrimLeft(s, " \t")
	p, rest, ok := parsePartial(s)
	if !ok {
		return nil, "", fmt.Errorf("%q is not a version", firstField(s))
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, "", fmt.Errorf("%q is not a version", firstField(s))
	}
	switch kind {
	case "~":
		return tilde(p), rest, nil
	case "^":
		return caret(p), rest, nil
	}
	return xrange(kind, p), rest, nil
}

func firstField(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

func lt(v Version) comparator { return comparator{op: opLT, v: v} }
func ge(v Version) comparator { return comparator{op: opGE, v: v} }

func zeroPre(v Version) Version { v.Pre = []string{"0"}; return v }

func tilde(p partial) []comparator {
	v := p.v
	switch {
	case p.xM:
		return []comparator{{op: opAny}}
	case p.xm:
		return []comparator{ge(Version{Major: v.Major}), lt(zeroPre(Version{Major: v.Major + 1}))}
	case p.xp:
		return []comparator{ge(Version{Major: v.Major, Minor: v.Minor}), lt(zeroPre(Version{Major: v.Major, Minor: v.Minor + 1}))}
	}
	return []comparator{ge(v), lt(zeroPre(Version{Major: v.Major, Minor: v.Minor + 1}))}
}

func caret(p partial) []comparator {
	v := p.v
	switch {
	case p.xM:
		return []comparator{{op: opAny}}
	case p.xm:
		return []comparator{ge(Version{Major: v.Major}), lt(zeroPre(Version{Major: v.Major + 1}))}
	case p.xp:
		if v.Major == 0 {
			return []comparator{ge(Version{Minor: v.Minor}), lt(zeroPre(Version{Minor: v.Minor + 1}))}
		}
		return []comparator{ge(Version{Major: v.Major, Minor: v.Minor}), lt(zeroPre(Version{Major: v.Major + 1}))}
	}
	var hi Version
	switch {
	case v.Major != 0:
		hi = Version{Major: v.Major + 1}
	case v.Minor != 0:
		hi = Version{Minor: v.Minor + 1}
	default:
		hi = Version{Patch: v.Patch + 1}
	}
	return []comparator{ge(v), lt(zeroPre(hi))}
}

// xrange is npm's replaceXRange followed by the plain comparator.
func xrange(kind string, p partial) []comparator {
	v := p.v
	anyX := p.xM || p.xm || p.xp
	if kind == "=" && anyX {
		kind = ""
	}
	if !anyX {
		o := map[string]op{"": opEQ, "=": opEQ, "<": opLT, "<=": opLE, ">": opGT, ">=": opGE}[kind]
		return []comparator{{op: o, v: v}}
	}
	switch {
	case p.xM:
		if kind == ">" || kind == "<" {
			return []comparator{lt(zeroPre(Version{}))} // nothing
		}
		return []comparator{{op: opAny}}
	case kind != "":
		v.Pre = nil
		if p.xm {
			v.Minor = 0
		}
		v.Patch = 0
		o := opGE
		switch kind {
		case ">":
			if p.xm {
				v = Version{Major: v.Major + 1}
			} else {
				v = Version{Major: v.Major, Minor: v.Minor + 1}
			}
		case "<=":
			o = opLT
			if p.xm {
				v = Version{Major: v.Major + 1}
			} else {
				v = Version{Major: v.Major, Minor: v.Minor + 1}
			}
			v = zeroPre(v)
		case "<":
			o = opLT
			v = zeroPre(v)
		}
		return []comparator{{op: o, v: v}}
	case p.xm:
		return []comparator{ge(Version{Major: v.Major}), lt(zeroPre(Version{Major: v.Major + 1}))}
	}
	return []comparator{ge(Version{Major: v.Major, Minor: v.Minor}), lt(zeroPre(Version{Major: v.Major, Minor: v.Minor + 1}))}
}

// Satisfies reports whether v is in the range, with npm's rule for
// pre-releases.
func (r Range) Satisfies(v Version) bool {
	for _, set := range r.sets {
		if testSet(set, v) {
			return true
		}
	}
	return false
}

func testSet(set []comparator, v Version) bool {
	for _, c := range set {
		if !c.test(v) {
			return false
		}
	}
	if len(v.Pre) == 0 {
		return true
	}
	// A pre-release passes only when a comparator of the set names a
	// pre-release of the same major.minor.patch.
	for _, c := range set {
		if c.op != opAny && len(c.v.Pre) > 0 && c.v.sameTuple(v) {
			return true
		}
	}
	return false
}

// bound is one end of an interval; nil-able through has.
type bound struct {
	has  bool
	v    Version
	incl bool
}

// interval is a comparator set as a span of versions (pre-release rules
// aside, as npm's intersects ignores them).
func interval(set []comparator) (lo, hi bound, ok bool) {
	for _, c := range set {
		switch c.op {
		case opAny:
		case opEQ:
			lo = higherLo(lo, bound{true, c.v, true})
			hi = lowerHi(hi, bound{true, c.v, true})
		case opGT:
			lo = higherLo(lo, bound{true, c.v, false})
		case opGE:
			lo = higherLo(lo, bound{true, c.v, true})
		case opLT:
			hi = lowerHi(hi, bound{true, c.v, false})
		case opLE:
			hi = lowerHi(hi, bound{true, c.v, true})
		}
	}
	if hi.has && hi.v.Compare(Version{}) == 0 && !hi.incl {
		return lo, hi, false
	}
	if hi.has && len(hi.v.Pre) == 1 && hi.v.Pre[0] == "0" && hi.v.Major == 0 && hi.v.Minor == 0 && hi.v.Patch == 0 && !hi.incl {
		return lo, hi, false // <0.0.0-0: nothing
	}
	if lo.has && hi.has {
		c := lo.v.Compare(hi.v)
		if c > 0 || c == 0 && !(lo.incl && hi.incl) {
			return lo, hi, false
		}
	}
	return lo, hi, true
}

func higherLo(a, b bound) bound {
	if !a.has {
		return b
	}
	if !b.has {
		return a
	}
	switch c := a.v.Compare(b.v); {
	case c < 0:
		return b
	case c == 0 && !b.incl:
		return b
	}
	return a
}

func lowerHi(a, b bound) bound {
	if !a.has {
		return b
	}
	if !b.has {
		return a
	}
	switch c := a.v.Compare(b.v); {
	case c > 0:
		return b
	case c == 0 && !b.incl:
		return b
	}
	return a
}

// Intersects reports whether some version lies in both ranges, as npm's
// Range.intersects decides it (by the comparators' bounds: the pre-release
// rule of Satisfies does not apply).
func (r Range) Intersects(o Range) bool {
	for _, a := range r.sets {
		alo, ahi, aok := interval(a)
		if !aok {
			continue
		}
		for _, b := range o.sets {
			blo, bhi, bok := interval(b)
			if !bok {
				continue
			}
			lo, hi := higherLo(alo, blo), lowerHi(ahi, bhi)
			if !lo.has || !hi.has {
				return true
			}
			c := lo.v.Compare(hi.v)
			if c < 0 || c == 0 && lo.incl && hi.incl {
				return true
			}
		}
	}
	return false
}

// MajorRange is the range of every release and pre-release of major m:
// ">=m.0.0 <m+1.0.0-0", the test compat/ecosystem.json's admitsFw<m> was
// computed with.
func MajorRange(m uint64) Range {
	return Range{
		sets: [][]comparator{{ge(Version{Major: m}), lt(zeroPre(Version{Major: m + 1}))}},
		raw:  fmt.Sprintf(">=%d.0.0 <%d.0.0-0", m, m+1),
	}
}

// AdmitsMajor reports whether r admits some version of major m.
func (r Range) AdmitsMajor(m uint64) bool { return r.Intersects(MajorRange(m)) }

// Max returns the highest of vs that r admits, and false when none is.
func (r Range) Max(vs []Version) (Version, bool) {
	var best Version
	found := false
	for _, v := range vs {
		if r.Satisfies(v) && (!found || best.Less(v)) {
			best, found = v, true
		}
	}
	return best, found
}

// Subset reports whether every release r admits is admitted by o too,
// for the ranges that are unions of intervals (all of npm's): each set of
// r lies within one set of o. It is conservative: a set of r covered only
// by the union of several sets of o is reported as not a subset.
func (r Range) Subset(o Range) bool {
	for _, a := range r.sets {
		alo, ahi, aok := interval(a)
		if !aok {
			continue
		}
		covered := false
		for _, b := range o.sets {
			blo, bhi, bok := interval(b)
			if !bok {
				continue
			}
			if loWithin(alo, blo) && hiWithin(ahi, bhi) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// loWithin: the lower bound a is at or above b.
func loWithin(a, b bound) bool {
	if !b.has {
		return true
	}
	if !a.has {
		return false
	}
	c := a.v.Compare(b.v)
	return c > 0 || c == 0 && (b.incl || !a.incl)
}

// hiWithin: the upper bound a is at or below b.
func hiWithin(a, b bound) bool {
	if !b.has {
		return true
	}
	if !a.has {
		return false
	}
	c := a.v.Compare(b.v)
	return c < 0 || c == 0 && (b.incl || !a.incl)
}

// Floor returns the lowest version r admits (the lower bound of its lowest
// set; 0.0.0 when a set has none), and false when r admits nothing.
func (r Range) Floor() (Version, bool) {
	var best Version
	found := false
	for _, set := range r.sets {
		lo, _, ok := interval(set)
		if !ok {
			continue
		}
		v := Version{}
		if lo.has {
			v = lo.v
			if !lo.incl {
				v = Version{Major: v.Major, Minor: v.Minor, Patch: v.Patch + 1}
				if len(lo.v.Pre) > 0 {
					v = Version{Major: lo.v.Major, Minor: lo.v.Minor, Patch: lo.v.Patch}
				}
			}
		}
		if !found || v.Less(best) {
			best, found = v, true
		}
	}
	return best, found
}
