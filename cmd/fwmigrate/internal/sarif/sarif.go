// Package sarif is fwmigrate's SARIF 2.1.0 output, for GitHub code scanning
// and other SARIF consumers: the document and its results. Only the
// properties fwmigrate fills are modelled.
//
// It is a package of its own, not a file of the command, so that its test
// can validate the document against SARIF's JSON schema without linking the
// schema compiler into the command's test binary: testscript runs that
// binary for every fwmigrate of a script, and the compiler's package
// initialization (its meta-schemas) cost about 14 ms a run.
package sarif

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// Log is a SARIF document: one run of fwmigrate.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`

	base  string         // the folder result URIs are relative to
	index map[string]int // rule code -> its index in the driver's rules
}

type Run struct {
	Tool               Tool                        `json:"tool"`
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
	Results            []Result                    `json:"results"`
}

type Tool struct {
	Driver Driver `json:"driver"`
}

type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

type Rule struct {
	ID                   string     `json:"id"`
	Name                 string     `json:"name"`
	ShortDescription     Message    `json:"shortDescription"`
	FullDescription      Message    `json:"fullDescription"`
	Help                 Help       `json:"help"`
	HelpURI              string     `json:"helpUri"`
	DefaultConfiguration RuleConfig `json:"defaultConfiguration"`
	Properties           RuleProps  `json:"properties"`
}

type Help struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type RuleConfig struct {
	Level string `json:"level"`
}

type RuleProps struct {
	Category string   `json:"category"`
	Tags     []string `json:"tags"`
}

type Message struct {
	Text string `json:"text"`
}

type Result struct {
	RuleID    string     `json:"ruleId"`
	RuleIndex int        `json:"ruleIndex"`
	Level     string     `json:"level"`
	Message   Message    `json:"message"`
	Locations []Location `json:"locations"`
}

type Location struct {
	PhysicalLocation Physical `json:"physicalLocation"`
}

type Physical struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// Document is the SARIF log of one run of fwmigrate at version, every rule
// in its driver and no result yet (Results is empty, not nil: the
// command streams the results into it). Result URIs are relative to base,
// an absolute folder.
func Document(version, base string) Log {
	all := rules.All()
	index := map[string]int{}
	driver := Driver{Name: "fwmigrate", Version: version, InformationURI: "https://github.com/fwmigrate/fwmigrate", Rules: []Rule{}}
	for i, rule := range all {
		index[rule.Code] = i
		driver.Rules = append(driver.Rules, Rule{
			ID:                   rule.Code,
			Name:                 rule.Name,
			ShortDescription:     Message{Text: rule.Doc.Summary},
			FullDescription:      Message{Text: strings.TrimSpace(rule.Doc.Why)},
			Help:                 ruleHelp(rule),
			HelpURI:              ruledocs.URL(rule.Code),
			DefaultConfiguration: RuleConfig{Level: level(rule.Severity)},
			Properties:           RuleProps{Category: string(rule.Category), Tags: []string{string(rule.Category)}},
		})
	}
	run := Run{
		Tool:       Tool{Driver: driver},
		ColumnKind: "utf16CodeUnits",
		Results:    []Result{},
		OriginalURIBaseIDs: map[string]ArtifactLocation{
			"SRCROOT": {URI: fileURI(base) + "/"},
		},
	}
	return Log{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []Run{run},
		base:    base,
		index:   index,
	}
}

func level(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

func ruleHelp(r *rules.Rule) Help {
	var text, md strings.Builder
	text.WriteString(r.Doc.Summary + "\n\n" + r.Doc.Why)
	md.WriteString("**" + r.Doc.Summary + "**\n\n" + r.Doc.Why)
	if r.Doc.Example != "" {
		text.WriteString("\n\nExample:\n" + r.Doc.Example)
		md.WriteString("\n\nExample:\n\n```ts\n" + r.Doc.Example + "\n```")
	}
	if r.Doc.Fix != "" {
		text.WriteString("\n\nFix: " + r.Doc.Fix)
		md.WriteString("\n\n**Fix:** " + r.Doc.Fix)
	}
	return Help{Text: text.String(), Markdown: md.String()}
}

// Result is d as a result of the document: its file (a path relative to
// the working directory) as a URI relative to the document's base, its
// rule by its index in the driver.
func (l Log) Result(d *rules.Diagnostic) Result {
	msg := text.Escape(d.Message)
	if d.Fix != nil {
		msg += " (fix, " + d.Fix.Applicability.String() + ": " + text.Escape(d.Fix.Description) + ")"
	}
	loc := Physical{ArtifactLocation: ArtifactLocation{URI: relURI(l.base, d.File), URIBaseID: "SRCROOT"}}
	if d.Line > 0 {
		reg := &Region{StartLine: d.Line, StartColumn: d.ColumnUTF16}
		if d.EndLine >= d.Line {
			reg.EndLine = d.EndLine
			reg.EndColumn = d.EndColumnUTF16
		}
		if reg.EndLine == reg.StartLine && reg.EndColumn < reg.StartColumn {
			reg.EndColumn = reg.StartColumn
		}
		loc.Region = reg
	}
	return Result{
		RuleID:    d.Code,
		RuleIndex: l.index[d.Code],
		Level:     level(d.Severity),
		Message:   Message{Text: msg},
		Locations: []Location{{PhysicalLocation: loc}},
	}
}

// relURI turns a path relative to the working directory into a URI
// reference relative to base.
func relURI(base, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	rel, ok := pathx.Rel(base, abs)
	if !ok {
		return fileURI(abs)
	}
	return escapePath(filepath.ToSlash(rel))
}

func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
