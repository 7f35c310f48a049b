package main

import (
	"bytes"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/marked"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// hostilePages are page names that are Markdown, HTML, entities, a table's
// pipe, backticks, a newline and a terminal escape: each holds findings
// with a safe fix (FW601), an unsafe one (FW603) and none (FW609), so
// that its name is in every summary.
var hostilePages = []string{
	"pages/a|b`c<img src=x onerror=alert(1)>.vue",
	"pages/esc\x1b[31m&amp;*em*\n## line.vue",
	"pages/[link](https:example.com).vue",
}

const nullCheckPage = `<script setup lang="ts">
const { data: posts } = await useFetch('/api/posts')
const ready = posts.value !== null
function add(p) { posts.value.push(p) }
const { pending } = useFetch('/api/later', { immediate: false })
watch(pending, (v) => console.log(v))
</script>
`

// writeHostileProject writes a layout-B project on framework major 3 whose
// pages have hostile names, and whose config holds a hostile value.
func writeHostileProject(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
		"fw.config.ts": "export default defineFwConfig({\n  dir: { static: 'public' },\n  generate: { routes: ['/<b>x</b>|y'] },\n  experimental: { compileTemplate: true },\n})\n",
		"app.vue":      "<template><NuxtPage /></template>\n",
	}
	for _, p := range hostilePages {
		files[p] = nullCheckPage
	}
	testtree.Map(t, dir, files)
	return dir
}

// TestMarkdownRendered renders check's and apply's Markdown of a project
// with hostile file names with marked, and checks the document's shape:
// its headings, that every table row has its header's cells, that the
// only links are the rules' pages, that nothing of the tree became HTML,
// and that each hostile name is shown, escaped, as code.
func TestMarkdownRendered(t *testing.T) {
	if testing.Short() {
		t.Skip("renders Markdown with marked from npm: not under -short")
	}
	dir := writeHostileProject(t)
	t.Chdir(dir)
	var docs []string
	for _, args := range [][]string{
		{"check", "--format=markdown", "."},
		{"apply", "--to=4", "--dry-run", "--format=markdown", "."},
		{"apply", "--to=4", "--dry-run", "--unsafe", "--format=markdown", "."},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitFindings {
			t.Fatalf("%s: exit %d\n%s%s", args, code, out.Bytes(), errb.Bytes())
		}
		if errb.Len() > 0 {
			t.Errorf("%s: stderr: %s", args, errb.Bytes())
		}
		docs = append(docs, out.String())
	}
	out := marked.Render(t, docs...)
	headings := [][]string{
		{"h2:What version 4 needs (fwmigrate check)", "h3:Findings by rule", "h3:Next steps"},
		{"h2:Migration to compatibility version 4 (fwmigrate, dry run: nothing written)", "h3:To move into app/", "h3:Fixes to make, by rule",
			"h3:Left to do", "h4:Fixes left for --unsafe", "h4:Without an automatic fix", "h3:Behaviour to test", "h3:Next steps"},
		{"h2:Migration to compatibility version 4 (fwmigrate, dry run: nothing written)", "h3:To move into app/", "h3:Fixes to make, by rule",
			"h3:Left to do", "h4:Without an automatic fix", "h3:Behaviour to test", "h3:Next steps"},
	}
	tag := regexp.MustCompile(`<(/?)([a-z0-9]+)([^>]*)>`)
	rulePage := regexp.MustCompile(`^ href="` + regexp.QuoteMeta(strings.TrimSuffix(ruledocs.URL("FW000"), "FW000.md")) + `FW\d{3}\.md"$`)
	allowed := map[string]bool{"h2": true, "h3": true, "h4": true, "p": true, "ul": true, "ol": true, "li": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "code": true, "a": true}
	for i, h := range out {
		name := []string{"check", "apply --dry-run", "apply --dry-run --unsafe"}[i]
		var got []string
		for _, m := range regexp.MustCompile(`<(h[2-4])>(.*?)</h[2-4]>`).FindAllStringSubmatch(h, -1) {
			got = append(got, m[1]+":"+html.UnescapeString(tag.ReplaceAllString(m[2], "")))
		}
		if strings.Join(got, "\n") != strings.Join(headings[i], "\n") {
			t.Errorf("%s: headings\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(headings[i], "\n"))
		}
		for _, m := range tag.FindAllStringSubmatch(h, -1) {
			if !allowed[m[2]] {
				t.Errorf("%s: renders a <%s%s>", name, m[2], m[3])
			}
			if m[2] == "a" && m[1] == "" {
				if !rulePage.MatchString(m[3]) {
					t.Errorf("%s: a link that is not a rule's page: <a%s>", name, m[3])
				}
			}
		}
		// Every row of a table has its header's cells.
		for _, table := range regexp.MustCompile(`(?s)<table>.*?</table>`).FindAllString(h, -1) {
			rows := regexp.MustCompile(`(?s)<tr>.*?</tr>`).FindAllString(table, -1)
			if len(rows) < 2 {
				t.Errorf("%s: a table without rows:\n%s", name, table)
				continue
			}
			want := strings.Count(rows[0], "<th")
			for _, r := range rows[1:] {
				if n := strings.Count(r, "<td"); n != want {
					t.Errorf("%s: a row of %d cells in a table of %d:\n%s", name, n, want, r)
				}
			}
		}
		// Each hostile page is shown whole, escaped, in a code span.
		codes := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?s)<code>(.*?)</code>`).FindAllStringSubmatch(h, -1) {
			codes[html.UnescapeString(m[1])] = true
		}
		for _, p := range hostilePages {
			found := false
			for c := range codes {
				found = found || strings.HasPrefix(c, text.Escape(p)+":")
			}
			if !found {
				t.Errorf("%s: no code span shows %q as %q", name, p, text.Escape(p))
			}
		}
		if strings.Contains(h, "<b>") || strings.Contains(h, "<img") {
			t.Errorf("%s: HTML of the tree in the output:\n%s", name, h)
		}
	}
	// The links are the rules' pages, and each rule that has findings has
	// one.
	for _, code := range []string{"FW107", "FW201", "FW601"} {
		if !strings.Contains(out[0], `<a href="`+ruledocs.URL(code)+`">`+code+`</a>`) {
			t.Errorf("check: no link to %s's page", code)
		}
	}
}

// TestStepSummaryConfined: $GITHUB_STEP_SUMMARY is appended to when it is
// a regular file, created when missing, and never written through a
// symlink nor into a FIFO, a directory or a device.
func TestStepSummaryConfined(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(reg, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendRegular(reg, "after\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(reg); string(b) != "before\nafter\n" {
		t.Errorf("appended: %q", b)
	}
	fresh := filepath.Join(dir, "fresh.md")
	if err := appendRegular(fresh, "x\n"); err != nil {
		t.Errorf("a missing file: %v", err)
	}
	target := filepath.Join(dir, "target.md")
	if err := os.WriteFile(target, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := appendRegular(link, "x\n"); err == nil {
		t.Error("wrote through a symlink")
	}
	if b, _ := os.ReadFile(target); string(b) != "kept\n" {
		t.Errorf("the symlink's target changed: %q", b)
	}
	dangling := filepath.Join(dir, "dangling.md")
	if err := os.Symlink(filepath.Join(dir, "nowhere.md"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := appendRegular(dangling, "x\n"); err == nil {
		t.Error("created a file through a dangling symlink")
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.md")); err == nil {
		t.Error("the dangling symlink's target was created")
	}
	if err := appendRegular(dir, "x\n"); err == nil {
		t.Error("wrote to a directory")
	}
	if err := appendRegular(os.DevNull, "x\n"); err == nil {
		t.Error("wrote to a device")
	}
}
