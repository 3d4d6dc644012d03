package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// txn is the transaction of one message. It holds all that the message
// did, as values: the model's journal (model.Tx), the undos of what it
// changed beside the model (side), the events and effects the model's
// operations returned (out, a model.Out: Arrange, TellIDs,
// TellRightClick, Start, Retire, Stop), and what only the session can say
// (fx: a pane actor it started, a message to tell). settle commits it and
// applies them, in a fixed order, once; abandon undoes the side changes
// and drops the rest. The session keeps no queue of its own: what a
// message did lives and dies with its txn.
type txn struct {
	*model.Tx
	before model.Focus // the focus path when it began
	side   []sideUndo
	out    model.Out
	fx     []effect
	// synced says the commit sent the agents actor a new focused tab, so
	// the answer goes through it (handle); deferred is an answer a
	// handler left for it. later holds a fact's View back while more
	// messages wait (view.Records.Publish).
	synced, later bool
	deferred      *agents.Answer
}

// An effect is what a transaction does outside the session's own state
// that the model cannot say, once it commits: settle starts the pane
// actors first and sends the tells after the panes learn their ids.
type effect interface{ isEffect() }

type (
	// startPane hands the panes supervisor a pane actor the transaction
	// spawned under it (panes.Started).
	startPane struct{ pid *actor.PID }
	// tell sends another actor a message.
	tell struct {
		to  *actor.PID
		msg any
	}
)

func (startPane) isEffect() {}
func (tell) isEffect()      {}

// A sideUndo puts back one change a transaction made beside the model: the
// records the session keeps of its panes, and the pane actors
// it started. abandon runs them newest first.
type sideUndo interface {
	undo(s *Session, ctx actor.Context)
}

type (
	// termBack puts terminal id's record back to rec (nil: none).
	termBack struct {
		id  string
		rec *paneRec
	}
	// unspawn stops a pane actor the transaction started.
	unspawn struct{ pid *actor.PID }
)

func (u termBack) undo(s *Session, _ actor.Context) { s.recs.Set(u.id, u.rec) }

func (u unspawn) undo(s *Session, ctx actor.Context) {
	ctx.Send(s.spawner.Sup, &panes.Stop{PID: u.pid})
}

// undo journals a side change the caller has just made, before anything
// can fail.
func (tx *txn) undo(u sideUndo) {
	tx.mustBeOpen()
	tx.side = append(tx.side, u)
}

// do queues an effect the model cannot say for the commit.
func (tx *txn) do(e effect) {
	tx.mustBeOpen()
	tx.fx = append(tx.fx, e)
}

// add queues what a model operation returned (or the session says in the
// model's terms) for the commit.
func (tx *txn) add(out model.Out) {
	tx.mustBeOpen()
	tx.out.Events = append(tx.out.Events, out.Events...)
	tx.out.Effects = append(tx.out.Effects, out.Effects...)
}

// arrange says a tab's rectangles may have moved: layout_updated is
// published and its panes resized at commit.
func (tx *txn) arrange(t *tab) { tx.add(model.Out{Effects: []model.Effect{model.Arrange{Tab: t}}}) }

// dropped is the record of the pane with terminal id the transaction
// dropped (dropTerm), whose actor a Stop stops at commit.
func (tx *txn) dropped(id string) *paneRec {
	for i := len(tx.side) - 1; i >= 0; i-- {
		if u, ok := tx.side[i].(termBack); ok && u.id == id && u.rec != nil {
			return u.rec
		}
	}
	return nil
}

// mustBeOpen refuses an effect outside a transaction (s.tx is nil between
// messages): it would belong to no commit, so it would never be applied.
func (tx *txn) mustBeOpen() {
	if tx == nil {
		panic("session: a change or effect outside a transaction (begin ... settle)")
	}
}

// dirty reports whether the transaction did anything at all.
func (tx *txn) dirty() bool {
	return tx.Changed() || len(tx.side) > 0 || len(tx.out.Events) > 0 || len(tx.out.Effects) > 0 || len(tx.fx) > 0
}

// putTerm records p as its terminal's pane, within the transaction.
func (s *Session) putTerm(p *paneRec) {
	s.tx.undo(termBack{id: p.TermID(), rec: s.recs.Set(p.TermID(), p)})
}

// dropTerm forgets p's terminal record, within the transaction.
func (s *Session) dropTerm(p *paneRec) {
	if old := s.recs.Set(p.TermID(), nil); old != nil {
		s.tx.undo(termBack{id: p.TermID(), rec: old})
	}
}

// begin opens the transaction of a message that may change the topology
// and returns it; it is also s.tx until settle or abandon ends it.
func (s *Session) begin() *txn {
	s.tx = &txn{Tx: s.m.Begin(), before: s.m.Focus()}
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
	tx.side, tx.out, tx.fx, tx.deferred = nil, model.Out{}, nil, nil // nothing of it is applied, even through a stale reference
	s.tx = nil                                                       // a change outside a transaction fails at once
}

// settle commits the message's transaction and applies its events and
// effects. The order is fixed: pane actors start and stop and panes learn
// their ids, entity actors start and stop and tabs are resized, the read
// side is published, the agents actor and the keeper are told, and the
// events go out last, so a reader woken by one finds the change.
func (s *Session) settle(ctx actor.Context, tx *txn) {
	topo := tx.Changed()
	tx.Commit()
	s.tx = nil // a change outside a transaction fails at once
	evs := make([]*events.Publish, 0, len(tx.out.Events))
	for _, e := range tx.out.Events {
		evs = append(evs, publishOf(e))
	}
	for _, e := range tx.fx {
		if e, ok := e.(startPane); ok {
			ctx.Send(s.spawner.Sup, &panes.Started{PID: e.pid})
		}
	}
	var tabs []*tab
	for _, e := range tx.out.Effects {
		switch e := e.(type) {
		case model.Stop: // its records went with the transaction (apply)
			if r := tx.dropped(e.Pane.TermID()); r != nil {
				ctx.Send(s.spawner.Sup, &panes.Stop{PID: r.PID})
			}
		case model.Arrange:
			tabs = appendNew(tabs, e.Tab)
		case model.TellIDs:
			if p := s.recs.Of(e.Pane); p != nil {
				ctx.Send(p.PID, &pane.SetIDs{IDs: pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Label: p.Label()}})
			}
		case model.TellRightClick:
			if p := s.recs.Of(e.Pane); p != nil {
				ctx.Send(p.PID, &pane.SetRightClick{ToPane: e.Pane.RightClick() == "pane"})
			}
		}
	}
	for _, e := range tx.fx {
		if e, ok := e.(tell); ok {
			ctx.Send(e.to, e.msg)
		}
	}
	for _, t := range tabs {
		if t.Root() != nil && t.WS().TabIndex(t) >= 0 && s.m.Workspace(t.WS().ID()) == t.WS() {
			evs = append(evs, publishOf(model.Event{Data: protocol.LayoutUpdatedEvent{Layout: s.recs.Layout(t)}, Fields: s.recs.Fields(t)}))
		}
	}
	s.settleEntities(ctx, tx.out.Effects, tabs)
	after := s.m.Focus()
	if after != tx.before {
		for _, e := range s.m.FocusEvents(s.env(), tx.before) {
			evs = append(evs, publishOf(e))
		}
	}
	if s.recs.Publish(topo, tx.later) { // before the answer and the events: a read after them sees this
		ctx.Send(ctx.Self(), &view.Owed{}) // held back: published after what is queued now
	}
	if (len(evs) > 0 || after != tx.before) && !tx.later {
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

// publishOf is the bus's message of a model event.
func publishOf(e model.Event) *events.Publish {
	f := e.Fields
	return &events.Publish{Data: e.Data, Fields: events.Fields{WorkspaceID: f.WorkspaceID, TabID: f.TabID,
		PaneID: f.PaneID, TermID: f.TermID, Label: f.Label, Revision: f.Revision}}
}

// settleEntities has the supervisor start and stop the entity actors of a
// committed transaction and send the tabs whose rectangles moved their
// panes' new sizes.
func (s *Session) settleEntities(ctx actor.Context, fx []model.Effect, tabs []*tab) {
	for _, e := range fx {
		if e, ok := e.(model.Start); ok {
			switch e := e.Entity.(type) {
			case *workspace:
				if s.m.Alive(e) {
					ctx.Send(s.ents, &entities.StartWorkspace{Seed: wsactor.Seed{ID: e.ID(), Label: e.Label(), Auto: e.Auto(), Tokens: e.Tokens(), Session: ctx.Self(),
						Log: kit.LazyWith(s.opts.Log, "workspace", e.ID())}})
				}
			case *tab:
				if s.m.TabAlive(e) {
					s.startTab(ctx, e)
				}
			}
		}
	}
	for _, e := range fx {
		if e, ok := e.(model.Retire); ok {
			ctx.Send(s.ents, &entities.Retire{ID: e.ID})
		}
	}
	for _, t := range tabs {
		if s.m.TabAlive(t) {
			ctx.Send(s.ents, &entities.Arrange{ID: t.ID(), Arrange: s.recs.Arrange(t)})
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
