// Command floor is the speed floor of fwmigrate check: it reads each config
// file named on its command line (or listed one per line in @FILE) and runs
// esbuild's Transform over it once, on GOMAXPROCS workers, which is the
// syntax gate every config goes through. fwmigrate check, which also walks
// the tree, parses, resolves layouts and layers and runs the rules, cannot
// be faster than this. It prints the number of files and of errors.
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	var paths []string
	for _, a := range os.Args[1:] {
		if list, ok := strings.CutPrefix(a, "@"); ok {
			f, err := os.Open(list)
			if err != nil {
				fmt.Fprintln(os.Stderr, "floor:", err)
				os.Exit(2)
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if l := strings.TrimSpace(sc.Text()); l != "" {
					paths = append(paths, l)
				}
			}
			f.Close()
			continue
		}
		paths = append(paths, a)
	}
	var errs atomic.Int64
	var wg sync.WaitGroup
	next := make(chan string)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				src, err := os.ReadFile(p)
				if err != nil {
					errs.Add(1)
					continue
				}
				loader := api.LoaderJS
				if strings.HasSuffix(p, "ts") {
					loader = api.LoaderTS
				}
				res := api.Transform(string(src), api.TransformOptions{Loader: loader, Sourcefile: p, LogLevel: api.LogLevelSilent})
				if len(res.Errors) > 0 {
					errs.Add(1)
				}
			}
		}()
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	fmt.Printf("%d files, %d errors\n", len(paths), errs.Load())
}
