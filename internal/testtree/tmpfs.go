package testtree

import (
	"flag"
	"os"
	"testing"
)

// shm is the tmpfs of Linux systems.
const shm = "/dev/shm"

// TmpfsWhenShort points the temporary directory (TMPDIR, hence t.TempDir,
// os.MkdirTemp and testscript's $WORK) of a -short run at /dev/shm when
// it is a writable directory and TMPDIR is unset. Call it from TestMain
// after flag.Parse, before anything makes a temporary directory.
//
// Why: apply's transaction fsyncs every file and directory it writes, as
// it must; on a disk each fsync waits for the device (on the shared 2-core
// machine, TestApplyFixtures took 14.4 s of wall time for 3.4 s of CPU on
// ext4, 6.3 s on /dev/shm), and on a tmpfs it returns at once. The code
// runs the same (every fsync is made and checked); only the wait goes. The
// full run (go test without -short, as .ci/run makes it) keeps the
// temporary directory the user gives, so the real file system stays
// tested there. A TMPDIR the user sets is always kept.
func TmpfsWhenShort() {
	if !testing.Short() || os.Getenv("TMPDIR") != "" {
		return
	}
	probe, err := os.MkdirTemp(shm, "fwmigrate-probe")
	if err != nil {
		return // no /dev/shm here (macOS, Windows), or not writable
	}
	os.Remove(probe)
	os.Setenv("TMPDIR", shm)
}

// MainShort is the TestMain of a package whose only setup is
// TmpfsWhenShort: flags parsed, the temporary directory chosen, the tests
// run (by Run, which keeps go test's cache check cheap).
func MainShort(m *testing.M) {
	flag.Parse()
	TmpfsWhenShort()
	os.Exit(Run(m))
}
