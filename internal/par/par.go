// Package par runs work on GOMAXPROCS workers: the checks of many projects,
// the apply of many directories.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
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
	ForN(n, runtime.GOMAXPROCS(0), fn)
}

// ForN is For on the given number of workers: more than the CPUs for work
// that mostly waits (for the disk's syncs).
func ForN(n, workers int, fn func(i int)) {
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

// InOrder runs work(0..n-1) on GOMAXPROCS workers and then(i) for each i
// in order on the caller's goroutine, each as soon as work(i) and the
// then of every index before it are done. At most ahead works are done or
// running that then has not taken yet, so that what work makes for then
// (a parsed file) is held for a bounded number of indices at once. A
// panic of work or then stops the run and is raised in the caller once
// the workers are done.
func InOrder(n, ahead int, work func(i int), then func(i int)) {
	if n == 0 {
		return
	}
	ahead = max(ahead, 1)
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		slots    = make(chan struct{}, ahead)
		stop     = make(chan struct{})
		done     = make([]chan any, n) // closed when work(i) is over; a value: its panic
		panicked = make([]any, n)
	)
	for i := range done {
		done[i] = make(chan any)
	}
	for w := min(runtime.GOMAXPROCS(0), n); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				// The slot before the index: the slots are held by the
				// lowest indices not taken, so then never waits on a
				// work that waits on a slot.
				select {
				case <-stop:
					return
				default:
				}
				select {
				case slots <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					<-slots
					return
				}
				func() {
					defer func() {
						panicked[i] = recover()
						close(done[i])
					}()
					work(i)
				}()
			}
		}()
	}
	var failure any
	func() {
		defer func() {
			if e := recover(); e != nil {
				failure = e
			}
		}()
		for i := 0; i < n; i++ {
			<-done[i]
			if panicked[i] != nil {
				panic(panicked[i])
			}
			then(i)
			<-slots
		}
	}()
	if failure != nil {
		close(stop) // the workers waiting for a slot give up
	}
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}
