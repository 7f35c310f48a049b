package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

// Pass is what a rule sees: one project, its parsed config, its layout, its
// .env files, the target version, and a way to report.
type Pass struct {
	Rule    *Rule
	Project *project.Project
	// File is the parsed config; File.Config is nil when the exported config
	// is not an object literal (rules that need it then say nothing: FW902
	// reports that once).
	File *ast.File
	// Config reads static option values through compat's interface.
	Config compat.Config
	// Target is the compatibility version checked against (4).
	Target int
	// Index is what the rules derive from the project, shared by all the
	// passes of one check (see Index).
	Index *Index

	diags []*Diagnostic
}

// Report records a diagnostic of the pass's rule at span in the config file,
// about the option path option ("" when none), and returns it so that the
// rule can add notes, a fix, a project path, or change its severity.
// Positions are computed after the rule returns.
func (p *Pass) Report(span ast.Span, option, format string, args ...any) *Diagnostic {
	d := p.Rule.Diagnose(p.Project.ConfigDisplay, span, option, fmt.Sprintf(format, args...))
	p.diags = append(p.diags, d)
	return d
}

// ReportProperty reports at a property's key (the whole property when it has
// no key span), about the option at path.
func (p *Pass) ReportProperty(prop *ast.Property, path ast.Path, format string, args ...any) *Diagnostic {
	span := prop.KeySpan
	if span.Len() == 0 {
		span = prop.Loc
	}
	return p.Report(span, path.String(), format, args...)
}

// ReportValue reports at a property's value (its key when it has none).
func (p *Pass) ReportValue(prop *ast.Property, path ast.Path, format string, args ...any) *Diagnostic {
	if prop.Value == nil {
		return p.ReportProperty(prop, path, format, args...)
	}
	return p.Report(prop.Value.Span(), path.String(), format, args...)
}

// ReportPath reports about a project-relative file or directory (rel). The
// diagnostic points at the config's srcDir option when it is set, else at
// the exported config, so that editors and CI annotations have a place.
func (p *Pass) ReportPath(rel, format string, args ...any) *Diagnostic {
	d := p.Report(p.Anchor(), "", format, args...)
	d.Path = rel
	return d
}

// ReportEnv reports at a variable of a .env file.
func (p *Pass) ReportEnv(env *project.EnvFile, v *project.EnvVar, format string, args ...any) *Diagnostic {
	d := p.Report(v.Span, "", format, args...)
	d.File = env.Display
	d.Path = env.Name
	return d
}

// CannotCheck reports, at Info, that the rule could not judge a value.
func (p *Pass) CannotCheck(span ast.Span, option, format string, args ...any) *Diagnostic {
	d := p.Report(span, option, "cannot check: "+format, args...)
	d.Severity = Info
	return d
}

// Anchor is the span diagnostics about the project as a whole point at: the
// srcDir property when set, else the start of the exported config's first
// line, else the start of the file.
func (p *Pass) Anchor() ast.Span {
	f := p.File
	if f == nil {
		return ast.Span{}
	}
	if f.Config != nil {
		if prop := f.Lookup("srcDir"); prop != nil {
			return prop.Loc
		}
	}
	if f.ExportSpan.Len() > 0 {
		// Point at `defineFwConfig(` or `{`, not at the whole config.
		start := f.ExportSpan.Start
		end := start
		for end < f.ExportSpan.End && f.Src[end] != '\n' && f.Src[end] != '\r' {
			end++
		}
		return ast.Span{Start: start, End: end}
	}
	return ast.Span{}
}

// Walk calls fn for every property of the config at every depth (see
// ast.File.Walk); it does nothing when there is no literal config.
func (p *Pass) Walk(fn func(path ast.Path, prop *ast.Property) bool) {
	if p.File != nil && p.File.Config != nil {
		p.File.Walk(fn)
	}
}

// Lookup returns the property at a dotted option path, or nil.
func (p *Pass) Lookup(path string) *ast.Property {
	if p.File == nil || p.File.Config == nil {
		return nil
	}
	return p.File.Lookup(path)
}
