package fleet

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/protocol"
)

// A member's relay, both ways, on an in-process hub: an event published
// on alpha's bus is stored in the fleet's stream under alpha's name;
// another member's event in the stream reaches alpha's bus qualified by
// that member's name (a fleet subscriber's); alpha's own, read back from
// the stream, is not published on its bus again.
func TestRelay_BusToStreamAndBack(t *testing.T) {
	sys := actor.NewActorSystem()
	bus := sys.Root.Spawn(events.Props(64, quiet()))
	got := make(chan events.Event, 16)
	probe := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*events.Events); ok {
			for _, e := range m.List {
				got <- e
			}
			ctx.Send(bus, &events.Ack{Sub: ctx.Self()})
		}
	}))
	sys.Root.Send(bus, &events.Subscribe{Sub: probe, Kinds: protocol.LifecycleKinds, Fleet: true, Typed: true})

	hub := hubConfig(t, "alpha")
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Version: "t", Events: bus, Stream: evstream.Config{Memory: true}, Log: quiet()})
	status(t, sys, a, func(s protocol.FleetStatus) bool { return len(s.Members) == 1 })

	nc, err := nats.Connect(hubURL(hub.Listen), nats.UserInfo("herdr", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	stored := make(chan *evstream.Event, 16)
	var sub *evstream.Subscription
	deadline := time.Now().Add(10 * time.Second)
	for { // the relay makes the stream as it joins
		sub, err = evstream.Subscribe(ctxT(t), js, evstream.Config{}, evstream.Options{From: 1}, func(d evstream.Delivery) {
			if d.Event != nil {
				stored <- d.Event
			}
		})
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Stop()

	// Out: alpha's bus to the stream. (Sent until stored: the relay's
	// bus subscription may still be on its way.)
	var ev *evstream.Event
	for ev == nil {
		sys.Root.Send(bus, &events.Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "mine"}, Fields: events.Fields{WorkspaceID: "w1"}})
		select {
		case ev = <-stored:
		case <-time.After(500 * time.Millisecond):
		case <-time.After(time.Until(deadline)):
			t.Fatal("alpha's event never reached the stream")
		}
	}
	if ev.Member != "alpha" || ev.Kind != "workspace_renamed" || !strings.Contains(string(ev.Data), `"label":"mine"`) {
		t.Fatalf("stored %+v %s", ev, ev.Data)
	}

	// In: beta's event in the stream reaches alpha's bus, qualified.
	pub, err := evstream.NewPublisher(js, evstream.Config{}, "beta")
	if err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := pub.Publish(c, "workspace_renamed", []byte(`{"event":"workspace_renamed","seq":7,"data":{"type":"workspace_renamed","workspace_id":"w3","label":"theirs"}}`)); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-got:
			if e.Fields.Machine == "" {
				continue // alpha's own, published locally above
			}
			re, ok := e.Data.(protocol.RemoteEvent)
			if !ok || e.Fields.Machine != "beta" || !strings.Contains(string(re.Data), `"workspace_id":"beta/w3"`) || !strings.Contains(string(re.Data), `"machine":{"id":"beta"`) {
				t.Fatalf("beta's event on alpha's bus: %+v %s", e, re.Data)
			}
			// Nothing of alpha's comes back as a member's.
			select {
			case e := <-got:
				if e.Fields.Machine != "" {
					t.Fatalf("a second remote event on alpha's bus: %+v", e)
				}
			case <-time.After(300 * time.Millisecond):
			}
			return
		case <-timeout:
			t.Fatal("beta's event never reached alpha's bus")
		}
	}
}

// A member that was down replays what the stream kept from while it was
// away: beta, restarted with its state dir, gets gamma's events published
// meanwhile (and none it had seen before); when the stream no longer holds
// them (purged, as its bounds would), beta's fleet subscribers are told
// events_lost with the gap, then get what followed.
func TestRelay_MemberDownReplaysOrSaysLost(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	hubCfg := hubConfig(t, "hub")
	srv, err := startHub(hubCfg, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := hubURL(hubCfg.Listen)
	js, _ := jetstream.New(connectT(t, url))
	mem := evstream.Config{Memory: true}
	stream, err := evstream.Ensure(ctxT(t), js, mem)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := evstream.NewPublisher(js, mem, "gamma")
	publish := func(label string) uint64 {
		t.Helper()
		seq, err := pub.Publish(ctxT(t), "workspace_renamed", []byte(`{"event":"workspace_renamed","seq":1,"data":{"type":"workspace_renamed","workspace_id":"w1","label":"`+label+`"}}`))
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}

	sys := actor.NewActorSystem()
	dir := t.TempDir()
	// start runs beta anew (a new bus: a restarted server) and returns
	// what its fleet subscriber gets: gamma's labels, and the gaps.
	start := func() (func(), chan string) {
		bus := sys.Root.Spawn(events.Props(64, quiet()))
		got := make(chan string, 64)
		probe := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			if m, ok := ctx.Message().(*events.Events); ok {
				for _, e := range m.List {
					switch d := e.Data.(type) {
					case protocol.FleetEventsLost:
						got <- fmt.Sprintf("lost %d-%d", d.WantedSeq, d.FirstSeq)
					case protocol.RemoteEvent:
						var w struct {
							Label string `json:"label"`
						}
						_ = protocol.Unmarshal(d.Data, &w)
						got <- w.Label
					}
				}
				ctx.Send(bus, &events.Ack{Sub: ctx.Self()})
			}
		}))
		sys.Root.Send(bus, &events.Subscribe{Sub: probe, Kinds: protocol.LifecycleKinds, Fleet: true, Typed: true})
		cfg := config.Fleet{Name: "beta", URL: []string{url}, User: "herdr", Password: "secret"}
		b, stopB := spawnT(t, sys, Options{Config: cfg, StateDir: dir, Events: bus, Stream: mem, Log: quiet()})
		status(t, sys, b, func(s protocol.FleetStatus) bool { return s.Hub.State == protocol.FleetHubConnected })
		return stopB, got
	}
	next := func(got chan string) string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("beta's fleet subscriber got nothing more")
			return ""
		}
	}
	stop := func(stopB func(), last uint64) {
		t.Helper()
		if !eventually(func() bool { return readSeq(filepath.Join(dir, EventsSeqFile)) == last+1 }) {
			t.Fatalf("beta never saved its place after sequence %d (it holds %d)", last, readSeq(filepath.Join(dir, EventsSeqFile)))
		}
		stopB()
	}

	// First run: from the moment it joined (published until seen: its
	// subscription may still be on its way).
	b, got := start()
	// Its place is kept before any event comes (the stream is empty: 1).
	if !eventually(func() bool { return readSeq(filepath.Join(dir, EventsSeqFile)) == 1 }) {
		t.Fatalf("beta did not keep its place in the empty stream (it holds %d)", readSeq(filepath.Join(dir, EventsSeqFile)))
	}
	var last uint64
	for seen := false; !seen; {
		last = publish("live")
		select {
		case s := <-got:
			seen = s == "live"
		case <-time.After(300 * time.Millisecond):
		}
	}
	for len(got) > 0 || readSeq(filepath.Join(dir, EventsSeqFile)) != last+1 {
		select {
		case <-got:
		case <-time.After(100 * time.Millisecond):
		}
	}
	stop(b, last)

	publish("missed-1")
	last = publish("missed-2")
	b, got = start()
	if a, c := next(got), next(got); a != "missed-1" || c != "missed-2" {
		t.Fatalf("after a restart beta's subscriber got %q, %q; want missed-1, missed-2", a, c)
	}
	stop(b, last)

	publish("gone")
	if err := stream.Purge(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	after := publish("after")
	_, got = start()
	if s := next(got); s != fmt.Sprintf("lost %d-%d", last+1, after) {
		t.Fatalf("a gap in the stream: beta's subscriber got %q; want events_lost %d-%d", s, last+1, after)
	}
	if s := next(got); s != "after" {
		t.Fatalf("after the gap: %q", s)
	}
}
