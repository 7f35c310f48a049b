package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// bigFile writes FILE, a .vue template of SIZE bytes (txtar should not
// hold megabytes): bigfile FILE SIZE.
func bigFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigfile FILE SIZE")
	}
	n, err := strconv.Atoi(args[1])
	head, tail := "<template><p>", "</p></template>\n"
	if err != nil || n < len(head)+len(tail) {
		ts.Fatalf("bigfile: bad size %q", args[1])
	}
	path := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	ts.Check(os.WriteFile(path, []byte(head+strings.Repeat("x", n-len(head)-len(tail))+tail), 0o644))
}
