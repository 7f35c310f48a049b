package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/ignore"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

var ruleIgnoreMoved = &Rule{
	Code:     "FW109",
	Name:     "ignore-moved",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "`ignore` pattern or .fwignore line naming a folder that is in app/ in layout A",
		Why: `The ignore option and the lines of .fwignore are matched from the root, not from
srcDir. When the sources move into app/, a pattern such as components/Legacy.vue
stops matching (the file is app/components/Legacy.vue), and the files it kept
out of the build are built again, without a warning. Patterns starting with *
match anywhere and are not affected.`,
		Example: `export default defineFwConfig({
  ignore: ['pages/drafts/**'],  // must be app/pages/drafts/** in layout A
})`,
		Fix: `Safe for the ignore option: prefixes the pattern with app/, keeping a leading !,
/ or ./ and the string's quotes. For a layout-B project the fix belongs to the
move into app/ that 'fwmigrate apply' makes (with --layout=keep the patterns are
right as they are and the rule says nothing). .fwignore lines are reported
without a fix: 'fwmigrate apply' rewrites them when it moves the sources.`,
	},
	Run: runIgnoreMoved,
}

func init() { Register(ruleIgnoreMoved) }

func runIgnoreMoved(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok || v.Pinned || v.Src != filepath.Join(v.Root, "app") {
		return // custom srcDir, pinned layout B: nothing moves
	}
	var moved map[string]bool
	if v.Moving {
		moved = map[string]bool{}
		for _, m := range v.moved(pass) {
			moved[strings.TrimSuffix(m, "/")] = true
		}
	}
	// rewrite returns the pattern as it must read in layout A and the
	// folder or file that moved, or "" when it is right as it is.
	rewriteFor := func(pat string) (string, string) {
		seg := ignoreHead(pat)
		if seg == "" {
			return "", ""
		}
		set := moved
		if !v.Moving {
			// Layout A: the pattern names something that exists only in app/.
			if pass.Project.Exists(filepath.Join(v.Root, seg)) || !pass.Project.Exists(filepath.Join(v.Src, seg)) {
				return "", ""
			}
			set = map[string]bool{seg: true}
		} else if !set[seg] {
			return "", ""
		}
		out, changed := move.RewriteIgnorePattern(pat, set)
		if !changed {
			return "", ""
		}
		if pass.Project.IsDir(filepath.Join(v.Root, seg)) || pass.Project.IsDir(filepath.Join(v.Src, seg)) {
			seg += "/"
		}
		return out, seg
	}
	pass.OptionProps("ignore", func(prefix, path ast.Path, prop *ast.Property) {
		if prop.Kind != ast.PropInit || prop.Value == nil {
			return
		}
		psElems(psSelf)(prop.Value, func(n ast.Node) {
			pat, contents, raw, ok := literalString(pass.File, n)
			if !ok {
				return
			}
			out, seg := rewriteFor(pat)
			if out == "" {
				return
			}
			var d *Diagnostic
			if v.Moving {
				d = pass.Report(n.Span(), path.String(), "`ignore` pattern `%s` is matched from the root, and `%s` moves into `app/`: it must read `%s`", pat, seg, out)
			} else {
				d = pass.Report(n.Span(), path.String(), "`ignore` pattern `%s` matches nothing: patterns are matched from the root, and `%s` is in `app/`; it must read `%s`", pat, seg, out)
			}
			if !raw {
				d.Notes = append(d.Notes, "the string is written with escapes: change it by hand")
				return
			}
			d.Fix = &Fix{
				Description:   "prefix the pattern with `app/`: `" + out + "`",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: contents, Text: out}},
				Layout:        v.fixLayout(),
			}
		})
	})

	ig, err := pass.Project.FwIgnore()
	if err != nil || ig == nil {
		return // an unreadable .fwignore is the framework's error too; nothing to judge
	}
	ignore.Lines(ig.Src, func(start, end, line int) {
		span := ast.Span{Start: start, End: end}
		pat := string(ig.Src[span.Start:span.End])
		out, seg := rewriteFor(pat)
		if out == "" {
			return
		}
		var d *Diagnostic
		if v.Moving {
			d = pass.reportIn(ig.Display, ig.Src, span, "`.fwignore` line `%s` is matched from the root, and `%s` moves into `app/`: it must read `%s`", pat, seg, out)
			d.Notes = append(d.Notes, "`fwmigrate apply` rewrites this line when it moves the sources")
		} else {
			d = pass.reportIn(ig.Display, ig.Src, span, "`.fwignore` line `%s` matches nothing: lines are matched from the root, and `%s` is in `app/`; it must read `%s`", pat, seg, out)
		}
		d.Path = ".fwignore"
	})
}

// ignoreHead returns the first path segment of an ignore pattern when it
// is literal (no glob), after a leading !, / or ./; "" otherwise.
func ignoreHead(pat string) string {
	body := strings.TrimPrefix(pat, "!")
	if strings.HasPrefix(body, "./") {
		body = body[2:]
	} else {
		body = strings.TrimPrefix(body, "/")
	}
	seg := firstSegment(body)
	if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "*?[{\\") || strings.HasPrefix(seg, "#") {
		return ""
	}
	return seg
}
