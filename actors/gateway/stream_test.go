package gateway

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// streamClient reads a subscriber's lines in order.
type streamClient struct {
	c net.Conn
	r *bufio.Reader
}

func (s *streamClient) line(t *testing.T) string {
	t.Helper()
	_ = s.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := s.r.ReadString('\n')
	if err != nil {
		t.Fatalf("read: %q, %v", line, err)
	}
	return strings.TrimSuffix(line, "\n")
}

func (s *streamClient) eof(t *testing.T) {
	t.Helper()
	_ = s.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if line, err := s.r.ReadString('\n'); err != io.EOF {
		t.Fatalf("after the stream's end: %q, %v", line, err)
	}
}

// TestConn_Stream_EndsOnItsSubsFailure: a connection told its sub failed
// writes one internal_error line with the subscribe request's id after
// what it already streamed, and closes — like events_lost — while another
// subscriber streams on. A failure that overtakes the subscription's
// acknowledgement still comes after it, with the id.
func TestConn_Stream_EndsOnItsSubsFailure(t *testing.T) {
	system := quietSystem(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bus := system.Root.Spawn(events.Props(0, log))
	conns := make(chan *actor.PID, 4)
	failEarly := make(chan bool, 4)
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if call, ok := ctx.Message().(*kit.Call); ok && call.Method == "events.subscribe" {
			ctx.Send(bus, &events.Subscribe{Sub: ctx.Sender(), Kinds: []string{"workspace_renamed"}})
			if <-failEarly {
				ctx.Send(ctx.Sender(), &events.Failed{Reason: "early"})
			}
			conns <- ctx.Sender()
			ctx.Respond(kit.Done(protocol.SubscriptionStarted{}))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := newFakeListener()
	opts := Options{Listener: l, Session: session, Events: bus, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerEvents: session}, Log: log}
	if _, err := system.Root.SpawnNamed(Props(opts), "gateway"); err != nil {
		t.Fatal(err)
	}
	open := func(early bool) (*streamClient, *actor.PID) {
		s := &streamClient{c: l.dial()}
		t.Cleanup(func() { s.c.Close() })
		s.r = bufio.NewReader(s.c)
		failEarly <- early
		if _, err := fmt.Fprintln(s.c, `{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"workspace.renamed"}]}}`); err != nil {
			t.Fatal(err)
		}
		if ack := s.line(t); ack != `{"id":"sub","result":{"type":"subscription_started"}}` {
			t.Fatalf("ack = %s", ack)
		}
		return s, <-conns
	}
	a, aConn := open(false)
	b, _ := open(false)
	rename := func(label string) {
		system.Root.Send(bus, &events.Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: label}, Fields: events.Fields{WorkspaceID: "w1", Label: label}})
	}
	rename("one")
	for _, s := range []*streamClient{a, b} {
		if got := s.line(t); !strings.Contains(got, `"label":"one"`) {
			t.Fatalf("event = %s", got)
		}
	}
	system.Root.Send(aConn, &events.Failed{Reason: "boom"})
	if got := a.line(t); got != `{"id":"sub","error":{"code":"internal_error","message":"internal error in event subscription: boom; resubscribe"}}` {
		t.Fatalf("failed stream's last line = %s", got)
	}
	a.eof(t)
	// A streaming connection takes no more requests: a ping gets no answer.
	if _, err := fmt.Fprintln(b.c, `{"id":"p","method":"ping"}`); err != nil {
		t.Fatal(err)
	}
	rename("two")
	if got := b.line(t); !strings.Contains(got, `"label":"two"`) {
		t.Fatalf("the other stream got %s", got)
	}

	early, _ := open(true)
	if got := early.line(t); !strings.HasPrefix(got, `{"id":"sub","error":{"code":"internal_error"`) {
		t.Fatalf("early failure = %s", got)
	}
	early.eof(t)
}
