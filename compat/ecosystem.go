package compat

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fwmigrate/fwmigrate/internal/semver"
)

// The ecosystem around the framework, as data: every framework release
// with its engines.node and the core packages it pins, the modules'
// declared compatibility per version read, and the module options that hold
// paths (ecosystem.json, a copy of the shared spec's file, described in
// its ecosystem.md; generated from the npm registry by the spec's
// tools/ecosystem/gen.py). Where the data is silent, the answers below say
// Unknown: they never guess.

//go:embed ecosystem.json
var ecosystemJSON []byte

// Answer is a yes, a no, or what the data does not say.
type Answer uint8

const (
	Unknown Answer = iota
	Yes
	No
)

func (a Answer) String() string {
	return [...]string{"unknown", "yes", "no"}[a]
}

func answer(b bool) Answer {
	if b {
		return Yes
	}
	return No
}

// FrameworkPackage is the framework's own package name.
const FrameworkPackage = "fw"

// FwRelease is one published framework version.
type FwRelease struct {
	Version semver.Version
	// EnginesNode is the release's engines.node as published; Node is it
	// parsed (NodeOK false when it cannot be).
	EnginesNode string
	Node        semver.Range
	NodeOK      bool
	// Released is the date of the release (YYYY-MM-DD).
	Released string
	// Pins are the ranges its package.json gives its core dependencies
	// (@fw/kit, @fw/schema, @fw/vite-builder, ...).
	Pins map[string]string
	// LockstepPublished are the lockstep packages found in the registry at
	// the same version number.
	LockstepPublished []string
}

// FwMajor is what the data says of one framework major: its latest
// release, that release's engines.node and pins.
type FwMajor struct {
	Major       int
	Latest      string
	EnginesNode string
	Pins        map[string]string
}

// LockstepPackage is a core package published with the framework's own
// version number (@fw/kit, @fw/schema, the builders).
type LockstepPackage struct {
	Name string
	// FirstWithFw is the first framework version it was published with.
	FirstWithFw string
	// MissingFor are framework versions the registry queried did not have
	// the package at (a gap may be the registry's, not a missing release).
	MissingFor []string
}

// OwnLinePackage is a core package with its own version line (@fw/devtools,
// @fw/cli, fwi).
type OwnLinePackage struct {
	Name          string
	First, Latest string
	Majors        []int
}

// Module is a module package of the table.
type Module struct {
	Name string
	// Group is "known" (the most used modules) or "corpus" (named in the
	// shared corpus's configs).
	Group  string
	Latest string
	// DeclaresCompatibility: some version read declares a range.
	DeclaresCompatibility bool
	// Versions are the versions read, oldest first.
	Versions []ModuleVersion

	lastExcluding   map[int]string
	firstCompatible map[int]string
	newestAdmits    map[int]Answer
}

// ModuleVersion is one version of a module as read from its package.
type ModuleVersion struct {
	Version semver.Version
	// CompatibilityFw is its declared meta.compatibility.fw ("" when it
	// declares none); PeerFw its peerDependencies' fw range ("" when none).
	CompatibilityFw string
	PeerFw          string
	// KitRange is the @fw/kit range it depends on.
	KitRange string
	// MetaFrom is the file the declaration was read from.
	MetaFrom string

	admits map[int]Answer // admitsFw<major>: absent when nothing is declared
}

// Declares reports whether the version declares the framework versions it
// supports (its compatibility, else its peer dependency on fw).
func (v ModuleVersion) Declares() bool { return len(v.admits) > 0 }

// Declared returns the range the version declares (compatibility, else
// the peer dependency), "" when none.
func (v ModuleVersion) Declared() string {
	if v.CompatibilityFw != "" {
		return v.CompatibilityFw
	}
	return v.PeerFw
}

// Admits says whether the version's declared range admits some version of
// the framework major (npm's intersection, as the framework tests it);
// Unknown when it declares nothing or the data has no answer for the major.
func (v ModuleVersion) Admits(major int) Answer { return v.admits[major] }

// ModuleMajor is what the table says of a module and one framework major.
type ModuleMajor struct {
	// LastExcluding is the newest version read whose declared range
	// excludes the major, "" when none does.
	LastExcluding string
	// FirstCompatible is the version right after it (bisected to be
	// adjacent in the registry), "" when none excludes it or the newest
	// read still does.
	FirstCompatible string
	// NewestAdmits: whether the newest version read admits the major;
	// Unknown when it declares nothing.
	NewestAdmits Answer
	// Known is false when the data says nothing of this major.
	Known bool
}

// PathBase is where a module resolves a path option from.
type PathBase uint8

const (
	BaseUnknown PathBase = iota
	BaseRoot             // the config's folder (the layer's rootDir)
	BaseSrcDir           // the source folder (app/ after the move)
	BaseAsGiven          // passed on unresolved
)

func (b PathBase) String() string {
	return [...]string{"unknown", "root", "srcDir", "as given"}[b]
}

// PathOption is a module option holding a path, for a range of the
// module's versions.
type PathOption struct {
	Module string
	// Versions is the range the entry holds for, as the data writes it;
	// Range is it parsed (RangeOK false when it is not a range).
	Versions string
	Range    semver.Range
	RangeOK  bool
	// Option is the option's path ("i18n.langDir") or a description of
	// what is read ("content/ folder (default source) ...").
	Option string
	// Kind is "folder" or "file".
	Kind string
	// ResolvesFrom says from which folder, in the data's words; Base is
	// its first word classified (conditions are in ResolvesFrom and Note).
	ResolvesFrom string
	Base         PathBase
	// Default is the default value as the data writes it; HasDefault is
	// false when the data gives none (null).
	Default    string
	HasDefault bool
	Note       string
	Evidence   []PathEvidence
}

// PathEvidence is where, in a version's published files, the resolving
// code or default was read.
type PathEvidence struct {
	Version string
	Refs    []string
}

// AppliesTo says whether the entry holds for the module version v (text);
// Unknown when v or the entry's range cannot be read.
func (o PathOption) AppliesTo(v string) Answer {
	ver, err := semver.Parse(v)
	if err != nil || !o.RangeOK {
		return Unknown
	}
	return answer(o.Range.Satisfies(ver))
}

// AppliesToRange says whether the entry holds for every version r admits
// (Yes), for none of them (No), or for some (Unknown: the installed version
// decides).
func (o PathOption) AppliesToRange(r semver.Range) Answer {
	if !o.RangeOK {
		return Unknown
	}
	switch {
	case r.Subset(o.Range):
		return Yes
	case !r.Intersects(o.Range):
		return No
	}
	return Unknown
}

// Ecosystem is the embedded data, read.
type Ecosystem struct {
	// Generated is the date the data was generated.
	Generated string

	releases  []*FwRelease
	byVersion map[string]*FwRelease
	majors    map[int]FwMajor
	lockstep  []LockstepPackage
	ownLine   []OwnLinePackage
	modules   map[string]*Module
	// lazy, when set, holds the modules instead: each read at its first
	// Module call (Eco's reading; see parseEcosystem).
	lazy  map[string]func() *Module
	names []string
	paths []PathOption
}

var (
	ecoOnce sync.Once
	eco     *Ecosystem
	ecoErr  error
)

// Eco returns the embedded ecosystem data, read once. The data is part of
// the program: a file that does not read is a build error, which a test
// catches; Eco panics on it.
func Eco() *Ecosystem {
	ecoOnce.Do(func() { eco, ecoErr = parseEcosystem(ecosystemJSON, true) })
	if ecoErr != nil {
		panic("compat/ecosystem.json: " + ecoErr.Error())
	}
	return eco
}

// fwKey reads "fw4" as 4.
func fwKey(k string) (int, bool) {
	rest, ok := strings.CutPrefix(k, "fw")
	if !ok {
		return 0, false
	}
	m, err := strconv.Atoi(rest)
	if err != nil || strconv.Itoa(m) != rest {
		return 0, false
	}
	return m, true
}

// ParseEcosystem reads data in ecosystem.json's shape: the keys below,
// others skipped, each value read as encoding/json reads it into the Go
// type of its meaning (null is the zero value). It reads in one pass
// without reflection: Eco reads the data in every process that checks a
// package.json, and encoding/json cost such a run a fifth of its CPU.
func ParseEcosystem(data []byte) (*Ecosystem, error) { return parseEcosystem(data, false) }

// parseEcosystem is ParseEcosystem; with lazy, each module is only checked
// to be JSON and its name read, and is read at its first Module call (a
// check asks for the few its package.json names, of the 55; reading them
// all was most of the data's cost). A module that does not read then
// panics: Eco reads the embedded data lazily, which a test reads both
// ways.
func parseEcosystem(data []byte, lazy bool) (*Ecosystem, error) {
	r := &jsonReader{b: data}
	e := &Ecosystem{byVersion: map[string]*FwRelease{}, majors: map[int]FwMajor{}, modules: map[string]*Module{}}
	var pkg string
	var releases []releaseText
	var modules []*Module
	var lazyModules []lazyModule
	_, err := r.object(func(key []byte) (err error) {
		switch string(key) {
		case "generated":
			e.Generated, err = r.str()
		case "framework":
			_, err = r.object(func(key []byte) (err error) {
				switch string(key) {
				case "package":
					pkg, err = r.str()
				case "versions":
					releases = nil
					_, err = r.array(func() error {
						v, err := readRelease(r)
						releases = append(releases, v)
						return err
					})
				case "majors":
					err = readMajors(r, e)
				case "lockstepPackages":
					err = readLockstep(r, e)
				case "ownLinePackages":
					err = readOwnLine(r, e)
				default:
					err = r.skip()
				}
				return err
			})
		case "modules":
			modules, lazyModules = nil, nil
			_, err = r.array(func() error {
				if lazy {
					m, err := skipModule(r)
					lazyModules = append(lazyModules, m)
					return err
				}
				m, err := readModule(r)
				modules = append(modules, m)
				return err
			})
		case "pathOptions":
			e.paths = nil
			_, err = r.array(func() error {
				o, err := readPathOption(r)
				e.paths = append(e.paths, o)
				return err
			})
		default:
			err = r.skip()
		}
		return err
	})
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	if pkg != FrameworkPackage {
		return nil, fmt.Errorf("framework.package is %q, not %q", pkg, FrameworkPackage)
	}
	// The 113 releases have 9 engines.node ranges: each is parsed once
	// (a Range is a value nothing changes; the releases share it).
	nodeRanges := map[string]*semver.Range{}
	for _, v := range releases {
		ver, err := semver.Parse(v.version)
		if err != nil {
			return nil, fmt.Errorf("framework version: %w", err)
		}
		r := v.r
		r.Version = ver
		rng, seen := nodeRanges[r.EnginesNode]
		if !seen {
			if x, err := semver.ParseRange(r.EnginesNode); err == nil && r.EnginesNode != "" {
				rng = &x
			}
			nodeRanges[r.EnginesNode] = rng
		}
		if rng != nil {
			r.Node, r.NodeOK = *rng, true
		}
		e.releases = append(e.releases, r)
		e.byVersion[ver.String()] = r
	}
	sort.Slice(e.releases, func(i, j int) bool { return e.releases[i].Version.Less(e.releases[j].Version) })
	sort.Slice(e.lockstep, func(i, j int) bool { return e.lockstep[i].Name < e.lockstep[j].Name })
	sort.Slice(e.ownLine, func(i, j int) bool { return e.ownLine[i].Name < e.ownLine[j].Name })
	for _, mod := range modules {
		if e.modules[mod.Name] != nil {
			return nil, fmt.Errorf("module %s listed twice", mod.Name)
		}
		e.modules[mod.Name] = mod
		e.names = append(e.names, mod.Name)
	}
	if lazy {
		e.modules, e.lazy = nil, map[string]func() *Module{}
	}
	for _, m := range lazyModules {
		if e.lazy[m.name] != nil {
			return nil, fmt.Errorf("module %s listed twice", m.name)
		}
		e.lazy[m.name] = sync.OnceValue(func() *Module {
			mod, err := readModule(&jsonReader{b: m.raw})
			if err != nil {
				panic("compat: ecosystem data: " + err.Error())
			}
			return mod
		})
		e.names = append(e.names, m.name)
	}
	sort.Strings(e.names)
	return e, nil
}

// lazyModule is a module of the data not read yet: its name and its JSON.
type lazyModule struct {
	name string
	raw  []byte
}

// skipModule reads a module's name and checks that the rest is JSON.
func skipModule(r *jsonReader) (lazyModule, error) {
	var m lazyModule
	r.ws()
	start := r.i
	_, err := r.object(func(key []byte) (err error) {
		if string(key) == "name" {
			m.name, err = r.str()
		} else {
			err = r.skip()
		}
		return err
	})
	m.raw = r.b[start:r.i]
	return m, err
}

// releaseText is a framework release as read, its version not yet parsed.
type releaseText struct {
	version string
	r       *FwRelease
}

func readRelease(r *jsonReader) (releaseText, error) {
	v := releaseText{r: &FwRelease{}}
	_, err := r.object(func(key []byte) (err error) {
		switch string(key) {
		case "version":
			v.version, err = r.str()
		case "enginesNode":
			v.r.EnginesNode, err = r.str()
		case "released":
			v.r.Released, err = r.str()
		case "pins":
			v.r.Pins, err = r.stringMap()
		case "lockstepPublished":
			v.r.LockstepPublished, err = r.strings()
		default:
			err = r.skip()
		}
		return err
	})
	return v, err
}

func readMajors(r *jsonReader, e *Ecosystem) error {
	byKey, err := readKeyed(r, func(m *FwMajor, key []byte) (err error) {
		switch string(key) {
		case "latest":
			m.Latest, err = r.str()
		case "enginesNode":
			m.EnginesNode, err = r.str()
		case "pins":
			m.Pins, err = r.stringMap()
		default:
			err = r.skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	for k, m := range byKey {
		var n int
		if _, err := fmt.Sscanf(k, "%d", &n); err != nil {
			return fmt.Errorf("framework.majors: key %q", k)
		}
		m.Major = n
		e.majors[n] = m
	}
	return nil
}

func readLockstep(r *jsonReader, e *Ecosystem) error {
	byName, err := readKeyed(r, func(p *LockstepPackage, key []byte) (err error) {
		switch string(key) {
		case "firstWithFw":
			p.FirstWithFw, err = r.str()
		case "missingFor":
			p.MissingFor, err = r.strings()
		default:
			err = r.skip()
		}
		return err
	})
	for name, p := range byName {
		p.Name = name
		e.lockstep = append(e.lockstep, p)
	}
	return err
}

func readOwnLine(r *jsonReader, e *Ecosystem) error {
	byName, err := readKeyed(r, func(p *OwnLinePackage, key []byte) (err error) {
		switch string(key) {
		case "first":
			p.First, err = r.str()
		case "latest":
			p.Latest, err = r.str()
		case "majors":
			var majors []int
			var null bool
			null, err = r.array(func() error {
				n, err := r.integer()
				majors = append(majors, n)
				return err
			})
			if !null && majors == nil {
				majors = []int{}
			}
			p.Majors = majors
		default:
			err = r.skip()
		}
		return err
	})
	for name, p := range byName {
		p.Name = name
		e.ownLine = append(e.ownLine, p)
	}
	return err
}

// readKeyed reads an object of objects: each value into a T, field
// reading (or skipping) the value of each of its keys (valid until the
// next read). A key given twice
// keeps its last value, read from scratch, as encoding/json does.
func readKeyed[T any](r *jsonReader, field func(v *T, key []byte) error) (map[string]T, error) {
	out := map[string]T{}
	_, err := r.object(func(key []byte) error {
		k := string(key)
		var v T
		_, err := r.object(func(key []byte) error { return field(&v, key) })
		out[k] = v
		return err
	})
	return out, err
}

// readFwMap reads an object keyed "fw<major>", calling set for each key
// to read its value, with the major and whether the key is one (the
// values of other keys are read, to their type, and dropped).
func readFwMap(r *jsonReader, set func(major int, ok bool) error) error {
	_, err := r.object(func(key []byte) error {
		n, ok := fwKey(string(key))
		return set(n, ok)
	})
	return err
}

func readModule(r *jsonReader) (*Module, error) {
	mod := &Module{lastExcluding: map[int]string{}, firstCompatible: map[int]string{}, newestAdmits: map[int]Answer{}}
	// A string or null per major, as the data writes lastExcluding and
	// firstCompatible: a null names no version.
	versionOrNull := func(m map[int]string) func(int, bool) error {
		return func(n int, ok bool) error {
			s, null, err := r.strOrNull()
			switch {
			case !ok:
			case null:
				delete(m, n)
			default:
				m[n] = s
			}
			return err
		}
	}
	_, err := r.object(func(key []byte) (err error) {
		switch string(key) {
		case "name":
			mod.Name, err = r.str()
		case "group":
			mod.Group, err = r.str()
		case "latest":
			mod.Latest, err = r.str()
		case "declaresCompatibility":
			mod.DeclaresCompatibility, err = r.boolean()
		case "lastExcluding":
			err = readFwMap(r, versionOrNull(mod.lastExcluding))
		case "firstCompatible":
			err = readFwMap(r, versionOrNull(mod.firstCompatible))
		case "newestAdmits":
			err = readFwMap(r, func(n int, ok bool) error {
				b, null, err := r.boolOrNull()
				a := Unknown
				if !null {
					a = answer(b)
				}
				if ok {
					mod.newestAdmits[n] = a
				}
				return err
			})
		case "versions":
			mod.Versions = nil
			_, err = r.array(func() error {
				mv, err := readModuleVersion(r)
				if err != nil {
					return fmt.Errorf("module %s: %w", mod.Name, err)
				}
				mod.Versions = append(mod.Versions, mv)
				return nil
			})
		default:
			err = r.skip()
		}
		return err
	})
	sort.Slice(mod.Versions, func(i, j int) bool { return mod.Versions[i].Version.Less(mod.Versions[j].Version) })
	return mod, err
}

func readModuleVersion(r *jsonReader) (ModuleVersion, error) {
	var mv ModuleVersion
	var version string
	// The texts read as strings; any other value is "" (the data's
	// readers take only strings there).
	loose := func(s *string) error {
		if r.peek() == '"' {
			var err error
			*s, err = r.str()
			return err
		}
		*s = ""
		return r.skip()
	}
	_, err := r.object(func(key []byte) error {
		switch string(key) {
		case "version":
			return loose(&version)
		case "compatibilityFw":
			return loose(&mv.CompatibilityFw)
		case "peerFw":
			return loose(&mv.PeerFw)
		case "kitRange":
			return loose(&mv.KitRange)
		case "metaFrom":
			return loose(&mv.MetaFrom)
		}
		rest, ok := bytes.CutPrefix(key, []byte("admitsFw"))
		if !ok {
			return r.skip()
		}
		n, ok := fwKey("fw" + string(rest))
		if !ok {
			return r.skip()
		}
		k := string(key)
		b, err := r.boolean()
		if err != nil {
			return fmt.Errorf("%s %s: %w", version, k, err)
		}
		if mv.admits == nil {
			mv.admits = map[int]Answer{}
		}
		mv.admits[n] = answer(b)
		return nil
	})
	if err != nil {
		return mv, err
	}
	mv.Version, err = semver.Parse(version)
	return mv, err
}

func readPathOption(r *jsonReader) (PathOption, error) {
	var o PathOption
	var evidence []PathEvidence
	_, err := r.object(func(key []byte) (err error) {
		switch string(key) {
		case "module":
			o.Module, err = r.str()
		case "versions":
			o.Versions, err = r.str()
		case "option":
			o.Option, err = r.str()
		case "resolvesFrom":
			o.ResolvesFrom, err = r.str()
		case "kind":
			o.Kind, err = r.str()
		case "note":
			o.Note, err = r.str()
		case "default":
			var null bool
			if c := r.peek(); c != '"' && c != 'n' {
				// Read after the other keys, as the error names the option.
				o.Default, o.HasDefault = "", false
				return errNotString
			}
			o.Default, null, err = r.strOrNull()
			o.HasDefault = !null
		case "evidence":
			evidence = nil
			_, err = r.array(func() error {
				var ev PathEvidence
				_, err := r.object(func(key []byte) (err error) {
					switch string(key) {
					case "version":
						ev.Version, err = r.str()
					case "refs":
						ev.Refs, err = r.strings()
					default:
						err = r.skip()
					}
					return err
				})
				evidence = append(evidence, ev)
				return err
			})
		default:
			err = r.skip()
		}
		return err
	})
	if errors.Is(err, errNotString) {
		return o, fmt.Errorf("pathOptions %s %s: default is not a string", o.Module, o.Option)
	}
	if err != nil {
		return o, err
	}
	// "0.9.x (the only line read)": the range is before the remark.
	text, _, _ := strings.Cut(o.Versions, " (")
	if rng, err := semver.ParseRange(text); err == nil {
		o.Range, o.RangeOK = rng, true
	}
	o.Base = pathBase(o.ResolvesFrom)
	o.Evidence = evidence
	return o, nil
}

var errNotString = errors.New("not a string")

func pathBase(s string) PathBase {
	switch {
	case strings.HasPrefix(s, "srcDir"), strings.HasPrefix(s, "bundler root"):
		return BaseSrcDir
	case strings.HasPrefix(s, "root"):
		return BaseRoot
	case strings.HasPrefix(s, "as given"):
		return BaseAsGiven
	}
	return BaseUnknown
}

// Releases returns the framework's releases, oldest first (pre-releases
// are not in the data).
func (e *Ecosystem) Releases() []*FwRelease { return append([]*FwRelease(nil), e.releases...) }

// ReleasesOf returns the releases of one major, oldest first.
func (e *Ecosystem) ReleasesOf(major int) []*FwRelease {
	var out []*FwRelease
	for _, r := range e.releases {
		if r.Version.Major == uint64(major) {
			out = append(out, r)
		}
	}
	return out
}

// Release returns the release of version v ("4.5.2"), nil when the data
// does not have it.
func (e *Ecosystem) Release(v string) *FwRelease {
	ver, err := semver.Parse(v)
	if err != nil {
		return nil
	}
	return e.byVersion[ver.String()]
}

// Major returns what the data says of a framework major.
func (e *Ecosystem) Major(m int) (FwMajor, bool) {
	x, ok := e.majors[m]
	return x, ok
}

// HighestRelease returns the newest release of major that ok accepts
// (ok nil accepts all), nil when none does.
func (e *Ecosystem) HighestRelease(major int, ok func(*FwRelease) bool) *FwRelease {
	for i := len(e.releases) - 1; i >= 0; i-- {
		r := e.releases[i]
		if r.Version.Major == uint64(major) && (ok == nil || ok(r)) {
			return r
		}
	}
	return nil
}

// Lockstep returns the lockstep package name, false when name is not one.
func (e *Ecosystem) Lockstep(name string) (LockstepPackage, bool) {
	for _, p := range e.lockstep {
		if p.Name == name {
			return p, true
		}
	}
	return LockstepPackage{}, false
}

// LockstepPublished says whether the lockstep package name was published
// at the framework version v: Yes when the registry queried had it, No when
// v is before the package's first version with the framework, Unknown when
// the registry queried lacked it (its gaps are not always the public
// registry's) or the data does not have v.
func (e *Ecosystem) LockstepPublished(name, v string) Answer {
	p, ok := e.Lockstep(name)
	r := e.Release(v)
	if !ok || r == nil {
		return Unknown
	}
	for _, n := range r.LockstepPublished {
		if n == name {
			return Yes
		}
	}
	if first, err := semver.Parse(p.FirstWithFw); err == nil && r.Version.Less(first) {
		return No
	}
	return Unknown
}

// OwnLine returns the own-line package name, false when name is not one.
func (e *Ecosystem) OwnLine(name string) (OwnLinePackage, bool) {
	for _, p := range e.ownLine {
		if p.Name == name {
			return p, true
		}
	}
	return OwnLinePackage{}, false
}

// Module returns the module package name, nil when the table does not
// know it.
func (e *Ecosystem) Module(name string) *Module {
	if e.lazy != nil {
		if f := e.lazy[name]; f != nil {
			return f()
		}
		return nil
	}
	return e.modules[name]
}

// ModuleNames returns the names of the table's modules, sorted.
func (e *Ecosystem) ModuleNames() []string { return append([]string(nil), e.names...) }

// PathOptions returns the path-option entries of module (all of them for
// ""), in the data's order.
func (e *Ecosystem) PathOptions(module string) []PathOption {
	var out []PathOption
	for _, o := range e.paths {
		if module == "" || o.Module == module {
			out = append(out, o)
		}
	}
	return out
}

// Major returns what the table says of the module and framework major m.
func (m *Module) Major(major int) ModuleMajor {
	na, known := m.newestAdmits[major]
	return ModuleMajor{
		LastExcluding:   m.lastExcluding[major],
		FirstCompatible: m.firstCompatible[major],
		NewestAdmits:    na,
		Known:           known,
	}
}

// Version returns the version read, false when v was not read.
func (m *Module) Version(v string) (ModuleVersion, bool) {
	ver, err := semver.Parse(v)
	if err != nil {
		return ModuleVersion{}, false
	}
	for _, mv := range m.Versions {
		if mv.Version.Compare(ver) == 0 {
			return mv, true
		}
	}
	return ModuleVersion{}, false
}

// Verdict is what the table says of one module version and one framework
// major.
type Verdict struct {
	// Admits: whether the version's declared range admits the major. No
	// means the framework disables the module on that major.
	Admits Answer
	// Declares is Yes when the version declares a range, No when it
	// declares none (the framework then loads it), Unknown when the data
	// cannot say.
	Declares Answer
	// Range is the declared range ("" when none or unknown).
	Range string
	// Read is true when the version itself was read; false when the answer
	// comes from the two versions read around it, which agree.
	Read bool
	// Why says where the answer comes from, for a message.
	Why string
}

// Check says whether module version v (text) declares compatibility with
// framework major.
func (m *Module) Check(v string, major int) Verdict {
	ver, err := semver.Parse(v)
	if err != nil {
		return Verdict{Why: fmt.Sprintf("%q is not a version", v)}
	}
	var lo, hi *ModuleVersion
	for i := range m.Versions {
		mv := &m.Versions[i]
		switch c := mv.Version.Compare(ver); {
		case c == 0:
			return verdictOf(*mv, major, true, "")
		case c < 0:
			lo = mv
		case hi == nil:
			hi = mv
		}
	}
	if lo == nil || hi == nil {
		return Verdict{Why: fmt.Sprintf("the table read %s %s to %s: %s is outside", m.Name, m.Versions[0].Version, m.Versions[len(m.Versions)-1].Version, ver)}
	}
	a, b := verdictOf(*lo, major, false, ""), verdictOf(*hi, major, false, "")
	if a.Declares != Yes || b.Declares != Yes || a.Admits != b.Admits || a.Admits == Unknown {
		return Verdict{Why: fmt.Sprintf("%s was not read; %s and %s, read around it, do not agree", ver, lo.Version, hi.Version)}
	}
	a.Range = ""
	a.Why = fmt.Sprintf("%s was not read; %s (%s) and %s (%s), read around it, agree", ver, lo.Version, lo.Declared(), hi.Version, hi.Declared())
	return a
}

func verdictOf(mv ModuleVersion, major int, read bool, why string) Verdict {
	if !mv.Declares() {
		return Verdict{Declares: No, Read: read, Why: fmt.Sprintf("%s declares no framework versions", mv.Version)}
	}
	a := mv.Admits(major)
	if why == "" {
		why = fmt.Sprintf("%s declares %s", mv.Version, mv.Declared())
	}
	return Verdict{Admits: a, Declares: Yes, Range: mv.Declared(), Read: read, Why: why}
}

// AdmitsMajor says whether a declared compatibility range (a module's
// meta.compatibility.fw as installed) admits some version of the framework
// major, the framework's own test; Unknown when the range does not read.
func AdmitsMajor(declared string, major int) Answer {
	r, err := semver.ParseRange(declared)
	if err != nil || major < 0 {
		return Unknown
	}
	return answer(r.AdmitsMajor(uint64(major)))
}

// AdmitsVersion says whether a declared range admits the framework version
// v (npm's satisfies, as the framework tests the version it runs);
// Unknown when either does not read.
func AdmitsVersion(declared, v string) Answer {
	r, err := semver.ParseRange(declared)
	if err != nil {
		return Unknown
	}
	ver, err := semver.Parse(v)
	if err != nil {
		return Unknown
	}
	return answer(r.Satisfies(ver))
}
