package rewrite_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// TestEngine runs the cases of testdata/engine/*.txtar. Each archive holds
//
//	in.<ext>   the config before (the extension picks JS or TS)
//	ops        one op per line (see parseOps); a line "--" ends a group
//	out.<ext>  the expected result (golden)
//	skipped    the expected skips, one per line (golden)
//
// The archive's comment may hold flags that transform the input and the
// expected output alike, so that fixtures stay readable: "crlf" (line
// endings become CRLF), "bom" (a byte order mark is prepended),
// "nofinalnewline" (the final newline is dropped).
//
// Every case also checks that Verify accepts the result and that applying
// the same ops to the result changes nothing. Refresh goldens with
//
//	go test ./rewrite -run TestEngine -update
func TestEngine(t *testing.T) {
	files, err := filepath.Glob("testdata/engine/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/engine")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runEngineCase(t, file)
		})
	}
}

func runEngineCase(t *testing.T, file string) {
	ar := golden.Open(t, file)
	flags := strings.Fields(string(ar.Comment))
	has := func(f string) bool {
		for _, x := range flags {
			if x == f {
				return true
			}
		}
		return false
	}
	transform := func(b []byte) []byte {
		if has("crlf") {
			b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
		}
		if has("nofinalnewline") {
			b = bytes.TrimSuffix(b, []byte("\n"))
			b = bytes.TrimSuffix(b, []byte("\r"))
		}
		if has("bom") {
			b = append([]byte("\uFEFF"), b...)
		}
		return b
	}
	untransform := func(b []byte) []byte {
		b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		if has("nofinalnewline") {
			b = append(b, '\n')
		}
		return b
	}
	sections := map[string]int{}
	var inName string
	for i, f := range ar.Files {
		sections[f.Name] = i
		if strings.HasPrefix(f.Name, "in.") {
			inName = f.Name
		}
	}
	if inName == "" {
		t.Fatalf("%s: no in.<ext> section", file)
	}
	ext := strings.TrimPrefix(inName, "in.")
	name := "fw.config." + ext
	src := transform(ar.Files[sections[inName]].Data)
	oi, ok := sections["ops"]
	if !ok {
		t.Fatalf("%s: no ops section", file)
	}
	groups, err := parseOps(string(ar.Files[oi].Data))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	f, err := ast.Parse(name, src)
	if err != nil {
		t.Fatalf("%s: input does not parse: %v", file, err)
	}
	res, err := rewrite.ApplyGroups(f, groups)
	if err != nil {
		t.Fatalf("%s: Apply: %v", file, err)
	}
	if err := rewrite.Verify(name, f, res.Src, res.Applied); err != nil {
		t.Errorf("%s: Verify: %v\n%s", file, err, res.Src)
	}
	if has("crlf") && bytes.Count(res.Src, []byte("\n")) != bytes.Count(res.Src, []byte("\r\n")) {
		t.Errorf("%s: a line ending is not CRLF:\n%q", file, res.Src)
	}
	if has("bom") != bytes.HasPrefix(res.Src, []byte("\uFEFF")) {
		t.Errorf("%s: the BOM was not kept", file)
	}
	if has("nofinalnewline") && bytes.HasSuffix(res.Src, []byte("\n")) {
		t.Errorf("%s: a final newline appeared", file)
	}
	var skipped strings.Builder
	for _, s := range res.Skipped {
		fmt.Fprintf(&skipped, "%d %s %s: %s\n", s.Group, s.Op.Kind, describeOp(s.Op), s.Reason)
	}
	ar.Check(t, func(name string) bool { return name == "out."+ext || name == "skipped" },
		map[string][]byte{"out." + ext: untransform(res.Src), "skipped": []byte(skipped.String())})

	// A second run of the same ops changes nothing (replace spans refer
	// to the original text: they cannot be run again).
	for _, g := range groups {
		for _, op := range g {
			if op.Kind == rewrite.OpReplace {
				return
			}
		}
	}
	f2, err := ast.Parse(name, res.Src)
	if err != nil {
		t.Fatalf("%s: the result does not parse: %v", file, err)
	}
	res2, err := rewrite.ApplyGroups(f2, groups)
	if err != nil {
		t.Fatalf("%s: second Apply: %v", file, err)
	}
	if !bytes.Equal(res2.Src, res.Src) {
		t.Errorf("%s: a second run changed the result again:\n%s", file, res2.Src)
	}
}

// parseOps reads ops, one per line:
//
//	set PATH JSON
//	delete PATH
//	move PATH TO
//	rename PATH TO
//	replace START END JSON-STRING
//
// PATH is an ast.ParsePath path without spaces. A line "--" ends a group;
// without one every op is its own group.
func parseOps(text string) ([][]rewrite.Op, error) {
	var groups [][]rewrite.Op
	var cur []rewrite.Op
	grouped := strings.Contains(text, "\n--\n") || strings.HasPrefix(text, "--\n")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line == "--" {
			groups = append(groups, cur)
			cur = nil
			continue
		}
		f := strings.SplitN(line, " ", 3)
		var op rewrite.Op
		switch f[0] {
		case "set":
			if len(f) != 3 {
				return nil, fmt.Errorf("set needs a path and a value: %q", line)
			}
			v, err := decodeOrdered(f[2])
			if err != nil {
				return nil, fmt.Errorf("%q: %v", line, err)
			}
			op = rewrite.Op{Kind: rewrite.OpSet, Path: ast.ParsePath(f[1]), Value: v}
		case "delete":
			op = rewrite.Op{Kind: rewrite.OpDelete, Path: ast.ParsePath(f[1])}
		case "move", "rename":
			if len(f) != 3 {
				return nil, fmt.Errorf("%s needs two paths: %q", f[0], line)
			}
			op = rewrite.Op{Kind: rewrite.OpMove, Path: ast.ParsePath(f[1]), To: ast.ParsePath(f[2])}
			if f[0] == "rename" {
				op.Kind = rewrite.OpRename
			}
		case "replace":
			g := strings.SplitN(line, " ", 4)
			if len(g) != 4 {
				return nil, fmt.Errorf("replace needs START END TEXT: %q", line)
			}
			a, err1 := strconv.Atoi(g[1])
			b, err2 := strconv.Atoi(g[2])
			var s string
			err3 := json.Unmarshal([]byte(g[3]), &s)
			if err1 != nil || err2 != nil || err3 != nil {
				return nil, fmt.Errorf("bad replace %q", line)
			}
			op = rewrite.Op{Kind: rewrite.OpReplace, Span: ast.Span{Start: a, End: b}, Text: s}
		default:
			return nil, fmt.Errorf("unknown op %q", line)
		}
		if grouped {
			cur = append(cur, op)
		} else {
			groups = append(groups, []rewrite.Op{op})
		}
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	return groups, nil
}

// decodeOrdered decodes JSON keeping the order of object keys (as Object).
func decodeOrdered(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			obj := rewrite.Object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, rewrite.KV{k.(string), v})
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	case json.Number:
		return tok.Float64()
	}
	return tok, nil
}
