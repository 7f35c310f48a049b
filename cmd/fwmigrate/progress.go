package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/migrate"
)

// Progress on stderr for big runs (issue 24, point 3): what the run is
// doing (finding the projects, reading them, planning the move, checking,
// making the code fixes, writing) with its counts, as package managers and
// bundlers show it. On a terminal it is one line, redrawn in place at most
// ten times a second, shown only once the run has taken a moment, and
// erased before anything else is printed. Never in a pipe or a CI log,
// unless asked (--progress): then a plain line per step, and at most one
// every few seconds within a step.

const (
	progressInterval = 100 * time.Millisecond // redraws, at most
	progressLogEvery = 3 * time.Second        // lines within one step, without a terminal
)

// progressDelay: nothing is shown of runs shorter than this. (The tests
// set it to 0 through TestMain.)
var progressDelay = 300 * time.Millisecond

// progressMode decides whether a command shows progress, and how: the
// --progress flag when given, else only when stderr is a terminal that is
// not dumb and CI is not set.
func progressMode(cmd *cobra.Command, stderr io.Writer) (on, inPlace bool) {
	tty := isTerminal(stderr) && os.Getenv("TERM") != "dumb"
	if f := cmd.Flags().Lookup("progress"); f != nil && f.Changed {
		on, _ := cmd.Flags().GetBool("progress")
		return on, on && tty
	}
	return tty && os.Getenv("CI") == "", tty
}

// progress is the display of one run. A nil *progress shows nothing: every
// method may be called on it.
type progress struct {
	w       io.Writer
	inPlace bool
	width   int
	start   time.Time

	mu sync.Mutex
	// What the run is doing: the step, the project, the step's counts;
	// ready of folders, the folders planned so far.
	step, project       string
	done, total         int
	ready, folders      int
	shown               string // the line on the terminal, "" when none
	printed, printedFor string // without a terminal: the last line printed, and its step
	printedAt           time.Time
	stopped, paused     bool

	// The files the run read (through the loader's overlay), each once,
	// and how many code files the projects have (0 when not known).
	seen      sync.Map
	read      atomic.Int64
	projects  atomic.Int64
	codeFiles atomic.Int64

	quit chan struct{}
	wg   sync.WaitGroup
}

// newProgress starts the display on w, at step, or returns nil when on
// is false.
func newProgress(w io.Writer, on, inPlace bool, step string) *progress {
	if !on {
		return nil
	}
	p := &progress{w: w, inPlace: inPlace, width: terminalWidth(w), start: time.Now(), quit: make(chan struct{}), step: step}
	if p.width <= 0 {
		p.width = 80
	}
	// The first draw is made here, not in the loop: a run shorter than
	// the goroutine's start would otherwise show nothing at all.
	p.draw()
	p.wg.Add(1)
	go p.loop()
	return p
}

func (p *progress) loop() {
	defer p.wg.Done()
	t := time.NewTicker(progressInterval)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			p.draw()
		}
	}
}

// set says what the run is doing now.
func (p *progress) set(step, project string, done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.step, p.project, p.done, p.total = step, project, done, total
	p.mu.Unlock()
}

// event is migrate's Options.Progress.
func (p *progress) event(ev migrate.Event) {
	if p == nil {
		return
	}
	if ev.Step == migrate.StepReady {
		p.mu.Lock()
		p.ready, p.folders = ev.Done, ev.Total
		p.mu.Unlock()
		return
	}
	p.set(ev.Step, ev.Project, ev.Done, ev.Total)
}

// overlay is the loader's Overlay: it has no text of its own (the disk
// has every file) and counts the files read, and the projects (their
// configs).
func (p *progress) overlay(path string) ([]byte, bool) {
	if _, dup := p.seen.LoadOrStore(path, true); !dup {
		p.read.Add(1)
		if strings.HasPrefix(filepath.Base(path), "fw.config.") {
			p.projects.Add(1)
		}
	}
	return nil, false
}

// line is what the display says now.
func (p *progress) line() string {
	p.mu.Lock()
	step, project, done, total, ready, folders := p.step, p.project, p.done, p.total, p.ready, p.folders
	p.mu.Unlock()
	project = text.Escape(project)
	var s string
	switch step {
	case "find":
		s = "finding the projects"
	case "load":
		s = fmt.Sprintf("reading %d of %s", done, text.Plural(total, "project"))
	case "checkrun":
		s = fmt.Sprintf("checking %s", text.Plural(int(p.projects.Load()), "project"))
	case migrate.StepPlan:
		s = "planning the move of " + project
	case migrate.StepCheck:
		s = "checking " + project
	case migrate.StepEdit:
		s = fmt.Sprintf("making the code fixes of %s: %d of %s", project, done, text.Plural(total, "file"))
	case migrate.StepDiff:
		s = fmt.Sprintf("writing the patch: %d of %s", done, text.Plural(total, "project"))
	case migrate.StepWrite:
		s = fmt.Sprintf("writing %s: %d of %d moves and edits", project, done, total)
	default:
		return ""
	}
	switch step {
	case "load", "checkrun", migrate.StepPlan, migrate.StepCheck:
		if n, of := p.read.Load(), p.codeFiles.Load(); of > 0 {
			s += fmt.Sprintf(", %d of %d files read", min(n, of), of)
		} else if n > 0 {
			s += fmt.Sprintf(", %s read", text.Plural(int(n), "file"))
		}
	}
	if folders > 1 && step != migrate.StepDiff && step != migrate.StepWrite {
		s += fmt.Sprintf(" (%d of %d folders planned)", ready, folders)
	}
	if d := time.Since(p.start); d >= 2*time.Second {
		s += fmt.Sprintf(" · %ds", int(d.Seconds()))
	}
	return "fwmigrate: " + s
}

func (p *progress) draw() {
	if time.Since(p.start) < progressDelay {
		return
	}
	line := p.line()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.paused || line == "" {
		return
	}
	if p.inPlace {
		// One line, cut to the width: a line that wrapped could not be
		// erased by a carriage return.
		if utf8.RuneCountInString(line) > p.width-1 {
			line = string([]rune(line)[:p.width-2]) + "…"
		}
		if line != p.shown {
			fmt.Fprintf(p.w, "\r%s\x1b[K", line)
			p.shown = line
		}
		return
	}
	if line == p.printed || p.step == p.printedFor && time.Since(p.printedAt) < progressLogEvery {
		return
	}
	fmt.Fprintln(p.w, line)
	p.printed, p.printedFor, p.printedAt = line, p.step, time.Now()
}

// pause erases the line and draws nothing until resume: a question is
// on the terminal.
func (p *progress) pause() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	if p.shown != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = ""
	}
}

func (p *progress) resume() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()
}

// stop ends the display and erases its line: call it before anything
// else is printed.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	p.mu.Unlock()
	close(p.quit)
	p.wg.Wait()
	if p.shown != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = ""
	}
}
