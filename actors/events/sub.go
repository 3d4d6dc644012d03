package events

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// Batch carries event lines from a sub to its connection, which tells the
// bus Ack once they are written.
type Batch struct {
	Lines [][]byte
	From  *actor.PID // the sub actor
}

// Ack says connection Sub wrote its batch and can take the next. The bus
// passes it on to Sub's sub; told to the sub (From) directly, it works
// the same.
type Ack struct{ Sub *actor.PID }

// Lost tells a connection it fell behind the history; it must close.
type Lost struct{}

// Failed tells a connection its subscription failed (its sub actor
// panicked and was stopped); it must close, like after Lost.
type Failed struct{ Reason string }

// record is one retained event. It is immutable once the bus has stamped
// it, so the bus shares it with every sub without copying.
type record struct {
	seq       uint64
	kind      string
	line      []byte
	dedicated []byte // the dotted pane.agent_status_changed envelope
	fields    Fields
}

// published carries retained records, in sequence order, from the bus to
// a sub that asked for them, or to every wait. Its records are shared by
// all receivers and never modified.
type published struct{ recs []*record }

// more is a sub telling the bus it is idle and wants the records from
// sequence number from on, which the bus tells it with its next flush
// that has any. A tell, like everything sent to the bus.
type more struct {
	sub  *actor.PID
	from uint64
}

// volatileEvent carries an event that is delivered but never retained.
type volatileEvent struct {
	kind    string
	line    []byte
	fields  Fields
	matcher uint64
}

// sub is the actor of one events.subscribe: a child of the bus that owns
// the filter, the cursor, the batch in flight and the events_lost rule.
//
// It pulls: whenever it is idle (no batch in flight, nothing queued, not
// lost) it tells the bus more{next}, and the bus tells it the records
// from there, from its shared history. A sub writing a batch asks for
// nothing, so a burst costs it nothing and what piled up meanwhile goes
// out as one batch.
//
// Invariants: next is one past the last record received (records below it
// are duplicates and skipped); queue holds the wanted lines of received
// records not yet sent, at most one history's worth; at most one batch is
// in flight and at most one more is outstanding. A record arriving above
// next means the records in between left the bus's history before the
// sub asked for them: the sub is lost, and, once the batch in flight is
// written, tells its connection Lost and stops.
type sub struct {
	conn     *actor.PID
	bus      *actor.PID
	kinds    map[string]bool
	statuses []StatusFilter
	scrolls  map[string]bool
	matchers map[uint64]bool
	fleet    bool
	initial  []*record // the retained history from next, handed over at spawn

	next     uint64
	queue    [][]byte
	volatile [][]byte // volatile lines waiting for the next batch
	inflight bool
	asked    bool
	lost     bool
	ended    bool
}

func newSub(m *Subscribe, next uint64, lost bool, initial []*record) *sub {
	s := &sub{conn: m.Sub, kinds: map[string]bool{}, statuses: m.Statuses, scrolls: map[string]bool{}, matchers: map[uint64]bool{},
		fleet: m.Fleet, initial: initial, next: next, lost: lost, asked: !lost} // the bus starts it hungry
	for _, k := range m.Kinds {
		s.kinds[k] = true
	}
	for _, t := range m.Scrolls {
		s.scrolls[t] = true
	}
	for _, id := range m.Matchers {
		s.matchers[id] = true
	}
	return s
}

// Receive implements actor.Actor.
func (s *sub) Receive(ctx actor.Context) {
	if s.ended {
		return
	}
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		s.bus = ctx.Parent()
		ctx.Watch(s.conn)
		s.receive(s.initial)
		s.initial = nil
		s.deliver(ctx)
	case *published:
		s.asked = false
		s.receive(msg.recs)
		s.deliver(ctx)
	case *volatileEvent:
		if (msg.kind == protocol.SubScrollChanged && s.scrolls[msg.fields.TermID]) ||
			(msg.kind == protocol.SubOutputMatched && s.matchers[msg.matcher]) {
			if len(s.volatile) >= maxBatch {
				s.volatile = s.volatile[1:] // keep the newest
			}
			s.volatile = append(s.volatile, msg.line)
			s.deliver(ctx)
		}
	case *Ack:
		s.inflight = false
		s.deliver(ctx)
	case *actor.Terminated:
		if msg.Who.Equal(s.conn) {
			s.end(ctx)
		}
	default:
		api.Unhandled(ctx, msg, nil)
	}
}

// receive queues the wanted lines of records in sequence order.
func (s *sub) receive(recs []*record) {
	for _, r := range recs {
		if s.lost {
			return
		}
		switch {
		case r.seq < s.next:
			continue // sent by a flush and by an answer to more
		case r.seq > s.next:
			s.lost = true // the records in between are gone
			clear(s.queue)
			s.queue = nil
			return
		}
		s.next = r.seq + 1
		if line := s.wanted(r); line != nil {
			s.queue = append(s.queue, line)
		}
	}
}

// machineStateChanged is the kind of a machine's state changes.
const machineStateChanged = "machine_state_changed"

// wanted returns the line the filter selects for a record, if any.
func (s *sub) wanted(r *record) []byte {
	if r.fields.Machine != "" {
		// Another machine's: for fleet subscribers, of the kinds they
		// asked for or of a pane they named, and every change of a
		// machine's state.
		if !s.fleet {
			return nil
		}
		if line := s.statusLine(r); line != nil {
			return line
		}
		if s.kinds[r.kind] || r.kind == machineStateChanged {
			return r.line
		}
		return nil
	}
	if line := s.statusLine(r); line != nil {
		return line
	}
	if s.kinds[r.kind] {
		return r.line
	}
	return nil
}

// statusLine is the dedicated line of an agent status change of a pane
// the subscriber named, nil for any other record.
func (s *sub) statusLine(r *record) []byte {
	if r.kind != "pane_agent_status_changed" {
		return nil
	}
	for _, f := range s.statuses {
		same := f.Machine == "" && f.TermID == r.fields.TermID
		if r.fields.Machine != "" {
			same = f.Machine == r.fields.Machine && f.PaneID == r.fields.PaneID
		}
		if same && (f.Status == "" || f.Status == r.fields.AgentStatus) {
			return r.dedicated
		}
	}
	return nil
}

// deliver sends the connection its next batch unless one is in flight
// (at most maxBatch retained lines, then the volatile ones if there is
// room), and asks the bus for more once nothing is left to send.
func (s *sub) deliver(ctx actor.Context) {
	if s.inflight {
		return
	}
	if s.lost {
		ctx.Send(s.conn, &Lost{})
		s.end(ctx)
		return
	}
	n := min(len(s.queue), maxBatch)
	lines := make([][]byte, 0, n+len(s.volatile))
	lines = append(lines, s.queue[:n]...)
	rest := copy(s.queue, s.queue[n:])
	clear(s.queue[rest:])
	s.queue = s.queue[:rest]
	if len(lines) < maxBatch && len(s.volatile) > 0 {
		lines = append(lines, s.volatile...)
		s.volatile = nil
	}
	if len(lines) > 0 {
		s.inflight = true
		ctx.Send(s.conn, &Batch{Lines: lines, From: ctx.Self()})
		return
	}
	if !s.asked {
		s.asked = true
		ctx.Send(s.bus, &more{sub: ctx.Self(), from: s.next})
	}
}

func (s *sub) end(ctx actor.Context) {
	s.ended = true
	s.queue, s.volatile = nil, nil
	ctx.Stop(ctx.Self())
}

// waitExpired is the wait's timer going off.
type waitExpired struct{}

// waiter is the actor of one events.wait: a short-lived child of the bus
// that answers its connection with the first matching event published
// after it was spawned, or with a timeout error when its timer fires
// first.
//
// The timer is a scheduler.SendOnce, not ctx.SetReceiveTimeout: the wait
// must ignore the records streaming past it (so they may not reset a
// receive timeout), and protoactor's receive-timeout handler writes the
// context's timeout fields from the timer's goroutine, which races with
// such messages being received (go test -race catches it).
type waiter struct {
	conn    *actor.PID
	match   Match
	from    uint64 // the first sequence number it may match
	timeout time.Duration
	cancel  scheduler.CancelFunc
	ended   bool
}

// Receive implements actor.Actor.
func (w *waiter) Receive(ctx actor.Context) {
	if w.ended {
		return
	}
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.Watch(w.conn)
		if w.timeout > 0 {
			w.cancel = scheduler.NewTimerScheduler(ctx.ActorSystem().Root).SendOnce(w.timeout, ctx.Self(), &waitExpired{})
		}
	case *published:
		for _, r := range msg.recs {
			if r.seq >= w.from && w.match.Matches(r.kind, r.fields) {
				w.answer(ctx, api.Done(protocol.WaitMatched{Event: r.line}))
				return
			}
		}
	case *volatileEvent:
		if w.match.Matches(msg.kind, msg.fields) {
			w.answer(ctx, api.Done(protocol.WaitMatched{Event: msg.line}))
		}
	case *actor.Stopping: // also after a failure, when end did not run
		if w.cancel != nil {
			w.cancel()
		}
	case *waitExpired:
		w.answer(ctx, api.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for %s", w.match.Kind)))
	case *actor.Terminated:
		if msg.Who.Equal(w.conn) {
			w.end(ctx)
		}
	default:
		api.Unhandled(ctx, msg, nil)
	}
}

func (w *waiter) answer(ctx actor.Context, r *api.Reply) {
	ctx.Send(w.conn, r)
	w.end(ctx)
}

func (w *waiter) end(ctx actor.Context) {
	w.ended = true
	if w.cancel != nil {
		w.cancel()
	}
	ctx.Stop(ctx.Self())
}
