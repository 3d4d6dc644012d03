package events

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// DefaultHistory is how many events the bus retains.
const DefaultHistory = 1024

// DefaultStallTimeout is how long a subscriber's batch may stay
// unwritten before the subscriber is dropped with events_lost, as Herdr
// 0.9.2 drops an observer that makes no progress.
const DefaultStallTimeout = 30 * time.Second

// maxBatch bounds the lines of one batch.
const maxBatch = 256

// Fields are the filterable facts of an event.
type Fields struct {
	WorkspaceID string
	TabID       string
	PaneID      string
	TermID      string // the terminal, stable across moves
	Label       string
	Agent       string
	AgentStatus string
	Revision    uint64
	// Machine is the saved machine an event came from ("" for this
	// one's): only fleet subscribers get such records.
	Machine string
}

// Publish is told to the bus after a change is applied. Data is handed
// over: the publisher never changes it (or what it points to) again, since
// subscribers inside the server get it as it is and the edges encode it
// later, once.
type Publish struct {
	Data   protocol.EventData
	Fields Fields
}

// PublishVolatile is an event that is delivered but not retained:
// pane_output_changed, pane.scroll_changed and pane.output_matched, which
// can fire on every output batch and would otherwise flush the history.
type PublishVolatile struct {
	Kind    string // "pane_output_changed", protocol.SubScrollChanged or protocol.SubOutputMatched
	Data    any    // handed over, as Publish's
	Fields  Fields
	Matcher uint64 // for output matches: which subscription's matcher fired
}

// StatusFilter selects a pane's agent status changes: this machine's by
// its terminal, another's (Machine set, a saved machine's id) by the pane
// id that machine gives it.
type StatusFilter struct {
	TermID  string
	Status  string // "" = any
	Machine string
	PaneID  string
}

// Subscribe asks for a sub actor that streams to Sub (a connection actor).
type Subscribe struct {
	Sub      *actor.PID
	Kinds    []string // lifecycle kinds
	Statuses []StatusFilter
	Scrolls  []string // terminal ids
	Matchers []uint64
	Since    *uint64
	// Fleet: the subscriber asked for every machine's events too.
	Fleet bool
	// Typed: the subscriber is an actor of this server. It gets Events,
	// the typed values, instead of Batch's encoded lines, and no volatile
	// events.
	Typed bool
}

// Match is a resolved events.wait filter.
type Match struct {
	Kind        string
	WorkspaceID string
	TabID       string
	TermID      string
	Label       string
	Agent       string
	AgentStatus string
	MinRevision uint64
}

// Wait asks for a one-shot waiter actor, which answers Sub with an
// *kit.Reply.
type Wait struct {
	Sub     *actor.PID
	Match   Match
	Timeout time.Duration // 0 = forever
}

// child is a sub or wait the bus spawned, and the connection it serves.
// A hungry sub told the bus more{from} (or was just spawned): the next
// flush with records from there goes to it.
type child struct {
	pid    *actor.PID
	conn   *actor.PID
	hungry bool
	from   uint64
}

// inline runs a sub's or wait's mailbox on the goroutine that sends to it
// (almost always the bus's) instead of a fresh goroutine per wake-up:
// their turns are a few map lookups and a send, cheaper than starting and
// growing a goroutine, and the mailbox still runs one message at a time
// and turns a panic into a Failure for the bus. Nothing they do blocks,
// so the sender is held up by that work only.
var inline = actor.WithDispatcher(actor.NewSynchronizedDispatcher(300))

// flush makes the bus hand out the records published since the last
// flush: one message per child for a burst of publishes.
type flush struct{}

// Bus is the event bus actor. It supervises its children itself
// (HandleFailure), which protoactor runs on the bus's own mailbox, so the
// maps below have one writer.
type Bus struct {
	log      *slog.Logger
	present  Present       // nil: no fast path
	reads    ReadSide      // nil: events.wait is not answered (wait.go)
	stall    time.Duration // a subscriber's stall timeout (sub.go)
	ring     []*record
	size     int // retained records
	start    int // index of the oldest
	nextSeq  uint64
	pending  []*record         // published since the last flush
	flushing bool              // a flush is on its way through the mailbox
	subs     map[string]*child // by the sub's actor id
	waits    map[string]*child // by the wait's actor id
	// lastOutput is each live terminal's newest pane_output_changed: a
	// wait for a revision its pane has already passed is answered from it
	// (the session checks the revision it knows, which can lag the pane's
	// own event by a message).
	lastOutput map[string]lastOutput
	byConn     map[string]*actor.PID // a connection's sub, to pass its Acks on
	nextID     uint64
	nextMatch  uint64 // the last output matcher's id (subscribe.go)
	// exported: a live handoff took the history (Export); what is
	// published meanwhile is held, unnumbered, until Resume.
	exported bool
	held     []*Publish
}

// Props returns the bus's props; history ≤ 0 means DefaultHistory.
func Props(history int, log *slog.Logger) *actor.Props { return PropsFrom(history, log, 1) }

// PropsFrom is Props for a bus whose first event gets sequence number
// next: after a live handoff from a server that carried no history.
func PropsFrom(history int, log *slog.Logger, next uint64) *actor.Props {
	return PropsCarried(history, log, &Carried{NextSeq: next})
}

// PropsCarried is Props for a bus that goes on from an old server's
// (a live handoff): its history holds the events carried, and numbers go
// on from c.NextSeq, so a subscriber that resumes with its since_seq gets
// what it missed on either side of the handoff.
func PropsCarried(history int, log *slog.Logger, c *Carried) *actor.Props {
	return PropsPresent(history, log, c, nil)
}

// Present is events.wait's fast path: the event a wait would get when
// the state it waits for already holds (a status, a focus, a label, a
// revision), nil when it does not. The server's is the session's read
// side (actors/session/view), read on the bus's goroutine.
type Present func(Match) protocol.EventData

// PropsPresent is PropsCarried for a bus that answers a wait the present
// state matches at once (nil: only from what it published).
func PropsPresent(history int, log *slog.Logger, c *Carried, present Present) *actor.Props {
	return props(history, log, c, present, nil, DefaultStallTimeout)
}

// PropsStall is PropsPresent with the stall timeout of its subscribers
// (0: none is ever dropped for stalling).
func PropsStall(history int, log *slog.Logger, c *Carried, present Present, stall time.Duration) *actor.Props {
	return props(history, log, c, present, nil, stall)
}

func props(history int, log *slog.Logger, c *Carried, present Present, reads ReadSide, stall time.Duration) *actor.Props {
	if history <= 0 {
		history = DefaultHistory
	}
	return actor.PropsFromProducer(func() actor.Actor {
		b := &Bus{log: log, present: present, reads: reads, stall: stall, ring: make([]*record, history), nextSeq: 1,
			subs: map[string]*child{}, waits: map[string]*child{}, byConn: map[string]*actor.PID{}, lastOutput: map[string]lastOutput{}}
		b.restore(c)
		return b
	}, kit.Guarded(log))
}

// NextSeq asks the bus for the sequence number its next event gets; it
// answers a uint64.
type NextSeq struct{}

// Export asks the bus for what a live handoff carries; it answers a
// *Carried. From then on the bus stamps nothing: what is published waits
// unnumbered, so no sequence number the new server gives out is also
// given here. Resume (the handoff failed) publishes what waited.
type Export struct{}

// Resume ends an Export: the bus numbers and hands out what waited.
type Resume struct{}

// Carried is the bus's part of a live handoff: its retained events, in
// sequence order, and the number its next event gets.
type Carried struct {
	NextSeq uint64
	Events  []CarriedEvent
}

// CarriedEvent is one retained event, encoded as its subscribers get it.
type CarriedEvent struct {
	Seq       uint64
	Kind      string
	Line      []byte
	Dedicated []byte
	Fields    Fields
}

// Receive implements actor.Actor.
func (b *Bus) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Publish:
		b.publish(ctx, msg)
	case *flush:
		b.flush(ctx)
	case *more:
		b.more(ctx, msg)
	case *PublishVolatile:
		b.publishVolatile(ctx, msg)
	case *Subscribe:
		b.subscribe(ctx, msg)
	case *Wait:
		b.wait(ctx, msg)
	case *kit.Call:
		if h, ok := Registry.Lookup(msg.Method); ok {
			h(b, ctx, msg)
		} else {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "no handler for %s", msg.Method)))
		}
	case *caughtUp:
		b.startCall(ctx, msg.call, msg.to)
	case *Ack:
		// Connections acknowledge through the bus: the Ack queues behind
		// the publishes already here, so a subscriber that keeps up gets
		// what piled up while it wrote as one batch, not one per event.
		if pid := b.byConn[msg.Sub.Id]; pid != nil {
			ctx.Send(pid, msg)
		}
	case *NextSeq:
		ctx.Respond(b.nextSeq)
	case *Export:
		b.exported = true
		ctx.Respond(b.export())
	case *Resume:
		b.resume(ctx)
	case *actor.Terminated:
		b.forget(msg.Who)
	default:
		kit.Unhandled(ctx, msg, b.log)
	}
}

// HandleFailure supervises the subs and waits: a failed child is stopped,
// never restarted (a new one would not know what its connection was sent),
// and its connection is told, so that client alone sees the failure. A
// sub's connection gets Failed and closes its stream; a wait's gets an
// internal_error answer and carries on.
func (b *Bus) HandleFailure(system *actor.ActorSystem, supervisor actor.Supervisor, pid *actor.PID, _ *actor.RestartStatistics, reason, message any) {
	supervisor.StopChildren(pid)
	root := system.Root
	if c := b.subs[pid.Id]; c != nil {
		b.log.Error("event subscription failed; stopping it", "sub", pid.Id, "reason", reason, "message", fmt.Sprintf("%T", message))
		root.Send(c.conn, &Failed{Reason: fmt.Sprint(reason)})
	} else if c := b.waits[pid.Id]; c != nil {
		b.log.Error("event wait failed; stopping it", "wait", pid.Id, "reason", reason, "message", fmt.Sprintf("%T", message))
		root.Send(c.conn, kit.Fail(protocol.Errorf(protocol.CodeInternal, "internal error in events.wait: %v", reason)))
	}
	b.forget(pid)
}

func (b *Bus) oldest() uint64 { return b.nextSeq - uint64(b.size) }

func (b *Bus) at(seq uint64) *record {
	return b.ring[(b.start+int(seq-b.oldest()))%len(b.ring)]
}

// publish stamps and retains an event; its children get it with the next
// flush, which follows whatever else is already in the mailbox.
func (b *Bus) publish(ctx actor.Context, p *Publish) {
	if b.exported {
		b.held = append(b.held, p)
		return
	}
	if p.Data == nil {
		b.log.Error("event published without data", "fields", p.Fields)
		return
	}
	rec := &record{seq: b.nextSeq, kind: p.Data.EventKind(), data: p.Data, fields: p.Fields}
	if rec.kind == "pane_closed" {
		delete(b.lastOutput, p.Fields.TermID)
	}
	b.nextSeq++
	if b.size == len(b.ring) {
		b.ring[b.start] = nil
		b.start = (b.start + 1) % len(b.ring)
		b.size--
	}
	b.ring[(b.start+b.size)%len(b.ring)] = rec
	b.size++
	b.pending = append(b.pending, rec)
	b.scheduleFlush(ctx)
}

// flush tells every wait the records published since the last flush,
// and every hungry sub the records from where it asked, when there are
// any: the recent ones in one shared message, older ones copied out of the
// history for the sub that is behind.
func (b *Bus) flush(ctx actor.Context) {
	b.flushing = false
	var recent *published
	if len(b.pending) > 0 {
		recent = &published{recs: b.pending}
		b.pending = nil
		for _, c := range b.waits {
			ctx.Send(c.pid, recent)
		}
	}
	first := b.nextSeq
	if recent != nil {
		first = recent.recs[0].seq
	}
	for _, c := range b.subs {
		switch {
		case !c.hungry || c.from >= b.nextSeq:
		case c.from >= first:
			c.hungry = false
			ctx.Send(c.pid, recent)
		default:
			c.hungry = false
			ctx.Send(c.pid, &published{recs: b.since(c.from)})
		}
	}
}

// more marks an idle sub hungry for the records from where it is. They go
// out with the next flush, behind what is already in the mailbox, so what
// piles up while a subscriber writes leaves in one batch. Records that
// already left the history are simply not there: the sub sees the gap
// and is lost.
func (b *Bus) more(ctx actor.Context, m *more) {
	c := b.subs[m.sub.Id]
	if c == nil {
		return
	}
	c.hungry, c.from = true, m.from
	if m.from < b.nextSeq {
		b.scheduleFlush(ctx)
	}
}

func (b *Bus) scheduleFlush(ctx actor.Context) {
	if !b.flushing {
		b.flushing = true
		ctx.Send(ctx.Self(), &flush{})
	}
}

// since copies the retained records from seq on (from the oldest, if seq
// is older).
func (b *Bus) since(seq uint64) []*record {
	seq = max(seq, b.oldest())
	recs := make([]*record, 0, b.nextSeq-seq)
	for ; seq < b.nextSeq; seq++ {
		recs = append(recs, b.at(seq))
	}
	return recs
}

// publishVolatile hands a volatile event on at once: output changes to
// the waits (no subscription type carries them), scroll changes and
// output matches to the subs.
func (b *Bus) publishVolatile(ctx actor.Context, p *PublishVolatile) {
	ev := &volatileEvent{kind: p.Kind, data: p.Data, fields: p.Fields, matcher: p.Matcher}
	targets := b.subs
	if p.Kind == "pane_output_changed" {
		targets = b.waits
		if p.Fields.TermID != "" && p.Fields.Machine == "" {
			b.keepOutput(p)
		}
	}
	for _, c := range targets {
		ctx.Send(c.pid, ev)
	}
}

// subscribe spawns the subscriber's sub with the retained history it
// resumes from (since_seq), or none.
func (b *Bus) subscribe(ctx actor.Context, m *Subscribe) {
	cursor := b.nextSeq
	if m.Since != nil {
		cursor = min(*m.Since+1, b.nextSeq)
	}
	lost := cursor < b.oldest()
	var initial []*record
	if !lost {
		initial = b.since(cursor)
	}
	if old := b.byConn[m.Sub.Id]; old != nil {
		ctx.Stop(old) // a connection has one subscription
		b.forget(old)
	}
	b.nextID++
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return newSub(m, cursor, lost, initial, b.stall, b.log)
	}, inline, kit.Guarded(b.log)), fmt.Sprintf("sub%d", b.nextID))
	if err != nil {
		b.log.Error("spawn event subscription", "err", err)
		ctx.Send(m.Sub, &Failed{Reason: err.Error()})
		return
	}
	// Hungry from the start: it sees every record published from now on
	// without having to ask first.
	b.subs[pid.Id] = &child{pid: pid, conn: m.Sub, hungry: !lost, from: b.nextSeq}
	b.byConn[m.Sub.Id] = pid
}

// wait spawns a waiter that matches only what is published from now on,
// or answers at once a wait the present state matches (Present), or an
// output wait its terminal's newest event matches.
func (b *Bus) wait(ctx actor.Context, m *Wait) {
	if b.present != nil {
		if data := b.present(m.Match); data != nil {
			line, err := protocol.EncodeEvent(data, 0)
			if err != nil {
				ctx.Send(m.Sub, kit.Fail(err))
			} else {
				ctx.Send(m.Sub, kit.Done(protocol.WaitMatched{Event: line}))
			}
			return
		}
	}
	if last, ok := b.lastOutput[m.Match.TermID]; ok && m.Match.Kind == "pane_output_changed" && m.Match.Matches(m.Match.Kind, last.fields(m.Match.TermID)) {
		ev := &volatileEvent{kind: m.Match.Kind, data: protocol.PaneOutputChangedEvent{PaneID: last.pane, WorkspaceID: last.paneWS, Revision: last.rev}}
		if line := ev.encoded(b.log); line != nil {
			ctx.Send(m.Sub, kit.Done(protocol.WaitMatched{Event: line}))
			return
		}
	}
	from := b.nextSeq
	b.nextID++
	pid, err := ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return &waiter{conn: m.Sub, match: m.Match, from: from, timeout: m.Timeout, log: b.log}
	}, inline, kit.Guarded(b.log)), fmt.Sprintf("wait%d", b.nextID))
	if err != nil {
		b.log.Error("spawn event wait", "err", err)
		ctx.Send(m.Sub, kit.Fail(protocol.Errorf(protocol.CodeInternal, "start events.wait: %v", err)))
		return
	}
	b.waits[pid.Id] = &child{pid: pid, conn: m.Sub}
}

// lastOutput is what a terminal's newest pane_output_changed leaves for
// a later wait: the fields a wait can match on (an output change carries
// no agent) and the ids its data names, which make the event again; not
// the event, which with its data is four times the size and kept for
// every live terminal.
type lastOutput struct {
	pane, paneWS   string // the data's
	ws, tab, label string // the fields'
	rev            uint64
}

// keepOutput keeps a terminal's output change for a later wait when its
// data is what the fields can make again (the pane's always is).
func (b *Bus) keepOutput(p *PublishVolatile) {
	f := &p.Fields
	d, ok := p.Data.(protocol.PaneOutputChangedEvent)
	if !ok || d.Revision != f.Revision {
		delete(b.lastOutput, f.TermID) // a newer change is not kept: an older one must not answer
		return
	}
	b.lastOutput[f.TermID] = lastOutput{pane: d.PaneID, paneWS: d.WorkspaceID, ws: f.WorkspaceID, tab: f.TabID, label: f.Label, rev: f.Revision}
}

func (l lastOutput) fields(term string) Fields {
	return Fields{WorkspaceID: l.ws, TabID: l.tab, TermID: term, Label: l.label, Revision: l.rev}
}

// forget drops a child that stopped or failed.
func (b *Bus) forget(pid *actor.PID) {
	if c := b.subs[pid.Id]; c != nil {
		delete(b.subs, pid.Id)
		if cur := b.byConn[c.conn.Id]; cur != nil && cur.Equal(pid) {
			delete(b.byConn, c.conn.Id)
		}
	}
	delete(b.waits, pid.Id)
}

// Matches reports whether an event's kind and fields satisfy a wait filter.
func (m Match) Matches(kind string, f Fields) bool {
	return m.Kind == kind && f.Machine == "" &&
		(m.WorkspaceID == "" || m.WorkspaceID == f.WorkspaceID) &&
		(m.TabID == "" || m.TabID == f.TabID) &&
		(m.TermID == "" || m.TermID == f.TermID) &&
		(m.Label == "" || m.Label == f.Label) &&
		(m.Agent == "" || m.Agent == f.Agent) &&
		(m.AgentStatus == "" || m.AgentStatus == f.AgentStatus) &&
		f.Revision >= m.MinRevision
}

// export copies the retained history for a live handoff, encoded (the
// new server gets lines). The lines are shared, not copied: a record's
// encoding never changes once made.
func (b *Bus) export() *Carried {
	c := &Carried{NextSeq: b.nextSeq, Events: make([]CarriedEvent, 0, b.size)}
	for _, r := range b.since(b.oldest()) {
		line, dedicated := r.encoded(b.log)
		c.Events = append(c.Events, CarriedEvent{Seq: r.seq, Kind: r.kind, Line: line, Dedicated: dedicated, Fields: r.fields})
	}
	return c
}

// resume ends an export that was not followed by a handoff: what was
// published meanwhile is numbered and handed out now, in order.
func (b *Bus) resume(ctx actor.Context) {
	if !b.exported {
		return
	}
	b.exported = false
	held := b.held
	b.held = nil
	for _, p := range held {
		b.publish(ctx, p)
	}
}

// restore starts the bus from an old server's: numbers go on from
// c.NextSeq, and the history holds the newest carried events that run
// without a gap up to it (as many as it has room for); anything else the
// old server sent is left out, so a subscriber resuming from before what
// is kept is told events_lost rather than given a history with a hole.
func (b *Bus) restore(c *Carried) {
	if c == nil {
		return
	}
	b.nextSeq = max(c.NextSeq, 1)
	want := b.nextSeq - 1 // the seq the newest kept event must have
	keep := 0
	for i := len(c.Events) - 1; i >= 0 && keep < len(b.ring); i-- {
		if e := c.Events[i]; e.Seq != want || e.Seq == 0 || len(e.Line) == 0 {
			break
		}
		keep++
		want--
	}
	for _, e := range c.Events[len(c.Events)-keep:] {
		b.ring[b.size] = &record{seq: e.Seq, kind: e.Kind, line: e.Line, dedicated: e.Dedicated, fields: e.Fields}
		b.size++
	}
}
