package gateway

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// TestConn_Deadline_UnansweredCallIsGivenUpAndLateAnswerDropped: an owner
// that never answers a request costs it internal_error after the call
// deadline; the request pipelined behind it is answered normally, and the
// late answer to the first, which the owner sends just before answering
// the second, is not taken for the second's.
func TestConn_Deadline_UnansweredCallIsGivenUpAndLateAnswerDropped(t *testing.T) {
	system := quietSystem(t)
	var lost *actor.PID // the caller of the call never answered in time
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*kit.Call)
		if !ok {
			return
		}
		switch call.Method {
		case "workspace.list":
			lost = ctx.Sender() // and no answer, for now
		default:
			if lost != nil {
				ctx.Send(lost, kit.Fail(protocol.Errorf("late", "the late answer to the lost call")))
				lost = nil
			}
			ctx.Respond(kit.Done(protocol.OK{}))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := startGatewayWith(t, system, Options{Session: session, CallDeadline: 200 * time.Millisecond})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(c, `{"id":"1","method":"workspace.list","params":{}}`+"\n"+`{"id":"2","method":"pane.list","params":{}}`+"\n")
	r := bufio.NewReader(c)
	read := func() string {
		t.Helper()
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		return strings.TrimSpace(line)
	}
	if a := read(); !strings.Contains(a, `"id":"1"`) || !strings.Contains(a, `"internal_error"`) || !strings.Contains(a, "no answer from session to workspace.list") {
		t.Fatalf("the unanswered request got %s, want internal_error naming the owner and the method", a)
	}
	if a := read(); a != `{"id":"2","result":{"type":"ok"}}` {
		t.Fatalf("the request behind it got %s, want its own ok (not the late answer)", a)
	}
	fmt.Fprint(c, `{"id":"3","method":"pane.list","params":{}}`+"\n")
	if a := read(); a != `{"id":"3","result":{"type":"ok"}}` {
		t.Fatalf("the next request got %s", a)
	}
}

// After a call was given up, the connection's calls go out through a
// relay, and whoever knows the connection by a call's sender knows it by
// the relay: an events.subscribe made then streams on, batch after
// batch, because the writer acknowledges each to the bus as the relay.
func TestConn_Deadline_SubscriptionAfterAGivenUpCallStreams(t *testing.T) {
	system := quietSystem(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bus := system.Root.Spawn(events.Props(0, log))
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*kit.Call)
		if !ok {
			return
		}
		switch call.Method {
		case "workspace.list": // never answered
		case "events.subscribe":
			ctx.Send(bus, &events.Subscribe{Sub: ctx.Sender(), Kinds: []string{"workspace_renamed"}})
			ctx.Respond(kit.Done(protocol.SubscriptionStarted{}))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := startGatewayWith(t, system, Options{Session: session, Events: bus, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerEvents: session}, CallDeadline: 200 * time.Millisecond})
	s := &streamClient{c: l.dial()}
	defer s.c.Close()
	s.r = bufio.NewReader(s.c)
	fmt.Fprint(s.c, `{"id":"1","method":"workspace.list","params":{}}`+"\n"+`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"workspace.renamed"}]}}`+"\n")
	if got := s.line(t); !strings.Contains(got, `"id":"1","error":{"code":"internal_error"`) {
		t.Fatalf("the lost call got %s", got)
	}
	if got := s.line(t); got != `{"id":"sub","result":{"type":"subscription_started"}}` {
		t.Fatalf("ack = %s", got)
	}
	for _, label := range []string{"one", "two", "three"} {
		system.Root.Send(bus, &events.Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: label}, Fields: events.Fields{WorkspaceID: "w1", Label: label}})
		if got := s.line(t); !strings.Contains(got, `"label":"`+label+`"`) {
			t.Fatalf("event = %s, want %s", got, label)
		}
	}
}
