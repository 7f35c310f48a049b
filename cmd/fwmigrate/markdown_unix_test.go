//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestStepSummaryFIFO: a FIFO named by $GITHUB_STEP_SUMMARY is refused at
// once, not waited on for a reader.
func TestStepSummaryFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { done <- appendRegular(fifo, "x\n") }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("wrote into a FIFO")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO without a reader")
	}
}
