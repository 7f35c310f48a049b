//go:build unix

// Command bench times whole runs of `fwmigrate check` against the floor
// (bench/floor: esbuild's Transform over the same config files, nothing
// else), on one config and on monorepos generated from the corpus:
//
//	go run ./bench                      # 100, 1,000 and 10,000 projects
//	go run ./bench -sizes 1000 -runs 11
//	go run ./bench -sizes= -app 5000    # the code rules on an app of 5,000 files
//
// Project i of a monorepo is corpus archive i mod 40 at apps/p<i>/, with its
// local layers and directory tree, so every size has the corpus's mix. The
// root is a git work tree with a .gitignore. Runs of fwmigrate and of the
// floor alternate, so that a change in the machine's load hits both; the
// figures are medians, and the ratios are taken within the same run. Peak
// RSS is the largest of the runs (getrusage). The machine and its load
// average are printed with the results.
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
	app := flag.Int("app", 0, "also time check on a generated app of this many source files (internal/appgen) against the floor over every script of it, .vue script blocks included")
	flag.Parse()
	if err := bench(*sizes, *runs, *oneRuns, *work, *app); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func bench(sizeList string, runs, oneRuns int, work string, app int) error {
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

	if app > 0 {
		if err := benchApp(work, fw, floor, app, runs); err != nil {
			return err
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
	var ratios []float64
	var fwAll, floorAll []time.Duration
	fmt.Printf("one config, whole process (%d runs each, medians):\n", oneRuns)
	fmt.Printf("  %-28s %10s %10s %6s\n", "config", "floor", "fwmigrate", "ratio")
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
		f, w, err := timePair(dir, oneRuns, []string{floor, cfg}, []string{fw, "check", "--format=concise", cfg})
		if err != nil {
			return fmt.Errorf("%s: %v", a.name, err)
		}
		fm, wm := median(f.wall), median(w.wall)
		floorAll, fwAll = append(floorAll, fm), append(fwAll, wm)
		ratios = append(ratios, float64(wm)/float64(fm))
		fmt.Printf("  %-28s %10s %10s %6.2f\n", a.name, ms(fm), ms(wm), float64(wm)/float64(fm))
	}
	sort.Float64s(ratios)
	fmt.Printf("  median over the corpus: floor %s, fwmigrate %s; ratio median %.2f, best %.2f, worst %.2f\n\n",
		ms(median(floorAll)), ms(median(fwAll)), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])

	// Monorepos.
	fmt.Printf("monorepos (%d runs each, medians; CPU is user+sys; RSS is the peak over the runs):\n", runs)
	fmt.Printf("  %8s %8s %10s %10s %6s %10s %10s %12s %10s\n", "projects", "configs", "floor", "fwmigrate", "ratio", "floor CPU", "fw CPU", "fw per 1000", "fw RSS")
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
		f, w, err := timePair(dir, runs, []string{floor, "@" + list}, []string{fw, "check", "--format=concise", "."})
		if err != nil {
			return fmt.Errorf("%d projects: %v", n, err)
		}
		fm, wm := median(f.wall), median(w.wall)
		fmt.Printf("  %8d %8d %10s %10s %6.2f %10s %10s %12s %8d MB\n", n, len(configs), ms(fm), ms(wm), float64(wm)/float64(fm),
			ms(median(f.cpu)), ms(median(w.cpu)), ms(wm*1000/time.Duration(n)), w.maxRSS>>10)
	}
	fmt.Printf("\nload average at end: %s\n", loadAvg())
	return nil
}

type timings struct {
	wall, cpu []time.Duration
	maxRSS    int64 // KB
}

// timePair runs a and b alternately, one warm-up each, then runs times
// each. fwmigrate's exit status 1 (findings) is fine; 2 is not.
func timePair(dir string, runs int, a, b []string) (ta, tb timings, err error) {
	for i := -1; i < runs; i++ {
		for _, c := range []struct {
			args []string
			t    *timings
		}{{a, &ta}, {b, &tb}} {
			cmd := exec.Command(c.args[0], c.args[1:]...)
			cmd.Dir = dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			err := cmd.Run()
			wall := time.Since(start)
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				err = nil
			}
			if err != nil {
				return ta, tb, fmt.Errorf("%s: %v\n%s", strings.Join(c.args, " "), err, tail(out.String()))
			}
			if i < 0 {
				continue
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			c.t.wall = append(c.t.wall, wall)
			c.t.cpu = append(c.t.cpu, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
			rss := int64(ru.Maxrss)
			if runtime.GOOS == "darwin" {
				rss >>= 10 // bytes there, kilobytes on Linux
			}
			if rss > c.t.maxRSS {
				c.t.maxRSS = rss
			}
		}
	}
	return ta, tb, nil
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
// version-3 project in layout B, so that every code rule runs) against the
// floor over the same files' scripts: the .ts files and the script blocks
// of the .vue files, each through esbuild's Transform once.
func benchApp(work, fw, floor string, n, runs int) error {
	dir := filepath.Join(work, fmt.Sprintf("app%d", n))
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	files := appgen.Files(n)
	files["fw.config.ts"] = []byte("export default defineFwConfig({\n  ssr: true,\n})\n")
	files["package.json"] = []byte(`{"dependencies": {"fw": "^3.12.0"}}` + "\n")
	var scripts []string
	size := 0
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		if ext := filepath.Ext(name); ext == ".vue" || ext == ".ts" {
			scripts = append(scripts, name)
			size += len(data)
		}
	}
	sort.Strings(scripts)
	list := dir + ".scripts"
	if err := os.WriteFile(list, []byte(strings.Join(scripts, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("app of %d source files (%.1f MB of scripts and .vue files), whole process (%d runs each, medians):\n", len(scripts), float64(size)/(1<<20), runs)
	f, w, err := timePair(dir, runs, []string{floor, "@" + list}, []string{fw, "check", "--format=concise", "."})
	if err != nil {
		return fmt.Errorf("app: %v", err)
	}
	fm, wm := median(f.wall), median(w.wall)
	fmt.Printf("  floor (esbuild over every script) %s, fwmigrate check %s: ratio %.2f; CPU %s vs %s; fwmigrate RSS %d MB\n\n",
		ms(fm), ms(wm), float64(wm)/float64(fm), ms(median(f.cpu)), ms(median(w.cpu)), w.maxRSS>>10)
	return nil
}
