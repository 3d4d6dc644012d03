package events

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// DefaultHistory is how many events the bus retains.
const DefaultHistory = 1024

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
}

// Publish is told to the bus after a change is applied.
type Publish struct {
	Data   protocol.EventData
	Fields Fields
}

// PublishVolatile is an event that is delivered but not retained:
// pane_output_changed, pane.scroll_changed and pane.output_matched, which
// can fire on every output batch and would otherwise flush the history.
type PublishVolatile struct {
	Kind    string // "pane_output_changed", protocol.SubScrollChanged or protocol.SubOutputMatched
	Data    any
	Fields  Fields
	Matcher uint64 // for output matches: which subscription's matcher fired
}

// StatusFilter selects a pane's agent status changes.
type StatusFilter struct {
	TermID string
	Status string // "" = any
}

// Subscribe registers a streaming subscriber (a connection actor).
type Subscribe struct {
	Sub      *actor.PID
	Kinds    []string // lifecycle kinds
	Statuses []StatusFilter
	Scrolls  []string // terminal ids
	Matchers []uint64
	Since    *uint64
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

// Wait registers a one-shot waiter; the bus answers Sub with an *api.Reply.
type Wait struct {
	Sub     *actor.PID
	Match   Match
	Timeout time.Duration // 0 = forever
}

// Batch carries event lines to a subscriber, which answers Ack once they
// are written.
type Batch struct {
	Lines [][]byte
}

// Ack says a subscriber wrote its batch and can take the next.
type Ack struct{ Sub *actor.PID }

// Lost tells a subscriber it fell behind the history; it must close.
type Lost struct{}

type record struct {
	seq       uint64
	kind      string
	line      []byte
	dedicated []byte // the dotted pane.agent_status_changed envelope
	fields    Fields
}

type subscriber struct {
	pid      *actor.PID
	kinds    map[string]bool
	statuses []StatusFilter
	scrolls  map[string]bool
	matchers map[uint64]bool
	cursor   uint64   // next sequence number to consider
	inflight bool     // a batch is being written
	volatile [][]byte // volatile lines waiting for the next batch
}

type waiter struct {
	pid   *actor.PID
	match Match
	timer *time.Timer
}

type waitExpired struct{ id uint64 }

// Bus is the event bus actor.
type Bus struct {
	log     *slog.Logger
	ring    []record
	size    int // retained records
	start   int // index of the oldest
	nextSeq uint64
	subs    map[string]*subscriber
	waits   map[uint64]*waiter
	nextID  uint64
}

// Props returns the bus's props; history ≤ 0 means DefaultHistory.
func Props(history int, log *slog.Logger) *actor.Props {
	if history <= 0 {
		history = DefaultHistory
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Bus{log: log, ring: make([]record, history), nextSeq: 1, subs: map[string]*subscriber{}, waits: map[uint64]*waiter{}}
	})
}

// Receive implements actor.Actor.
func (b *Bus) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Publish:
		b.publish(ctx, msg)
	case *PublishVolatile:
		b.publishVolatile(ctx, msg)
	case *Subscribe:
		b.subscribe(ctx, msg)
	case *Wait:
		b.wait(ctx, msg)
	case *Ack:
		if s := b.subs[msg.Sub.String()]; s != nil {
			s.inflight = false
			b.deliver(ctx, s)
		}
	case *waitExpired:
		if w := b.waits[msg.id]; w != nil {
			delete(b.waits, msg.id)
			ctx.Send(w.pid, api.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for %s", w.match.Kind)))
		}
	case *actor.Terminated:
		b.drop(msg.Who)
	}
}

func (b *Bus) oldest() uint64 { return b.nextSeq - uint64(b.size) }

func (b *Bus) at(seq uint64) *record {
	return &b.ring[(b.start+int(seq-b.oldest()))%len(b.ring)]
}

func (b *Bus) publish(ctx actor.Context, p *Publish) {
	line, err := protocol.EncodeEvent(p.Data, b.nextSeq)
	if err != nil {
		b.log.Error("encode event", "kind", p.Data.EventKind(), "err", err)
		return
	}
	rec := record{seq: b.nextSeq, kind: p.Data.EventKind(), line: line, fields: p.Fields}
	if rec.kind == "pane_agent_status_changed" {
		rec.dedicated, _ = protocol.EncodeDedicated(protocol.SubAgentStatusChanged, p.Data)
	}
	b.nextSeq++
	if b.size == len(b.ring) {
		b.ring[b.start] = record{}
		b.start = (b.start + 1) % len(b.ring)
		b.size--
	}
	b.ring[(b.start+b.size)%len(b.ring)] = rec
	b.size++
	b.matchWaits(ctx, &rec)
	for _, s := range b.subs {
		b.deliver(ctx, s)
	}
}

func (b *Bus) publishVolatile(ctx actor.Context, p *PublishVolatile) {
	rec := record{kind: p.Kind, fields: p.Fields}
	if p.Kind == "pane_output_changed" {
		rec.line, _ = protocol.EncodeEvent(p.Data.(protocol.EventData), 0)
		b.matchWaits(ctx, &rec)
		return // no subscription type carries it
	}
	line, err := protocol.EncodeDedicated(p.Kind, p.Data)
	if err != nil {
		return
	}
	for _, s := range b.subs {
		if (p.Kind == protocol.SubScrollChanged && s.scrolls[p.Fields.TermID]) ||
			(p.Kind == protocol.SubOutputMatched && s.matchers[p.Matcher]) {
			if len(s.volatile) >= maxBatch {
				s.volatile = s.volatile[1:] // keep the newest
			}
			s.volatile = append(s.volatile, line)
			b.deliver(ctx, s)
		}
	}
}

// wanted returns the line a subscriber should get for a record, if any.
func (s *subscriber) wanted(r *record) []byte {
	if r.kind == "pane_agent_status_changed" {
		for _, f := range s.statuses {
			if f.TermID == r.fields.TermID && (f.Status == "" || f.Status == r.fields.AgentStatus) {
				return r.dedicated
			}
		}
	}
	if s.kinds[r.kind] {
		return r.line
	}
	return nil
}

// deliver sends a subscriber its next batch unless one is in flight.
func (b *Bus) deliver(ctx actor.Context, s *subscriber) {
	if s.inflight {
		return
	}
	if s.cursor < b.oldest() {
		ctx.Send(s.pid, &Lost{})
		b.drop(s.pid)
		return
	}
	var lines [][]byte
	for ; s.cursor < b.nextSeq && len(lines) < maxBatch; s.cursor++ {
		if line := s.wanted(b.at(s.cursor)); line != nil {
			lines = append(lines, line)
		}
	}
	if len(lines) < maxBatch && len(s.volatile) > 0 {
		lines = append(lines, s.volatile...)
		s.volatile = nil
	}
	if len(lines) > 0 {
		s.inflight = true
		ctx.Send(s.pid, &Batch{Lines: lines})
	}
}

func (b *Bus) subscribe(ctx actor.Context, m *Subscribe) {
	s := &subscriber{pid: m.Sub, kinds: map[string]bool{}, statuses: m.Statuses, scrolls: map[string]bool{}, matchers: map[uint64]bool{}, cursor: b.nextSeq}
	for _, k := range m.Kinds {
		s.kinds[k] = true
	}
	for _, t := range m.Scrolls {
		s.scrolls[t] = true
	}
	for _, id := range m.Matchers {
		s.matchers[id] = true
	}
	if m.Since != nil {
		s.cursor = min(*m.Since+1, b.nextSeq)
	}
	b.subs[m.Sub.String()] = s
	ctx.Watch(m.Sub)
	b.deliver(ctx, s)
}

func (b *Bus) drop(pid *actor.PID) {
	delete(b.subs, pid.String())
	for id, w := range b.waits {
		if w.pid.Equal(pid) {
			if w.timer != nil {
				w.timer.Stop()
			}
			delete(b.waits, id)
		}
	}
}

func (b *Bus) wait(ctx actor.Context, m *Wait) {
	b.nextID++
	w := &waiter{pid: m.Sub, match: m.Match}
	if m.Timeout > 0 {
		root, self, id := ctx.ActorSystem().Root, ctx.Self(), b.nextID
		w.timer = time.AfterFunc(m.Timeout, func() { root.Send(self, &waitExpired{id: id}) })
	}
	b.waits[b.nextID] = w
	ctx.Watch(m.Sub)
}

// Matches reports whether an event's kind and fields satisfy a wait filter.
func (m Match) Matches(kind string, f Fields) bool {
	return m.Kind == kind &&
		(m.WorkspaceID == "" || m.WorkspaceID == f.WorkspaceID) &&
		(m.TabID == "" || m.TabID == f.TabID) &&
		(m.TermID == "" || m.TermID == f.TermID) &&
		(m.Label == "" || m.Label == f.Label) &&
		(m.Agent == "" || m.Agent == f.Agent) &&
		(m.AgentStatus == "" || m.AgentStatus == f.AgentStatus) &&
		f.Revision >= m.MinRevision
}

func (b *Bus) matchWaits(ctx actor.Context, r *record) {
	for id, w := range b.waits {
		if !w.match.Matches(r.kind, r.fields) {
			continue
		}
		if w.timer != nil {
			w.timer.Stop()
		}
		delete(b.waits, id)
		ctx.Send(w.pid, api.Done(protocol.WaitMatched{Event: r.line}))
	}
}
