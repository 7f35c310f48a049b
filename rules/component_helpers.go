package rules

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// The project's components by name (FW607's names, FW603's v-model
// targets).

// componentDir is an entry of components.dirs, resolved.
type componentDir struct {
	path       string // absolute
	prefix     string
	pathPrefix bool
}

// componentsByOldName returns the .vue components of the project and its
// local layers by the name the component compiler gives them, each with
// the name version 4 gives it.
func componentsByOldName(ci *codeIndex) map[string][]*code.NamedFile {
	p := ci.Project
	if p == nil || p.Detection == nil {
		return nil
	}
	own, ok := componentDirs(ci.Config, p.Detection)
	if !ok {
		return nil
	}
	out := map[string][]*code.NamedFile{}
	for _, s := range p.Sources() {
		if s.Role != project.RoleApp || filepath.Ext(s.Path) != ".vue" {
			continue
		}
		dirs := own
		if s.Layer != nil {
			if s.Layer.Detection == nil {
				continue
			}
			dirs = defaultComponentDirs(s.Layer.Detection.Current.SrcDir)
		}
		// The deepest directory that holds the file registers it.
		var dir *componentDir
		var rel string
		for i := range dirs {
			if r, ok := code.RelUnder(dirs[i].path, s.Path); ok && (dir == nil || len(dirs[i].path) > len(dir.path)) {
				dir, rel = &dirs[i], r
			}
		}
		if dir == nil || strings.HasPrefix(path.Base(rel), "-") {
			continue // not a component, or ignored by the ignore prefix
		}
		relDir := path.Dir(rel)
		if relDir == "." {
			relDir = ""
		}
		old := compat.VueFileName(rel)
		n := &code.NamedFile{Src: s, Old: old, New: compat.ComponentName(dir.prefix, dir.pathPrefix, relDir, path.Base(rel))}
		out[old] = append(out[old], n)
	}
	return out
}

// componentDirs reads the config's components option: absent or true, the
// default directories; false, none; an array or { dirs }, its entries
// (strings, or objects with path, prefix and pathPrefix). ok is false when
// the config sets it at run time.
func componentDirs(cfg compat.Config, d *compat.Detection) ([]componentDir, bool) {
	src := d.Current.SrcDir
	if src == "" {
		return nil, false
	}
	v, st := cfg.Value("components")
	switch st {
	case compat.Absent:
		return defaultComponentDirs(src), true
	case compat.Dynamic:
		return nil, false
	}
	var entries []any
	switch v := v.(type) {
	case bool:
		if !v {
			return nil, true
		}
		return defaultComponentDirs(src), true
	case []any:
		entries = v
	case map[string]any:
		dirs, ok := v["dirs"].([]any)
		if !ok {
			return defaultComponentDirs(src), true
		}
		entries = dirs
	default:
		return nil, false
	}
	var out []componentDir
	for _, e := range entries {
		dir := componentDir{pathPrefix: true}
		switch e := e.(type) {
		case string:
			dir.path = e
		case map[string]any:
			dir.path, _ = e["path"].(string)
			dir.prefix, _ = e["prefix"].(string)
			if pp, ok := e["pathPrefix"].(bool); ok {
				dir.pathPrefix = pp
			}
			if en, ok := e["enabled"].(bool); ok && !en {
				continue
			}
		}
		if dir.path == "" {
			continue
		}
		dir.path = code.ResolveSrcPath(d, dir.path)
		out = append(out, dir)
	}
	return out, true
}

// defaultComponentDirs are components/global and components under srcDir.
func defaultComponentDirs(src string) []componentDir {
	return []componentDir{
		{path: filepath.Join(src, "components", "global"), pathPrefix: true},
		{path: filepath.Join(src, "components"), pathPrefix: true},
	}
}

// pascalTag returns the component name a template tag names:
// `todo-list` and `TodoList` are TodoList.
func pascalTag(tag string) string {
	var b strings.Builder
	for _, p := range compat.SplitByCase(tag) {
		if p == "" {
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}
