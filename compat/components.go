package compat

import (
	"path"
	"sort"
	"strings"
)

// How the framework names components and pages. Two names matter to code
// that refers to a component by name (KeepAlive's include, a test's
// findComponent({ name })): the name the component compiler gives a .vue
// file (its base name), and the name the framework registers it under,
// which experimental.normalizeComponentNames (version 4) and
// experimental.normalizePageNames (compatibility version 5) make the
// component's name too.

// VueFileName returns the name the component compiler gives a component
// file that declares none: its base name without the last extension
// ("Button.vue" -> Button, "Chart.client.vue" -> Chart.client), "" when the
// name has no extension.
func VueFileName(file string) string {
	base := path.Base(file)
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return ""
	}
	for _, c := range base[i+1:] {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return ""
		}
	}
	return base[:i]
}

// ComponentName returns the name the framework registers a component file
// under (its PascalCase name): file is the file's name, relDir the
// slash-separated directory that holds it relative to its components
// directory ("" at the directory's top), prefix and pathPrefix that
// directory's options. Folder names prefix the name, and a file name that
// repeats the folders' trailing names does not repeat them:
// base/Button.vue and base/BaseButton.vue are both BaseButton.
func ComponentName(prefix string, pathPrefix bool, relDir, file string) string {
	name := strings.TrimSuffix(file, path.Ext(file))
	// .client, .server, .global and .island name a mode, not the component.
	for {
		trimmed := name
		for _, suffix := range []string{".global", ".island"} {
			trimmed = strings.TrimSuffix(trimmed, suffix)
		}
		if trimmed == name {
			break
		}
		name = trimmed
	}
	for _, suffix := range []string{".client", ".server"} {
		if t, ok := strings.CutSuffix(name, suffix); ok {
			name = t
			break
		}
	}
	name = strings.NewReplacer(`"`, "", "'", "").Replace(name)
	if strings.EqualFold(name, "index") {
		name = ""
		if !pathPrefix {
			name = path.Base(relDir)
			if relDir == "" {
				name = ""
			}
		}
	}
	var prefixParts []string
	if prefix != "" {
		prefixParts = append(prefixParts, SplitByCase(prefix)...)
	}
	if pathPrefix && relDir != "" {
		prefixParts = append(prefixParts, SplitByCase(relDir)...)
	}
	var fileParts []string
	if name != "" {
		fileParts = SplitByCase(name)
	}
	content := strings.ToLower(strings.Join(fileParts, "/"))
	// Drop the prefix parts that the file name starts with again.
	keep := len(prefixParts)
	var suffix []string
	for i := len(prefixParts) - 1; i >= 0; i-- {
		var lower []string
		for _, p := range SplitByCase(prefixParts[i]) {
			lower = append(lower, strings.ToLower(p))
		}
		suffix = append(lower, suffix...)
		matched := strings.Join(suffix, "/")
		if content == matched || strings.HasPrefix(content, matched+"/") ||
			strings.ToLower(prefixParts[i]) == content && i+1 < len(prefixParts) && prefixParts[i+1] != "" && prefixParts[i] == prefixParts[i+1] {
			keep = i
		}
	}
	var b strings.Builder
	for _, p := range append(prefixParts[:keep:keep], fileParts...) {
		if p == "" {
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

// RouteNames returns the route names the framework gives the pages of one
// pages directory (slash-separated paths relative to it, extension
// included): pages/users/[id].vue is users-id, pages/blog/index.vue blog,
// pages/index.vue index. A page whose route has no name (a parent whose
// index child takes it) is absent from the map.
func RouteNames(pages []string) map[string]string {
	type route struct {
		name, path, file string
		children         []*route
	}
	sorted := append([]string(nil), pages...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i]) < len(sorted[j]) })
	var routes []*route
	for _, file := range sorted {
		segs := strings.Split(strings.TrimSuffix(file, path.Ext(file)), "/")
		last := segs[len(segs)-1]
		if t, ok := strings.CutSuffix(last, ".server"); ok {
			segs[len(segs)-1] = t
		} else if t, ok := strings.CutSuffix(last, ".client"); ok {
			segs[len(segs)-1] = t
		}
		r := &route{file: file}
		parent := &routes
		for _, seg := range segs {
			toks := routeTokens(seg)
			if len(toks) == 1 && toks[0].kind == tokGroup {
				continue
			}
			var name, rpath strings.Builder
			rpath.WriteByte('/')
			for _, t := range toks {
				switch t.kind {
				case tokGroup:
				case tokStatic:
					name.WriteString(t.value)
					rpath.WriteString(t.value)
				default:
					name.WriteString(t.value)
					rpath.WriteString(":" + t.value + t.kind.mark())
				}
			}
			segName := name.String()
			if r.name != "" {
				r.name += "/"
			}
			r.name += segName
			routePath := rpath.String()
			full := strings.TrimSuffix(r.path, "/") + routePath
			if strings.HasSuffix(routePath, "/index") {
				full = strings.TrimSuffix(full, "index")
			}
			var child *route
			for _, c := range *parent {
				if c.name == r.name && c.path == full {
					child = c
				}
			}
			switch {
			case child != nil:
				parent = &child.children
				r.path = ""
			case segName == "index" && r.path == "":
				r.path = "/"
			case segName != "index":
				r.path += routePath
			}
		}
		*parent = append(*parent, r)
	}
	out := map[string]string{}
	var prepare func(rs []*route)
	prepare = func(rs []*route) {
		for _, r := range rs {
			name := strings.ReplaceAll(strings.TrimSuffix(r.name, "/index"), "/", "-")
			prepare(r.children)
			named := true
			for _, c := range r.children {
				if strings.TrimPrefix(c.path, "/") == "" {
					named = false
				}
			}
			if named && name != "" {
				out[r.file] = name
			}
		}
	}
	prepare(routes)
	return out
}

type tokKind uint8

const (
	tokStatic tokKind = iota
	tokDynamic
	tokOptional
	tokCatchall
	tokGroup
)

func (k tokKind) mark() string {
	switch k {
	case tokOptional:
		return "?"
	case tokCatchall:
		return "(.*)*"
	}
	return "()"
}

type routeToken struct {
	kind  tokKind
	value string
}

// routeTokens splits one segment of a page's path: static text, [param],
// [[optional]], [...catchall], and a (group) segment.
func routeTokens(seg string) []routeToken {
	if len(seg) > 2 && seg[0] == '(' && seg[len(seg)-1] == ')' && !strings.ContainsAny(seg[1:len(seg)-1], "()[]") {
		return []routeToken{{tokGroup, seg[1 : len(seg)-1]}}
	}
	var out []routeToken
	for seg != "" {
		i := strings.IndexByte(seg, '[')
		if i < 0 {
			out = append(out, routeToken{tokStatic, seg})
			break
		}
		if i > 0 {
			out = append(out, routeToken{tokStatic, seg[:i]})
			seg = seg[i:]
		}
		kind, open, close := tokDynamic, "[", "]"
		switch {
		case strings.HasPrefix(seg, "[["):
			kind, open, close = tokOptional, "[[", "]]"
		case strings.HasPrefix(seg, "[..."):
			kind, open = tokCatchall, "[..."
		}
		j := strings.Index(seg, close)
		if j < 0 {
			out = append(out, routeToken{tokStatic, seg})
			break
		}
		out = append(out, routeToken{kind, seg[len(open):j]})
		seg = seg[j+len(close):]
	}
	return out
}
