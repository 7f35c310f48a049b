// Package tsoracle is a test harness: it runs the real TypeScript checkers
// (tsc and vue-tsc, installed from npm) on a fixture project with the
// context files the framework would generate for it (.fw/tsconfig.*.json
// and the auto-import declarations, written per major and compatibility
// version as typescript-contexts.md describes them), and returns what they
// report as (code, file, line) tuples. Tests compare those with the
// predictions of the types rules.
//
// The checkers are an independent oracle, never a runtime dependency:
// Setup skips the test under -short, and where node or npm is missing or
// the registry cannot be reached (set FWMIGRATE_TSORACLE=require to fail
// instead of skipping, e.g. in a CI that must run it).
//
// The generated files are written from this package's own transcription of
// the spec (generate.go), not from the model in compat/ and project/ that
// the rules use, so that the comparison checks the model.
package tsoracle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Pinned versions: those the field runs of issue 23 used (TypeScript
// 6.0.3, vue-tsc 3.3.14), and a Vue for vue-tsc's .vue files.
const (
	TypeScriptVersion = "6.0.3"
	VueTSCVersion     = "3.3.14"
	VueVersion        = "3.5.22"
)

// Tools are the installed checkers.
type Tools struct {
	Dir    string // the install folder; its node_modules holds the packages
	Node   string // the node binary
	TSC    string // typescript/bin/tsc
	VueTSC string // vue-tsc/bin/vue-tsc.js
}

var (
	once     sync.Once
	shared   *Tools
	setupErr error
)

// Setup returns the installed checkers, installing them on first use (one
// install per test process; the folder is also reused by later processes
// while its versions match). It skips t under -short and where node or npm
// is missing or the install fails, with the reason.
func Setup(t testing.TB) *Tools {
	t.Helper()
	if testing.Short() {
		t.Skip("tsoracle: the TypeScript oracle installs typescript and vue-tsc from npm; skipped under -short")
	}
	once.Do(func() { shared, setupErr = install() })
	if setupErr != nil {
		if os.Getenv("FWMIGRATE_TSORACLE") == "require" {
			t.Fatalf("tsoracle: %v", setupErr)
		}
		t.Skipf("tsoracle: %v", setupErr)
	}
	return shared
}

// Install installs the checkers (or finds them installed) without a test;
// for the command-line comparison under tools/.
func Install() (*Tools, error) {
	once.Do(func() { shared, setupErr = install() })
	return shared, setupErr
}

func install() (*Tools, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node is not installed: the TypeScript oracle needs node and npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, errors.New("npm is not installed: the TypeScript oracle needs node and npm")
	}
	pkgs := []string{"typescript@" + TypeScriptVersion, "vue-tsc@" + VueTSCVersion, "vue@" + VueVersion}
	sum := sha256.Sum256([]byte(strings.Join(pkgs, " ")))
	base := os.Getenv("FWMIGRATE_TSORACLE_CACHE")
	if base == "" {
		if base, err = os.UserCacheDir(); err != nil {
			base = os.TempDir()
		}
		base = filepath.Join(base, "fwmigrate-tsoracle")
	}
	dir := filepath.Join(base, hex.EncodeToString(sum[:6]))
	tools := &Tools{
		Dir:    dir,
		Node:   node,
		TSC:    filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"),
		VueTSC: filepath.Join(dir, "node_modules", "vue-tsc", "bin", "vue-tsc.js"),
	}
	done := filepath.Join(dir, "installed")
	if _, err := os.Stat(done); err == nil {
		return tools, nil
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, err
	}
	// Install into a fresh folder and rename it into place, so that a
	// concurrent process never sees half an install.
	tmp, err := os.MkdirTemp(base, "install-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"}, pkgs...)
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("npm install %s failed (offline?): %v\n%s", strings.Join(pkgs, " "), err, tail(out, 2000))
	}
	if err := os.WriteFile(filepath.Join(tmp, "installed"), []byte(strings.Join(pkgs, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(done); serr != nil {
			return nil, fmt.Errorf("installing into %s: %v", dir, err)
		} // another process won the race: use its install
	}
	return tools, nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// Checker names the program a run uses.
type Checker string

const (
	TSC    Checker = "tsc"
	VueTSC Checker = "vue-tsc"
)

// Diagnostic is one error the checker reported.
type Diagnostic struct {
	Code    string // "TS2339"
	File    string // slash path relative to the project, "" for a global one
	Line    int    // 1-based; 0 when the checker gave no position
	Message string
}

func (d Diagnostic) String() string {
	if d.File == "" {
		return d.Code
	}
	return fmt.Sprintf("%s %s:%d", d.Code, d.File, d.Line)
}

// Result is one run of a checker.
type Result struct {
	Args   []string
	Exit   int
	Diags  []Diagnostic
	Output string // the checker's whole output
}

// Codes counts the diagnostics per code.
func (r *Result) Codes() map[string]int {
	m := map[string]int{}
	for _, d := range r.Diags {
		m[d.Code]++
	}
	return m
}

// Run runs checker in dir with args (e.g. "-b", "--noEmit") and returns its
// diagnostics, sorted by file, line and code. `--pretty false` is added.
// A checker that runs and reports errors is a result, not an error; err is
// for a checker that could not run.
func (tl *Tools) Run(dir string, checker Checker, args ...string) (*Result, error) {
	bin := tl.TSC
	if checker == VueTSC {
		bin = tl.VueTSC
	}
	full := append([]string{bin}, args...)
	full = append(full, "--pretty", "false")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tl.Node, full...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	res := &Result{Args: args, Output: out.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.Exit = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("%s %s: %v", checker, strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s %s: timed out", checker, strings.Join(args, " "))
	}
	res.Diags = Parse(dir, out.String())
	if res.Exit != 0 && len(res.Diags) == 0 {
		return res, fmt.Errorf("%s %s exited %d with no diagnostic:\n%s", checker, strings.Join(args, " "), res.Exit, tail(out.Bytes(), 2000))
	}
	return res, nil
}

var (
	located = regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$`)
	global  = regexp.MustCompile(`^error (TS\d+): (.*)$`)
	// builtFrom is TS6305's message: "Output file '…' has not been built
	// from source file '…'."
	builtFrom = regexp.MustCompile(`from source file '([^']+)'`)
)

// Parse reads the diagnostics of `--pretty false` output; file paths are
// made relative to dir.
func Parse(dir string, out string) []Diagnostic {
	var ds []Diagnostic
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := located.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			ds = append(ds, Diagnostic{Code: m[4], File: relTo(dir, m[1]), Line: n, Message: m[5]})
		} else if m := global.FindStringSubmatch(line); m != nil {
			d := Diagnostic{Code: m[1], Message: m[2]}
			// TS6305 names no position: its file is the source file
			// that the root's own inputs share with a reference.
			if s := builtFrom.FindStringSubmatch(m[2]); m[1] == "TS6305" && s != nil {
				d.File = relTo(dir, s[1])
			}
			ds = append(ds, d)
		} else if len(ds) > 0 && strings.HasPrefix(line, "  ") {
			ds[len(ds)-1].Message += "\n" + line // a chained message
		}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Code < b.Code
	})
	return ds
}

func relTo(dir, p string) string {
	if filepath.IsAbs(p) {
		if r, err := filepath.Rel(dir, p); err == nil {
			p = r
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}
