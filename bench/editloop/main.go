//go:build unix

// Command editloop measures the edit-test loop: `go test -short ./...` right
// after an edit, the number issue 19 sets (at most 15 s on the 2-core
// machine after an edit in rules/ and after one in ast/).
//
//	go run ./bench/editloop                  # an edit in rules/ and one in ast/
//	go run ./bench/editloop -files ast/scan.go -runs 3
//
// The edit is one that a cache cannot answer: four lines inserted below the
// imports, a variable and an init function storing a number new at
// every run. The lines below move (positions change, so the package and
// everything compiled against it is built again) and the test binaries
// change (an init is never dropped by the linker, so go test cannot reuse a
// cached result). A comment appended at the end changes neither and
// measures nothing: the first figures of the loop were taken that way.
//
// Before each timed run the tree is tested once as it is, so that only the
// edit's consequences are timed. The file is restored after each run, and
// on an interrupt. Printed: wall time, CPU (user + system, go and every
// process it ran), the seconds go's actions took by kind (compile, vet,
// link, test run; summed over the two build slots, from go's own
// -debug-trace), the packages whose tests ran, and the load average.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	files := flag.String("files", "rules/check.go,ast/scan.go", "files to edit, one timed loop each (comma-separated, relative to the module root)")
	runs := flag.Int("runs", 1, "timed runs per file")
	args := flag.String("args", "-short", "flags of go test (space-separated)")
	flag.Parse()
	for _, f := range strings.Split(*files, ",") {
		for i := 0; i < *runs; i++ {
			if err := loop(f, strings.Fields(*args)); err != nil {
				fmt.Fprintln(os.Stderr, "editloop:", err)
				os.Exit(1)
			}
		}
	}
}

// loop times one edit of file.
func loop(file string, args []string) error {
	orig, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	// Below the imports (or the package clause when there are none).
	f, err := parser.ParseFile(token.NewFileSet(), file, orig, parser.ImportsOnly)
	if err != nil {
		return err
	}
	end := int(f.Name.End()) - 1
	if n := len(f.Decls); n > 0 {
		end = int(f.Decls[n-1].End()) - 1
	}
	warm := exec.Command("go", append(append([]string{"test"}, args...), "./...")...)
	warm.Run() // failures show in the timed run

	edited := fmt.Sprintf("%s\n\nvar editloopSink int\n\nfunc init() { editloopSink = %d }%s", orig[:end], time.Now().UnixNano(), orig[end:])
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		return err
	}
	restore := func() { os.WriteFile(file, orig, 0o644) }
	defer restore()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			restore()
			os.Exit(130)
		}
	}()

	trace, err := os.CreateTemp("", "editloop-trace-*.json")
	if err != nil {
		return err
	}
	trace.Close()
	defer os.Remove(trace.Name())
	cmd := exec.Command("go", append(append([]string{"test"}, args...), "-debug-trace="+trace.Name(), "./...")...)
	out := new(strings.Builder)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	runErr := cmd.Run()
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()

	var ran []string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "---") {
			if !strings.Contains(line, "(cached)") {
				ran = append(ran, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	kinds, err := actionSeconds(trace.Name())
	if err != nil {
		return err
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("edit in %s: %.1f s wall, %.1f s CPU (user+sys); load %s\n", file, wall.Seconds(), cpu.Seconds(), strings.Join(strings.Fields(string(load))[:3], " "))
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Printf("  %-9s %6.1f s (%d actions)\n", k, kinds[k].sec, kinds[k].n)
	}
	for _, r := range ran {
		fmt.Println("  ran:", r)
	}
	if runErr != nil {
		return fmt.Errorf("go test: %v\n%s", runErr, out)
	}
	return nil
}

type kind struct {
	sec float64
	n   int
}

// actionSeconds sums the durations of go's build actions in a
// -debug-trace file by kind: build (compile), vet, link, test run. Actions
// under 10 ms (cache hits) are not counted.
func actionSeconds(path string) (map[string]kind, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var events []struct {
		Name  string  `json:"name"`
		Phase string  `json:"ph"`
		TS    float64 `json:"ts"`
		TID   int     `json:"tid"`
	}
	if err := json.Unmarshal(data, &events); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	type key struct {
		tid  int
		name string
	}
	begun := map[key]float64{}
	out := map[string]kind{}
	for _, e := range events {
		name, ok := strings.CutPrefix(e.Name, "Executing action (")
		if !ok || strings.Contains(e.Name, "->") {
			continue
		}
		k := key{e.TID, e.Name}
		switch e.Phase {
		case "B":
			begun[k] = e.TS
		case "E":
			ts, ok := begun[k]
			if !ok {
				continue
			}
			delete(begun, k)
			sec := (e.TS - ts) / 1e6
			f := strings.Fields(name)
			what := f[0]
			if what == "test" && len(f) > 1 {
				what += " " + f[1]
			}
			if sec >= 0.01 {
				out[what] = kind{out[what].sec + sec, out[what].n + 1}
			}
		}
	}
	return out, nil
}
