// Package rules holds fwmigrate's checks. A rule is data plus a function, in
// the spirit of golang.org/x/tools/go/analysis: a stable code, a name, a
// category, a default severity, a doc, and Run. Rules report diagnostics,
// with fixes described as rewrite.Ops; they never write.
//
// One rule per file, named after its code (fw101_mixed_layout.go). Each file
// registers its rule in an init function. Each rule's page,
// docs/rules/FWxxx.md, is generated from its Doc:
//
//go:generate go run ./ruledocs/gen.go -o ../docs/rules
package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// Severity orders diagnostics; a higher value is more severe.
type Severity uint8

const (
	Info Severity = iota
	Warning
	Error
)

var severityNames = [...]string{"info", "warning", "error"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "unknown"
}

// ParseSeverity parses "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// Category groups rules; the code's hundreds digit follows it.
type Category string

const (
	Layout   Category = "layout"   // FW1xx
	Version  Category = "version"  // FW2xx
	Schema   Category = "schema"   // FW3xx
	Env      Category = "env"      // FW4xx: runtimeConfig and environment variables
	Security Category = "security" // FW5xx
	Code     Category = "code"     // FW6xx: application and module code that version 4 changes
	Deps     Category = "deps"     // FW7xx: the framework dependency, Node and the modules
	Types    Category = "types"    // FW8xx: TypeScript contexts, tsconfig shape, typecheck and tests
	Tool     Category = "tool"     // FW9xx: the tool itself
)

// Categories lists every category in code order.
var Categories = []Category{Layout, Version, Schema, Env, Security, Code, Deps, Types, Tool}

// Doc is a rule's documentation, printed by `fwmigrate explain`.
type Doc struct {
	Summary string // one line: what the rule finds
	Why     string // why it matters
	Example string // a config (or tree) that triggers it
	Fix     string // what the fix does and whether it is safe; "" when there is no fix
}

// HasFix reports whether the rule's findings come with a fix: its Fix doc
// is written and does not begin with "None" (a rule may explain there why
// it has none, and what to do instead).
func (d Doc) HasFix() bool { return d.Fix != "" && !strings.HasPrefix(d.Fix, "None") }

// Rule is one check.
type Rule struct {
	Code     string // FW101: stable forever
	Name     string // mixed-layout: stable, kebab-case
	Category Category
	Severity Severity // default severity
	Doc      Doc
	// Run inspects pass and reports through it. It must not panic on any
	// input, and when it cannot judge (a value that is not static, a spread)
	// it stays silent or reports "cannot check: ..." at Info.
	Run func(pass *Pass)
	// Flips are the default changes of version 4 (compat.Flips paths)
	// whose sites in the project's code the rule finds: FW204 lists a flip
	// whose detector found no site as one that reaches no code, and
	// `apply --pin=affected` pins the flips that have sites.
	Flips []string
	// detect finds a code rule's sites from the whole project's code,
	// once per check (Index.sitesOf), after the files are walked; scan
	// finds them file by file, in the one walk of each file that feeds
	// every detector (see fileScan). A code rule sets one of the two.
	detect func(ci *codeIndex) []*site
	scan   func(ci *codeIndex) *fileScan
	// Unsuppressible rules say that a file or project could not be
	// checked (FW901, FW904, FW906, FW907, FW909, FW999): a run that hid
	// them would pass having checked nothing. No fwmigrate-ignore comment,
	// no ignore, select or severity (of a settings file or a flag) and no
	// editor action hides them or changes their severity; naming one in
	// ignore or severity is an error (HidingError). This field is the one
	// list: suppressions, settings, the editor and Fatal all read it.
	Unsuppressible bool
	// Secret says that a finding's span is a secret's value: every output
	// that shows the source (the text format's code frame) masks it, so
	// that a CI log never prints the secret the finding is about.
	Secret bool
}

// Suppressible reports whether a user may hide r's findings.
func (r *Rule) Suppressible() bool { return !r.Unsuppressible }

// HidingError returns an error when sel, a selector given to ignore or
// severity, names an unsuppressible rule by its code or name (a prefix or a
// category that covers one just leaves it out).
func HidingError(sel string) error {
	r := Find(strings.TrimSpace(sel))
	if r == nil || r.Suppressible() {
		return nil
	}
	return fmt.Errorf("%s (%s) cannot be hidden or given another severity: it says that a file could not be checked, and a run that checked nothing must not pass", r.Code, r.Name)
}

// Applicability says whether a fix may be applied without review.
type Applicability uint8

const (
	// Safe fixes keep the project's behaviour (or restore what the user
	// evidently meant) and are applied by `fwmigrate apply`.
	Safe Applicability = iota
	// Unsafe fixes change behaviour; `apply` needs --unsafe for them.
	Unsafe
)

func (a Applicability) String() string {
	if a == Safe {
		return "safe"
	}
	return "unsafe"
}

// FixLayout says under which of apply's layout choices a fix holds.
type FixLayout uint8

const (
	// AnyLayout fixes hold whether apply moves the sources or keeps layout B.
	AnyLayout FixLayout = iota
	// MoveOnly fixes are right only once the sources move into app/
	// (`apply --layout=move`, the default): `~/app/x` becomes `~/x`.
	MoveOnly
	// KeepOnly fixes are right only when layout B is kept
	// (`apply --layout=keep`): the pin srcDir: '.'.
	KeepOnly
)

// Fix is a suggested change to the config file, or to a code file.
type Fix struct {
	Description   string
	Applicability Applicability
	// File is the code file the fix edits (absolute), "" for the project's
	// config. In a code file, Ops are byte edits only (rewrite.OpReplace;
	// an empty span inserts). A file that is not a script (tsconfig.json)
	// is validated by its own syntax.
	File string
	Ops  []rewrite.Op
	// ConfigOps, with File set, are edits of the project's config that the
	// file's edits need made first (FW211 carries tsconfig.json's
	// compilerOptions into the config before it removes them). apply makes
	// them with the config's fixes, and File's edits only when a check of
	// the edited config no longer asks for them: the rule then offers the
	// fix again without ConfigOps. Either both files change or neither.
	ConfigOps []rewrite.Op
	// Layout is the layout choice the fix assumes; apply leaves out the
	// fixes of the other choice.
	Layout FixLayout
	// Also are root folders (names relative to the project's root, slash
	// separated) the fix moves into app/ with the sources, as `apply
	// --also` does: apply adds them to the layout move, in the same
	// transaction, or says why the move cannot take them. A fix with Also
	// holds only when the sources move (Layout MoveOnly), and has no Ops.
	Also []string
}

// Diagnostic is one finding.
type Diagnostic struct {
	Code     string
	Name     string
	Category Category
	Severity Severity

	// File is the file the diagnostic points into (the config, a .env file,
	// .fwignore), as a path usable from the working directory.
	File string
	// Span is the byte range in File; Line/Column/EndLine/EndColumn are its
	// 1-based positions (byte columns), and ColumnUTF16/EndColumnUTF16 the
	// same columns in UTF-16 units. Line is 0 when the diagnostic is about a
	// whole file.
	Span                        ast.Span
	Line, Column                int
	EndLine, EndColumn          int
	ColumnUTF16, EndColumnUTF16 int

	// Option is the dotted option path it is about, "" when none.
	Option string
	// Path is the project-relative file or directory it is about, "" when none.
	Path string

	Message string
	Notes   []string
	Fix     *Fix
	// Withheld says why the rule's fix was taken off (it would edit what a
	// statement after the config's literal sets), "" otherwise; the reason
	// is among the notes too.
	Withheld string
	// Held is the fix a rule withheld because it would break code that
	// reads what it changes (FW501's move of a key that browser code
	// reads), nil otherwise: the user may still ask for it by naming the
	// rule (apply --unsafe=FW501, Options.Release), and Run then makes it
	// the Fix.
	Held *Fix
}

// Diagnose returns a diagnostic of rule r at span in file (as shown to the
// user), about the option path option ("" when none), with r's code, name,
// category and default severity. Every diagnostic is made here: the rules'
// (through Pass.Report) and the tool's own (FW901-FW906, FW999), so that
// they carry the same fields whatever reports them.
func (r *Rule) Diagnose(file string, span ast.Span, option, message string) *Diagnostic {
	return &Diagnostic{
		Code:     r.Code,
		Name:     r.Name,
		Category: r.Category,
		Severity: r.Severity,
		File:     file,
		Span:     span,
		Option:   option,
		Message:  message,
	}
}

var (
	registry = map[string]*Rule{}
	sorted   []*Rule // every rule by code, kept in order by Register
)

// Register adds a rule. It panics on a duplicate code or name, a malformed
// code, or a code whose hundreds digit does not match its category: these
// are programming errors caught by any test run.
func Register(r *Rule) {
	if len(r.Code) != 5 || !strings.HasPrefix(r.Code, "FW") {
		panic("rules: malformed code " + r.Code)
	}
	want := map[Category]byte{Layout: '1', Version: '2', Schema: '3', Env: '4', Security: '5', Code: '6', Deps: '7', Types: '8', Tool: '9'}[r.Category]
	if want == 0 || r.Code[2] != want {
		panic(fmt.Sprintf("rules: code %s does not match category %q", r.Code, r.Category))
	}
	if r.Name == "" || r.Doc.Summary == "" {
		panic("rules: rule " + r.Code + " needs a name and a doc summary")
	}
	for _, o := range registry {
		if o.Code == r.Code || o.Name == r.Name {
			panic("rules: duplicate rule " + r.Code + " " + r.Name)
		}
	}
	registry[r.Code] = r
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i].Code > r.Code })
	sorted = append(sorted, nil)
	copy(sorted[i+1:], sorted[i:])
	sorted[i] = r
}

// All returns every rule, sorted by code. The slice is shared: callers must
// not modify it. Rules register in init functions, before any call, so
// reading it needs no lock.
func All() []*Rule { return sorted }

// Find returns the rule with the given code or name (case-insensitive), or nil.
func Find(codeOrName string) *Rule {
	if r := registry[strings.ToUpper(codeOrName)]; r != nil {
		return r
	}
	for _, r := range registry {
		if strings.EqualFold(r.Name, codeOrName) {
			return r
		}
	}
	return nil
}
