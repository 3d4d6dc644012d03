package detector

import (
	"cmp"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
)

// IdleConfirm is how long a working → idle change without a visible idle
// marker must hold before it is reported: spinners blink and redraws pass
// through blank frames.
const IdleConfirm = 300 * time.Millisecond

// Snapshot is what the pane tells its detector: plain data, copied.
type Snapshot struct {
	Revision uint64
	Lines    []string // the detection rows of the screen
	Title    string
	Shell    int // the shell's pid; 0 once it has exited
	Group    int // the foreground job (the console's ForegroundGroup)
	// Pane is told the Saw (nil: the detector's parent); Log is the
	// pane's, which a failure on this snapshot is logged to.
	Pane *actor.PID
	Log  *slog.Logger
}

// SetCatalog replaces the manifests (server.reload_agent_manifests).
type SetCatalog struct{ Catalog *rules.Catalog }

// Saw is told to the pane after each snapshot that changed what the
// detector knows; Revision is the snapshot's, so the pane can drop a
// result older than one it already has.
type Saw struct {
	Revision uint64
	Agent    string // "" for none
	State    rules.State
	Cwd      string // the foreground job's working directory, "" if unknown
	// Job is the foreground job as this snapshot's walk found it, which
	// the pane keeps to answer pane.process_info.
	Job Job
}

// Job is the foreground job of a pane's terminal: its process group and
// its processes (only the shell's descendants), as pane.process_info
// describes them.
type Job struct {
	Revision  uint64 // of the snapshot, or the Describe, it was walked for
	Group     int
	Processes []Process
}

// Process is one process of a job.
type Process struct {
	PID  int
	Name string
	Argv []string // nil when unknown
	Cwd  string   // "" when unknown
}

// Describe asks for the foreground job now (a pane.process_info the
// pane's copy is too old for); the detector tells the pane a Described.
type Describe struct {
	Revision     uint64
	Shell, Group int
	Pane         *actor.PID   // told the Described (nil: the parent)
	Log          *slog.Logger // the pane's: a failure on it is logged there
}

// Described answers a Describe. Failed: the walk broke (the detector
// failed on it), and Job holds only the group.
type Described struct {
	Job    Job
	Failed bool
}

// holdCheck re-evaluates a held working → idle change.
type holdCheck struct{}

// Detector is the actor.
type Detector struct {
	catalog *rules.Catalog
	procs   procs.Table
	last    *Snapshot
	told    Saw
	// idleSince is when a working → idle change was first seen.
	idleSince time.Time
	held      bool // a holdCheck is pending
	timers    kit.Timers
	// describing is the Describe being walked, so that a detector failing
	// on it still answers (Restarting and Stopping come to this instance).
	describing *Describe
	// pane is who the results go to: the Pane of the last Snapshot or
	// Describe (a pane spawns its detector as no child of its own, so that
	// protoactor's set of children, which it keeps, is not made for it).
	pane *actor.PID
}

// Props returns the props of a detector reading table; a nil catalog
// reports the foreground cwd only.
func Props(catalog *rules.Catalog, table procs.Table) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &Detector{catalog: catalog, procs: table} }, kit.Guarded(nil))
}

// Supervision is the strategy a detector is supervised with (its props'
// guardian, or a parent): restart it (it rebuilds from the next snapshot)
// and log why, to the Log of the Snapshot or Describe it failed on (its
// pane's), else to log (slog.Default when nil).
func Supervision(log *slog.Logger) actor.SupervisorStrategy {
	if log == nil {
		log = slog.Default()
	}
	return &supervision{SupervisorStrategy: actor.NewOneForOneStrategy(10, time.Minute, func(any) actor.Directive {
		return actor.RestartDirective
	}), log: log}
}

type supervision struct {
	actor.SupervisorStrategy
	log *slog.Logger
}

// HandleFailure implements actor.SupervisorStrategy.
func (s *supervision) HandleFailure(system *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, rs *actor.RestartStatistics, reason, message any) {
	log := s.log
	switch m := actor.UnwrapEnvelopeMessage(message).(type) {
	case *Snapshot:
		log = cmp.Or(m.Log, log)
	case *Describe:
		log = cmp.Or(m.Log, log)
	}
	log.Error("agent detector failed; restarting it", "reason", reason)
	s.SupervisorStrategy.HandleFailure(system, sup, child, rs, reason, message)
}

// Receive implements actor.Actor.
func (d *Detector) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = d.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *Snapshot:
		d.last = msg
		d.tell(msg.Pane)
		d.evaluate(ctx)
	case *SetCatalog:
		d.catalog = msg.Catalog
		d.evaluate(ctx)
	case *holdCheck:
		d.held = false
		d.evaluate(ctx)
	case *Describe:
		d.tell(msg.Pane)
		d.describing = msg
		job := d.walk(msg.Revision, msg.Shell, msg.Group)
		d.describing = nil
		// The pane keeps this walk's job too: the next snapshot's walk is
		// told when it differs from this one, not from the last Saw (a
		// program that started and ended between two snapshots would
		// otherwise leave the pane believing it still runs).
		d.told.Job = job
		ctx.Send(d.to(ctx), &Described{Job: job})
	case *actor.Stopping, *actor.Restarting:
		d.timers.StopAll()
		if m := d.describing; m != nil {
			d.describing = nil
			ctx.Send(d.to(ctx), &Described{Job: Job{Revision: m.Revision, Group: m.Group}, Failed: true})
		}
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// tell keeps who the results go to, when a message names it.
func (d *Detector) tell(pane *actor.PID) {
	if pane != nil {
		d.pane = pane
	}
}

// to is who the results go to: the pane messages named, else the parent.
func (d *Detector) to(ctx actor.Context) *actor.PID {
	if d.pane != nil {
		return d.pane
	}
	return ctx.Parent()
}

// evaluate recognises the agent in the last snapshot's foreground job and
// its state, and tells the pane when either, or the cwd, changed.
func (d *Detector) evaluate(ctx actor.Context) {
	s := d.last
	if s == nil {
		return
	}
	saw := Saw{Revision: s.Revision, State: rules.StateUnknown}
	if s.Group > 0 {
		saw.Cwd = d.procs.Cwd(s.Group)
	}
	saw.Job = d.walk(s.Revision, s.Shell, s.Group)
	if d.catalog != nil && s.Shell > 0 && s.Group > 0 {
		saw.Agent, _ = rules.Recognize(d.recognizable(saw.Job))
	}
	if saw.Agent != "" {
		saw.State = d.state(ctx, saw.Agent, s)
	}
	if saw.Agent == d.told.Agent && saw.State == d.told.State && saw.Cwd == d.told.Cwd && sameJob(saw.Job, d.told.Job) {
		return
	}
	d.told = saw
	ctx.Send(d.to(ctx), &saw)
}

// walk describes the foreground job group of shell's terminal: each of
// its processes with its argv and working directory.
func (d *Detector) walk(revision uint64, shell, group int) Job {
	job := Job{Revision: revision, Group: group}
	if shell <= 0 || group <= 0 {
		return job
	}
	for _, e := range d.procs.Job(shell, group) {
		// The name is cut from the whole /proc stat line; the job is kept
		// (here and by the pane) until the next walk, the line need not be.
		name := strings.Clone(e.Name)
		job.Processes = append(job.Processes, Process{PID: e.PID, Name: name, Argv: d.procs.Argv(e.PID), Cwd: d.procs.Cwd(e.PID)})
	}
	return job
}

// recognizable gives the job's processes to recognition: those whose
// argv is known, with the agent hint of their environment.
func (d *Detector) recognizable(job Job) []rules.Process {
	var out []rules.Process
	for _, pr := range job.Processes {
		if len(pr.Argv) == 0 {
			continue
		}
		p := rules.Process{PID: pr.PID, Leader: pr.PID == job.Group, Argv: pr.Argv}
		if v, ok := d.procs.Env(pr.PID, rules.EnvAgentHint); ok {
			p.Env = map[string]string{rules.EnvAgentHint: v}
		}
		out = append(out, p)
	}
	return out
}

// sameJob reports whether two walks found the same processes (their
// revisions aside).
func sameJob(a, b Job) bool {
	return a.Group == b.Group && slices.EqualFunc(a.Processes, b.Processes, func(x, y Process) bool {
		return x.PID == y.PID && x.Name == y.Name && x.Cwd == y.Cwd && slices.Equal(x.Argv, y.Argv)
	})
}

// state evaluates agent's manifest on the snapshot, holding a working →
// idle change without a visible idle marker for IdleConfirm.
func (d *Detector) state(ctx actor.Context, agent string, s *Snapshot) rules.State {
	m, ok := d.catalog.Get(agent)
	if !ok {
		return rules.StateIdle
	}
	res := m.Evaluate(rules.Input{Lines: s.Lines, Title: s.Title})
	state := res.State
	same := agent == d.told.Agent
	if res.SkipStateUpdate && same {
		state = d.told.State
	}
	if state == rules.StateIdle && d.told.State == rules.StateWorking && !res.VisibleIdle && same {
		if d.idleSince.IsZero() {
			d.idleSince = time.Now()
		}
		if time.Since(d.idleSince) < IdleConfirm {
			if !d.held {
				d.held = true
				d.timers.After(ctx, IdleConfirm/3, &holdCheck{})
			}
			return rules.StateWorking
		}
	} else {
		d.idleSince = time.Time{}
	}
	return state
}
