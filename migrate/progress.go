package migrate

import "github.com/fwmigrate/fwmigrate/rules"

// What a front end needs to show a long run as it goes and to ask before
// it writes (fwmigrate apply on a terminal): the steps of a run
// (Options.Progress), the question (Options.Confirm), and the pins that
// --pin=affected would add (AffectedPins).

// The steps of a run, as Options.Progress is told them.
const (
	StepPlan  = "plan"  // planning a project's layout move
	StepCheck = "check" // checking a project and making its fixes in memory
	StepEdit  = "edit"  // making its code fixes in memory: Done of Total files
	StepReady = "ready" // a folder's projects are planned: Done of Total folders
	StepDiff  = "diff"  // with DryRun, the patch: Done of Total projects
	StepWrite = "write" // writing a project: Done of Total moves and edits
)

// Event is one step of a run. Events come from several goroutines at
// once (projects are planned in parallel): Options.Progress must be safe
// for that.
type Event struct {
	Step    string
	Project string // the project's config, as shown to the user
	// Done of Total, for the steps that count; 0 and 0 for the others.
	Done, Total int
}

func (o Options) progress(step, project string, done, total int) {
	if o.Progress != nil {
		o.Progress(Event{Step: step, Project: project, Done: done, Total: total})
	}
}

// AffectedPins returns what --pin=affected would add to r's project, as
// FW204 findings whose fixes set each option to its version-3 value (the
// fix's description says which), and the pins the framework major cannot
// honour, with the reason. It reads the default changes whose sites are
// still in the code once apply has made its fixes (r.Remaining): those a
// safe code fix settles need no pin. Options already pinned, and options
// the config sets, are not among them.
func (r *Result) AffectedPins(o Options) (pins []*rules.Diagnostic, cannot []FixReport) {
	if r.Project == nil || r.Project.File == nil || r.Fatal || r.Outside {
		return nil, nil
	}
	scratch := &Result{Project: r.Project}
	o.Pin = []string{PinAffected}
	pins = scratch.pinFixes(r.Project, r.Remaining, o)
	return pins, scratch.NotFixed
}
