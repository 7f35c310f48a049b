package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/text"
)

func init() { commands = append(commands, newInspectCmd) }

func newInspectCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "inspect FILE",
		Short: "Print what fwmigrate sees in a config file: the config object and every option path",
		Long: `Inspect parses one fw.config.* file and prints where fwmigrate finds the config
object (or why it finds none: a config built by a function call, imported
from another file, chosen at run time...), then every option at every depth
with its path, position and kind, and its value when it is a literal.
Objects are descended into; arrays and other values are leaves.

Use it when fwmigrate does not see an option you expected it to see.

Exit status: 0, or 2 when the file cannot be read or has a syntax error
(printed with esbuild's code frame on stderr).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("inspect takes one config file, e.g. 'fwmigrate inspect fw.config.ts'")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			name := args[0]
			src, err := os.ReadFile(name)
			if err != nil {
				return err // names the file
			}
			f, err := ast.Parse(name, src)
			if err != nil {
				var se *ast.SyntaxError
				if !errors.As(err, &se) {
					return err
				}
				color, _ := colorEnabled("auto", cmd.ErrOrStderr())
				fmt.Fprint(cmd.ErrOrStderr(), text.EscapeLines(se.Format(color), color))
				return exitCodeError{exitError}
			}
			out := inspectFile(f)
			if format == "json" {
				return encodeJSONHTML(cmd.OutOrStdout(), out, false)
			}
			return writeInspectText(cmd.OutOrStdout(), f, out)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

type inspectPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

type inspectOption struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Kind      string `json:"kind"`
	Static    bool   `json:"static"`
	// Assigned: set by a statement after the config's declaration
	// (`config.ssr = true`), not in the object literal.
	Assigned bool `json:"assigned,omitempty"`
	Value    any  `json:"value,omitempty"`
	hasValue bool
}

// MarshalJSON writes "value" whenever the option is static, null included.
func (o inspectOption) MarshalJSON() ([]byte, error) {
	type plain inspectOption
	if !o.hasValue {
		return json.Marshal(plain(o))
	}
	type withValue struct {
		plain
		Value any `json:"value"`
	}
	return json.Marshal(withValue{plain(o), o.Value})
}

type inspectOutput struct {
	File    string          `json:"file"`
	Config  *inspectPos     `json:"config"`
	Reason  string          `json:"reason"`
	Options []inspectOption `json:"options"`
}

func inspectFile(f *ast.File) inspectOutput {
	out := inspectOutput{File: f.Name, Reason: f.Reason, Options: []inspectOption{}}
	if f.Config != nil {
		pos := f.Position(f.Config.Loc.Start)
		out.Config = &inspectPos{pos.Line, pos.Column}
	}
	f.Walk(func(path ast.Path, p *ast.Property) bool {
		start, end := f.Position(p.Loc.Start), f.Position(p.Loc.End)
		o := inspectOption{
			Path: path.String(), Line: start.Line, Column: start.Column,
			EndLine: end.Line, EndColumn: end.Column, Kind: propertyKind(p), Assigned: f.Assigned(p).Len() > 0,
		}
		if p.Value != nil && p.Kind != ast.PropSpread {
			if v, bad := ast.Static(p.Value); bad == nil {
				o.Static, o.Value, o.hasValue = true, v, true
			}
		}
		out.Options = append(out.Options, o)
		return true
	})
	return out
}

// propertyKind names what a property holds: the kind of its value seen
// through wrappers (the hint for other expressions), or its own kind for
// methods, accessors and spreads.
func propertyKind(p *ast.Property) string {
	switch p.Kind {
	case ast.PropMethod, ast.PropGetter, ast.PropSetter, ast.PropSpread:
		return p.Kind.String()
	}
	v := ast.Unwrap(p.Value)
	if e, ok := v.(*ast.Expr); ok {
		return e.Hint
	}
	return v.Kind().String()
}

// mutationNote says what a statement that changes the config after its
// declaration does to what fwmigrate sees.
func mutationNote(f *ast.File, stmt ast.Span) string {
	var read []string
	unknown := false
	for _, w := range f.Writes {
		if w.Stmt != stmt {
			continue
		}
		if w.Read {
			read = append(read, "`"+w.Path.String()+"`")
		} else {
			unknown = true
		}
	}
	if len(read) > 0 && !unknown {
		return "this statement sets " + strings.Join(read, ", ") + ": read into the config; fixes do not edit it"
	}
	return "this statement changes the config after its declaration in a way fwmigrate does not follow; what it sets there is unknown"
}

// writeInspectText prints what inspect sees. The file's name, its option
// keys and values come from the tree: each is escaped, and the whole is
// guarded as every report is.
func writeInspectText(w io.Writer, f *ast.File, out inspectOutput) error {
	var b strings.Builder
	name := text.Escape(f.Name)
	switch {
	case f.Config != nil:
		how := "export default"
		if f.Export == ast.ExportModuleExports {
			how = "module.exports"
		}
		fmt.Fprintf(&b, "%s: config object at %d:%d (%s", name, out.Config.Line, out.Config.Column, how)
		if f.Function.Len() > 0 {
			fp := f.Position(f.Function.Start)
			fmt.Fprintf(&b, ", returned by the function at %d:%d", fp.Line, fp.Column)
		}
		if f.DefineCall.Len() > 0 {
			b.WriteString(", through defineFwConfig")
		}
		if f.Binding != "" {
			fmt.Fprintf(&b, ", bound to `%s`", text.Escape(f.Binding))
		}
		b.WriteString(")\n")
		for _, m := range f.Mutations {
			pos := f.Position(m.Start)
			fmt.Fprintf(&b, "%s:%d:%d: note: %s\n", name, pos.Line, pos.Column, text.Escape(mutationNote(f, m)))
		}
	default:
		pos := f.Position(f.ReasonSpan.Start)
		fmt.Fprintf(&b, "%s:%d:%d: no config object: %s\n", name, pos.Line, pos.Column, text.Escape(f.Reason))
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, o := range out.Options {
		value := ""
		if o.hasValue {
			js, err := json.Marshal(o.Value)
			if err == nil {
				value = "= " + text.Escape(string(js))
				if len(value) > 72 {
					value = value[:69] + "..."
				}
			}
		}
		if value != "" {
			value = "\t" + value
		}
		fmt.Fprintf(tw, "%s\t%d:%d\t%s%s\n", text.Escape(o.Path), o.Line, o.Column, o.Kind, value)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, text.EscapeLines(b.String(), false))
	return err
}
