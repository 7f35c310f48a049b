package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// The CLI's behaviour end to end (exit codes, formats, discovery) is tested
// with testscript: each testdata/script/*.txtar is a script plus the files
// it works on, and `fwmigrate` in a script runs this binary's Main.
//
// FWMIGRATE_TEST_CRASH_AT=point:i makes `fwmigrate apply` in a script exit
// with status 77 at that point of its journaled write (writeHook), as a
// kill -9 would: what the next run finds is an interrupted apply.
//
// FWMIGRATE_TEST_PROGRESS_DELAY=d shows progress after d (0: at once)
// instead of the 300 ms that keep short runs quiet.
//
// The journals of projects outside git, and the run records, go to the
// user's state folder: a temporary one for the tests and for each script.
func TestMain(m *testing.M) {
	if at := os.Getenv("FWMIGRATE_TEST_CRASH_AT"); at != "" {
		point, idx, _ := strings.Cut(at, ":")
		n, _ := strconv.Atoi(idx)
		writeHook = func(p string, i int) {
			if p == point && i == n {
				os.Exit(77)
			}
		}
	}
	// FWMIGRATE_TEST_PROGRESS_DELAY=0 shows the progress of runs however
	// short (the pty tests and the scripts).
	if d, err := time.ParseDuration(os.Getenv("FWMIGRATE_TEST_PROGRESS_DELAY")); err == nil {
		progressDelay = d
	}
	tm := runner{m: m}
	if filepath.Base(os.Args[0]) != "fwmigrate" {
		// go test runs the tests (testscript runs this binary as
		// fwmigrate for the scripts' commands, whose arguments are no
		// test flags). A -short run makes its temporary files on a
		// tmpfs when there is one: see testtree.TmpfsWhenShort.
		flag.Parse()
		testtree.TmpfsWhenShort()
	}
	if os.Getenv("XDG_STATE_HOME") == "" {
		state, err := os.MkdirTemp("", "fwmigrate-state")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Setenv("XDG_STATE_HOME", state)
		tm.remove = state
	}
	testscript.Main(tm, map[string]func(){
		"fwmigrate": func() { os.Exit(Main()) },
	})
}

// runner runs the tests (testtree.Run), then removes the folder remove if
// there is one (testscript.Main exits the process: no deferred call would
// run).
type runner struct {
	m      *testing.M
	remove string
}

func (r runner) Run() int {
	code := testtree.Run(r.m)
	if r.remove != "" {
		os.RemoveAll(r.remove)
	}
	return code
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			// The state folder lies outside $WORK: nothing of it is in
			// the project's tree.
			state, err := os.MkdirTemp("", "fwmigrate-script-state")
			if err != nil {
				return err
			}
			env.Defer(func() { os.RemoveAll(state) })
			env.Setenv("XDG_STATE_HOME", state)
			env.Setenv("STATE", state)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"hostilename": hostileName,
			"bigfile":     bigFile,
			"noraw":       noRaw,
		},
	})
}

// hostileName renames the folder SRC to NAME, a Go string literal (txtar
// cannot hold a file name with control bytes), and sets $HOSTILE to the new
// name: hostilename SRC "x\x1b[31m\n::error::y".
func hostileName(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hostilename SRC QUOTED-NAME")
	}
	name, err := strconv.Unquote(args[1])
	if err != nil {
		ts.Fatalf("hostilename: %v", err)
	}
	ts.Check(os.Rename(ts.MkAbs(args[0]), ts.MkAbs(name)))
	ts.Setenv("HOSTILE", name)
}

// ourCommand is a workflow command fwmigrate's github format writes: the
// only lines of any output that may start with "::".
var ourCommand = lazyregexp.New(`^::(error|warning|notice) file=[^:,]*(,(line|col|endLine|endColumn)=\d+)*,title=[^:,]*::`)

// noRaw fails when the file (stdout, stderr or a path) holds a byte a
// terminal or a log would obey: a control byte other than newline and
// tab, a C1 control, a bidi control or line separator, invalid UTF-8, a
// line that starts with "::" (after blanks, which the runner trims) that
// is not one of ours, or "##[". With -github, the lines that start with
// "::" must be ours.
func noRaw(ts *testscript.TestScript, neg bool, args []string) {
	github := len(args) > 0 && args[0] == "-github"
	if github {
		args = args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noraw [-github] stdout|stderr|FILE")
	}
	var data string
	switch args[0] {
	case "stdout":
		data = ts.ReadFile("stdout")
	case "stderr":
		data = ts.ReadFile("stderr")
	default:
		b, err := os.ReadFile(ts.MkAbs(filepath.FromSlash(args[0])))
		ts.Check(err)
		data = string(b)
	}
	if data == "" {
		ts.Fatalf("noraw: %s is empty", args[0])
	}
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for i, r := range line {
			bad := r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 ||
				r == utf8.RuneError && !strings.HasPrefix(line[i:], "\uFFFD")
			if bad {
				ts.Fatalf("noraw: %s line %d holds %U raw: %q", args[0], n, r, line)
			}
		}
		if strings.Contains(line, "##[") {
			ts.Fatalf("noraw: %s line %d holds a ##[ command: %q", args[0], n, line)
		}
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && !(github && ourCommand().MatchString(line)) {
			ts.Fatalf("noraw: %s line %d is a workflow command fwmigrate did not write: %q", args[0], n, line)
		}
	}
}
