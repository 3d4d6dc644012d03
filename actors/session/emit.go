package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
)

// Every change publishes its event exactly once, after it is applied:
// the model's operations return their events, which the message's
// transaction keeps (txn.go); settle sends them once it commits,
// adding the focus and layout events that follow from the difference
// between before and after, and abandon drops them.

// place tells the agents actor where panes are when that changed
// (view.Records.Placement). Every change to where panes are publishes an
// event, so settle asks only after a message that published one or moved
// the focus.
//
// It reports whether the focused tab it sent is new.
func (s *Session) place(ctx actor.Context) (newTab bool) {
	pl, newTab := s.recs.Placement()
	if pl != nil {
		ctx.Send(s.opts.Agents, pl)
	}
	return newTab
}

// updateFacts stores what a pane told us (view.Records.Facts) and passes
// on what changed: its agent's or screen's state to the agents actor, a
// new live folder to the session file, a new title as pane_updated.
func (s *Session) updateFacts(ctx actor.Context, p *paneRec, msg *pane.Facts) {
	agent, updated := s.recs.Facts(p, msg)
	if agent {
		ctx.Send(s.opts.Agents, msg)
	}
	if f := msg.ForegroundCwd; f != "" && f != p.LiveCwd() {
		s.tx.SetLiveCwd(p.Pane, f) // where its next shell starts
		s.changed(ctx)
	}
	s.apply(updated)
}
