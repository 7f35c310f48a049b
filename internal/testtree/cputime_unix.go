//go:build unix

package testtree

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user and system) the process has used: the
// timing tests and benchmarks measure it rather than the wall clock, which
// the other work of a shared machine stretches most.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
