package migrate_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/txn"
)

// BenchmarkJournal measures what the journal and the syncs cost apply's
// write phase, on the 5,000-file generated project of rewrite/move's
// BenchmarkPlanAndExecute. Each iteration migrates two fresh copies in turn,
// so that both are measured under the same load:
//
//	baseline  PlanMove, then the writes as apply made them before the
//	          journal (executeBefore: no journal, no sync, no second look)
//	journal   PlanMove, then txn.Commit: the paths confined, the journal
//	          written and synced, the steps with every file synced before
//	          its rename and every directory after, the journal removed
//
// It reports both times per operation and journal/baseline; ns/op is their
// sum.
func BenchmarkJournal(b *testing.B) {
	files := testtree.LayoutB(5000)
	var base, jour time.Duration
	input := func(dir string) move.Input {
		return move.Input{Root: dir, SrcDir: dir, Target: filepath.Join(dir, "app")}
	}
	plan := func(dir string) *move.Plan {
		p, err := move.PlanMove(input(dir))
		if err != nil || len(p.Conflicts) > 0 {
			b.Fatal(err, p.Conflicts)
		}
		return p
	}
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		d1, d2 := b.TempDir(), b.TempDir()
		testtree.WriteMap(b, d1, files)
		testtree.WriteMap(b, d2, files)
		first, second := d1, d2
		if i%2 == 1 {
			first, second = d2, d1 // neither always runs on a colder cache
		}
		for _, run := range []struct {
			dir     string
			journal bool
		}{{first, i%2 == 1}, {second, i%2 == 0}} {
			// Each run starts with nothing waiting to be written: neither
			// pays for the other's writes, or for the copies'.
			txn.OS.SyncFS(run.dir)
			b.StartTimer()
			start := time.Now()
			if err := writeWay(plan(run.dir), run.journal); err != nil {
				b.Fatal(err)
			}
			if run.journal {
				jour += time.Since(start)
			} else {
				base += time.Since(start)
			}
			b.StopTimer()
		}
		os.RemoveAll(d1)
		os.RemoveAll(d2)
	}
	reportJournal(b, base, jour)
}

// BenchmarkJournalProjects is BenchmarkJournal on many small projects, as
// apply migrates a monorepo: 1,000 generated layout-B projects of 12
// source files each (testtree.LayoutB), each planned alone, all of them
// planned before any is written (as apply plans every project first), and
// written three ways, in turns (each iteration starts with the next):
//
//	baseline  without a journal or syncs (executeBefore), benchWriters
//	          projects at once
//	each      through txn.Commit, a transaction per project, benchWriters
//	          at once: how apply wrote them before txn.CommitAll (their
//	          syncs shared only when they happen to meet, syncgroup.go)
//	journal   through txn.CommitAll, as Run writes them now (CommitAll:
//	          four batches at once): every project's journal, steps and
//	          rollback its own, the barriers shared by a batch
//
// What a small transaction pays for being durable (the journal's writes
// and syncs, the syncs of the edits and directories) is the cost here,
// not the data. It reports the three times per operation (planning and
// writing), journal/baseline and each/baseline, and the ratio of the
// writes alone (write-journal/baseline).
func BenchmarkJournalProjects(b *testing.B) {
	const projects = 1000
	files := testtree.LayoutB(12)
	ways := []string{"baseline", "each", "journal"}
	times, writes := map[string]time.Duration{}, map[string]time.Duration{}
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		dirs := map[string]string{}
		for _, way := range ways {
			d := b.TempDir()
			tree := map[string]string{}
			for k := 0; k < projects; k++ {
				for name, src := range files {
					tree[fmt.Sprintf("p%04d/%s", k, name)] = src
				}
			}
			testtree.WriteMap(b, d, tree)
			dirs[way] = d
		}
		for n := range ways {
			way := ways[(i+n)%len(ways)] // none always runs first, on a colder cache
			dir := dirs[way]
			txn.OS.SyncFS(dir)
			b.StartTimer()
			start := time.Now()
			plans := make([]*move.Plan, projects)
			plan := func(k int) {
				root := filepath.Join(dir, fmt.Sprintf("p%04d", k))
				p, err := move.PlanMove(move.Input{Root: root, SrcDir: root, Target: filepath.Join(root, "app")})
				if err != nil || len(p.Conflicts) > 0 {
					b.Error(err, p.Conflicts)
					return
				}
				plans[k] = p
			}
			par.For(projects, plan)
			if b.Failed() {
				b.FailNow()
			}
			written := time.Now()
			switch way {
			case "baseline", "each":
				par.ForN(projects, benchWriters, func(k int) {
					if err := writeWay(plans[k], way == "each"); err != nil {
						b.Error(err)
					}
				})
			case "journal":
				txs := make([]*txn.Tx, 0, projects)
				for _, p := range plans {
					if p == nil {
						continue
					}
					tx, err := p.Txn()
					if err != nil {
						b.Fatal(err)
					}
					txs = append(txs, &txn.Tx{Plan: tx, Config: "fw.config.ts"})
				}
				migrate.CommitAll(txs, nil)
				for _, t := range txs {
					if t.Err != nil {
						b.Error(t.Err)
					}
				}
			}
			if b.Failed() {
				b.FailNow()
			}
			times[way] += time.Since(start)
			writes[way] += time.Since(written)
			b.StopTimer()
		}
		for _, d := range dirs {
			os.RemoveAll(d)
		}
	}
	reportJournal(b, times["baseline"], times["journal"])
	b.ReportMetric(float64(times["each"].Nanoseconds())/float64(b.N), "each-ns/op")
	b.ReportMetric(float64(times["each"])/float64(times["baseline"]), "each/baseline")
	b.ReportMetric(float64(writes["journal"])/float64(writes["baseline"]), "write-journal/baseline")
}

// benchWriters is how many projects the benchmark writes at once one by
// one: as many as apply's writers before txn.CommitAll.
const benchWriters = 32

// writeWay writes p through the journal, or as apply wrote before it.
func writeWay(p *move.Plan, journal bool) error {
	tx, err := p.Txn()
	if err != nil {
		return err
	}
	if !journal {
		return executeBefore(tx)
	}
	_, err = txn.Commit(tx, "fw.config.ts", nil)
	return err
}

// reportJournal reports the two ways' times per iteration and their ratio.
func reportJournal(b *testing.B, base, jour time.Duration) {
	b.ReportMetric(float64(base.Nanoseconds())/float64(b.N), "baseline-ns/op")
	b.ReportMetric(float64(jour.Nanoseconds())/float64(b.N), "journal-ns/op")
	b.ReportMetric(float64(jour)/float64(base), "journal/baseline")
}

// executeBefore is how rewrite/move executed a plan before the journal
// (as of 7a566f9, its undo records left out), kept as the benchmarks'
// yardstick: the tree checked against the plan, the directories created,
// the renames, every edit staged as a temporary file beside its
// destination, then each renamed over it; nothing synced.
func executeBefore(p *txn.Plan) error {
	for _, mv := range p.Moves {
		if _, err := os.Lstat(mv.From); err != nil {
			return err
		}
	}
	for _, e := range p.Edits {
		data, err := os.ReadFile(e.Path)
		if err != nil {
			return err
		}
		if !bytes.Equal(data, e.Old) {
			return fmt.Errorf("%s: changed", e.Path)
		}
	}
	for _, d := range p.Mkdirs {
		if err := os.Mkdir(d, 0o777); err != nil {
			return err
		}
	}
	for _, mv := range p.Moves {
		if err := os.Rename(mv.From, mv.To); err != nil {
			return err
		}
	}
	for _, d := range p.Rmdirs {
		if err := os.Remove(d.Path); err != nil {
			return err
		}
	}
	temps := make([]string, len(p.Edits))
	for i, e := range p.Edits {
		f, err := os.CreateTemp(filepath.Dir(e.NewPath), "."+filepath.Base(e.NewPath)+".fwmigrate-*")
		if err != nil {
			return err
		}
		_, err = f.Write(e.New)
		if err == nil {
			err = f.Chmod(e.Mode & fs.ModePerm)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		temps[i] = f.Name()
	}
	for i, e := range p.Edits {
		if err := os.Rename(temps[i], e.NewPath); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkApplyProjects measures what the journal and its syncs cost a
// whole apply of a monorepo (issue 25: at most 1.2x a plain apply on 1,000
// projects): 1,000 projects, project i the corpus archive i mod its size
// at p<i>/ (as bench/ builds its monorepos), each loaded and migrated
// (migrate.Run: the checks, the fixes, the layout move, the writes), two
// ways in turns on two fresh copies: as apply writes (journal) and with
// the same plans written by executeBefore (plain: no journal, no sync,
// benchWriters projects at once), through knobs.Commit. The two trees
// must come out the same. It reports the two times per operation,
// journal/plain over the whole run and the median of the iterations'
// (each pair side by side), and the ratio of the process's CPU time in
// the two ways (user and system, which other processes' load disturbs
// less than the wall time; the syncs' waits are not in it).
func BenchmarkApplyProjects(b *testing.B) {
	const projects = 1000
	archives := corpusArchives(b)
	plain := func(txs []*txn.Tx, _ func(string, int)) {
		par.ForN(len(txs), benchWriters, func(k int) {
			txs[k].Kept, txs[k].Err = false, executeBefore(txs[k].Plan)
		})
	}
	ways := []string{"plain", "journal"}
	times, cpus := map[string]time.Duration{}, map[string]time.Duration{}
	var ratios []float64 // journal/plain of each iteration
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		dirs := map[string]string{}
		pair := map[string]time.Duration{}
		tree := map[string]string{}
		for k := 0; k < projects; k++ {
			for name, src := range archives[k%len(archives)].files {
				tree[fmt.Sprintf("p%04d/%s", k, name)] = src
			}
		}
		for _, way := range ways {
			dirs[way] = b.TempDir()
			testtree.WriteMap(b, dirs[way], tree)
		}
		written, fatal := map[string]int{}, map[string]int{}
		for n := range ways {
			way := ways[(i+n)%len(ways)] // neither always runs first, on a colder cache
			dir := dirs[way]
			txn.OS.SyncFS(dir)
			// Each run starts with the heap given back to the system, as a
			// fresh process's apply does: else the first run of a pair
			// pays the page faults of a heap the second finds ready
			// (150-300 ms of its planning, whichever way ran first).
			debug.FreeOSMemory()
			knobs.Commit = nil
			if way == "plain" {
				knobs.Commit = plain
			}
			b.StartTimer()
			start, cpu := time.Now(), testtree.CPUTime()
			l := project.NewLoader()
			ps := make([]*project.Project, projects)
			par.For(projects, func(k int) {
				rel := fmt.Sprintf("p%04d/%s", k, archives[k%len(archives)].cfg)
				ps[k] = l.Load(filepath.Join(dir, filepath.FromSlash(rel)), rel)
			})
			rs := migrate.Run(ps, nil, migrate.Options{Rules: rules.Options{Target: 4}, Layout: migrate.LayoutMove, AllowDirty: true})
			took := time.Since(start)
			times[way] += took
			cpus[way] += testtree.CPUTime() - cpu
			b.StopTimer()
			knobs.Commit = nil
			pair[way] = took
			for _, r := range rs {
				if r.Fatal {
					fatal[way]++ // a major apply does not migrate (FW907), in both ways
				}
				if r.Written {
					written[way]++
				}
			}
		}
		if written["plain"] != written["journal"] || written["plain"] == 0 || fatal["plain"] != fatal["journal"] {
			b.Fatalf("projects written: %v, failed: %v", written, fatal)
		}
		if d := testtree.DiffSnapshots(testtree.Snapshot(b, dirs["plain"]), testtree.Snapshot(b, dirs["journal"])); d != "" {
			b.Fatalf("the trees differ:\n%s", d)
		}
		for _, d := range dirs {
			os.RemoveAll(d)
		}
		ratios = append(ratios, float64(pair["journal"])/float64(pair["plain"]))
		b.Logf("%d: plain %v, journal %v", i, pair["plain"].Round(time.Millisecond), pair["journal"].Round(time.Millisecond))
	}
	sort.Float64s(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "median-journal/plain")
	if cpus["plain"] > 0 {
		b.ReportMetric(float64(cpus["journal"])/float64(cpus["plain"]), "cpu-journal/plain")
	}
	b.ReportMetric(float64(times["plain"].Nanoseconds())/float64(b.N), "plain-ns/op")
	b.ReportMetric(float64(times["journal"].Nanoseconds())/float64(b.N), "journal-ns/op")
	b.ReportMetric(float64(times["journal"])/float64(times["plain"]), "journal/plain")
}
