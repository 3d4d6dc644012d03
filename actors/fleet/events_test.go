package fleet

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

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
	a := sys.Root.Spawn(Props(Options{Config: hub, StateDir: t.TempDir(), Version: "t", Events: bus, Stream: evstream.Config{Memory: true}, Log: quiet()}))
	defer sys.Root.Stop(a)
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
