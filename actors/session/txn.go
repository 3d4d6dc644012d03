package session

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session/model"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// txn is the transaction of one message. It holds all that the message
// did, as values: the model's journal (model.Tx), the undos of what it
// changed beside the model (side), and the effects it has on everything
// else (effects). settle commits it and applies the effects, in a fixed
// order, once; abandon undoes the side changes and drops the rest. The
// session keeps no queue of its own: what a message did lives and dies
// with its txn.
type txn struct {
	*model.Tx
	before  focusState // the focus path when it began
	side    []sideUndo
	effects []effect
	// synced says the commit sent the agents actor a new focused tab, so
	// the answer goes through it (answerCall); deferred is an answer a
	// handler left for it.
	synced   bool
	deferred *agents.Answer
}

// An effect is what a transaction does outside the session's own state,
// once it commits. settle applies them kind by kind, in this order:
// stopPane, tellIDs and tell, startEntity, stopEntity, arrangeTab, then the events
// (publishEvent, in the order emitted, followed by the layout and focus
// events the commit implies).
type effect interface{ isEffect() }

type (
	// publishEvent publishes an event to the bus.
	publishEvent struct{ *events.Publish }
	// startPane hands the panes supervisor a pane actor the transaction
	// spawned under it (panes.Started).
	startPane struct{ pid *actor.PID }
	// stopPane has the panes supervisor stop a pane's actor, after the
	// requests already queued for it (panes.Stop).
	stopPane struct{ pid *actor.PID }
	// tellIDs tells a pane its public ids and label: it stamps its own
	// events with them.
	tellIDs struct{ p *paneRec }
	// startEntity starts the actor of a new workspace or tab (if it is
	// still there at commit).
	startEntity struct{ entity any }
	// stopEntity stops the actor of a workspace or tab that is gone.
	stopEntity struct{ id string }
	// arrangeTab says a tab's rectangles may have moved: layout_updated
	// is published and its panes resized.
	arrangeTab struct{ t *tab }
	// tell sends another actor a message (sent with tellIDs, in order).
	tell struct {
		to  *actor.PID
		msg any
	}
)

func (publishEvent) isEffect() {}
func (startPane) isEffect()    {}
func (stopPane) isEffect()     {}
func (tellIDs) isEffect()      {}
func (startEntity) isEffect()  {}
func (stopEntity) isEffect()   {}
func (arrangeTab) isEffect()   {}
func (tell) isEffect()         {}

// A sideUndo puts back one change a transaction made beside the model: the
// records the session keeps of its panes and overlays, and the pane actors
// it started. abandon runs them newest first.
type sideUndo interface {
	undo(s *Session, ctx actor.Context)
}

type (
	// termBack puts s.terms[id] back to rec (nil: none).
	termBack struct {
		id  string
		rec *paneRec
	}
	// overlayBack puts s.overlays[id] back to o (had false: none).
	overlayBack struct {
		id  string
		o   overlay
		had bool
	}
	// unspawn stops a pane actor the transaction started.
	unspawn struct{ pid *actor.PID }
	// unstart ends the terminals a restore started that got no actor.
	unstart struct{ starts []terminalStart }
)

func (u termBack) undo(s *Session, _ actor.Context) {
	if u.rec == nil {
		delete(s.terms, u.id)
	} else {
		s.terms[u.id] = u.rec
	}
}

func (u overlayBack) undo(s *Session, _ actor.Context) {
	if u.had {
		s.overlays[u.id] = u.o
	} else {
		delete(s.overlays, u.id)
	}
}

func (u unspawn) undo(s *Session, ctx actor.Context) {
	ctx.Send(s.spawner.Sup, &panes.Stop{PID: u.pid})
}

func (u unstart) undo(*Session, actor.Context) {
	for i := range u.starts {
		if st := &u.starts[i]; st.Err == nil && st.p.pid == nil {
			st.Abort()
		}
	}
}

// undo journals a side change the caller has just made, before anything
// can fail.
func (tx *txn) undo(u sideUndo) {
	tx.mustBeOpen()
	tx.side = append(tx.side, u)
}

// do queues an effect for the commit.
func (tx *txn) do(e effect) {
	tx.mustBeOpen()
	tx.effects = append(tx.effects, e)
}

// mustBeOpen refuses an effect outside a transaction (s.tx is nil between
// messages): it would belong to no commit, so it would never be applied.
func (tx *txn) mustBeOpen() {
	if tx == nil {
		panic("session: a change or effect outside a transaction (begin ... settle)")
	}
}

// tell sends msg to an actor once the transaction commits.
func (s *Session) tell(to *actor.PID, msg any) { s.tx.do(tell{to, msg}) }

// dirty reports whether the transaction did anything at all.
func (tx *txn) dirty() bool { return tx.Changed() || len(tx.side) > 0 || len(tx.effects) > 0 }

// putTerm records p as its terminal's pane, within the transaction.
func (s *Session) putTerm(p *paneRec) {
	s.tx.undo(termBack{id: p.TermID(), rec: s.terms[p.TermID()]})
	s.terms[p.TermID()] = p
}

// dropTerm forgets p's terminal record, within the transaction.
func (s *Session) dropTerm(p *paneRec) {
	if old, ok := s.terms[p.TermID()]; ok {
		s.tx.undo(termBack{id: p.TermID(), rec: old})
		delete(s.terms, p.TermID())
	}
}

// begin opens the transaction of a message that may change the topology
// and returns it; it is also s.tx until settle or abandon ends it.
func (s *Session) begin() *txn {
	s.tx = &txn{Tx: s.m.Begin(), before: s.focusNow()}
	return s.tx
}

// abandon discards the open transaction: the model and the side records go
// back as they were, newest first, the pane actors it started stop, and its
// effects are dropped unapplied.
func (s *Session) abandon(ctx actor.Context) {
	tx := s.tx
	for i := len(tx.side) - 1; i >= 0; i-- {
		tx.side[i].undo(s, ctx)
	}
	tx.Discard()
	tx.side, tx.effects, tx.deferred = nil, nil, nil // nothing of it is applied, even through a stale reference
	s.tx = nil                                       // a change outside a transaction fails at once
}

// conclude discards the transaction of a call that failed, so an error
// answer never leaves part of a change behind; an empty one is left for
// settle to commit.
func (s *Session) conclude(ctx actor.Context, reply *kit.Reply) {
	if reply != nil && reply.Err != nil && s.tx.dirty() {
		before := s.tx.before
		s.abandon(ctx)
		s.begin().before = before
	}
}

// settle commits the message's transaction and applies its effects. The
// order is fixed: panes stop and learn their ids, entity actors start and
// stop and tabs are resized, the read side is published, the agents actor
// and the keeper are told, and the events go out last, so a reader woken
// by one finds the change.
func (s *Session) settle(ctx actor.Context, tx *txn) {
	topo := tx.Changed()
	tx.Commit()
	s.tx = nil // a change outside a transaction fails at once
	var evs []*events.Publish
	var tabs []*tab
	for _, e := range tx.effects {
		switch e := e.(type) {
		case publishEvent:
			evs = append(evs, e.Publish)
		case startPane:
			ctx.Send(s.spawner.Sup, &panes.Started{PID: e.pid})
		case stopPane:
			ctx.Send(s.spawner.Sup, &panes.Stop{PID: e.pid})
		case arrangeTab:
			tabs = appendNew(tabs, e.t)
		}
	}
	for _, e := range tx.effects {
		switch e := e.(type) {
		case tellIDs:
			if p := e.p; s.terms[p.TermID()] == p {
				ctx.Send(p.pid, &pane.SetIDs{IDs: pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Label: p.Label()}})
			}
		case tell:
			ctx.Send(e.to, e.msg)
		}
	}
	for _, t := range tabs {
		if t.Root() != nil && t.WS().TabIndex(t) >= 0 && s.m.Workspace(t.WS().ID()) == t.WS() {
			evs = append(evs, &events.Publish{Data: protocol.LayoutUpdatedEvent{Layout: s.layoutSnapshot(t)}, Fields: s.tabFields(t)})
		}
	}
	s.settleEntities(ctx, tx.effects, tabs)
	after := s.focusNow()
	if before := tx.before; after != before {
		evs = s.focusEvents(evs, before, after)
	}
	s.publish(topo) // before the answer and the events: a read after them sees this
	if len(evs) > 0 || after != tx.before {
		tx.synced = s.place(ctx)
	}
	if len(evs) > 0 {
		s.changed(ctx) // to the session file, in a while
	}
	if s.opts.Events != nil {
		for _, e := range evs {
			ctx.Send(s.opts.Events, e)
		}
	}
}

// focusEvents appends the focus events of a move from before to after.
func (s *Session) focusEvents(evs []*events.Publish, before, after focusState) []*events.Publish {
	if after.ws != before.ws && after.ws != "" {
		evs = append(evs, &events.Publish{Data: protocol.WorkspaceFocusedEvent{WorkspaceID: after.ws}, Fields: s.workspaceFields(s.m.Focused())})
	}
	if after.tab != before.tab && after.tab != "" {
		t := s.m.Focused().Active()
		evs = append(evs, &events.Publish{Data: protocol.TabRefEvent{Kind: "tab_focused", TabID: t.ID(), WorkspaceID: t.WS().ID()}, Fields: s.tabFields(t)})
	}
	if after.pane != before.pane && after.pane != "" {
		p := s.terms[after.pane]
		evs = append(evs, &events.Publish{Data: protocol.PaneRefEvent{Kind: "pane_focused", PaneID: p.ID(), WorkspaceID: p.WS().ID()}, Fields: s.paneFields(p)})
	}
	return evs
}

// settleEntities has the supervisor start and stop the entity actors of a
// committed transaction and send the tabs whose rectangles moved their
// panes' new sizes.
func (s *Session) settleEntities(ctx actor.Context, fx []effect, tabs []*tab) {
	for _, e := range fx {
		if e, ok := e.(startEntity); ok {
			switch e := e.entity.(type) {
			case *workspace:
				if s.m.Alive(e) {
					ctx.Send(s.ents, &entities.StartWorkspace{Seed: wsactor.Seed{ID: e.ID(), Label: e.Label(), Auto: e.Auto(), Tokens: e.Tokens(), Session: ctx.Self(),
						Log: kit.LazyWith(s.opts.Log, slog.String("workspace", e.ID()))}})
				}
			case *tab:
				if s.m.TabAlive(e) {
					s.startTab(ctx, e)
				}
			}
		}
	}
	for _, e := range fx {
		if e, ok := e.(stopEntity); ok {
			ctx.Send(s.ents, &entities.Retire{ID: e.id})
		}
	}
	for _, t := range tabs {
		if s.m.TabAlive(t) {
			ctx.Send(s.ents, &entities.Arrange{ID: t.ID(), Arrange: s.arrangement(t)})
		}
	}
}

// appendNew appends t unless it is there already.
func appendNew(ts []*tab, t *tab) []*tab {
	for _, have := range ts {
		if have == t {
			return ts
		}
	}
	return append(ts, t)
}
