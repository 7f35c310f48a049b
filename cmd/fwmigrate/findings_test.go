package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestSpill checks the corpus as one monorepo, each archive a project, with
// the findings held in memory, written out after every project (spillAt 1)
// and with no temporary folder to write them to: every format prints the
// same bytes each way, in the order of rules.SortDiagnostics over all
// projects' findings.
func TestSpill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	corpus := "../../testdata/corpus/*.txtar"
	argvs := [][]string{{"--format=text"}, {"--format=json"}, {"--format=sarif"}, {"--format=github"}, {"--format=markdown"}, {"--statistics"}}
	if testing.Short() {
		corpus = "../../testdata/corpus/00*.txtar" // nine projects
		argvs = argvs[:1]
	}
	testtree.Corpus(t, dir, corpus)
	old := spillAt
	defer func() { spillAt = old }()
	for _, argv := range argvs {
		var want string
		for i, way := range []string{"memory", "spilled", "no temporary folder"} {
			spillAt = old
			if i > 0 {
				spillAt = 1
			}
			if i == 2 {
				t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
			}
			out, _ := checkTree(t, dir, argv...)
			if i == 0 {
				want = out
			} else if out != want {
				t.Fatalf("%v: %s differs from memory:\n%s", argv, way, firstDiff(want, out))
			}
		}
	}

	// The order is the one sorting every project's findings together gave:
	// by file, line, column, code and message, projects in the order of
	// their configs.
	spillAt = 1
	s := &findings{}
	var all []*rules.Diagnostic
	for i := 0; i < 40; i++ {
		var diags []*rules.Diagnostic
		for j := 0; j < 30; j++ {
			// Files shared between projects, lines and columns that tie.
			diags = append(diags, &rules.Diagnostic{Code: fmt.Sprintf("FW%d", 600+j%3), File: fmt.Sprintf("f%d.ts", (i*7+j)%5), Line: j % 4, Column: (i + j) % 3, Message: fmt.Sprintf("m%d from p%02d #%d", j%2, i, j)})
		}
		s.add(fmt.Sprintf("p%02d", i), diags, nil, false)
	}
	for i := 0; i < 40; i++ { // what the projects' sorted concatenation gives
		for j := 0; j < 30; j++ {
			all = append(all, &rules.Diagnostic{Code: fmt.Sprintf("FW%d", 600+j%3), File: fmt.Sprintf("f%d.ts", (i*7+j)%5), Line: j % 4, Column: (i + j) % 3, Message: fmt.Sprintf("m%d from p%02d #%d", j%2, i, j)})
		}
	}
	rules.SortDiagnostics(all)
	got := s.list()
	s.close()
	if s.err != nil || len(got) != len(all) {
		t.Fatalf("%d findings back (err %v), want %d", len(got), s.err, len(all))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], all[i]) {
			t.Fatalf("finding %d: got %+v, want %+v", i, got[i], all[i])
		}
	}
}

// TestTake: findings taken back (a project checked again) are not printed,
// whether they were spilled or not.
func TestTake(t *testing.T) {
	for _, at := range []int{spillAt, 1} {
		old := spillAt
		spillAt = at
		s := &findings{}
		a := s.add("a", []*rules.Diagnostic{{Code: "FW1", File: "x"}}, nil, false)
		s.add("b", []*rules.Diagnostic{{Code: "FW2", File: "x"}}, nil, false)
		s.take(a)
		s.add("a", []*rules.Diagnostic{{Code: "FW3", File: "x"}}, nil, false)
		var codes []string
		for d := range s.all {
			codes = append(codes, d.Code)
		}
		s.close()
		spillAt = old
		if !slices.Equal(codes, []string{"FW2", "FW3"}) {
			t.Errorf("spillAt %d: %v, want [FW2 FW3]", at, codes)
		}
	}
}

// TestRecordFields: a finding comes back from its encoding with every field
// a report prints. It fails when Diagnostic or Fix gains a field: encode it
// (encoder.record, decoder.record) or say here why a report needs it not.
func TestRecordFields(t *testing.T) {
	kept := []string{"Code", "Name", "Category", "Severity", "File", "Span", "Line", "Column", "EndLine", "EndColumn", "ColumnUTF16", "EndColumnUTF16", "Option", "Path", "Message", "Notes", "Fix", "Withheld"}
	left := []string{"Held"} // apply's: check prints nothing of a held fix
	var fields []string
	for f := range reflect.TypeFor[rules.Diagnostic]().Fields() {
		fields = append(fields, f.Name)
	}
	if want := append(slices.Clone(kept), left...); !slices.Equal(fields, want) {
		t.Fatalf("Diagnostic's fields are %v; the encoding knows %v", fields, want)
	}
	var fixFields []string
	for f := range reflect.TypeFor[rules.Fix]().Fields() {
		fixFields = append(fixFields, f.Name)
	}
	// File, Ops and ConfigOps are the edits, which no format of check prints.
	if want := []string{"Description", "Applicability", "File", "Ops", "ConfigOps", "Layout", "Also"}; !slices.Equal(fixFields, want) {
		t.Fatalf("Fix's fields are %v; the encoding knows %v", fixFields, want)
	}

	d := &rules.Diagnostic{
		Code: "FW603", Name: "shallow-data-mutation", Category: "code", Severity: rules.Error,
		File: "app/pages/a b.vue", Span: ast.Span{Start: 10, End: 20}, Line: 3, Column: 4, EndLine: 5, EndColumn: 6,
		ColumnUTF16: 7, EndColumnUTF16: 8, Option: "a.b", Path: "pages/a b.vue", Message: "m\x1b", Notes: []string{"n1", ""},
		Fix:      &rules.Fix{Description: "d", Applicability: rules.Unsafe, File: "f", Layout: rules.MoveOnly, Also: []string{"x"}},
		Withheld: "w", Held: &rules.Fix{Description: "held"},
	}
	for _, frame := range []frameSource{{}, {line: []byte("  const a = 1"), length: 5, ok: true}, {line: nil, length: 0, ok: true}} {
		var e encoder
		e.record(&record{d: d, frame: frame, display: "p/fw.config.ts", id: 7, idx: 3})
		var r record
		dec := decoder{r: bytesReader(e.b)}
		ok, err := dec.record(&r)
		if !ok || err != nil {
			t.Fatalf("decode: %v %v", ok, err)
		}
		want := *d
		want.Held = nil
		want.Fix = &rules.Fix{Description: "d", Applicability: rules.Unsafe, Layout: rules.MoveOnly, Also: []string{"x"}}
		if !reflect.DeepEqual(*r.d, want) {
			t.Errorf("decoded %+v\nwant    %+v", *r.d, want)
		}
		if r.display != "p/fw.config.ts" || r.id != 7 || r.idx != 3 || r.frame.ok != frame.ok || r.frame.length != frame.length || string(r.frame.line) != string(frame.line) {
			t.Errorf("decoded %+v, want %+v", r, frame)
		}
		if ok, err := dec.record(&r); ok || err != nil {
			t.Errorf("after the last record: %v %v", ok, err)
		}
		// A run cut short is an error, not a shorter report.
		for n := 1; n < len(e.b); n++ {
			dec := decoder{r: bytesReader(e.b[:n])}
			if ok, err := dec.record(&r); ok || err == nil {
				t.Fatalf("cut at %d of %d: %v %v", n, len(e.b), ok, err)
			}
		}
	}
}

// TestSpillReadError: a spill file that cannot be read back fails the
// report with an error naming it, not a shorter report.
func TestSpillReadError(t *testing.T) {
	old := spillAt
	spillAt = 1
	defer func() { spillAt = old }()
	s := &findings{}
	s.add("a", []*rules.Diagnostic{{Code: "FW1", File: "x", Message: "a long enough message"}}, nil, false)
	if s.file == nil {
		t.Skip("no temporary folder to spill to")
	}
	f, ok := s.file.(*os.File)
	if !ok {
		f = s.file.(*removeOnClose).File
	}
	if err := f.Truncate(3); err != nil {
		t.Fatal(err)
	}
	if n := len(s.list()); n != 0 || s.err == nil {
		t.Fatalf("%d findings, err %v; want an error", n, s.err)
	}
	s.close()
}

func bytesReader(b []byte) byteReader { return bytes.NewReader(b) }

// firstDiff shows where two outputs part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("at byte %d:\nwant …%q\ngot  …%q", i, a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}

// TestJSONList: a list written element by element gives encodeJSON's bytes
// for the whole document, at the top and nested (SARIF's results), empty
// or not, whatever the strings hold.
func TestJSONList(t *testing.T) {
	hostile := []string{"plain", "<a href=\"x\">&amp;</a>", "##[warning]forged", "bidi \u202e txt", "nl\nand\x1b[2J esc", "ümlaut \u2028"}
	for n := 0; n <= len(hostile); n++ {
		var diags []jsonDiagnostic
		var results []sarifResult
		for _, h := range hostile[:n] {
			diags = append(diags, jsonDiagnostic{Code: "FW1", Message: h, Notes: []string{h, ""}, Fix: &jsonFix{Description: h}})
			results = append(results, sarifResult{RuleID: "FW1", Message: sarifMessage{Text: h}, Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifactLoc{URI: h}}}}})
		}
		type doc struct {
			Version     int              `json:"version"`
			Diagnostics []jsonDiagnostic `json:"diagnostics"`
			Summary     summary          `json:"summary"`
		}
		check := func(name string, whole, empty any, key string, elems []any) {
			var want, got bytes.Buffer
			if err := encodeJSON(&want, whole); err != nil {
				t.Fatal(err)
			}
			err := encodeJSONList(&got, empty, key, func(emit func(any) error) error {
				for _, e := range elems {
					if err := emit(e); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s with %d elements:\n%s", name, n, firstDiff(want.String(), got.String()))
			}
		}
		var elems []any
		for _, d := range diags {
			elems = append(elems, d)
		}
		all := append([]jsonDiagnostic{}, diags...)
		check("json", doc{1, all, summary{Files: 1}}, doc{1, []jsonDiagnostic{}, summary{Files: 1}}, "diagnostics", elems)
		elems = nil
		for _, r := range results {
			elems = append(elems, r)
		}
		run := func(rs []sarifResult) sarifLog {
			return sarifLog{Version: "2.1.0", Runs: []sarifRun{{ColumnKind: "utf16CodeUnits", Results: rs, OriginalURIBaseIDs: map[string]sarifArtifactLoc{"SRCROOT": {URI: "file:///x/"}}}}}
		}
		check("sarif", run(append([]sarifResult{}, results...)), run([]sarifResult{}), "results", elems)
	}
}
