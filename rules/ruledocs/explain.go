package ruledocs

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/rules"
)

// published is where the pages Write makes (docs/rules/FWxxx.md) are
// published: the repository's main branch, whose URLs stay the same from
// release to release.
const published = "https://github.com/fwmigrate/fwmigrate/blob/main/docs/rules/"

// URL is the address of a rule's page: SARIF's helpUri, an editor's
// codeDescription, the last line of Explain.
func URL(code string) string { return published + code + ".md" }

// Explain is a rule's documentation as `fwmigrate explain` prints it (and
// an editor shows it on hover): what it finds, why, an example, its fix,
// how to suppress it, and its page.
func Explain(r *rules.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s, default severity %s)\n\n%s\n", r.Code, r.Name, r.Category, r.Severity, r.Doc.Summary)
	if r.Doc.Why != "" {
		fmt.Fprintf(&b, "\nWhy:\n%s\n", indent(strings.TrimSpace(r.Doc.Why)))
	}
	if r.Doc.Example != "" {
		fmt.Fprintf(&b, "\nExample:\n%s\n", indent(strings.TrimSpace(r.Doc.Example)))
	}
	if r.Doc.Fix != "" {
		fmt.Fprintf(&b, "\nFix:\n%s\n", indent(strings.TrimSpace(r.Doc.Fix)))
	} else {
		fmt.Fprintf(&b, "\nFix:\n  none: this finding needs a person's decision.\n")
	}
	fmt.Fprintf(&b, "\nSuppress one occurrence with: // fwmigrate-ignore %s: <reason>\n", r.Code)
	fmt.Fprintf(&b, "Online: %s\n", URL(r.Code))
	return b.String()
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
