// Package txn is the durable file transaction of fwmigrate: a Plan of
// directories created and removed, renames, and file edits (old and new
// bytes), its journal (format, write, sync, read back, validation), the
// steps forward and backward with their temporary files and fsyncs, and the
// recovery of a run that was interrupted. Rewriters only make plans
// (rewrite/move; apply's config and code edits join the same plan).
//
// CommitAll commits many plans (apply: the projects of a monorepo)
// together: each transaction keeps its journal, its steps and its
// rollback, and so its guarantee, but they share their barriers, one set
// per run instead of one per project (batch.go). Commit is CommitAll of
// one plan.
//
// Commit checks that the plan stays inside its root (and out of .git) and
// that the tree is as planned, writes the journal in its home outside the
// tree (the repository's git directory, else the user's state folder,
// bound to the run by a record there: home.go) and syncs it,
// runs the steps (Forward), undoes them on failure (Backward), and removes
// the journal. Every edit is written to a synced temporary beside its file
// and renamed over it only while the file still holds what the plan read;
// the old file keeps a second name (a hard link) until the run is over, so
// that undoing an edit made is a rename back, which needs no free space.
//
// What survives kill -9 (or a power cut) once Commit has written the
// journal: the journal itself, and a tree where each step is done or not,
// never half done (an edit's temporary, and its old file's backup, may be
// left beside it, under the journal's id). Pending finds the journal (and refuses one in the
// tree, or one no run of this user wrote); Open reads it back, and
// Complete or Undo removes the temporaries and brings the tree to the end
// or the start of the plan. Before the journal is whole, nothing of the
// tree has been touched.
package txn
