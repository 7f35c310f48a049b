package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestApplyFixtures runs the cases of testdata/apply/*.txtar. A case is
//
//	in/...      the project tree before
//	out/...     the files that apply changes, as they must be after (golden)
//	stdout      what apply prints on stdout (golden)
//	stderr      what it prints on stderr, when anything (golden)
//
// The archive's comment holds lines "args: ..." (the command line, default
// "apply --to=4 .") and "exit: N" (default 0), and the flags "crlf", "bom"
// and "nofinalnewline", which turn the config files of in/ and out/ into
// CRLF files, files with a byte order mark or without a final newline, so
// that the fixtures stay readable.
//
// Every case is also run
//   - twice: the second run changes nothing and fixes nothing;
//   - with --dry-run on a copy, whose diff `git apply` turns into the same
//     tree as the real run;
//   - followed by `check`: every fixable diagnostic left is one apply
//     reported as not fixed, or an unsafe fix without --unsafe.
//
// With -short, every case is checked against its goldens, and one case in
// three (a fixed subset, spread over the alphabetical list) is also run
// the three other ways.
//
// Refresh the goldens with go test ./cmd/fwmigrate -run TestApplyFixtures -update.
func TestApplyFixtures(t *testing.T) {
	files, err := filepath.Glob("../../testdata/apply/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for i, file := range files {
		file, _ := filepath.Abs(file) // the runs change directory
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runApplyFixture(t, file, !testing.Short() || i%3 == 0)
		})
	}
}

type applyCase struct {
	ar        *golden.Archive
	args      []string
	exit      int
	crlf, bom bool
	noEOL     bool
}

func parseApplyCase(t *testing.T, file string) *applyCase {
	ar := golden.Open(t, file)
	ar.Order = golden.ByRank(applyGoldenRank)
	var err error
	c := &applyCase{ar: ar, args: []string{"apply", "--to=4", "."}}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "args:"):
			c.args = strings.Fields(strings.TrimPrefix(line, "args:"))
		case strings.HasPrefix(line, "exit:"):
			c.exit, err = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "exit:")))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		case line == "crlf":
			c.crlf = true
		case line == "bom":
			c.bom = true
		case line == "nofinalnewline":
			c.noEOL = true
		}
	}
	return c
}

func (c *applyCase) isConfig(name string) bool {
	return strings.HasPrefix(filepath.Base(name), "fw.config.")
}

// encode turns fixture text into the bytes on disk (CRLF, BOM).
func (c *applyCase) encode(name string, b []byte) []byte {
	if !c.isConfig(name) {
		return b
	}
	if c.crlf {
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	if c.noEOL {
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
	}
	if c.bom {
		b = append([]byte("\uFEFF"), b...)
	}
	return b
}

func (c *applyCase) decode(name string, b []byte) []byte {
	if !c.isConfig(name) {
		return b
	}
	if c.bom {
		if !bytes.HasPrefix(b, []byte("\uFEFF")) {
			return append([]byte("<BOM LOST>"), b...)
		}
		b = b[3:]
	}
	if c.crlf {
		if n := bytes.Count(b, []byte("\n")); n != bytes.Count(b, []byte("\r\n")) {
			return append([]byte("<LF IN A CRLF FILE>"), b...)
		}
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	}
	if c.noEOL {
		if bytes.HasSuffix(b, []byte("\n")) {
			return append([]byte("<FINAL NEWLINE ADDED>"), b...)
		}
		b = append(b, '\n')
	}
	return b
}

// writeTree writes the in/ files of c under dir, encoded, and returns them
// as the fixture holds them.
func (c *applyCase) writeTree(t *testing.T, dir string) map[string][]byte {
	files := testtree.Under(c.ar.Archive, "in/")
	in := map[string][]byte{}
	for i, f := range files {
		in[f.Name] = f.Data
		files[i].Data = c.encode(f.Name, f.Data)
	}
	written := testtree.Files(t, dir, files)
	for name := range in {
		if _, ok := written[name]; !ok {
			delete(in, name) // a directory
		}
	}
	return in
}

// readTree reads every file under dir, decoded.
func (c *applyCase) readTree(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".git/") {
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = c.decode(rel, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func runIn(t *testing.T, dir string, args []string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// journalKey is the key of a journal in its path.
var journalKey = lazyregexp.New(`journals/[0-9a-f]{32}\.`)

// runApplyFixture runs the case of file and compares it with its goldens;
// with again, it also runs it the three other ways (a second run, check
// after apply, the dry run's diff through git apply).
func runApplyFixture(t *testing.T, file string, again bool) {
	c := parseApplyCase(t, file)
	dir := t.TempDir()
	in := c.writeTree(t, dir)
	// The journal lives in the state folder, under a key that is a hash
	// of the (temporary) project's path: the report names it as $STATE
	// and <key>.
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	stdout, stderr, code := runIn(t, dir, c.args)
	stdout = journalKey().ReplaceAllString(strings.ReplaceAll(stdout, state, "$STATE"), "journals/<key>.")
	if code != c.exit {
		t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.exit, stdout, stderr)
	}
	after := c.readTree(t, dir)

	// The goldens: out/ holds the files that changed.
	got := map[string][]byte{"stdout": []byte(stdout)}
	if stderr != "" {
		got["stderr"] = []byte(stderr)
	}
	for name, b := range after {
		if old, ok := in[name]; !ok || !bytes.Equal(old, b) {
			got["out/"+name] = b
		}
	}
	for name := range in {
		if _, ok := after[name]; !ok {
			got["out/"+name] = []byte("<DELETED>\n")
		}
	}
	c.ar.Check(t, func(name string) bool { return applyGoldenRank(name) > 0 }, got)

	dryRun := contains(c.args, "--dry-run")
	if dryRun {
		for name, b := range after {
			if !bytes.Equal(in[name], b) {
				t.Errorf("--dry-run changed %s", name)
			}
		}
	}
	if !again {
		return
	}

	// A second run changes nothing and fixes nothing.
	if !dryRun && code != 2 {
		args := append(append([]string(nil), c.args...), "--format=json")
		out2, _, code2 := runIn(t, dir, args)
		var res struct {
			Summary jsonApplySummary `json:"summary"`
			Files   []jsonApplyFile  `json:"files"`
		}
		if err := json.Unmarshal([]byte(out2), &res); err != nil {
			t.Fatalf("second run: %v\n%s", err, out2)
		}
		if code2 != 0 || res.Summary.Fixed != 0 || res.Summary.Changed != 0 {
			t.Errorf("second run: exit %d, summary %+v\n%s", code2, res.Summary, out2)
		}
		if again := c.readTree(t, dir); !equalTrees(again, after) {
			t.Errorf("the second run changed the tree")
		}
		// check after apply: no fixable diagnostic but those apply could
		// not make (or unsafe ones without --unsafe).
		notFixed := map[string]bool{}
		for _, f := range res.Files {
			for _, n := range f.NotFixed {
				notFixed[n.Code+" "+n.Option] = true
			}
		}
		checkArgs := []string{"check", "--format=json"}
		for _, a := range c.args[1:] {
			if strings.HasPrefix(a, "--select") || strings.HasPrefix(a, "--ignore") || strings.HasPrefix(a, "--framework") || !strings.HasPrefix(a, "-") {
				checkArgs = append(checkArgs, a)
			}
		}
		out3, _, _ := runIn(t, dir, checkArgs)
		var chk struct{ Diagnostics []jsonDiagnostic }
		if err := json.Unmarshal([]byte(out3), &chk); err != nil {
			t.Fatalf("check: %v\n%s", err, out3)
		}
		for _, d := range chk.Diagnostics {
			if d.Fix == nil || notFixed[d.Code+" "+d.Option] || d.Fix.Applicability == "unsafe" && !contains(c.args, "--unsafe") {
				continue
			}
			t.Errorf("check after apply: %s %s is still fixable: %s", d.Code, d.Option, d.Message)
		}
	}

	// The dry run's diff, applied by git, gives the same tree.
	if git, err := exec.LookPath("git"); err == nil && !dryRun && code == 0 {
		dry := t.TempDir()
		c.writeTree(t, dry)
		args := append(append([]string(nil), c.args...), "--dry-run")
		before := c.readTree(t, dry)
		diff, _, dcode := runIn(t, dry, args)
		if contains(c.args, "--format=json") {
			var res struct{ Files []jsonApplyFile }
			if err := json.Unmarshal([]byte(diff), &res); err != nil {
				t.Fatal(err)
			}
			diff = ""
			for _, f := range res.Files {
				diff += f.Diff
			}
		}
		want := 0
		if !equalTrees(after, before) {
			want = 1
		}
		if dcode != want {
			t.Errorf("--dry-run exit status %d, want %d", dcode, want)
		}
		if diff != "" {
			patch := filepath.Join(t.TempDir(), "p.diff")
			os.WriteFile(patch, []byte(diff), 0o644)
			cmd := exec.Command(git, "apply", patch)
			cmd.Dir = dry
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s\n%s", err, out, diff)
			}
		}
		if !equalTrees(c.readTree(t, dry), after) {
			t.Errorf("git apply of the --dry-run diff does not give the applied tree:\n%s", diff)
		}
	}
}

func equalTrees(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(b[k], v) {
			return false
		}
	}
	return true
}

// applyGoldenRank orders a fixture's sections: the tree before and other
// inputs (0), then the goldens: out/, stdout, stderr.
func applyGoldenRank(name string) int {
	switch {
	case strings.HasPrefix(name, "out/"):
		return 1
	case name == "stdout":
		return 2
	case name == "stderr":
		return 3
	}
	return 0
}
