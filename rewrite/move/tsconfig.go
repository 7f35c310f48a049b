package move

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// A minimal JSONC reader for tsconfig.json: comments and trailing commas
// allowed, byte ranges kept, so the edit touches only the bytes it must.

type jsonItem struct {
	start, end       int // the whole member or element
	keyStart, keyEnd int // member key, quotes included (members only)
	valStart, valEnd int
}

func jsonSkip(data []byte, pos int) int {
	for pos < len(data) {
		switch c := data[pos]; {
		case isSpace(c):
			pos++
		case c == 0xEF && pos+2 < len(data) && data[pos+1] == 0xBB && data[pos+2] == 0xBF:
			pos += 3
		case c == '/' && pos+1 < len(data) && data[pos+1] == '/':
			for pos < len(data) && data[pos] != '\n' {
				pos++
			}
		case c == '/' && pos+1 < len(data) && data[pos+1] == '*':
			end := indexFrom(data, pos+2, "*/")
			if end < 0 {
				return len(data)
			}
			pos = end + 2
		default:
			return pos
		}
	}
	return pos
}

func jsonStringEnd(data []byte, pos int) int {
	for i := pos + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// jsonValueEnd returns the end of the value at pos, or -1.
func jsonValueEnd(data []byte, pos int) int {
	if pos >= len(data) {
		return -1
	}
	switch data[pos] {
	case '"':
		return jsonStringEnd(data, pos)
	case '{', '[':
		depth := 0
		for i := pos; i < len(data); {
			i = jsonSkip(data, i)
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case '"':
				e := jsonStringEnd(data, i)
				if e < 0 {
					return -1
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	i := pos
	for i < len(data) && !isSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' && data[i] != '/' {
		i++
	}
	if i == pos {
		return -1
	}
	return i
}

// jsonItems parses the members of the object (or the elements of the array)
// opening at pos.
func jsonItems(data []byte, pos int) ([]jsonItem, bool) {
	if pos >= len(data) || data[pos] != '{' && data[pos] != '[' {
		return nil, false
	}
	obj := data[pos] == '{'
	var items []jsonItem
	i := pos + 1
	for {
		i = jsonSkip(data, i)
		if i >= len(data) {
			return nil, false
		}
		if data[i] == '}' || data[i] == ']' {
			return items, true
		}
		it := jsonItem{start: i}
		if obj {
			if data[i] != '"' {
				return nil, false
			}
			e := jsonStringEnd(data, i)
			if e < 0 {
				return nil, false
			}
			it.keyStart, it.keyEnd = i, e
			i = jsonSkip(data, e)
			if i >= len(data) || data[i] != ':' {
				return nil, false
			}
			i = jsonSkip(data, i+1)
		}
		e := jsonValueEnd(data, i)
		if e < 0 {
			return nil, false
		}
		it.valStart, it.valEnd, it.end = i, e, e
		items = append(items, it)
		i = jsonSkip(data, e)
		if i < len(data) && data[i] == ',' {
			i++
		}
	}
}

func jsonKey(data []byte, it jsonItem) string {
	return string(data[it.keyStart+1 : it.keyEnd-1])
}

// planTsconfig switches the root tsconfig.json from extending the legacy
// generated file to layout A's project references (facts §9), keeping
// everything else, and notes a server/tsconfig.json that extends the
// generated server file.
func (p *Plan) planTsconfig(buildDir, serverBefore string) {
	path := filepath.Join(p.Root, "tsconfig.json")
	data, mode, ok, err := readRegular(path)
	if err != nil {
		p.conflict(path, "%v", err)
	} else if ok {
		p.tsconfigEdit(path, data, mode, buildDir)
	}
	spath := filepath.Join(serverBefore, "tsconfig.json")
	if sdata, _, ok, _ := readRegular(spath); ok && bytes.Contains(sdata, []byte("tsconfig.server.json")) {
		p.note("%s extends the generated tsconfig.server.json; layout A's root references cover server code: delete it (not done here)", p.rel(p.Paths.Map(spath)))
	}
}

func (p *Plan) tsconfigEdit(path string, data []byte, mode fs.FileMode, buildDir string) {
	start := jsonSkip(data, 0)
	members, ok := jsonItems(data, start)
	if !ok {
		p.note("tsconfig.json: not a JSON object this tool can read; left as it is")
		return
	}
	legacy := filepath.Join(buildDir, "tsconfig.json")
	isLegacy := func(s string) bool {
		if strings.HasPrefix(s, "/") || !strings.HasSuffix(s, "tsconfig.json") {
			return s == legacy
		}
		return filepath.Join(p.Root, filepath.FromSlash(s)) == legacy
	}
	var ext *jsonItem
	has := map[string]bool{}
	for i, it := range members {
		k := jsonKey(data, it)
		has[k] = true
		if k == "extends" {
			ext = &members[i]
		}
	}
	if ext == nil {
		return
	}
	// The extends value: one string, or an array of them (TypeScript 5).
	var elems []jsonItem
	which := -1
	value := ""
	if data[ext.valStart] == '[' {
		elems, ok = jsonItems(data, ext.valStart)
		if !ok {
			return
		}
		for i, el := range elems {
			if data[el.valStart] == '"' {
				if s := string(data[el.valStart+1 : el.valEnd-1]); isLegacy(s) {
					which, value = i, s
				}
			}
		}
	} else if data[ext.valStart] == '"' {
		if s := string(data[ext.valStart+1 : ext.valEnd-1]); isLegacy(s) {
			value = s
		}
	}
	if value == "" {
		return
	}
	if has["references"] || has["files"] {
		p.note("tsconfig.json extends %s but already has files or references; left as it is (the two are exclusive: remove the extends by hand)", value)
		return
	}
	dir := value[:len(value)-len("tsconfig.json")]
	// Indentation: the member's own, and one level more for the list.
	lineStart := bytes.LastIndexByte(data[:ext.start], '\n') + 1
	indent := string(data[lineStart:ext.start])
	inline := strings.TrimLeft(indent, " \t") != ""
	unit := indent
	if unit == "" || inline {
		unit = "  "
	}
	nl := "\n"
	if lineStart >= 2 && data[lineStart-2] == '\r' {
		nl = "\r\n"
	}
	var b strings.Builder
	b.WriteString(`"files": [],`)
	if inline {
		b.WriteString(` "references": [`)
		for i, n := range []string{"app", "server", "shared", "node"} {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{ "path": "` + dir + `tsconfig.` + n + `.json" }`)
		}
		b.WriteString("]")
	} else {
		b.WriteString(nl + indent + `"references": [`)
		for i, n := range []string{"app", "server", "shared", "node"} {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(nl + indent + unit + `{ "path": "` + dir + `tsconfig.` + n + `.json" }`)
		}
		b.WriteString(nl + indent + "]")
	}
	var edits []udiff.Edit
	if which < 0 || len(elems) == 1 {
		edits = []udiff.Edit{{Start: ext.start, End: ext.valEnd, New: b.String()}}
	} else {
		// Drop the legacy element with its comma; add the members after
		// the extends member.
		el := elems[which]
		if which < len(elems)-1 {
			edits = append(edits, udiff.Edit{Start: el.start, End: elems[which+1].start, New: ""})
		} else {
			edits = append(edits, udiff.Edit{Start: elems[which-1].end, End: el.end, New: ""})
		}
		sep := "," + nl + indent
		if inline {
			sep = ", "
		}
		edits = append(edits, udiff.Edit{Start: ext.valEnd, End: ext.valEnd, New: sep + b.String()})
	}
	p.addEdit(path, data, mode, edits, []string{"extends " + value + " -> files: [] and the four references of layout A"})
	if has["compilerOptions"] {
		p.note("tsconfig.json: compilerOptions kept, but a root tsconfig with references does not pass them to the generated projects; move them to typescript.tsConfig.compilerOptions in the config")
	}
	if has["include"] || has["exclude"] {
		p.note("tsconfig.json: include/exclude kept; layout A's generated projects set their own")
	}
}
