package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/text"
)

// An option described for people: what `fwmigrate options OPTION` prints
// and what an editor shows on hover (fwmigrate lsp).

// Text renders a default for people: its JSON value, its note, or "-".
func (d Default) Text() string {
	if !d.Set {
		if d.Note != "" {
			return "(" + d.Note + ")"
		}
		return "-"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d.Value); err != nil {
		return fmt.Sprint(d.Value)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if d.Note != "" {
		s += " (" + d.Note + ")"
	}
	return s
}

// StatusText is the option's status for people, with its replacement.
func (o *Option) StatusText() string {
	s := o.Status.Words()
	if o.Replacement != "" {
		s += " -> " + o.Replacement
	}
	return s
}

// Describe is the option in full, one field a line: type, the default of
// layout A and B (only l's when l is A or B), layouts, status, reason,
// the reference's rule and the description, wrapped at 100 columns.
func (o *Option) Describe(l Layout) string {
	var b strings.Builder
	field := func(name, value string) {
		if value != "" {
			b.WriteString(text.Wrap(fmt.Sprintf("  %-12s ", name), value, 100))
		}
	}
	b.WriteString(o.Path + "\n")
	field("aliases", strings.Join(o.Aliases, ", "))
	field("type", o.Type.String())
	if l != LayoutB {
		field("default (A)", o.DefaultA.Text())
	}
	if l != LayoutA {
		field("default (B)", o.DefaultB.Text())
	}
	field("layouts", o.Layouts.String())
	field("status", o.StatusText())
	field("reason", o.Reason)
	if o.Open {
		field("open", "keys under it are not checked")
	}
	field("rule", o.Rule)
	if o.Doc != o.Rule {
		field("description", o.Doc)
	}
	return b.String()
}
