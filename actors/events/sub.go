package events

import (
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/scheduler"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Batch carries event lines from a sub to its connection (a socket or
// a browser: the edges, where events become JSON), which tells the bus
// Ack once they are written.
type Batch struct {
	Lines [][]byte
	From  *actor.PID // the sub actor
}

// Event is one retained event as the actors of this server get it: its
// typed data (shared with every subscriber: read it, never change it),
// its sequence number and the facts it concerns. Another machine's event
// is a protocol.RemoteEvent, its typed value in RemoteEvent.Event.
type Event struct {
	Seq    uint64
	Data   protocol.EventData
	Fields Fields
}

// Events carries typed events from a sub to an actor that subscribed
// with Typed, which tells the bus Ack once it handled them, as a
// connection does for a Batch.
type Events struct {
	List []Event
	From *actor.PID // the sub actor
}

// Ack says connection Sub wrote its batch and can take the next. The bus
// passes it on to Sub's sub; told to the sub (From) directly, it works
// the same.
type Ack struct{ Sub *actor.PID }

// Lost tells a connection it fell behind the history, or (Stalled) that
// it wrote nothing of its batch for the bus's stall timeout; it must
// close.
type Lost struct {
	Stalled time.Duration
}

// Failed tells a connection its subscription failed (its sub actor
// panicked and was stopped); it must close, like after Lost.
type Failed struct{ Reason string }

// record is one retained event. It is immutable once the bus has stamped
// it, so the bus shares it with every sub without copying; its encoding
// is made once, by the first sub, wait or export that needs it, and shared
// the same way. Actors inside the server get data and never the encoding,
// so an event nobody outside the server asked for is never encoded.
type record struct {
	seq    uint64
	kind   string
	data   protocol.EventData // nil for an event carried over a live handoff
	fields Fields

	enc       sync.Once
	line      []byte
	dedicated []byte // the dotted pane.agent_status_changed envelope
}

// encoded is the record's line and, for an agent status change, its
// dedicated line; nil when its data cannot be encoded (logged once).
// Subs run on more than one goroutine (an Ack may be told to a sub
// directly), hence the sync.Once.
func (r *record) encoded(log *slog.Logger) (line, dedicated []byte) {
	r.enc.Do(func() {
		if r.data == nil {
			return // carried: encoded by the server it came from
		}
		var err error
		if r.line, err = protocol.EncodeEvent(r.data, r.seq); err != nil {
			logError(log, "encode event", "kind", r.kind, "seq", r.seq, "err", err)
			r.line = nil
			return
		}
		if r.kind == "pane_agent_status_changed" {
			r.dedicated, _ = protocol.EncodeDedicated(protocol.SubAgentStatusChanged, r.data)
		}
	})
	return r.line, r.dedicated
}

func logWarn(log *slog.Logger, msg string, args ...any) {
	if log != nil {
		log.Warn(msg, args...)
	}
}

func logError(log *slog.Logger, msg string, args ...any) {
	if log != nil {
		log.Error(msg, args...)
	}
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

// volatileEvent carries an event that is delivered but never retained,
// encoded, like a record, once and only when a subscriber or wait
// outside the server wants it.
type volatileEvent struct {
	kind    string
	data    any
	fields  Fields
	matcher uint64

	enc  sync.Once
	line []byte
}

// encoded is the event's line: the lifecycle envelope of an output
// change (what events.wait answers), the dedicated one of the others;
// nil when it cannot be encoded.
func (v *volatileEvent) encoded(log *slog.Logger) []byte {
	v.enc.Do(func() {
		var err error
		if d, ok := v.data.(protocol.EventData); ok && v.kind == "pane_output_changed" {
			v.line, err = protocol.EncodeEvent(d, 0)
		} else {
			v.line, err = protocol.EncodeDedicated(v.kind, v.data)
		}
		if err != nil {
			logError(log, "encode event", "kind", v.kind, "err", err)
			v.line = nil
		}
	})
	return v.line
}

// queued is a record a sub will deliver, and whether its dedicated line
// (the subscriber named the pane's status) is the one wanted.
type queued struct {
	rec       *record
	dedicated bool
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
// are duplicates and skipped); queue holds the wanted records of received
// records not yet sent, at most one history's worth; at most one batch is
// in flight and at most one more is outstanding. A record arriving above
// next means the records in between left the bus's history before the
// sub asked for them: the sub is lost, and, once the batch in flight is
// written, tells its connection Lost and stops.
type sub struct {
	conn     *actor.PID
	bus      *actor.PID
	log      *slog.Logger
	kinds    map[string]bool
	statuses []StatusFilter
	scrolls  map[string]bool
	matchers map[uint64]bool
	fleet    bool
	typed    bool      // an actor of this server: Events, not lines
	initial  []*record // the retained history from next, handed over at spawn

	next     uint64
	queue    []queued
	volatile []*volatileEvent // waiting for the next batch
	inflight bool
	asked    bool
	lost     bool
	ended    bool

	// stall drops a connection's sub whose batch stays unwritten that
	// long (the bus's stall timeout; 0: never): one clock per sub, armed
	// while a batch is in flight, re-armed for what is left (sentAt is
	// when the batch went out).
	stall    time.Duration
	timers   kit.Timers
	checking bool
	sentAt   time.Time
}

// stallCheck is a sub's stall clock going off.
type stallCheck struct{}

func newSub(m *Subscribe, next uint64, lost bool, initial []*record, stall time.Duration, log *slog.Logger) *sub {
	if m.Typed {
		stall = 0 // an actor of this server handles what it is told; it never stalls on a client
	}
	s := &sub{conn: m.Sub, log: log, stall: stall, kinds: map[string]bool{}, statuses: m.Statuses, scrolls: map[string]bool{}, matchers: map[uint64]bool{},
		fleet: m.Fleet, typed: m.Typed, initial: initial, next: next, lost: lost, asked: !lost} // the bus starts it hungry
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
		if !s.typed && ((msg.kind == protocol.SubScrollChanged && s.scrolls[msg.fields.TermID]) ||
			(msg.kind == protocol.SubOutputMatched && s.matchers[msg.matcher])) {
			if len(s.volatile) >= maxBatch {
				s.volatile = s.volatile[1:] // keep the newest
			}
			s.volatile = append(s.volatile, msg)
			s.deliver(ctx)
		}
	case *Ack:
		s.inflight = false
		s.deliver(ctx)
	case *kit.Fired:
		s.timers.Fired(msg)
		s.stallFired(ctx)
	case *actor.Terminated:
		if msg.Who.Equal(s.conn) {
			s.end(ctx)
		}
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

// receive queues the wanted records in sequence order.
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
		if want, dedicated := s.wanted(r); want && (!s.typed || r.data != nil) {
			s.queue = append(s.queue, queued{rec: r, dedicated: dedicated})
		}
	}
}

// machineStateChanged is the kind of a machine's state changes.
const machineStateChanged = "machine_state_changed"

// wanted reports whether the filter selects a record, and whether as
// the dedicated status change of a pane the subscriber named.
func (s *sub) wanted(r *record) (want, dedicated bool) {
	if r.fields.Machine != "" {
		// Another machine's: for fleet subscribers, of the kinds they
		// asked for or of a pane they named, every change of a
		// machine's state and every gap of the fleet's event stream.
		if !s.fleet {
			return false, false
		}
		if s.namedStatus(r) {
			return true, true
		}
		return s.kinds[r.kind] || r.kind == machineStateChanged || r.kind == protocol.FleetEventsLostKind, false
	}
	if s.namedStatus(r) {
		return true, true
	}
	return s.kinds[r.kind], false
}

// namedStatus reports whether a record is an agent status change of a
// pane the subscriber named.
func (s *sub) namedStatus(r *record) bool {
	if r.kind != "pane_agent_status_changed" {
		return false
	}
	for _, f := range s.statuses {
		same := f.Machine == "" && f.TermID == r.fields.TermID
		if r.fields.Machine != "" {
			same = f.Machine == r.fields.Machine && f.PaneID == r.fields.PaneID
		}
		if same && (f.Status == "" || f.Status == r.fields.AgentStatus) {
			return true
		}
	}
	return false
}

// deliver sends the connection its next batch unless one is in flight
// (at most maxBatch retained events, then the volatile ones if there is
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
	var msg any
	if s.typed {
		if e := s.takeEvents(n, ctx.Self()); e != nil {
			msg = e
		}
	} else if b := s.takeLines(n, ctx.Self()); b != nil {
		msg = b
	}
	rest := copy(s.queue, s.queue[n:])
	clear(s.queue[rest:])
	s.queue = s.queue[:rest]
	if msg != nil {
		s.inflight = true
		ctx.Send(s.conn, msg)
		if s.stall > 0 {
			s.sentAt = time.Now()
			if !s.checking {
				s.checking = true
				s.timers.After(ctx, s.stall, stallCheck{})
			}
		}
		return
	}
	if len(s.queue) > 0 { // none of those could be encoded
		s.deliver(ctx)
		return
	}
	if !s.asked {
		s.asked = true
		ctx.Send(s.bus, &more{sub: ctx.Self(), from: s.next})
	}
}

// takeLines is the Batch of the first n queued records and then the
// volatile events, encoded (each event once, for every subscriber); nil
// when there is no line.
func (s *sub) takeLines(n int, self *actor.PID) *Batch {
	lines := make([][]byte, 0, n+len(s.volatile))
	for _, q := range s.queue[:n] {
		line, dedicated := q.rec.encoded(s.log)
		if q.dedicated {
			line = dedicated
		}
		if line != nil {
			lines = append(lines, line)
		}
	}
	if n < maxBatch && len(s.volatile) > 0 {
		for _, v := range s.volatile {
			if line := v.encoded(s.log); line != nil {
				lines = append(lines, line)
			}
		}
		clear(s.volatile)
		s.volatile = nil
	}
	if len(lines) == 0 {
		return nil
	}
	return &Batch{Lines: lines, From: self}
}

// takeEvents is the Events of the first n queued records; nil for none.
func (s *sub) takeEvents(n int, self *actor.PID) *Events {
	if n == 0 {
		return nil
	}
	list := make([]Event, n)
	for i, q := range s.queue[:n] {
		list[i] = Event{Seq: q.rec.seq, Data: q.rec.data, Fields: q.rec.fields}
	}
	return &Events{List: list, From: self}
}

// stallFired drops the sub when its batch in flight went out s.stall ago
// or more and is still not written: its connection gets events_lost, as
// Herdr drops an observer that makes no progress.
func (s *sub) stallFired(ctx actor.Context) {
	s.checking = false
	if !s.inflight {
		return
	}
	if left := s.stall - time.Since(s.sentAt); left > 0 {
		s.checking = true
		s.timers.After(ctx, left, stallCheck{})
		return
	}
	logWarn(s.log, "event subscriber dropped: it wrote nothing", "for", s.stall)
	ctx.Send(s.conn, &Lost{Stalled: s.stall})
	s.end(ctx)
}

func (s *sub) end(ctx actor.Context) {
	s.timers.StopAll()
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
	log     *slog.Logger
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
				if line, _ := r.encoded(w.log); line != nil {
					w.answer(ctx, kit.Done(protocol.WaitMatched{Event: line}))
					return
				}
			}
		}
	case *volatileEvent:
		if w.match.Matches(msg.kind, msg.fields) {
			if line := msg.encoded(w.log); line != nil {
				w.answer(ctx, kit.Done(protocol.WaitMatched{Event: line}))
			}
		}
	case *actor.Stopping: // also after a failure, when end did not run
		if w.cancel != nil {
			w.cancel()
		}
	case *waitExpired:
		w.answer(ctx, kit.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for %s", w.match.Kind)))
	case *actor.Terminated:
		if msg.Who.Equal(w.conn) {
			w.end(ctx)
		}
	default:
		kit.Unhandled(ctx, msg, nil)
	}
}

func (w *waiter) answer(ctx actor.Context, r *kit.Reply) {
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
