package main

import "github.com/fwmigrate/fwmigrate/migrate"

// journalLine is what the apply report says of a project's journal: what
// this run did with an interrupted apply, or that the journal stays. A
// journal written and removed in the same run is not mentioned (the JSON
// report names it).
func journalLine(r *migrate.Result) string {
	switch {
	case r.Recovered == "completed":
		return "finished the apply that was interrupted, as its journal " + r.Journal + " recorded it"
	case r.Recovered == "rolled back":
		return "rolled back the apply that was interrupted, as its journal " + r.Journal + " recorded it: the project is as it was before"
	case r.JournalKept && r.Journal != "":
		return "the journal " + r.Journal + " is kept: run fwmigrate apply to finish the interrupted apply, or fwmigrate apply --rollback to undo it"
	}
	return ""
}
