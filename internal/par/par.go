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

// For runs fn(0..n-1) on GOMAXPROCS workers. A panic of fn stops the
// worker it happens in; once the others are done, For panics with it in
// the caller's goroutine (the first, when several do), where the caller
// can recover it as if fn had run there.
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
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		panicked bool
		first    any
		stop     = make(chan struct{})
	)
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if e := recover(); e != nil {
					mu.Lock()
					if !panicked {
						panicked, first = true, e
						close(stop)
					}
					mu.Unlock()
				}
			}()
			for i := range next {
				fn(i)
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-stop:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if panicked {
		panic(first)
	}
}
