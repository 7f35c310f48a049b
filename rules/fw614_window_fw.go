package rules

import (
	"bytes"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleWindowFw = &Rule{
	Code:     "FW614",
	Name:     "window-fw-payload",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "code that reads window.__FW__, which version 4 removes once the app has hydrated",
		Why: `Version 4 deletes window.__FW__ after hydration (there is no flag to keep it): code
that reads it later (on a client-side navigation, in an event handler, in a
component set up after the first render) finds undefined. Found: window.__FW__,
globalThis.__FW__, self.__FW__, window['__FW__'], a bare __FW__ and '__FW__' in
window in app, module and shared code (window and globalThis as globals, not
local variables of that name; not at the top level of a plugin's file, the
app's plugins/ or a module's runtime file that defines a plugin, which runs
when the app starts, before the payload is removed), and the inline
scripts of the config's
app.head.script and of useHead's script entries (innerHTML), which run in the
page before hydration ends and are reported only.`,
		Example: `<script setup lang="ts">
const config = window.__FW__.config
</script>`,
		Fix: `In app code: window.__FW__ becomes useFwApp().payload, the same object, which
stays. Safe where useFwApp() has the app's context: the top level of <script
setup>, a composable (use...), a plugin or route middleware, and lifecycle hooks
called there; elsewhere (an event handler, a module's top level) the fix is
unsafe: call useFwApp() in setup and keep the result. Writes, delete, module and
shared code and inline scripts are reported only.`,
	},
	Run: runCodeRule,
}

func init() {
	ruleWindowFw.scan = scanWindowFw
	Register(ruleWindowFw)
}

const windowFwMsg = " reads the payload that version 4 removes once the app has hydrated: after that it is undefined"

func scanWindowFw(ci *codeIndex) *fileScan {
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || !bytes.Contains(f.Text, []byte("__FW__")) {
			return nil
		}
		return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			switch {
			case (n.Kind == ast.JSString || n.Kind == ast.JSTemplate) && inlineScript(f, n, up):
				*out = append(*out, inlineScriptSites(f, n)...)
			case f.Config || f.Src.Role == project.RoleModule && !strings.Contains("/"+f.Rel, "/runtime/"):
				// A module's own code runs in the build, where there is no
				// payload; its runtime/ files run in the app.
			case isWindowFw(n) && pluginTopLevel(f, up):
				// A plugin's module runs when the app starts, before the
				// framework's payload plugin removes the global: the same
				// on both majors. Its setup function is where reads can
				// come late.
				return false
			case isWindowFw(n):
				*out = append(*out, windowFwSite(ci, f, n, up))
				return false
			case n.Kind == ast.JSBinary && n.Op == "in" && n.X.Kind == ast.JSString && n.X.Name == "__FW__" && code.Global(n.Y) && windowNames[n.Y.Name]:
				*out = append(*out, &site{file: f, span: n.Loc,
					msg:   "`" + f.Code.Text(n.Loc) + "` tests for the payload that version 4 removes once the app has hydrated: after that it is false",
					notes: []string{"read the payload from the app instead: `useFwApp().payload`"},
				})
			}
			return true
		}}
	}, nil)
}

// windowNames are the globals that hold window's properties.
var windowNames = map[string]bool{"window": true, "globalThis": true, "self": true}

// isWindowFw reports window.__FW__, globalThis.__FW__, self.__FW__,
// window['__FW__'] and a bare global __FW__.
func isWindowFw(n *ast.JSNode) bool {
	switch n.Kind {
	case ast.JSIdent:
		return n.Name == "__FW__" && n.Resolve() == nil && n.DeclBinding() == nil
	case ast.JSMember:
		if !code.Global(n.X) || !windowNames[n.X.Name] {
			return false
		}
		if n.Has(ast.FlagComputed) {
			return n.Y != nil && n.Y.Kind == ast.JSString && n.Y.Name == "__FW__"
		}
		return n.Name == "__FW__"
	}
	return false
}

func windowFwSite(ci *codeIndex, f *code.File, n *ast.JSNode, up []*ast.JSNode) *site {
	s := &site{file: f, span: n.Loc, msg: "`" + f.Code.Text(n.Loc) + "`" + windowFwMsg}
	var p *ast.JSNode
	if len(up) > 0 {
		p = up[len(up)-1]
	}
	switch {
	case p != nil && (p.Kind == ast.JSAssign || p.Kind == ast.JSUpdate) && p.X == n,
		p != nil && p.Kind == ast.JSUnary && p.Op == "delete":
		s.msg = "`" + f.Code.Text(p.Loc) + "` changes the payload that version 4 removes once the app has hydrated"
		s.notes = []string{"change `useFwApp().payload` instead"}
	case f.Src == nil || f.Src.Role != project.RoleApp:
		s.notes = []string{"read `useFwApp().payload` (imported from '#imports' here)"}
	case f.Code.Module.Lookup("useFwApp") != nil && f.Code.Module.Lookup("useFwApp").Kind != ast.BindImport:
		s.notes = []string{"read the app's payload instead (`useFwApp().payload`; this file declares a useFwApp of its own)"}
	case appContext(f, up):
		s.fix = codeFix(f, "read `useFwApp().payload`, the same object, which stays after hydration", Safe, edit(n.Loc, "useFwApp().payload"))
	default:
		s.fix = codeFix(f, "read `useFwApp().payload` (useFwApp() needs the app's context here: if this runs outside setup, call it in setup and keep the result)", Unsafe, edit(n.Loc, "useFwApp().payload"))
	}
	return s
}

// appContextCalls are the calls whose function argument runs with the
// app's context (useFwApp works in it).
var appContextCalls = []string{"defineFwPlugin", "defineFwRouteMiddleware", "defineFwComponent", "defineComponent"}

// lifecycleHooks run their callback with the component's instance set.
var lifecycleHooks = []string{"onBeforeMount", "onMounted", "onBeforeUpdate", "onUpdated", "onBeforeUnmount", "onUnmounted", "onActivated", "onDeactivated", "onServerPrefetch"}

// appContext reports whether code with the ancestors up runs with the
// app's context: at the top level of <script setup>, in a composable, in
// the function of a plugin or route middleware (or a component's setup),
// or in a lifecycle hook called from one of those.
func appContext(f *code.File, up []*ast.JSNode) bool {
	for i := len(up) - 1; i >= 0; i-- {
		fn := up[i]
		if fn.Kind != ast.JSFunction && fn.Kind != ast.JSArrow {
			continue
		}
		if name := code.FunctionName(fn, up[:i]); strings.HasPrefix(name, "use") || name == "setup" {
			return true
		}
		if i > 0 && up[i-1].Kind == ast.JSProperty && up[i-1].Name == "setup" && up[i-1].Y == fn {
			return true
		}
		if i == 0 || up[i-1].Kind != ast.JSCall || up[i-1].X == fn {
			return false
		}
		call := up[i-1]
		switch {
		case code.ImportedAs(call.X, appContextCalls...):
			return true
		case code.ImportedAs(call.X, lifecycleHooks...):
			continue // as its caller's context
		}
		return false
	}
	// The top level: <script setup> runs in setup; a module's top level
	// runs when it is imported.
	for _, s := range f.Code.Scripts {
		if s.Setup && len(up) > 0 && up[0] == s.Program {
			return true
		}
	}
	return false
}

// inlineScript reports whether a string is the innerHTML (or textContent)
// of a script entry: app.head.script[] in the config, or the script entries
// of useHead and useServerHead in code.
func inlineScript(f *code.File, n *ast.JSNode, up []*ast.JSNode) bool {
	if !bytes.Contains(f.Text[n.Loc.Start:n.Loc.End], []byte("__FW__")) || len(up) < 3 {
		return false
	}
	p := up[len(up)-1]
	if p.Kind != ast.JSProperty || p.Y != n || p.Name != "innerHTML" && p.Name != "textContent" && p.Name != "children" {
		return false
	}
	// Up from the entry: { innerHTML } in [ ... ] under script:.
	if up[len(up)-2].Kind != ast.JSObject {
		return false
	}
	i := len(up) - 3
	if up[i].Kind == ast.JSArray {
		i--
	}
	if i < 0 || up[i].Kind != ast.JSProperty || up[i].Name != "script" {
		return false
	}
	if f.Config {
		var names []string
		for _, a := range up[:i] {
			if a.Kind == ast.JSProperty {
				names = append(names, a.Name)
			}
		}
		return len(names) >= 2 && names[len(names)-2] == "app" && names[len(names)-1] == "head"
	}
	for j := i - 1; j >= 0; j-- {
		if up[j].Kind == ast.JSCall {
			return code.ImportedAs(up[j].X, "useHead", "useServerHead", "useHeadSafe", "useServerHeadSafe")
		}
	}
	return false
}

// inlineScriptSites are the reads of __FW__ in an inline script's text, each
// with the window. or globalThis. before it.
func inlineScriptSites(f *code.File, n *ast.JSNode) []*site {
	var out []*site
	text := f.Text[n.Loc.Start:n.Loc.End]
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("__FW__"))
		if i < 0 {
			break
		}
		start, end := off+i, off+i+len("__FW__")
		for name := range windowNames {
			if bytes.HasSuffix(text[:start], []byte(name+".")) {
				start -= len(name) + 1
			}
		}
		span := ast.Span{Start: n.Loc.Start + start, End: n.Loc.Start + end}
		out = append(out, &site{file: f, span: span,
			msg:   "the inline script reads `" + string(text[start:end]) + "`, which version 4 removes once the app has hydrated: a script that runs later finds undefined",
			notes: []string{"an inline script runs before the app: read what it needs while the page loads, or move the code into a plugin that reads `useFwApp().payload`"},
		})
		off = end
	}
	return out
}

// pluginTopLevel reports whether a node with the ancestors up is at the top
// level of a plugin's file (outside any function): that code runs when the
// app starts, before hydration. A plugin's file is one of the app's
// plugins/, or a module's runtime file that defines a plugin (the module
// adds it with addPlugin: elk's modules/tauri/runtime/nitro.client.ts).
func pluginTopLevel(f *code.File, up []*ast.JSNode) bool {
	if f.Src == nil {
		return false
	}
	switch {
	case f.Src.Role == project.RoleApp && strings.Contains("/"+f.Rel, "/plugins/"):
	case f.Src.Role == project.RoleModule && strings.Contains("/"+f.Rel, "/runtime/") && bytes.Contains(f.Text, []byte("defineFwPlugin(")):
	default:
		return false
	}
	for _, n := range up {
		if n.Kind == ast.JSFunction || n.Kind == ast.JSArrow || n.Kind == ast.JSClass {
			return false
		}
	}
	return true
}
