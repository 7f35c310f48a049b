// Command floor is the speed floor of fwmigrate check: it reads each config
// file named on its command line (or listed one per line in @FILE) and runs
// esbuild's Transform over it once, on GOMAXPROCS workers, which is the
// syntax gate every config goes through. A .vue file's script blocks are
// transformed each (what validating a component's code would take). fwmigrate check, which also walks
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

	"github.com/fwmigrate/fwmigrate/ast"
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
				for _, s := range scripts(p, src) {
					res := api.Transform(s.text, api.TransformOptions{Loader: s.loader, Sourcefile: p, LogLevel: api.LogLevelSilent})
					if len(res.Errors) > 0 {
						errs.Add(1)
					}
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

type script struct {
	text   string
	loader api.Loader
}

// scripts returns what esbuild transforms of a file: the whole file, or a
// .vue file's script blocks (split by ast.SFCBlocks, which is cheap next
// to the transforms).
func scripts(name string, src []byte) []script {
	if !strings.HasSuffix(name, ".vue") {
		loader := api.LoaderJS
		if strings.HasSuffix(name, "ts") {
			loader = api.LoaderTS
		}
		return []script{{string(src), loader}}
	}
	blocks, _ := ast.SFCBlocks(src)
	var out []script
	for _, b := range blocks {
		if b.Tag != "script" {
			continue
		}
		loader := api.LoaderJS
		if b.Lang == "ts" || b.Lang == "tsx" {
			loader = api.LoaderTS
		}
		out = append(out, script{string(src[b.Content.Start:b.Content.End]), loader})
	}
	return out
}
