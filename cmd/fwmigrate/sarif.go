package main

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// SARIF 2.1.0 output, for GitHub code scanning and other SARIF consumers.
// Only the properties fwmigrate fills are modelled.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
	Results            []sarifResult               `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifMessage    `json:"shortDescription"`
	FullDescription      sarifMessage    `json:"fullDescription"`
	Help                 sarifHelp       `json:"help"`
	HelpURI              string          `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           sarifRuleProps  `json:"properties"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Category string   `json:"category"`
	Tags     []string `json:"tags"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// ruleURL is the address of a rule's page (SARIF's helpUri).
func ruleURL(code string) string { return ruledocs.URL(code) }

func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

func ruleHelp(r *rules.Rule) sarifHelp {
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
	return sarifHelp{Text: text.String(), Markdown: md.String()}
}

func writeSARIF(w io.Writer, r *report) error {
	cwd, _ := os.Getwd()
	base := repoRoot(cwd)
	if base == "" {
		base = cwd
	}
	all := rules.All()
	index := map[string]int{}
	driver := sarifDriver{Name: "fwmigrate", Version: buildVersion, InformationURI: "https://github.com/fwmigrate/fwmigrate", Rules: []sarifRule{}}
	for i, rule := range all {
		index[rule.Code] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   rule.Code,
			Name:                 rule.Name,
			ShortDescription:     sarifMessage{Text: rule.Doc.Summary},
			FullDescription:      sarifMessage{Text: strings.TrimSpace(rule.Doc.Why)},
			Help:                 ruleHelp(rule),
			HelpURI:              ruleURL(rule.Code),
			DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(rule.Severity)},
			Properties:           sarifRuleProps{Category: string(rule.Category), Tags: []string{string(rule.Category)}},
		})
	}
	run := sarifRun{
		Tool:       sarifTool{Driver: driver},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{
			"SRCROOT": {URI: fileURI(base) + "/"},
		},
	}
	results := func(emit func(any) error) error {
		for d := range r.findings.all {
			if err := emit(sarifResultOf(d, base, index)); err != nil {
				return err
			}
		}
		return nil
	}
	return encodeJSONList(w, sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}, "results", results)
}

// sarifResultOf is d as a SARIF result, its file relative to base.
func sarifResultOf(d *rules.Diagnostic, base string, index map[string]int) sarifResult {
	msg := text.Escape(d.Message)
	if d.Fix != nil {
		msg += " (fix, " + d.Fix.Applicability.String() + ": " + text.Escape(d.Fix.Description) + ")"
	}
	loc := sarifPhysical{ArtifactLocation: sarifArtifactLoc{URI: relURI(base, d.File), URIBaseID: "SRCROOT"}}
	if d.Line > 0 {
		reg := &sarifRegion{StartLine: d.Line, StartColumn: d.ColumnUTF16}
		if d.EndLine >= d.Line {
			reg.EndLine = d.EndLine
			reg.EndColumn = d.EndColumnUTF16
		}
		if reg.EndLine == reg.StartLine && reg.EndColumn < reg.StartColumn {
			reg.EndColumn = reg.StartColumn
		}
		loc.Region = reg
	}
	return sarifResult{
		RuleID:    d.Code,
		RuleIndex: index[d.Code],
		Level:     sarifLevel(d.Severity),
		Message:   sarifMessage{Text: msg},
		Locations: []sarifLocation{{PhysicalLocation: loc}},
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
