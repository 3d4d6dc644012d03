package detector

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/detect"
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
}

// SetCatalog replaces the manifests (server.reload_agent_manifests).
type SetCatalog struct{ Catalog *detect.Catalog }

// Saw is told to the pane after each snapshot that changed what the
// detector knows; Revision is the snapshot's, so the pane can drop a
// result older than one it already has.
type Saw struct {
	Revision uint64
	Agent    string // "" for none
	State    detect.State
	Cwd      string // the foreground job's working directory, "" if unknown
}

// holdCheck re-evaluates a held working → idle change.
type holdCheck struct{}

// Detector is the actor.
type Detector struct {
	catalog *detect.Catalog
	procs   procs.Table
	last    *Snapshot
	told    Saw
	// idleSince is when a working → idle change was first seen.
	idleSince time.Time
	held      bool // a holdCheck is pending
	timers    api.Timers
}

// Props returns the props of a detector reading table; a nil catalog
// reports the foreground cwd only.
func Props(catalog *detect.Catalog, table procs.Table) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &Detector{catalog: catalog, procs: table} }, api.Guarded(nil))
}

// Supervision is the strategy a pane supervises its detector with:
// restart it (it rebuilds from the next snapshot) and log why.
func Supervision(log *slog.Logger) actor.SupervisorStrategy {
	if log == nil {
		log = slog.Default()
	}
	return actor.NewOneForOneStrategy(10, time.Minute, func(reason any) actor.Directive {
		log.Error("agent detector failed; restarting it", "reason", reason)
		return actor.RestartDirective
	})
}

// Receive implements actor.Actor.
func (d *Detector) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*api.Fired); ok {
		msg = d.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *Snapshot:
		d.last = msg
		d.evaluate(ctx)
	case *SetCatalog:
		d.catalog = msg.Catalog
		d.evaluate(ctx)
	case *holdCheck:
		d.held = false
		d.evaluate(ctx)
	case *actor.Stopping, *actor.Restarting:
		d.timers.StopAll()
	default:
		api.Unhandled(ctx, msg, nil)
	}
}

// evaluate recognises the agent in the last snapshot's foreground job and
// its state, and tells the pane when either, or the cwd, changed.
func (d *Detector) evaluate(ctx actor.Context) {
	s := d.last
	if s == nil {
		return
	}
	saw := Saw{Revision: s.Revision, State: detect.StateUnknown}
	if s.Group > 0 {
		saw.Cwd = d.procs.Cwd(s.Group)
	}
	if d.catalog != nil && s.Shell > 0 && s.Group > 0 {
		saw.Agent, _ = detect.Recognize(d.job(s))
	}
	if saw.Agent != "" {
		saw.State = d.state(ctx, saw.Agent, s)
	}
	if saw.Agent == d.told.Agent && saw.State == d.told.State && saw.Cwd == d.told.Cwd {
		return
	}
	d.told = saw
	ctx.Send(ctx.Parent(), &saw)
}

// job describes the foreground job's processes for recognition.
func (d *Detector) job(s *Snapshot) []detect.Process {
	var out []detect.Process
	for _, e := range d.procs.Job(s.Shell, s.Group) {
		argv := d.procs.Argv(e.PID)
		if len(argv) == 0 {
			continue
		}
		p := detect.Process{PID: e.PID, Leader: e.PID == s.Group, Argv: argv}
		if v, ok := d.procs.Env(e.PID, detect.EnvAgentHint); ok {
			p.Env = map[string]string{detect.EnvAgentHint: v}
		}
		out = append(out, p)
	}
	return out
}

// state evaluates agent's manifest on the snapshot, holding a working →
// idle change without a visible idle marker for IdleConfirm.
func (d *Detector) state(ctx actor.Context, agent string, s *Snapshot) detect.State {
	m, ok := d.catalog.Get(agent)
	if !ok {
		return detect.StateIdle
	}
	res := m.Evaluate(detect.Input{Lines: s.Lines, Title: s.Title})
	state := res.State
	same := agent == d.told.Agent
	if res.SkipStateUpdate && same {
		state = d.told.State
	}
	if state == detect.StateIdle && d.told.State == detect.StateWorking && !res.VisibleIdle && same {
		if d.idleSince.IsZero() {
			d.idleSince = time.Now()
		}
		if time.Since(d.idleSince) < IdleConfirm {
			if !d.held {
				d.held = true
				d.timers.After(ctx, IdleConfirm/3, &holdCheck{})
			}
			return detect.StateWorking
		}
	} else {
		d.idleSince = time.Time{}
	}
	return state
}
