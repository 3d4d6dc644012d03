package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// MembersBucket is the JetStream key-value bucket of presence: one key
// per member, its name, holding a presenceEntry; the bucket's TTL drops
// a member that stopped keeping its entry alive.
const MembersBucket = "herdr-members"

// presenceEntry is what a member says of itself.
type presenceEntry struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Labels  []string `json:"labels"`
	Started int64    `json:"started"` // unix ms
	Allow   []string `json:"allow,omitempty"`
}

// memberMsg is a change of the bucket, seen by the watcher's goroutine
// and sent to the fleet actor: a member's entry written (its server's
// clock), or deleted or expired (gone).
type memberMsg struct {
	name  string
	entry presenceEntry
	at    time.Time
	gone  bool
}

// presence is the fleet actor's child that keeps this member's entry
// alive and watches the bucket: the bucket made or found (retried with
// backoff while the hub cannot be reached), the entry written every
// keepAlive, and every change sent to the parent. Its NATS work runs on
// goroutines that send it their outcome.
type presence struct {
	js        jetstream.JetStream
	name      string
	entry     []byte
	ttl       time.Duration
	keepAlive time.Duration
	replicas  int
	parent    *actor.PID
	log       *slog.Logger

	kv      jetstream.KeyValue
	tries   int
	lastErr string
	stop    context.CancelFunc
	tick    uint64 // the pending keepTick's timer, so one loop writes
	timers  kit.Timers
}

type (
	bucketReady struct {
		kv  jetstream.KeyValue
		err error
	}
	putDone struct{ err error }
	// rewatch: the connection is back (the hub restarted, say); the
	// watch is made again, so no change made meanwhile is missed.
	rewatch struct{}
	// membersReset tells the parent a watch starts: the members it knew
	// are forgotten, the watch sends each one there is.
	membersReset struct{}
	setupAgain   struct{}
	keepTick     struct{}
)

func (p *presence) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		p.setup(ctx)
	case *actor.Stopping:
		p.timers.StopAll()
		if p.stop != nil {
			p.stop()
		}
		if kv, name := p.kv, p.name; kv != nil {
			// Leave at once rather than after the TTL.
			go func() {
				c, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				_ = kv.Delete(c, name)
			}()
		}
	case *kit.Fired:
		switch p.timers.Fired(msg).(type) {
		case *setupAgain:
			p.setup(ctx)
		case *keepTick:
			p.put(ctx)
		}
	case *bucketReady:
		if msg.err != nil {
			p.fail(ctx, "the presence bucket", msg.err)
			p.tries++
			p.timers.After(ctx, setupDelay(p.tries), &setupAgain{})
			return
		}
		p.tries = 0
		p.kv = msg.kv
		p.watch(ctx)
		p.put(ctx)
	case *rewatch:
		if p.kv != nil {
			p.watch(ctx)
			p.put(ctx)
		}
	case *putDone:
		if msg.err != nil {
			// The bucket may be gone with a hub that lost its store:
			// found or made again before the next write.
			p.fail(ctx, "keeping this member's presence", msg.err)
			p.tries++
			p.timers.After(ctx, setupDelay(p.tries), &setupAgain{})
			return
		}
		p.lastErr = ""
		p.timers.Cancel(p.tick)
		p.tick = p.timers.After(ctx, p.keepAlive, &keepTick{})
	default:
		kit.Unhandled(ctx, msg, p.log)
	}
}

// setupDelay is the wait before the bucket is looked for again: 250 ms
// doubling to 5 s (a clustered hub electing its leaders answers within
// seconds; the connection's own backoff covers a hub that is away).
func setupDelay(tries int) time.Duration {
	d := 250 * time.Millisecond
	for i := 1; i < tries && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

// fail says why in the log at warn, once per distinct reason.
func (p *presence) fail(ctx actor.Context, what string, err error) {
	if err.Error() != p.lastErr {
		p.log.Warn("fleet: "+what+" failed; retrying", "err", err)
		p.lastErr = err.Error()
	}
	ctx.Send(p.parent, &linkErr{err: err})
}

// setup finds the bucket, or makes it (replicated on a clustered hub).
func (p *presence) setup(ctx actor.Context) {
	js, ttl, replicas, self, root := p.js, p.ttl, p.replicas, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		// Short: a clustered hub still electing its leaders does not
		// answer, and is asked again sooner.
		c, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		kv, err := js.KeyValue(c, MembersBucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			kv, err = js.CreateKeyValue(c, jetstream.KeyValueConfig{
				Bucket: MembersBucket, Description: "herdr fleet presence", TTL: ttl, LimitMarkerTTL: ttl,
				History: 1, Replicas: replicas,
			})
			if errors.Is(err, jetstream.ErrBucketExists) {
				kv, err = js.KeyValue(c, MembersBucket) // another member made it meanwhile
			}
		}
		root.Send(self, &bucketReady{kv: kv, err: err})
	}()
}

// put writes this member's entry, which restarts its TTL.
func (p *presence) put(ctx actor.Context) {
	kv, name, entry, self, root := p.kv, p.name, p.entry, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := kv.Put(c, name, entry)
		root.Send(self, &putDone{err: err})
	}()
}

// watch sends the parent every entry of the bucket and every change after.
func (p *presence) watch(ctx actor.Context) {
	if p.stop != nil {
		p.stop()
	}
	c, cancel := context.WithCancel(context.Background())
	p.stop = cancel
	kv, parent, self, root, log := p.kv, p.parent, ctx.Self(), ctx.ActorSystem().Root, p.log
	go func() {
		w, err := kv.WatchAll(c)
		if err != nil {
			if c.Err() == nil {
				root.Send(self, &bucketReady{err: err}) // tried again
			}
			return
		}
		defer w.Stop()
		root.Send(parent, &membersReset{}) // what follows is the whole bucket
		for e := range w.Updates() {
			if e == nil {
				continue // the initial values are all in
			}
			m := &memberMsg{name: e.Key(), at: e.Created(), gone: e.Operation() != jetstream.KeyValuePut}
			if !m.gone && protocol.Unmarshal(e.Value(), &m.entry) != nil {
				log.Warn("fleet: a presence entry is not JSON; skipped", "member", e.Key())
				continue
			}
			root.Send(parent, m)
		}
		if c.Err() == nil {
			root.Send(self, &bucketReady{err: errors.New("the presence watch ended")}) // made again
		}
	}()
}

func encodeEntry(e presenceEntry) []byte {
	b, _ := json.Marshal(e)
	return b
}
