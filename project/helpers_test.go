package project_test

import (
	"syscall"
	"time"
)

// Helpers shared by the test files.

// cpuTime is the CPU time the process has used: the timing tests measure it
// rather than the wall clock, which a busy machine stretches.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
