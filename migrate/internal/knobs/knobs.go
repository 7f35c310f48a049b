// Package knobs holds the settings of apply's engine (package migrate)
// that its tests and benchmarks turn, and nothing else sets: the bounds of
// a write batch, the git guard's per-project mode, the sharing of
// findings. Their values here are apply's own. They live apart from
// migrate so that its tests can be an external package (package
// migrate_test, compiled against migrate once: issue 19) without adding
// them to migrate's API.
package knobs

import "github.com/fwmigrate/fwmigrate/txn"

// LaneMin is the fewest transactions of a lane: migrate.CommitAll runs up
// to four lanes of txn.CommitAll at once, each of at least LaneMin
// transactions (a test lowers it to run lanes on a few projects).
var LaneMin = 64

// MaxBatchBytes bounds the old and new texts a batch of apply's writes
// journals at once (a test lowers it to cut a run into batches).
var MaxBatchBytes = 256 << 20

// PerProjectGuard makes apply's git guard ask git about each project
// alone, as apply did before it read one status per repository: the tests
// compare the two.
var PerProjectGuard = false

// ShareFindings turns on the sharing of equal findings between a
// project's checks (migrate's share.go); the tests compare the results
// with and without.
var ShareFindings = true

// Commit, when set, commits a batch of apply's transactions instead of
// migrate.CommitAll. Only BenchmarkApplyProjects sets it: to a writer
// without journal or syncs, the plain apply that issue 25 measures the
// journal's cost against, on the same checks, fixes and plans.
var Commit func(txs []*txn.Tx, hook func(point string, i int))
