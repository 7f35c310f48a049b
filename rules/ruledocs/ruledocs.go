// Package ruledocs renders docs/rules/FWxxx.md, one page per rule, and the
// index docs/rules/README.md, from the rules' own documentation (rules.Doc),
// so that the pages SARIF's helpUri points at say what `fwmigrate explain`
// says. go generate ./rules writes them (gen.go); TestPagesInSync fails
// when a page is stale.
package ruledocs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/rules"
)

// Write replaces the pages in dir with those of Pages, removing the pages
// of rules that no longer exist.
func Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := Pages()
	old, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := want[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, text := range want {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

const generated = "<!-- Generated from the rule's documentation in rules/ by `go generate ./rules`. Do not edit. -->\n\n"

// Pages returns every page by file name.
func Pages() map[string]string {
	out := map[string]string{}
	var index strings.Builder
	index.WriteString(generated)
	index.WriteString("# fwmigrate rules\n\n")
	index.WriteString("Every rule has a stable code and name. `fwmigrate rules` lists them, `fwmigrate explain CODE`\n")
	index.WriteString("prints a page in the terminal. Select or ignore rules with `--select`/`--ignore` or in\n")
	index.WriteString("`fwmigrate.json` (see the README's Configuration section).\n\n")
	index.WriteString("| code | name | category | default severity | fix | summary |\n")
	index.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	all := append([]*rules.Rule(nil), rules.All()...)
	sort.Slice(all, func(i, j int) bool { return all[i].Code < all[j].Code })
	for _, r := range all {
		out[r.Code+".md"] = page(r)
		fix := ""
		if r.Doc.HasFix() {
			fix = "yes"
		}
		fmt.Fprintf(&index, "| [%s](%s.md) | %s | %s | %s | %s | %s |\n", r.Code, r.Code, r.Name, r.Category, r.Severity, fix, escapeCell(r.Doc.Summary))
	}
	out["README.md"] = index.String()
	return out
}

// page is the Markdown page of one rule.
func page(r *rules.Rule) string {
	var b strings.Builder
	b.WriteString(generated)
	fmt.Fprintf(&b, "# %s %s\n\n", r.Code, r.Name)
	fmt.Fprintf(&b, "%s.\n\n", upperFirst(r.Doc.Summary))
	fmt.Fprintf(&b, "Category: %s. Default severity: %s.\n", r.Category, r.Severity)
	if why := strings.TrimSpace(r.Doc.Why); why != "" {
		fmt.Fprintf(&b, "\n## Why\n\n%s\n", why)
	}
	if ex := strings.TrimSpace(r.Doc.Example); ex != "" {
		fmt.Fprintf(&b, "\n## Example\n\n```%s\n%s\n```\n", fence(ex), ex)
	}
	b.WriteString("\n## Fix\n\n")
	if fix := strings.TrimSpace(r.Doc.Fix); fix != "" {
		fmt.Fprintf(&b, "%s\n", fix)
	} else {
		b.WriteString("None: this finding needs a person's decision.\n")
	}
	fmt.Fprintf(&b, "\n## Suppress or configure\n\n"+
		"One occurrence, with a comment on its line or the line above:\n\n"+
		"```ts\n// fwmigrate-ignore %[1]s: the reason\n```\n\n"+
		"Everywhere, or under some paths, in `fwmigrate.json`:\n\n"+
		"```json\n{\n  \"severity\": { \"%[1]s\": \"off\" },\n  \"overrides\": [{ \"files\": [\"legacy/**\"], \"ignore\": [\"%[1]s\"] }]\n}\n```\n", r.Code)
	return b.String()
}

// fence is the language of an example's code block: TypeScript when it is
// a config alone, none when it mixes a tree, .env lines or several files.
func fence(ex string) string {
	for _, line := range strings.Split(ex, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") || strings.Contains(t, "<-") {
			return ""
		}
	}
	if strings.Contains(ex, "defineFwConfig") {
		return "ts"
	}
	return ""
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func escapeCell(s string) string {
	return strings.ReplaceAll(s, "|", "\\|")
}
