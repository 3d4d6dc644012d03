package events

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// events.wait and events.subscribe are the bus's own methods: it
// resolves their ids from the session's newest published state
// (ReadSide), once that state shows every message sent to the session
// before the call came, and answers the connection itself. The session
// is not asked.

// Registry holds the methods the table gives the bus.
var Registry = kit.NewRegistry(protocol.OwnerEvents, "actors/events", map[string]func(*Bus, actor.Context, *kit.Call){
	"events.wait":      (*Bus).eventsWait,
	"events.subscribe": (*Bus).eventsSubscribe,
})

// ReadSide is the session's published state the bus answers events.wait
// from (actors/session/view.ReadSide).
type ReadSide interface {
	// Present is the event a wait would get when the state it waits for
	// already holds, nil when it does not.
	Present(Match) protocol.EventData
	// ResolveWait turns a wait's match into the bus's filter: every id in
	// any form the session accepts becomes the canonical one, and an id
	// naming nothing answers the entity's not-found code.
	ResolveWait(*protocol.EventMatch) (Match, error)
	// AfterCaughtUp reports whether every message sent to the session so
	// far is handled and published; when not, it calls f (on another
	// goroutine, once) when they are.
	AfterCaughtUp(f func()) bool
	// ResolvePanes resolves the pane ids of an events.subscribe's entries
	// ("" for an entry without one gets a zero PaneRef), all from one
	// state: an id naming nothing answers pane_not_found.
	ResolvePanes(ids []string) ([]PaneRef, error)
}

// PaneRef is a pane as the session last published it: what a
// subscription entry naming it needs.
type PaneRef struct {
	PaneID, WorkspaceID, TabID string
	TermID                     string
	// PID is the pane's actor, which runs an entry's output matcher.
	PID *actor.PID
	// Status is the pane's present agent status, as its
	// pane_agent_status_changed event would carry it.
	Status protocol.PaneAgentStatusChangedEvent
}

// PropsRead is PropsCarried for a bus that answers events.wait from the
// session's read side.
func PropsRead(history int, log *slog.Logger, c *Carried, reads ReadSide) *actor.Props {
	return props(history, log, c, reads.Present, reads, DefaultStallTimeout)
}

// caughtUp tells the bus the read side has caught up with a wait's or a
// subscription's call.
type caughtUp struct {
	call *kit.Call
	to   *actor.PID
}

// eventsWait resolves the wait once the read side shows every change the
// session was sent before the call came (a write the caller saw answered
// included), so the ids and the state it checks are as new as the
// session's were when it answered waits itself.
func (b *Bus) eventsWait(ctx actor.Context, call *kit.Call) { b.afterCaughtUp(ctx, call) }

// afterCaughtUp starts call (startCall) once the read side shows every
// change sent to the session before it.
func (b *Bus) afterCaughtUp(ctx actor.Context, call *kit.Call) {
	if b.reads == nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: this bus has no read side", call.Method)))
		return
	}
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if b.reads.AfterCaughtUp(func() { root.Send(self, &caughtUp{call: call, to: to}) }) {
		b.startCall(ctx, call, to)
	}
}

// startCall runs a call the read side has caught up with.
func (b *Bus) startCall(ctx actor.Context, call *kit.Call, to *actor.PID) {
	if call.Method == "events.subscribe" {
		b.startSubscribe(ctx, call, to)
		return
	}
	b.startWait(ctx, call, to)
}

// startWait resolves the wait's ids from the newest View and hands it to
// wait.
func (b *Bus) startWait(ctx actor.Context, call *kit.Call, to *actor.PID) {
	prm := call.Params.(*protocol.EventsWaitParams)
	match, err := b.reads.ResolveWait(prm.MatchEvent)
	if err != nil {
		ctx.Send(to, kit.Fail(err))
		return
	}
	var timeout time.Duration
	if prm.TimeoutMS != nil {
		timeout = max(time.Duration(*prm.TimeoutMS)*time.Millisecond, time.Millisecond)
	}
	b.wait(ctx, &Wait{Sub: to, Match: match, Timeout: timeout})
}
