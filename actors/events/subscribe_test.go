package events

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// ResolvePanes knows one pane, "p1" (or its full id), whose agent is idle.
func (f *fakeReads) ResolvePanes(ids []string) ([]PaneRef, error) {
	out := make([]PaneRef, len(ids))
	for i, id := range ids {
		switch id {
		case "":
		case "p1", "w1:p1":
			out[i] = PaneRef{PaneID: "w1:p1", WorkspaceID: "w1", TabID: "w1:t1", TermID: "term1", PID: f.pane,
				Status: protocol.PaneAgentStatusChangedEvent{PaneID: "w1:p1", WorkspaceID: "w1", AgentStatus: "idle"}}
		default:
			return nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
		}
	}
	return out, nil
}

// The bus answers events.subscribe itself: one unknown pane, bad pattern
// or other machine's pane without "machines":"all" rejects the whole
// request (no matcher starts), a status that already holds comes with the
// acknowledgement, the output matcher starts on the pane the read side
// names, and the subscriber then gets what is published.
func TestBus_EventsSubscribeCall(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	reads := &fakeReads{caught: make(chan bool, 8), later: make(chan func(), 4)}
	paneProbe, paneGot := spawnProbe(system, nil, false)
	reads.pane = paneProbe
	bus := system.Root.Spawn(PropsRead(8, log, &Carried{NextSeq: 1}, reads))
	conn, got := spawnProbe(system, bus, true)
	idle := "idle"
	matched := protocol.Subscription{Type: protocol.SubOutputMatched, PaneID: "p1", Match: &protocol.OutputMatch{Type: "substring", Value: "ok"}}
	subscribe := func(subs ...protocol.Subscription) *kit.Reply {
		t.Helper()
		reads.caught <- true
		system.Root.RequestWithCustomSender(bus, &kit.Call{ID: "1", Method: "events.subscribe", Params: &protocol.EventsSubscribeParams{Subscriptions: subs}}, conn)
		return next(t, got).(*kit.Reply)
	}
	refused := []struct {
		name string
		sub  protocol.Subscription
		code string
	}{
		{"unknown pane", protocol.Subscription{Type: protocol.SubScrollChanged, PaneID: "p9"}, protocol.CodePaneNotFound},
		{"bad regex", protocol.Subscription{Type: protocol.SubOutputMatched, PaneID: "p1", Match: &protocol.OutputMatch{Type: "regex", Value: "("}}, protocol.CodeInvalidRegex},
		{"other machine", protocol.Subscription{Type: protocol.SubAgentStatusChanged, PaneID: "m1/w1:p1"}, protocol.CodeNotSupported},
	}
	for _, c := range refused {
		if r := subscribe(matched, c.sub); protocol.AsError(r.Err).Code != c.code {
			t.Fatalf("%s: %+v, want %s", c.name, r, c.code)
		}
	}
	select {
	case m := <-paneGot:
		t.Fatalf("a refused subscription started a matcher: %+v", m)
	default:
	}
	r := subscribe(protocol.Subscription{Type: protocol.SubAgentStatusChanged, PaneID: "p1", AgentStatus: &idle}, matched,
		protocol.Subscription{Type: "workspace.renamed"})
	if r.Err != nil {
		t.Fatalf("subscribe: %+v", r.Err)
	}
	init := r.Result.(protocol.SubscriptionStarted).Initial
	if len(init) != 1 || !strings.Contains(string(init[0]), `"idle"`) || !strings.Contains(string(init[0]), `"w1:p1"`) {
		t.Fatalf("initial = %q, want the idle status of w1:p1", init)
	}
	m := next(t, paneGot).(*AddMatcher)
	if m.PaneID != "w1:p1" || m.TabID != "w1:t1" || !m.Sub.Equal(conn) || !m.Bus.Equal(bus) || m.Match.Value != "ok" || m.ID == 0 {
		t.Fatalf("matcher = %+v", m)
	}
	system.Root.Send(bus, &Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "x"}, Fields: Fields{WorkspaceID: "w1", Label: "x"}})
	b := next(t, got).(*Batch)
	if len(b.Lines) != 1 || !strings.Contains(string(b.Lines[0]), `"x"`) {
		t.Fatalf("batch = %q", b.Lines)
	}
}
