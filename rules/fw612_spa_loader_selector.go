package rules

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleSpaLoaderSelector = &Rule{
	Code:     "FW612",
	Name:     "spa-loader-selector",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a selector that reaches the SPA loading template through the app's root element, which version 4 renders the template outside of",
		Why: `With ssr: false, pages are served empty and show spa-loading-template.html (or
the file spaLoadingTemplate names) until the app has loaded. On version 3
(experimental.spaLoadingTemplateLocation: 'within') the template is rendered
inside the root element #__fw; on version 4 ('body') it is rendered next to it,
in its own element (#__fw-loader, app.spaLoaderAttrs). A selector that reaches
the loader through the root, #__fw .spinner, then styles or finds nothing.
Reported only when the config sets ssr: false and a loading template exists
(the layout's app directory, or spaLoadingTemplate's file): selectors whose
part after #__fw (or app.rootId) names a class or id of the template, in the
<style> blocks of .vue files (scoped and module styles are rewritten by the
compiler and never matched the loader), in the global stylesheets of the
config's css (.css, .scss, .less; nested rules are followed), in the template's
own <style>, and in strings of scripts (querySelector('#__fw .spinner')).
Selectors built at run time, .sass and .styl files are not read.`,
		Example: `/* assets/main.css (css: ['~/assets/main.css']), with ssr: false */
#__fw .spinner { margin: auto; }`,
		Fix: `None automatic: select the loader without the root (.spinner), or through its
own element (#__fw-loader .spinner).`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.spaLoadingTemplateLocation"},
}

func init() {
	ruleSpaLoaderSelector.scan = scanSpaLoaderSelectors
	Register(ruleSpaLoaderSelector)
}

func scanSpaLoaderSelectors(ci *codeIndex) *fileScan {
	p := ci.Project
	if p == nil || p.Detection == nil {
		return nil
	}
	if v, st := ci.Config.Value("ssr"); st != compat.Static || v != false {
		return nil
	}
	tmpl := spaLoadingTemplate(ci)
	if tmpl == nil {
		return nil
	}
	m := &loaderMatcher{root: "__fw", loader: "__fw-loader", names: map[string]bool{}}
	if v, st := ci.Config.Value("app.rootId"); st == compat.Static {
		if s, ok := v.(string); ok && s != "" {
			m.root = s
		}
	} else if v, st := ci.Config.Value("app.rootAttrs.id"); st == compat.Static {
		if s, ok := v.(string); ok && s != "" {
			m.root = s
		}
	}
	if v, st := ci.Config.Value("app.spaLoaderAttrs.id"); st == compat.Static {
		if s, ok := v.(string); ok && s != "" {
			m.loader = s
		}
	}
	for _, g := range htmlNameRe().FindAllSubmatch(tmpl.Text, -1) {
		prefix := "."
		if strings.EqualFold(string(g[1]), "id") {
			prefix = "#"
		}
		for _, name := range strings.Fields(string(g[3])) {
			m.names[prefix+name] = true
		}
	}
	if len(m.names) == 0 {
		return nil
	}
	// The template's own styles.
	own := m.htmlStyles(tmpl)
	// .vue styles and script strings.
	scan := perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Config || f.Code == nil || !bytes.Contains(f.Text, []byte("#"+m.root)) {
			return nil
		}
		for _, b := range f.Code.Blocks {
			if b.Tag != "style" || b.Lang == "sass" || b.Lang == "stylus" || b.Lang == "styl" {
				continue
			}
			open := f.Text[b.Loc.Start:b.Content.Start]
			if scopedRe().Match(open) {
				continue
			}
			*out = append(*out, m.css(f, b.Content)...)
		}
		return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			if n.Kind != ast.JSString && !(n.Kind == ast.JSTemplate && n.X == nil && len(n.List) == 0) {
				return true
			}
			if sel := strings.TrimSpace(n.Name); m.reaches(sel) {
				*out = append(*out, m.site(f, n.Loc, sel, ""))
			}
			return true
		}}
	}, func() []*site {
		return globalStyleSites(ci, m)
	})
	files := scan.sites
	scan.sites = func() []*site { return append(own, files()...) }
	return scan
}

// globalStyleSites returns the sites in the global stylesheets that the
// config's css option names.
func globalStyleSites(ci *codeIndex, m *loaderMatcher) []*site {
	p := ci.Project
	var out []*site
	if v, st := ci.Config.Value("css"); st == compat.Static {
		entries, _ := v.([]any)
		for _, e := range entries {
			s, ok := e.(string)
			if !ok || !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "@") && !strings.HasPrefix(s, ".") && !filepath.IsAbs(s) {
				continue // a package's stylesheet
			}
			switch filepath.Ext(s) {
			case ".css", ".scss", ".less", ".pcss", ".postcss":
			default:
				continue
			}
			if f := ci.textFile(code.ResolveSrcPath(p.Detection, s)); f != nil {
				out = append(out, m.css(f, ast.Span{Start: 0, End: len(f.Text)})...)
			}
		}
	}
	return out
}

// htmlNameRe finds the class and id attributes of an HTML file.
var htmlNameRe = lazyregexp.New(`(?i)\s(class|id)\s*=\s*(["'])([^"']*)["']`)

// scopedRe finds the scoped and module attributes of a <style> tag.
var scopedRe = lazyregexp.New(`\s(scoped|module)(\s|=|>|$)`)

// spaLoadingTemplate returns the loading template the project shows with
// ssr: false, nil when there is none (or only the framework's default).
func spaLoadingTemplate(ci *codeIndex) *code.File {
	p := ci.Project
	v, st := ci.Config.Value("spaLoadingTemplate")
	switch {
	case st == compat.Dynamic:
		return nil
	case st == compat.Static:
		switch v := v.(type) {
		case bool:
			if !v {
				return nil
			}
		case string:
			path := v
			if !strings.HasPrefix(path, "~") && !strings.HasPrefix(path, "@") && !filepath.IsAbs(path) {
				path = filepath.Join(p.Root, filepath.FromSlash(path))
			} else {
				path = code.ResolveSrcPath(p.Detection, path)
			}
			return ci.textFile(path)
		case nil:
		default:
			return nil
		}
	}
	// spa-loading-template.html in the app directory of the project, then
	// of its layers.
	dets := []*compat.Detection{p.Detection}
	for _, ly := range p.Layers {
		dets = append(dets, ly.Detection)
	}
	for _, d := range dets {
		if d == nil {
			continue
		}
		for _, r := range []compat.Resolution{d.Current, d.V4} {
			if app := r.Dir["app"]; app != "" {
				if f := ci.textFile(filepath.Join(app, "spa-loading-template.html")); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// textFile reads a file of the project that is not a source (through
// project.ReadText), nil when it cannot be read.
func (ci *codeIndex) textFile(path string) *code.File {
	if !ci.Project.IsFile(path) {
		return nil
	}
	t, err := ci.Project.ReadText(path)
	if err != nil {
		return nil
	}
	rel, err := filepath.Rel(ci.Project.Root, t.Path)
	if err != nil {
		rel = t.Path
	}
	return &code.File{Path: t.Path, Display: t.Display, Rel: filepath.ToSlash(rel), Text: t.Src}
}

// loaderMatcher finds the selectors that reach the loading template's
// elements through the root element.
type loaderMatcher struct {
	root, loader string
	names        map[string]bool // .class and #id of the template
}

// reaches reports whether a selector list has a selector that goes through
// #root to an element named like one of the template's.
func (m *loaderMatcher) reaches(list string) bool {
	token := "#" + m.root
	for _, sel := range splitTop(list, ',') {
		for off := 0; ; {
			i := strings.Index(sel[off:], token)
			if i < 0 {
				break
			}
			rest := sel[off+i+len(token):]
			off += i + len(token)
			if rest != "" && isCSSNameByte(rest[0]) {
				continue // #__fw-loader, #__fwx
			}
			// The rest of the root's compound, then a descendant or child
			// combinator.
			j := 0
			for j < len(rest) && rest[j] != ' ' && rest[j] != '>' && rest[j] != '\t' && rest[j] != '\n' && rest[j] != '+' && rest[j] != '~' {
				j++
			}
			after := strings.TrimLeft(rest[j:], " \t\r\n")
			if after == "" || after[0] == '+' || after[0] == '~' {
				continue
			}
			for _, name := range selectorNames(after) {
				if m.names[name] {
					return true
				}
			}
		}
	}
	return false
}

// selectorNames returns the .class and #id names of a selector.
func selectorNames(sel string) []string {
	var out []string
	for i := 0; i < len(sel); i++ {
		if sel[i] != '.' && sel[i] != '#' {
			continue
		}
		j := i + 1
		for j < len(sel) && isCSSNameByte(sel[j]) {
			j++
		}
		if j > i+1 {
			out = append(out, sel[i:j])
		}
		i = j - 1
	}
	return out
}

// isCSSNameByte reports whether c can continue a CSS class or id name.
func isCSSNameByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// splitTop splits s at sep outside parentheses and brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// site reports the selector sel (flat: what a nested one is in full, ""
// when it is not nested).
func (m *loaderMatcher) site(f *code.File, span ast.Span, sel, flat string) *site {
	if flat != "" {
		sel += "` (`" + flat + "`)"
	} else {
		sel += "`"
	}
	return &site{file: f, span: span,
		msg:   "`" + sel + " reaches the SPA loading template through the root element #" + m.root + ": on version 4 the template is rendered next to it, in #" + m.loader + ", and this selector no longer matches it",
		notes: []string{"select the loader without #" + m.root + ", or through #" + m.loader},
	}
}

// htmlStyles checks the <style> elements of an HTML file.
func (m *loaderMatcher) htmlStyles(f *code.File) []*site {
	var out []*site
	lower := bytes.ToLower(f.Text)
	for off := 0; ; {
		i := bytes.Index(lower[off:], []byte("<style"))
		if i < 0 {
			break
		}
		start := bytes.IndexByte(lower[off+i:], '>')
		if start < 0 {
			break
		}
		start += off + i + 1
		end := bytes.Index(lower[start:], []byte("</style"))
		if end < 0 {
			end = len(lower) - start
		}
		out = append(out, m.css(f, ast.Span{Start: start, End: start + end})...)
		off = start + end
	}
	return out
}

// css checks the rules of a stylesheet (CSS, or SCSS and Less, whose
// nested rules are flattened: & is the parent, else a descendant) in span
// of f.
func (m *loaderMatcher) css(f *code.File, span ast.Span) []*site {
	var out []*site
	src := f.Text[:span.End]
	type rule struct{ sels []string } // the flattened selectors; nil for at-rules' blocks
	var stack []rule
	parents := func() []string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].sels != nil {
				return stack[i].sels
			}
		}
		return nil
	}
	preStart := span.Start
	for i := span.Start; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			if len(bytes.TrimSpace(src[preStart:i])) == 0 {
				preStart = i + end + 4 // a comment before a rule is not its prelude
			}
			i += end + 3
		case c == '/' && i+1 < len(src) && src[i+1] == '/' && (i == 0 || src[i-1] != ':' && src[i-1] != '('):
			// A line comment of SCSS and Less (not in url(http://...)).
			blank := len(bytes.TrimSpace(src[preStart:i])) == 0
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if blank {
				preStart = i
			}
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case c == '#' && i+1 < len(src) && src[i+1] == '{':
			// SCSS interpolation: part of the text.
			if end := bytes.IndexByte(src[i:], '}'); end > 0 {
				i += end
			}
		case c == ';':
			preStart = i + 1
		case c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			preStart = i + 1
		case c == '{':
			pre := string(src[preStart:i])
			lead := len(pre) - len(strings.TrimLeft(pre, " \t\r\n"))
			text := stripCSSComments(strings.TrimSpace(pre))
			preStart = i + 1
			if text == "" || text[0] == '@' {
				stack = append(stack, rule{})
				continue
			}
			var sels []string
			nested := parents() != nil
			parts := splitTop(text, ',')
			for _, s := range parts {
				s = strings.TrimSpace(s)
				if ps := parents(); ps != nil {
					for _, p := range ps {
						if strings.Contains(s, "&") {
							sels = append(sels, strings.ReplaceAll(s, "&", p))
						} else {
							sels = append(sels, p+" "+s)
						}
					}
				} else {
					sels = append(sels, s)
				}
			}
			stack = append(stack, rule{sels: sels})
			if m.reaches(strings.Join(sels, ",")) {
				at := ast.Span{Start: i - len(pre) + lead, End: i - len(pre) + lead + len(strings.TrimSpace(pre))}
				flat := ""
				if nested {
					flat = strings.Join(strings.Fields(strings.Join(sels, ", ")), " ")
				}
				out = append(out, m.site(f, at, strings.Join(strings.Fields(text), " "), flat))
			}
		}
	}
	return out
}

// stripCSSComments removes /* */ comments from a rule's prelude.
func stripCSSComments(s string) string {
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+2+j+2:]
	}
}
