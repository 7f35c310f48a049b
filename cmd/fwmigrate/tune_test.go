package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneMemory: check's soft memory limit is raised to twice the live
// heap once a collection ends with more than two thirds of it live (so it
// stays above 3/2 of the live heap), and
// everything is put back afterwards; GOMEMLIMIT set by the user is left
// alone.
func TestTuneMemory(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set")
	}
	saved := softLimit
	defer func() { softLimit = saved }()
	softLimit = 48 << 20
	before := debug.SetMemoryLimit(-1)
	restore := tuneMemory()
	if got := debug.SetMemoryLimit(-1); got != softLimit {
		t.Fatalf("limit %d, want %d", got, softLimit)
	}
	live := make([][]byte, 0, 64)
	for i := 0; i < 64; i++ {
		live = append(live, make([]byte, 1<<20)) // 64 MiB live
	}
	deadline := time.Now().Add(10 * time.Second)
	// Once raised, the limit stays above 3/2 of the live heap (it is raised
	// to twice the live heap whenever that passes 2/3 of it).
	const want = 96 << 20
	for debug.SetMemoryLimit(-1) < want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < want {
		t.Errorf("limit %d MiB with 64 MiB live, want at least 96 MiB", got>>20)
	}
	runtime.KeepAlive(live)
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after %d, before %d", got, before)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	defer tuneMemory()()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set: the limit changed to %d", got)
	}
}
