package text

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/marked"
)

func TestMarkdownEscapers(t *testing.T) {
	for _, c := range []struct{ fn, in, want string }{
		{"text", "app/pages/index.vue", `app\/pages\/index\.vue`},
		{"text", "plain words", "plain words"},
		{"text", "<img src=x onerror=alert(1)>", `\<img src\=x onerror\=alert\(1\)\>`},
		{"text", "a|b", "a|b"},
		{"text", "x\ny", `x\\ny`},
		{"text", "&amp; *em* [l](u)", `\&amp\; \*em\* \[l\]\(u\)`},
		{"code", "fw.config.ts", "`fw.config.ts`"},
		{"code", "a`b", "``a`b``"},
		{"code", "`a``", "``` `a`` ```"},
		{"code", " padded ", "`  padded  `"},
		{"code", "", "` `"},
		{"code", "new\nline\x1b[31m", "`new\\nline\\x1b[31m`"},
		{"inline", "set `a.b: 4` now", "set `a.b: 4` now"},
		{"inline", "odd ` tick", "odd \\` tick"},
		{"inline", "`<b>` and <i>", "`<b>` and \\<i\\>"},
		{"cell", "`a|b` c|d", "`a\\|b` c\\|d"},
		{"cell", `a\\|b`, `a\\\|b`},
		{"cell", `a\|b`, `a\|b`},
	} {
		var got string
		switch c.fn {
		case "text":
			got = MarkdownText(c.in)
		case "code":
			got = MarkdownCode(c.in)
		case "inline":
			got = MarkdownInline(c.in)
		case "cell":
			got = MarkdownCell(c.in)
		}
		if got != c.want {
			t.Errorf("%s(%q) = %q, want %q", c.fn, c.in, got, c.want)
		}
	}
}

// hostile are names and values a tree may hold: Markdown, HTML, entities,
// backticks, pipes, newlines, control bytes and bidi controls.
var hostile = []string{
	"<img src=x onerror=alert(1)>",
	"<script>alert(1)</script>",
	"a|b||c",
	"`code` ``two`` `",
	"*em* _em_ **strong** ~~del~~",
	"[link](https://example.com) ![img](x.png)",
	"&lt;&amp;&#60;",
	"line one\n# heading\n- item\n| a | b |\n|---|---|",
	"esc\x1b[31mred\x07",
	"rtl\u202eevil",
	"\\|back\\\\slash|",
	"www.example.com https://example.com",
	"1. not a list",
	"<!-- comment -->",
	"<b>bold</b> <br> <span title>",
	"<https://autolink.example>",
}

// TestMarkdownRendered renders each hostile string through each escaper
// (alone, and in a table cell) with marked, and checks that what is shown
// is the escaped string, literally: no tag, link, emphasis or entity from
// it, the table's shape unchanged.
func TestMarkdownRendered(t *testing.T) {
	var docs []string
	for _, s := range hostile {
		docs = append(docs,
			"x "+MarkdownText(s)+" y\n",
			"x "+MarkdownCode(s)+" y\n",
			"x "+MarkdownInline("the value `"+s+"` of "+s)+" y\n",
			"| a | b |\n| --- | --- |\n| "+MarkdownCell(MarkdownText(s))+" | "+MarkdownCell(MarkdownCode(s))+" |\n",
		)
	}
	out := marked.Render(t, docs...)
	tag := regexp.MustCompile(`<(/?)([a-z0-9]+)[^>]*>`)
	for i, h := range out {
		s := hostile[i/4]
		kind := i % 4
		allowed := map[string]bool{"p": true, "code": true}
		if kind == 3 {
			allowed = map[string]bool{"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "code": true}
		}
		for _, m := range tag.FindAllStringSubmatch(h, -1) {
			if !allowed[m[2]] {
				t.Errorf("%q (escaper %d) renders a <%s>:\n%s", s, kind, m[2], h)
			}
		}
		if strings.Count(h, "<p>") > 1 {
			t.Errorf("%q (escaper %d) starts a second block:\n%s", s, kind, h)
		}
		if kind == 3 && (strings.Count(h, "<td>") != 2 || strings.Count(h, "<th>") != 2) {
			t.Errorf("%q changes the table's shape:\n%s", s, h)
		}
		// What the reader sees is Escape(s), whole.
		visible := html.UnescapeString(tag.ReplaceAllString(h, ""))
		// (A value that holds a backtick splits MarkdownInline's quotes
		// differently: still literal, not whole.)
		if want := Escape(s); kind < 2 || kind == 2 && !strings.Contains(s, "`") {
			if !strings.Contains(visible, want) {
				t.Errorf("%q (escaper %d) shows %q, want it to hold %q", s, kind, visible, want)
			}
		}
		if kind == 3 {
			// A "|" after a backslash in a code span loses that backslash
			// in a table: the backslash is what keeps the cell whole.
			text, code := Escape(s), strings.ReplaceAll(Escape(s), `\|`, "|")
			if !strings.Contains(visible, text) || !strings.Contains(strings.Replace(visible, text, "", 1), code) {
				t.Errorf("%q in a table shows %q, want %q and %q", s, visible, text, code)
			}
		}
	}
}
