package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newOptionsCmd) }

func newOptionsCmd() *cobra.Command {
	var layout, format string
	cmd := &cobra.Command{
		Use:   "options [PREFIX]",
		Short: "List the configuration options fwmigrate knows",
		Long: `options lists the configuration options of fwmigrate's knowledge base: type,
default in layout A (version 4) and layout B (version 3), status and
replacement, and the reference's rule. PREFIX selects an option and the
options under it (app, experimental, app.baseURL); a single option is shown
in full.

--format=json prints an array of objects with the fields path, type,
defaultA, defaultB (left out when there is no default), layouts, status,
replacement and doc, plus aliases, defaultANote, defaultBNote, reason,
description, open and reference.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Errorf("options takes at most one PREFIX, got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var l compat.Layout
			switch strings.ToUpper(layout) {
			case "":
			case "A":
				l = compat.LayoutA
			case "B":
				l = compat.LayoutB
			default:
				return usageError{fmt.Errorf("--layout=%s: want A or B", layout)}
			}
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format=%s: want text or json", format)}
			}
			prefix := ""
			if len(args) == 1 {
				prefix = args[0]
			}
			opts, err := selectOptions(prefix, l)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeOptionsJSON(cmd.OutOrStdout(), opts)
			}
			if len(opts) == 1 {
				return writeOptionDetail(cmd.OutOrStdout(), opts[0], l)
			}
			return writeOptionsTable(cmd.OutOrStdout(), opts, l)
		},
	}
	cmd.Flags().StringVar(&layout, "layout", "", "show only the options of layout `A|B`, with that layout's default")
	cmd.Flags().StringVar(&format, "format", "text", "output `format`: text or json")
	return cmd
}

// selectOptions returns the option at prefix and the options under it
// (every option when prefix is ""), in layout l when l is A or B.
func selectOptions(prefix string, l compat.Layout) ([]*compat.Option, error) {
	base := prefix
	if o := compat.Find(prefix); o != nil {
		base = o.Path // an alias or a real-world spelling
	}
	var out []*compat.Option
	for _, o := range compat.Options() {
		if base != "" && o.Path != base && !strings.HasPrefix(o.Path, base+".") {
			continue
		}
		if l != compat.LayoutUnknown && !o.Layouts.Has(l) {
			continue
		}
		out = append(out, o)
	}
	if len(out) > 0 {
		return out, nil
	}
	msg := fmt.Sprintf("no option matches %q", prefix)
	if l != compat.LayoutUnknown {
		msg += " in layout " + l.String()
	}
	if s := compat.Suggest(prefix); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	return nil, usageError{fmt.Errorf("%s", msg)}
}

func writeOptionsJSON(w io.Writer, opts []*compat.Option) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(opts); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// shortDefault is the default without the note of a plain value, for tables.
func shortDefault(d compat.Default) string {
	if d.Set {
		d.Note = ""
	}
	return d.Text()
}

func writeOptionDetail(w io.Writer, o *compat.Option, l compat.Layout) error {
	_, err := io.WriteString(w, o.Describe(l))
	return err
}

func writeOptionsTable(w io.Writer, opts []*compat.Option, l compat.Layout) error {
	header := []string{"PATH", "TYPE"}
	if l != compat.LayoutB {
		header = append(header, "DEFAULT (A)")
	}
	if l != compat.LayoutA {
		header = append(header, "DEFAULT (B)")
	}
	header = append(header, "STATUS")
	rows := [][]string{header}
	for _, o := range opts {
		r := []string{o.Path, clipText(o.Type.String(), 36)}
		if l != compat.LayoutB {
			r = append(r, clipText(shortDefault(o.DefaultA), 30))
		}
		if l != compat.LayoutA {
			r = append(r, clipText(shortDefault(o.DefaultB), 30))
		}
		rows = append(rows, append(r, o.StatusText()))
	}
	width := make([]int, len(header))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for i, r := range rows {
		for j, c := range r {
			if j == len(r)-1 {
				b.WriteString(c + "\n")
				break
			}
			b.WriteString(c + strings.Repeat(" ", width[j]-utf8.RuneCountInString(c)+2))
		}
		if i == 0 {
			continue
		}
		// The rule (or the description) goes under its row.
		o := opts[i-1]
		if note := o.Rule; note != "" || o.Doc != "" {
			if note == "" {
				note = o.Doc
			}
			b.WriteString(text.Wrap("    ", note, 100))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clipText shortens s to n runes, marking the cut.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
