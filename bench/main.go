//go:build unix

// Command bench times whole runs of `fwmigrate check` against the floor
// (bench/floor: esbuild's Transform over the same config files, nothing
// else), on one config and on monorepos generated from the corpus:
//
//	go run ./bench                      # 100, 1,000 and 10,000 projects
//	go run ./bench -sizes 1000 -runs 11
//	go run ./bench -sizes= -app 5000,20000
//	                                    # the code rules on generated apps of 5,000
//	                                    # and 20,000 files: appgen.Files (today's
//	                                    # app) and appgen.Dense (as dense in what the
//	                                    # code rules look for as real pages)
//	go run ./bench -base /tmp/fw-old    # also time another fwmigrate binary
//
// Project i of a monorepo is corpus archive i mod 40 at apps/p<i>/, with its
// local layers and directory tree, so every size has the corpus's mix. The
// root is a git work tree with a .gitignore. Runs of fwmigrate and of the
// floor alternate, so that a change in the machine's load hits both; the
// figures are medians, and the ratios are taken within the same run. Peak
// memory is the largest "Maximum resident set size" /usr/bin/time -v
// reports over the runs (the process's own rusage where there is no
// /usr/bin/time). The machine and its load average are printed with the
// results.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"golang.org/x/tools/txtar"
)

func main() {
	sizes := flag.String("sizes", "100,1000,10000", "monorepo sizes in projects, comma-separated")
	runs := flag.Int("runs", 7, "timed runs of each program per monorepo")
	oneRuns := flag.Int("one-runs", 21, "timed runs of each program per single config")
	work := flag.String("dir", filepath.Join(os.TempDir(), "fwmigrate-bench"), "work directory (monorepos are kept there between runs)")
	app := flag.String("app", "", "also time check on generated apps of these many source files (comma-separated), appgen.Files and appgen.Dense, against the floor over every script of them, .vue script blocks included")
	base := flag.String("base", "", "another fwmigrate binary (an earlier build) to time alongside, interleaved")
	flag.Parse()
	if err := bench(*sizes, *runs, *oneRuns, *work, *app, *base); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func bench(sizeList string, runs, oneRuns int, work, apps, base string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	bin := filepath.Join(work, "bin")
	fw, floor := filepath.Join(bin, "fwmigrate"), filepath.Join(bin, "floor")
	for out, pkg := range map[string]string{fw: "./cmd/fwmigrate", floor: "./bench/floor"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir, cmd.Stderr = root, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build %s: %v", pkg, err)
		}
	}
	archives, err := loadCorpus(filepath.Join(root, "testdata", "corpus"))
	if err != nil {
		return err
	}
	fmt.Printf("machine: %s, %d CPUs, GOMAXPROCS %d, %s/%s, %s\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Printf("load average at start: %s\n\n", loadAvg())

	if base != "" {
		if base, err = filepath.Abs(base); err != nil {
			return err
		}
		fmt.Printf("base: %s, timed alongside\n\n", base)
	}
	for _, a := range strings.Split(apps, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return fmt.Errorf("bad app size %q", a)
		}
		for _, gen := range []string{"app", "dense"} {
			if err := benchApp(work, fw, floor, base, gen, n, runs); err != nil {
				return err
			}
		}
	}
	if sizeList == "" {
		return nil
	}

	// One config, whole process: each corpus archive's main config.
	one := filepath.Join(work, "one")
	if err := os.RemoveAll(one); err != nil {
		return err
	}
	var ratios, baseRatios []float64
	var fwAll, floorAll []time.Duration
	fmt.Printf("one config, whole process (%d runs each, medians):\n", oneRuns)
	fmt.Printf("  %-28s %10s %10s %6s%s\n", "config", "floor", "fwmigrate", "ratio", baseHead(base, "%10s %6s", "base", "ratio"))
	for _, a := range archives {
		dir := filepath.Join(one, a.name)
		if _, err := writeArchive(a.ar, dir); err != nil {
			return err
		}
		cfg := ""
		for _, f := range a.ar.Files {
			if !strings.Contains(f.Name, "/") && compat.IsConfigName(f.Name) {
				cfg = f.Name
				break
			}
		}
		t, err := timeAll(dir, oneRuns, []string{floor, cfg}, check(fw, cfg), check(base, cfg))
		if err != nil {
			return fmt.Errorf("%s: %v", a.name, err)
		}
		fm, wm := median(t[0].wall), median(t[1].wall)
		floorAll, fwAll = append(floorAll, fm), append(fwAll, wm)
		ratios = append(ratios, float64(wm)/float64(fm))
		fmt.Printf("  %-28s %10s %10s %6.2f", a.name, ms(fm), ms(wm), float64(wm)/float64(fm))
		if base != "" {
			bm := median(t[2].wall)
			baseRatios = append(baseRatios, float64(bm)/float64(fm))
			fmt.Printf(" %10s %6.2f", ms(bm), float64(bm)/float64(fm))
		}
		fmt.Println()
	}
	sort.Float64s(ratios)
	fmt.Printf("  median over the corpus: floor %s, fwmigrate %s; ratio median %.2f, best %.2f, worst %.2f",
		ms(median(floorAll)), ms(median(fwAll)), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
	if base != "" {
		sort.Float64s(baseRatios)
		fmt.Printf("; base's ratio median %.2f", baseRatios[len(baseRatios)/2])
	}
	fmt.Print("\n\n")

	// Monorepos.
	fmt.Printf("monorepos (%d runs each, medians; CPU is user+sys; peak RSS is the largest over the runs):\n", runs)
	fmt.Printf("  %8s %8s %10s %10s %6s %10s %10s %12s %10s%s\n", "projects", "configs", "floor", "fwmigrate", "ratio", "floor CPU", "fw CPU", "fw per 1000", "fw RSS",
		baseHead(base, "%10s %6s %10s %10s", "base", "ratio", "base CPU", "base RSS"))
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("bad size %q", s)
		}
		dir := filepath.Join(work, fmt.Sprintf("mono%d", n))
		configs, err := monorepo(archives, n, dir)
		if err != nil {
			return err
		}
		list := dir + ".configs"
		if err := os.WriteFile(list, []byte(strings.Join(configs, "\n")+"\n"), 0o644); err != nil {
			return err
		}
		t, err := timeAll(dir, runs, []string{floor, "@" + list}, check(fw, "."), check(base, "."))
		if err != nil {
			return fmt.Errorf("%d projects: %v", n, err)
		}
		f, w := t[0], t[1]
		fm, wm := median(f.wall), median(w.wall)
		fmt.Printf("  %8d %8d %10s %10s %6.2f %10s %10s %12s %7d MB", n, len(configs), ms(fm), ms(wm), float64(wm)/float64(fm),
			ms(median(f.cpu)), ms(median(w.cpu)), ms(wm*1000/time.Duration(n)), w.maxRSS>>10)
		if base != "" {
			bt := t[2]
			bm := median(bt.wall)
			fmt.Printf(" %10s %6.2f %10s %7d MB", ms(bm), float64(bm)/float64(fm), ms(median(bt.cpu)), bt.maxRSS>>10)
		}
		fmt.Println()
	}
	fmt.Printf("\nload average at end: %s\n", loadAvg())
	return nil
}

// check is the command line of `fwmigrate check` on path, nil without a
// binary.
func check(bin, path string) []string {
	if bin == "" {
		return nil
	}
	return []string{bin, "check", "--format=concise", path}
}

// baseHead is the heading of the base's columns, "" without a base.
func baseHead(base, format string, names ...any) string {
	if base == "" {
		return ""
	}
	return " " + fmt.Sprintf(format, names...)
}

type timings struct {
	wall, cpu []time.Duration
	maxRSS    int64 // KB
}

// timeAll runs the commands (nil ones left out) one after the other, one
// warm-up each, then runs times each, in turn. fwmigrate's exit status 1
// (findings) is fine, and 2 when it says why (a corpus config on framework
// major 2: FW907), as long as no internal error is reported.
func timeAll(dir string, runs int, cmds ...[]string) ([]timings, error) {
	out := make([]timings, len(cmds))
	timeBin, _ := exec.LookPath("/usr/bin/time")
	for i := -1; i < runs; i++ {
		for k, args := range cmds {
			if args == nil {
				continue
			}
			wall, ps, rss, output, err := runOnce(dir, args, timeBin)
			if err := exitOK(err, output); err != nil {
				return nil, fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, tail(output))
			}
			if i >= 0 {
				record(&out[k], wall, ps, rss)
			}
		}
	}
	return out, nil
}

// runOnce runs args in dir, under /usr/bin/time -v when timeBin names it
// (its report goes to a file of its own, -o), and returns the wall time,
// the process state, the peak RSS /usr/bin/time reports (KB; -1 without
// it) and the program's output.
func runOnce(dir string, args []string, timeBin string) (time.Duration, *os.ProcessState, int64, string, error) {
	var report string
	if timeBin != "" {
		rep, err := os.CreateTemp("", "fwbench-time")
		if err != nil {
			return 0, nil, 0, "", err
		}
		rep.Close()
		defer os.Remove(rep.Name())
		report = rep.Name()
		args = append([]string{timeBin, "-v", "-o", report}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	var outb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &outb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	rss := int64(-1)
	if report != "" {
		b, _ := os.ReadFile(report)
		rss = maxRSSOf(string(b))
	}
	return wall, cmd.ProcessState, rss, outb.String(), err
}

// exitOK says whether a run's exit is one the bench takes.
func exitOK(err error, output string) error {
	if ee, ok := err.(*exec.ExitError); ok {
		switch {
		case strings.Contains(output, "FW999"):
			return fmt.Errorf("an internal error (FW999)")
		case ee.ExitCode() == 1, ee.ExitCode() == 2 && strings.Contains(output, "FW907"):
			return nil
		}
	}
	return err
}

// record adds one run's figures: its wall time, its CPU time (user and
// system, from the process state: /usr/bin/time's, which waits for the
// program, or the program's), and its peak RSS (rss, in KB, from
// /usr/bin/time -v; -1: the process's own).
func record(t *timings, wall time.Duration, ps *os.ProcessState, rss int64) {
	t.wall = append(t.wall, wall)
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		// /usr/bin/time's rusage includes its child's (the program):
		// RUSAGE_CHILDREN of time's own wait, the program's CPU and more
		// than the small time itself.
		t.cpu = append(t.cpu, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
		if rss < 0 {
			rss = int64(ru.Maxrss)
			if runtime.GOOS == "darwin" {
				rss >>= 10 // bytes there, kilobytes on Linux
			}
		}
	}
	if rss > t.maxRSS {
		t.maxRSS = rss
	}
}

// maxRSSOf reads the peak RSS, in KB, from /usr/bin/time -v's report.
func maxRSSOf(report string) int64 {
	for _, l := range strings.Split(report, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ":"); ok && k == "Maximum resident set size (kbytes)" {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

type archive struct {
	name string
	ar   *txtar.Archive
}

func loadCorpus(dir string) ([]archive, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no archives in %s", dir)
	}
	sort.Strings(files)
	var out []archive
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, archive{strings.TrimSuffix(filepath.Base(f), ".txtar"), ar})
	}
	return out, nil
}

// writeArchive writes an archive's tree under dir and returns the configs
// fwmigrate finds in it (not under hidden directories or node_modules),
// slash-separated, relative to dir.
func writeArchive(ar *txtar.Archive, dir string) ([]string, error) {
	var configs []string
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if filepath.Base(p) == ".keep" {
			continue
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, err
		}
		if compat.IsConfigName(filepath.Base(p)) && !strings.HasPrefix(f.Name, ".") && !strings.Contains(f.Name, "/.") && !strings.Contains(f.Name, "node_modules/") {
			configs = append(configs, f.Name)
		}
	}
	return configs, nil
}

// monorepo writes (or reuses) a monorepo of n projects at dir and returns
// its configs, relative to dir.
func monorepo(archives []archive, n int, dir string) ([]string, error) {
	done := filepath.Join(dir, ".git", "fwmigrate-bench-complete")
	fresh := false
	if _, err := os.Stat(done); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		fresh = true
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n.fw/\n.output/\n*.log\n"), 0o644); err != nil {
		return nil, err
	}
	var configs []string
	for i := 0; i < n; i++ {
		rel := fmt.Sprintf("apps/p%05d", i)
		a := archives[i%len(archives)]
		var cs []string
		var err error
		if fresh {
			cs, err = writeArchive(a.ar, filepath.Join(dir, filepath.FromSlash(rel)))
			if err != nil {
				return nil, err
			}
		} else {
			for _, f := range a.ar.Files {
				if compat.IsConfigName(filepath.Base(f.Name)) && !strings.HasPrefix(f.Name, ".") && !strings.Contains(f.Name, "/.") && !strings.Contains(f.Name, "node_modules/") {
					cs = append(cs, f.Name)
				}
			}
		}
		for _, c := range cs {
			configs = append(configs, rel+"/"+c)
		}
	}
	return configs, os.WriteFile(done, nil, 0o644)
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run from inside the fwmigrate module")
	}
	return filepath.Dir(mod), nil
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// benchApp times `fwmigrate check` on a generated app of n source files (a
// version-3 project in layout B, so that every code rule runs: gen "app",
// appgen.Files, about a third of whose files hold a word the code rules
// look for, or "dense", appgen.Dense, every file of which does, as real
// pages do) against the floor over the same files' scripts: the .ts files
// and the script blocks of the .vue files, each through esbuild's
// Transform once; and against base, when given. The app is kept in work
// between runs of the bench.
func benchApp(work, fw, floor, base, gen string, n, runs int) error {
	dir := filepath.Join(work, fmt.Sprintf("%s%d", gen, n))
	done := filepath.Join(dir, ".fwmigrate-bench-complete")
	var files map[string][]byte
	if gen == "dense" {
		files = appgen.Dense(n)
	} else {
		files = appgen.Files(n)
	}
	files["fw.config.ts"] = []byte("export default defineFwConfig({\n  ssr: true,\n})\n")
	files["package.json"] = []byte(`{"dependencies": {"fw": "^3.12.0"}}` + "\n")
	_, err := os.Stat(done)
	fresh := err != nil
	if fresh {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	var scripts []string
	size := 0
	for name, data := range files {
		if fresh {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return err
			}
		}
		if ext := filepath.Ext(name); ext == ".vue" || ext == ".ts" {
			scripts = append(scripts, name)
			size += len(data)
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		return err
	}
	sort.Strings(scripts)
	list := dir + ".scripts"
	if err := os.WriteFile(list, []byte(strings.Join(scripts, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s of %d source files (%.1f MB of scripts and .vue files), whole process (%d runs each, medians):\n", gen, len(scripts), float64(size)/(1<<20), runs)
	t, err := timeAll(dir, runs, []string{floor, "@" + list}, check(fw, "."), check(base, "."))
	if err != nil {
		return fmt.Errorf("%s: %v", gen, err)
	}
	f, w := t[0], t[1]
	fm, wm := median(f.wall), median(w.wall)
	fmt.Printf("  floor (esbuild over every script) %s, fwmigrate check %s: ratio %.2f; CPU %s vs %s; peak RSS %d MB vs %d MB\n",
		ms(fm), ms(wm), float64(wm)/float64(fm), ms(median(f.cpu)), ms(median(w.cpu)), f.maxRSS>>10, w.maxRSS>>10)
	if base != "" {
		bt := t[2]
		bm := median(bt.wall)
		fmt.Printf("  base %s: ratio %.2f; CPU %s; peak RSS %d MB\n", ms(bm), float64(bm)/float64(fm), ms(median(bt.cpu)), bt.maxRSS>>10)
	}
	fmt.Println()
	return nil
}
