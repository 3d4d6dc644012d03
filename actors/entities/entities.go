package entities

import (
	"log/slog"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the supervisor.
type Options struct {
	// WorkspaceProps and TabProps make the entity actors; nil means
	// wsactor.Props and tabactor.Props (tests wrap them).
	WorkspaceProps func(*kit.Reseed[wsactor.Seed]) *actor.Props
	TabProps       func(*kit.Reseed[tabactor.Seed]) *actor.Props
	Log            *slog.Logger
}

// StartWorkspace starts the actor of a workspace the session made. Its
// Session, when not set, is filled in with the supervisor's parent.
type StartWorkspace struct{ Seed wsactor.Seed }

// StartTab starts the actor of a tab the session made, knowing the size
// revisions its panes were started at (Seed.Sizes).
type StartTab struct{ Seed tabactor.Seed }

// Retire stops the actor of a workspace or tab that is gone, after what
// is already queued for it.
type Retire struct{ ID string }

// Arrange hands tab ID's actor the size of each of its panes.
type Arrange struct {
	ID      string
	Arrange *tabactor.Arrange
}

// Deliver hands workspace or tab ID's actor one of its calls (a
// *wsactor.Request or *tabactor.Request), which answers the sender.
type Deliver struct {
	ID  string
	Msg kit.CallCarrier
}

// CarriedCall implements kit.CallCarrier.
func (d *Deliver) CarriedCall() *kit.Call { return d.Msg.CarriedCall() }

// entity is one workspace's or tab's actor.
type entity struct {
	pid *actor.PID
	ws  *kit.Reseed[wsactor.Seed]  // set for a workspace
	tab *kit.Reseed[tabactor.Seed] // set for a tab
	// last is the last Arrange a tab's actor was given, which a restarted
	// one (seeded with no sizes) is given again.
	last *tabactor.Arrange
}

// Supervisor is the actor that owns the workspace and tab actors.
type Supervisor struct {
	opts     Options
	entities map[string]*entity
	spawned  uint64 // entity actors started, for their names
}

// Props returns the supervisor's props.
func Props(opts Options) *actor.Props {
	if opts.WorkspaceProps == nil {
		opts.WorkspaceProps = wsactor.Props
	}
	if opts.TabProps == nil {
		opts.TabProps = tabactor.Props
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Supervisor{opts: opts, entities: map[string]*entity{}}
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (s *Supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *StartWorkspace:
		if s.entities[m.Seed.ID] != nil {
			return
		}
		if m.Seed.Session == nil {
			m.Seed.Session = ctx.Parent()
		}
		box := kit.NewReseed(m.Seed)
		s.spawn(ctx, m.Seed.ID, s.opts.WorkspaceProps(box), &entity{ws: box})
	case *StartTab:
		if s.entities[m.Seed.ID] != nil {
			return
		}
		if m.Seed.Session == nil {
			m.Seed.Session = ctx.Parent()
		}
		box := kit.NewReseed(m.Seed)
		s.spawn(ctx, m.Seed.ID, s.opts.TabProps(box), &entity{tab: box})
	case *Retire:
		if e := s.entities[m.ID]; e != nil {
			delete(s.entities, m.ID)
			ctx.Poison(e.pid)
		}
	case *Arrange:
		if e := s.entities[m.ID]; e != nil && e.tab != nil {
			e.last = m.Arrange
			ctx.Send(e.pid, m.Arrange)
		}
	case *Deliver:
		e := s.entities[m.ID]
		if e == nil {
			kind := "tab"
			if _, ok := m.Msg.(*wsactor.Request); ok {
				kind = "workspace"
			}
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s %s has no actor (see the server log)", kind, m.ID)))
			return
		}
		ctx.RequestWithCustomSender(e.pid, m.Msg, ctx.Sender())
	case *wsactor.Changed:
		if e := s.fresh(ctx, m.ID, m.Rev); e != nil && e.ws != nil {
			seed := e.ws.Get()
			seed.Label, seed.Tokens, seed.Rev = m.Label, m.Tokens, m.Rev
			e.ws.Set(seed)
			ctx.Send(seed.Session, m)
		}
		answer(ctx, m.To, m.Answer)
	case *tabactor.Changed:
		if e := s.fresh(ctx, m.ID, m.Rev); e != nil && e.tab != nil {
			seed := e.tab.Get()
			seed.Label, seed.Rev = m.Label, m.Rev
			e.tab.Set(seed)
			ctx.Send(seed.Session, m)
		}
		answer(ctx, m.To, m.Answer)
	}
}

// fresh is the entity whose actor (the sender) told a Changed of
// revision rev, if it is newer than the revision of the record held for
// it: one is not from an actor that failed after it sent a newer one, nor
// from one retired (the id's actor is another one, or none), and is
// dropped.
func (s *Supervisor) fresh(ctx actor.Context, id string, rev uint64) *entity {
	e := s.entities[id]
	if e == nil || !e.pid.Equal(ctx.Sender()) || rev <= e.rev() {
		return nil
	}
	return e
}

// rev is the revision of the record a restart starts from.
func (e *entity) rev() uint64 {
	if e.ws != nil {
		return e.ws.Get().Rev
	}
	return e.tab.Get().Rev
}

// answer sends the answer of the call that made a change, once the change
// is passed on to the session (or dropped).
func answer(ctx actor.Context, to *actor.PID, r *kit.Reply) {
	if to != nil && r != nil {
		ctx.Send(to, r)
	}
}

// spawn starts an entity's actor, named after its id and a serial
// number, so a rebuilt actor never waits for its predecessor's name to be
// released.
func (s *Supervisor) spawn(ctx actor.Context, id string, props *actor.Props, e *entity) {
	s.spawned++
	pid, err := ctx.SpawnNamed(props, id+"."+strconv.FormatUint(s.spawned, 10))
	if err != nil {
		s.opts.Log.Error("start entity actor", "id", id, "err", err)
		return
	}
	e.pid = pid
	s.entities[id] = e
}

// entityRestarts bounds how often one entity actor may fail: past it, a
// fault that recurs at every start would spin, so the actor is stopped.
const entityRestarts = 10

// HandleFailure supervises the entity actors (protoactor asks an actor's
// own HandleFailure before its props' strategy), on the supervisor's
// goroutine between two of its messages. A failed actor is restarted
// from its record with its mailbox kept; a restarted tab starts knowing
// no sizes and is given the last arrangement again, behind what is queued.
func (s *Supervisor) HandleFailure(sys *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, rs *actor.RestartStatistics, reason, _ any) {
	for id, e := range s.entities {
		if !e.pid.Equal(child) {
			continue
		}
		if rs.Fail(); rs.NumberOfFailures(10*time.Second) > entityRestarts {
			s.opts.Log.Error("entity actor keeps failing; stopping it", "id", id, "reason", reason)
			delete(s.entities, id)
			sup.StopChildren(child)
			return
		}
		s.opts.Log.Error("entity actor failed; restarting it from its last record", "id", id, "reason", reason)
		if e.tab != nil && e.last != nil { // else its seed's sizes are still the panes'
			seed := e.tab.Get()
			seed.Sizes = nil
			e.tab.Set(seed)
		}
		sup.RestartChildren(child)
		if e.tab != nil && e.last != nil {
			sys.Root.Send(child, e.last) // behind what is queued, in the new instance
		}
		return
	}
	s.opts.Log.Error("actor failed; stopping it", "actor", child.Id, "reason", reason)
	sup.StopChildren(child)
}
