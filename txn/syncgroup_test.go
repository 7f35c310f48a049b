package txn

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSyncGroup: callers that wait together share syncs, and each returns
// only after a sync that started after its call has ended.
func TestSyncGroup(t *testing.T) {
	g := &syncGroup{}
	g.cond = sync.NewCond(&g.mu)
	var (
		calls   atomic.Int64
		written atomic.Int64 // a "write" each caller makes before its call
		synced  atomic.Int64 // the writes made durable: written as a sync started
	)
	release := make(chan struct{})
	do := func() error {
		n := written.Load()
		if calls.Add(1) == 1 {
			<-release // the first sync is slow: the others queue behind it
		}
		for {
			old := synced.Load()
			if n <= old || synced.CompareAndSwap(old, n) {
				return nil
			}
		}
	}
	const callers = 50
	var wg sync.WaitGroup
	started := make(chan struct{})
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			mine := written.Add(1)
			if i == 0 {
				close(started)
			}
			if err := g.sync(do); err != nil {
				t.Error(err)
			}
			if synced.Load() < mine {
				t.Errorf("caller %d returned before its write was synced", i)
			}
		}(i)
		if i == 0 {
			<-started
		}
	}
	// Every other caller waits behind the first sync before it ends.
	for {
		g.mu.Lock()
		w := g.waiting
		g.mu.Unlock()
		if w == callers-1 {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if c := calls.Load(); c != 2 {
		t.Errorf("%d syncs for %d callers: not shared", c, callers)
	}
	t.Logf("%d syncs for %d callers", calls.Load(), callers)
}
