package txn

import "sync"

// A syncGroup makes the barriers of transactions that run at the same time
// share their syncfs calls (group commit): a caller waits for a sync that
// started after its call, running one itself when none is running, so
// that N transactions waiting together pay for one or two syncfs calls,
// not N. Every caller's writes made before its call are durable when it
// returns: the sync it waited for started after them. Apply commits the
// projects of a monorepo in one CommitAll, whose barriers are the run's;
// the group still serves transactions committed at the same time apart
// (the rollbacks of a batch, tests, other callers).
type syncGroup struct {
	mu       sync.Mutex
	cond     *sync.Cond
	running  bool
	started  uint64 // syncs started so far (the running one's number, when one runs)
	finished uint64 // the number of the last sync that ended
	err      error  // its result
	waiting  int    // callers waiting for a sync (the tests look)
}

// syncGroups are the groups by file system (device number).
var syncGroups sync.Map // uint64 -> *syncGroup

func groupOf(dev uint64) *syncGroup {
	if g, ok := syncGroups.Load(dev); ok {
		return g.(*syncGroup)
	}
	g := &syncGroup{}
	g.cond = sync.NewCond(&g.mu)
	actual, _ := syncGroups.LoadOrStore(dev, g)
	return actual.(*syncGroup)
}

// sync returns the result of a call of do that started after sync was
// called (or of a later one: it covers the same writes).
func (g *syncGroup) sync(do func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	want := g.started + 1 // the next sync to start; a running one started too early
	for g.finished < want {
		if g.running {
			g.waiting++
			g.cond.Wait()
			g.waiting--
			continue
		}
		g.running = true
		g.started++
		n := g.started
		g.mu.Unlock()
		err := do()
		g.mu.Lock()
		g.running = false
		g.finished, g.err = n, err
		g.cond.Broadcast()
	}
	return g.err
}
