package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// relay is the fleet actor's child that joins this server's event bus to
// the fleet's event stream (evstream), both ways:
//
//   - out: it subscribes to the bus's lifecycle events of this server
//     (typed, not the fleet's: a member never republishes another's) and
//     publishes each, as its wire line, on herdr.events.<name>.<kind>; a
//     batch is acknowledged to the bus once the stream stored it, so the
//     bus paces the relay and the order is kept.
//   - in: it reads the stream from the sequence after the last it saw,
//     kept (the next to read) in seqFile (so a member that was down replays what the stream
//     kept from while it was away), or from the moment it joined when it
//     never saw one; across a reconnection the ordered consumer resumes
//     by itself. It publishes every other member's event on the bus as a
//     saved machine's remote event is, qualified by the member's name. So
//     a fleet subscriber (events.subscribe with "machines":"all") gets the
//     members' events with the machines', numbered by this bus: since_seq
//     resumes it after a disconnect, and a gap the bus no longer holds is
//     events_lost, as for any subscriber. A gap in the stream itself
//     (its bounds dropped what this member had not seen, or the hub lost
//     its store) is an events_lost event to the fleet subscribers
//     (protocol.FleetEventsLost) and a warning in the log, naming it.
//
// The stream's callbacks only send this actor messages; publishing waits
// for the stream's acknowledgement on a goroutine.
type relay struct {
	js      jetstream.JetStream
	name    string
	started int64 // ms: with the bus sequence, an event's id in the stream
	bus     *actor.PID
	cfg     evstream.Config
	seqFile string // the next stream sequence to read, kept across restarts ("": not kept)
	leaving *Leaving
	log     *slog.Logger

	next, saved uint64        // the next stream sequence to read (0: none yet), and the one seqFile holds
	writing     chan struct{} // the write of seqFile under way (nil: none), closed as it ends
	saveDue     time.Time     // no write before (one a second at most)
	saveTimer   bool

	pub     *evstream.Publisher
	sub     *evstream.Subscription
	pending []*events.Events // bus batches waiting for the publisher
	sending bool
	tries   int
	timers  kit.Timers
	lastErr string
}

type (
	relayReady struct {
		pub  *evstream.Publisher
		sub  *evstream.Subscription
		from uint64
		err  error
	}
	relaySaved struct {
		seq uint64
		err error
	}
	relayAgain  struct{}
	relaySoon   struct{} // the next write of seqFile is due
	relayStream struct{ d evstream.Delivery }
	relaySent   struct{ err error }
)

// relayPublishTimeout bounds one batch's publishing: past it the batch is
// dropped with a warning (the hub is gone; the bus must not stall).
const relayPublishTimeout = 10 * time.Second

// maxPending bounds the bus batches waiting while the stream is not
// joined (a batch is up to 256 events).
const maxPending = 16

func (r *relay) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.Send(r.bus, &events.Subscribe{Sub: ctx.Self(), Kinds: protocol.LifecycleKinds, Typed: true})
		r.join(ctx)
	case *actor.Stopping:
		r.timers.StopAll()
		if r.sub != nil {
			r.sub.Stop()
		}
		if r.seqFile != "" && r.next != r.saved {
			// The last place, as the server stops: after a write still
			// under way, so the newer one is the one left.
			file, seq, before := r.seqFile, r.next, r.writing
			r.leaving.Go(func() {
				if before != nil {
					<-before
				}
				if err := writeSeq(file, seq); err != nil {
					r.log.Warn("fleet: this member's place in the event stream was not saved as it stopped", "err", err)
				}
			})
		}
	case *relayReady:
		if msg.err != nil {
			r.tries++
			r.warn("fleet: the event stream is not joined; trying again", msg.err)
			r.timers.After(ctx, reconnectDelay(r.tries), &relayAgain{})
			return
		}
		r.pub, r.sub, r.tries, r.lastErr = msg.pub, msg.sub, 0, ""
		if start := msg.sub.Start(); start > r.next {
			// Where this member stands even before an event comes: one
			// that never saw any still replays from here after a restart.
			r.next = start
			r.save(ctx)
		}
		if msg.from > 1 {
			r.log.Info("fleet: reading the event stream from where this member left it", "seq", msg.from)
		}
		r.send(ctx)
	case *relaySaved:
		r.writing, r.saveDue = nil, time.Now().Add(time.Second)
		if msg.err != nil {
			r.warn("fleet: this member's place in the event stream was not saved", msg.err)
		} else {
			r.saved = msg.seq
		}
		r.save(ctx)
	case *kit.Fired:
		switch r.timers.Fired(msg).(type) {
		case *relayAgain:
			r.join(ctx)
		case *relaySoon:
			r.saveTimer = false
			r.save(ctx)
		}
	case *events.Events:
		if len(r.pending) >= maxPending {
			// Not joined for long (each batch waits for the stream): the
			// oldest go unpublished rather than pile up.
			r.log.Warn("fleet: the event stream is not reachable; this server's oldest events were not published to the fleet", "events", len(r.pending[0].List))
			r.pending = r.pending[1:]
		}
		r.pending = append(r.pending, msg)
		r.send(ctx)
	case *relaySent:
		r.sending = false
		if msg.err != nil {
			r.warn("fleet: events not published to the fleet's stream", msg.err)
		}
		ctx.Send(r.bus, &events.Ack{Sub: ctx.Self()})
		r.send(ctx)
	case *events.Lost, *events.Failed:
		// Behind the bus's history (the hub slow for long): what was
		// skipped is lost to the fleet; subscribe anew from now.
		r.log.Warn("fleet: the relay fell behind this server's events; some were not published to the fleet", "why", fmt.Sprint(msg))
		ctx.Send(r.bus, &events.Subscribe{Sub: ctx.Self(), Kinds: protocol.LifecycleKinds, Typed: true})
	case *relayStream:
		r.in(ctx, msg.d)
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, r.log)
	}
}

func (r *relay) warn(what string, err error) {
	if err.Error() != r.lastErr {
		r.log.Warn(what, "err", err)
	}
	r.lastErr = err.Error()
}

// join makes the stream (or updates its bounds), the publisher and the
// subscription, on a goroutine.
// It reads from the next sequence: this run's, else the one seqFile
// kept; none, from now.
func (r *relay) join(ctx actor.Context) {
	self, root := ctx.Self(), ctx.ActorSystem().Root
	js, cfg, name, file := r.js, r.cfg, r.name, r.seqFile
	from := r.next
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ready := relayReady{from: from}
		if ready.from == 0 && file != "" {
			ready.from = readSeq(file)
		}
		if _, err := evstream.Ensure(c, js, cfg); err != nil {
			ready.err = err
		} else if ready.pub, err = evstream.NewPublisher(js, cfg, name); err != nil {
			ready.err = err
		} else {
			ready.sub, ready.err = evstream.Subscribe(c, js, cfg, evstream.Options{From: ready.from}, func(d evstream.Delivery) {
				root.Send(self, &relayStream{d: d})
			})
		}
		root.Send(self, &ready)
	}()
}

// send publishes the oldest pending batch, one at a time.
func (r *relay) send(ctx actor.Context) {
	if r.sending || r.pub == nil || len(r.pending) == 0 {
		return
	}
	b := r.pending[0]
	r.pending = r.pending[1:]
	r.sending = true
	type out struct {
		kind, id string
		line     []byte
	}
	var list []out
	for _, e := range b.List {
		line, err := protocol.EncodeEvent(e.Data, e.Seq)
		if err != nil {
			continue
		}
		list = append(list, out{kind: e.Data.EventKind(), id: fmt.Sprintf("%s.%d.%d", r.name, r.started, e.Seq), line: line})
	}
	self, root, pub := ctx.Self(), ctx.ActorSystem().Root, r.pub
	go func() {
		c, cancel := context.WithTimeout(context.Background(), relayPublishTimeout)
		defer cancel()
		var err error
		for _, o := range list {
			if _, err = pub.PublishOnce(c, o.kind, o.id, o.line); err != nil {
				break
			}
		}
		root.Send(self, &relaySent{err: err})
	}()
}

// in publishes another member's event on this server's bus, qualified.
func (r *relay) in(ctx actor.Context, d evstream.Delivery) {
	switch {
	case d.Err != nil:
		r.warn("fleet: the event stream's subscriber", d.Err)
		return
	case d.Lost != nil:
		r.log.Warn("fleet: events of other members were lost", "why", d.Lost.String())
		ctx.Send(r.bus, &events.Publish{Data: protocol.FleetEventsLost{Member: r.name, WantedSeq: d.Lost.Wanted, FirstSeq: d.Lost.First, Reset: d.Lost.Reset, Message: d.Lost.String()},
			Fields: events.Fields{Machine: r.name}})
		return
	case d.Event == nil:
		return
	}
	r.next = d.Event.Seq + 1
	r.save(ctx)
	if d.Event.Member == r.name {
		return
	}
	v, err := protocol.DecodeJSON(d.Event.Data)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return
	}
	kind, _ := obj["event"].(string)
	data, _ := obj["data"].(map[string]any)
	if kind == "" || data == nil {
		return
	}
	delete(data, "type")
	ref := protocol.MachineRef{ID: d.Event.Member, Label: d.Event.Member}
	fields := events.Fields{Machine: ref.ID}
	fields.PaneID, _ = data["pane_id"].(string)
	fields.AgentStatus, _ = data["agent_status"].(string)
	protocol.QualifyValue(data, ref)
	data["machine"] = ref
	body, err := json.Marshal(data)
	if err != nil {
		return
	}
	typed, _ := protocol.DecodeEventData(kind, body)
	ctx.Send(r.bus, &events.Publish{Data: protocol.RemoteEvent{Kind: kind, Data: body, Event: typed}, Fields: fields})
}

// save writes the next stream sequence to read to seqFile, on a goroutine,
// one write at a time and at most one a second (the newest when due): a
// member killed replays at most that second's events again.
func (r *relay) save(ctx actor.Context) {
	if r.seqFile == "" || r.writing != nil || r.next == r.saved {
		return
	}
	if wait := time.Until(r.saveDue); wait > 0 {
		if !r.saveTimer {
			r.saveTimer = true
			r.timers.After(ctx, wait, &relaySoon{})
		}
		return
	}
	self, root, file, seq := ctx.Self(), ctx.ActorSystem().Root, r.seqFile, r.next
	done := make(chan struct{})
	r.writing = done
	r.leaving.Go(func() {
		err := writeSeq(file, seq)
		close(done)
		root.Send(self, &relaySaved{seq: seq, err: err})
	})
}

// readSeq is the sequence seqFile holds, 0 when none (or unreadable: the
// member then reads from now, as one that never joined).
func readSeq(file string) uint64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// writeSeq replaces seqFile with seq, whole (a new file renamed over).
func writeSeq(file string, seq uint64) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.FormatUint(seq, 10)+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}
