package par

import (
	"sync/atomic"
	"testing"
)

// TestInOrder: then sees every index in order, each after its work, and
// never more than ahead works are done before then takes them.
func TestInOrder(t *testing.T) {
	const n, ahead = 500, 7
	var worked [n]atomic.Bool
	var running, most atomic.Int64
	next := 0
	InOrder(n, ahead, func(i int) {
		if r := running.Add(1); r > most.Load() {
			most.Store(r)
		}
		worked[i].Store(true)
	}, func(i int) {
		if i != next || !worked[i].Load() {
			t.Fatalf("then(%d) after %d, worked %v", i, next, worked[i].Load())
		}
		next++
		running.Add(-1)
	})
	if next != n {
		t.Fatalf("then ran %d times", next)
	}
	if most.Load() > ahead {
		t.Errorf("%d works ahead of then, want at most %d", most.Load(), ahead)
	}
}

// TestInOrderPanic: a panic of a work reaches the caller, and the run
// ends.
func TestInOrderPanic(t *testing.T) {
	defer func() {
		if e := recover(); e != "boom" {
			t.Errorf("recovered %v", e)
		}
	}()
	InOrder(1000, 4, func(i int) {
		if i == 10 {
			panic("boom")
		}
	}, func(int) {})
	t.Error("no panic")
}

// TestForPanic: For raises a worker's panic in the caller.
func TestForPanic(t *testing.T) {
	defer func() {
		if e := recover(); e != "boom" {
			t.Errorf("recovered %v", e)
		}
	}()
	For(1000, func(i int) {
		if i == 10 {
			panic("boom")
		}
	})
	t.Error("no panic")
}
