package panes

import (
	"log/slog"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// Options configure the supervisor.
type Options struct {
	Log *slog.Logger
}

// SetSession names the session, which Gone is told to.
type SetSession struct{ PID *actor.PID }

// Started says the pane actor PID, spawned with this actor as its parent,
// belongs to a committed pane.
type Started struct{ PID *actor.PID }

// Stop stops a pane actor the session is done with (its pane closed, or
// the message that started it was discarded), after the calls already
// queued for it; its end is not told the session.
type Stop struct{ PID *actor.PID }

// StopAll stops every pane actor; the answer (a *StoppedAll) comes once
// all have stopped. Nothing is told the session from then on.
type StopAll struct{}

// StoppedAll answers StopAll.
type StoppedAll struct{ Panes int }

// Gone tells the session that the actor of terminal TermID stopped without
// being asked to (it failed): its pane closes as if its program had
// exited.
type Gone struct {
	TermID string
	PID    *actor.PID
}

// Fact marks Gone a kit.Fact.
func (*Gone) Fact() {}

// Supervisor is the actor that owns the pane actors.
type Supervisor struct {
	opts    Options
	session *actor.PID
	// live are the pane actors told Started and not yet stopped, by
	// actor id; gone are those that stopped before their Started or Stop
	// came, dropped those told Stop that have not yet stopped (StopAll
	// waits for them too: a pane closed just before the server's stop
	// still hangs up its terminal, and the server awaits what that
	// leaves running). stopping holds the StopAll's asker until it is
	// answered.
	live     map[string]*actor.PID
	gone     map[string]bool
	dropped  map[string]*actor.PID
	stopping *actor.PID
	stopped  bool
}

// Props returns the supervisor's props.
func Props(opts Options) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		return &Supervisor{opts: opts, live: map[string]*actor.PID{}, gone: map[string]bool{}, dropped: map[string]*actor.PID{}}
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (s *Supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *SetSession:
		s.session = m.PID
	case *Started:
		if s.gone[m.PID.Id] { // it failed before the session's word came
			delete(s.gone, m.PID.Id)
			s.tellGone(ctx, m.PID)
			return
		}
		s.live[m.PID.Id] = m.PID
		if s.stopped { // a pane committed while the stop was under way
			ctx.Watch(m.PID)
			ctx.Stop(m.PID)
		}
	case *Stop:
		delete(s.live, m.PID.Id)
		if s.gone[m.PID.Id] {
			delete(s.gone, m.PID.Id)
		} else {
			s.dropped[m.PID.Id] = m.PID
			ctx.Poison(m.PID)
		}
		s.answerStop(ctx)
	case *List: // handoff.go
		s.list(ctx)
	case *StopAll:
		s.stopAll(ctx)
		s.stopping = ctx.Sender()
		s.answerStop(ctx)
	case *actor.Stopping:
		s.stopAll(ctx) // stopped with its parent: its panes go too
	case *actor.Terminated:
		s.terminated(ctx, m.Who)
	}
}

// stopAll stops every live pane actor, watching it so its end is told
// here even when it is already gone.
func (s *Supervisor) stopAll(ctx actor.Context) {
	if s.stopped {
		return
	}
	s.stopped = true
	for _, pid := range s.live {
		ctx.Watch(pid)
		ctx.Stop(pid)
	}
	// A dropped pane is on its way out already; watching it tells its
	// end here even when that came before (a Stop for a pane that had
	// ended on its own: its Terminated was taken as live).
	for _, pid := range s.dropped {
		ctx.Watch(pid)
	}
}

// terminated takes a pane actor's end: told to the session unless the
// stop is under way (the session is gone by then) or the pane was never
// started (its message was discarded: the session stopped it).
func (s *Supervisor) terminated(ctx actor.Context, who *actor.PID) {
	pid, ok := s.live[who.Id]
	switch {
	case s.dropped[who.Id] != nil:
		delete(s.dropped, who.Id)
		s.answerStop(ctx)
		return
	case !ok:
		if !s.stopped && strings.HasPrefix(who.Id, ctx.Self().Id+"/") {
			s.gone[who.Id] = true // its Started or Stop is on its way
		}
		return
	}
	delete(s.live, who.Id)
	if s.stopped {
		s.answerStop(ctx)
		return
	}
	s.tellGone(ctx, pid)
}

// tellGone tells the session a pane actor stopped on its own.
func (s *Supervisor) tellGone(ctx actor.Context, pid *actor.PID) {
	if s.session != nil && !s.stopped {
		ctx.Send(s.session, &Gone{TermID: pid.Id[strings.LastIndexByte(pid.Id, '/')+1:], PID: pid})
	}
}

// answerStop answers StopAll once no pane actor is left, live or dropped.
func (s *Supervisor) answerStop(ctx actor.Context) {
	if s.stopping != nil && len(s.live) == 0 && len(s.dropped) == 0 {
		ctx.Send(s.stopping, &StoppedAll{})
		s.stopping = nil
	}
}

// HandleFailure supervises the pane actors (protoactor asks an actor's own
// HandleFailure before its props' strategy). A pane that fails is stopped,
// never restarted: a restart would start a new shell under the old
// identity, so the pane closes as if its program had exited (Gone).
func (s *Supervisor) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, _ *actor.RestartStatistics, reason, _ any) {
	s.opts.Log.Error("pane actor failed; stopping it", "actor", child.Id, "reason", reason)
	sup.StopChildren(child)
}
