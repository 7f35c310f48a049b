// Package par runs work on GOMAXPROCS workers: the checks of many projects,
// the apply of many directories.
package par

import (
	"runtime"
	"sync"
)

// Each runs fn on every value received from next, on GOMAXPROCS workers,
// until next is closed.
func Each[T any](next <-chan T, fn func(T)) {
	var wg sync.WaitGroup
	for w := runtime.GOMAXPROCS(0); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range next {
				fn(v)
			}
		}()
	}
	wg.Wait()
}

// For runs fn(0..n-1) on GOMAXPROCS workers.
func For(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
