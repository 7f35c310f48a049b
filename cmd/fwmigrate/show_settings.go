package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/settings"
)

// showSettings prints the settings each path is checked with (check
// --show-settings), each with where it comes from: a flag, the settings
// file, or the default.
func showSettings(w io.Writer, finder *settings.Finder, args []string) error {
	if len(args) == 0 {
		args = []string{"."}
	}
	var b strings.Builder
	for i, arg := range args {
		res, err := finder.For(arg)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "Settings for %s\n", text.Escape(arg))
		file := "none (no fwmigrate.json, no \"fwmigrate\" key in a package.json, from here upwards)"
		if res.File != nil {
			file = text.Escape(res.File.Name)
			if len(res.File.Extends) > 0 {
				var ext []string
				for _, e := range res.File.Extends {
					ext = append(ext, text.Escape(pathx.Display(e)))
				}
				file += ", extending " + strings.Join(ext, ", ")
			}
		}
		fmt.Fprintf(&b, "  settings file: %s\n", file)
		row := func(key, value string) {
			fmt.Fprintf(&b, "  %-10s %s  (%s)\n", key+":", value, res.From[key])
		}
		row("select", list(res.Select, "all rules"))
		row("ignore", list(res.Ignore, "none"))
		var sev []string
		for _, s := range res.Severities() {
			sev = append(sev, s.Selector+"="+s.Severity)
		}
		row("severity", list(sev, "each rule's default"))
		row("failOn", res.FailOn)
		fw := "from each project's package.json (major 3 when it does not say)"
		if res.Framework != 0 {
			fw = fmt.Sprintf("%d where package.json does not say", res.Framework)
		}
		row("framework", fw)
		ov := res.Overrides()
		overrides := "none"
		if len(ov) > 0 {
			overrides = fmt.Sprintf("%d, applied in this order (later ones win):", len(ov))
		}
		row("overrides", overrides)
		for _, o := range ov {
			var parts []string
			if len(o.Ignore) > 0 {
				parts = append(parts, "ignore "+strings.Join(o.Ignore, ","))
			}
			for _, s := range o.Severity {
				parts = append(parts, s.Selector+"="+s.Severity)
			}
			fmt.Fprintf(&b, "    %s: %s\n", jsonList(o.Files), strings.Join(parts, "; "))
		}
		base := "none"
		if res.Baseline != "" {
			base = text.Escape(filepath.ToSlash(pathx.Display(res.Baseline)))
		}
		row("baseline", base)
	}
	// Names and globs come from the tree and its settings file.
	_, err := io.WriteString(w, text.EscapeLines(b.String(), false))
	return err
}

func list(items []string, empty string) string {
	if len(items) == 0 {
		return empty
	}
	return strings.Join(items, ", ")
}

func jsonList(items []string) string {
	out, _ := json.Marshal(items)
	return string(out)
}
