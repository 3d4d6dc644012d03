package gateway

import (
	"bufio"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// renamePane gives the test's pane another id.
type renamePane struct{ id string }

// A pane's calls go through the session until the pane has told the
// connection its actor, then straight to it; a pane that lost the id
// (NotThisPane) or is gone (a dead letter) sends the call back through
// the session, whose answer is the client's one answer.
func TestConn_PaneRoutes(t *testing.T) {
	system := quietSystem(t)
	var viaSession, direct atomic.Int32
	own := "w1:p1" // the pane's id, its actor's alone
	paneProps := actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *renamePane:
			own = msg.id
			ctx.Respond(msg) // acknowledged
		case *kit.Call: // forwarded by the session
			if msg.Route {
				ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: own, PID: ctx.Self()})
			}
			ctx.Respond(kit.OK())
		case *kit.PaneCall:
			if msg.PaneID != own {
				ctx.Respond(&kit.NotThisPane{Call: msg.Call})
				return
			}
			direct.Add(1)
			ctx.Respond(kit.OK())
		}
	})
	pane, renamed := system.Root.Spawn(paneProps), atomic.Bool{}
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*kit.Call)
		if !ok {
			return
		}
		viaSession.Add(1)
		if id := call.Params.(protocol.Targeted).TargetID(); id != "w1:p1" || renamed.Load() {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)))
			return
		}
		ctx.RequestWithCustomSender(pane, call, ctx.Sender())
	}))
	l := startGatewayWith(t, system, Options{Session: session})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	send := func(id string) string {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%s","method":"pane.send_text","params":{"pane_id":"w1:p1","text":"a"}}`+"\n", id)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %s: %v", id, err)
		}
		return strings.TrimSpace(line)
	}
	for i := 1; i <= 3; i++ {
		if a := send(fmt.Sprint(i)); a != fmt.Sprintf(`{"id":"%d","result":{"type":"ok"}}`, i) {
			t.Fatalf("call %d: %s", i, a)
		}
	}
	if viaSession.Load() != 1 || direct.Load() != 2 {
		t.Fatalf("%d calls through the session and %d to the pane, want 1 and then 2 direct", viaSession.Load(), direct.Load())
	}

	// The pane lost the id (NotThisPane): the call goes back through the
	// session, which knows no such pane now.
	renamed.Store(true)
	if _, err := system.Root.RequestFuture(pane, &renamePane{id: "w2:p1"}, time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if a := send("4"); !strings.Contains(a, `"id":"4"`) || !strings.Contains(a, protocol.CodePaneNotFound) || !strings.Contains(a, "pane w1:p1 not found") {
		t.Fatalf("a call to a renamed pane got %s, want the session's pane_not_found", a)
	}
	if viaSession.Load() != 2 || direct.Load() != 2 {
		t.Fatalf("after a rename: %d through the session, %d direct; want 2 and 2", viaSession.Load(), direct.Load())
	}

	// The id is the pane's again: learnt anew through the session, then
	// the pane is gone (a dead letter) and the session answers.
	renamed.Store(false)
	if _, err := system.Root.RequestFuture(pane, &renamePane{id: "w1:p1"}, time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if a := send("5"); a != `{"id":"5","result":{"type":"ok"}}` || viaSession.Load() != 3 {
		t.Fatalf("call 5: %s, %d through the session", a, viaSession.Load())
	}
	renamed.Store(true)
	if err := system.Root.PoisonFuture(pane).Wait(); err != nil {
		t.Fatal(err)
	}
	if a := send("6"); !strings.Contains(a, `"id":"6"`) || !strings.Contains(a, "pane w1:p1 not found") {
		t.Fatalf("a call to a gone pane got %s, want the session's pane_not_found", a)
	}
	if viaSession.Load() != 4 || direct.Load() != 2 {
		t.Fatalf("after the pane went: %d through the session, %d direct; want 4 and 2", viaSession.Load(), direct.Load())
	}
}

// A gated pane method (pane.graphics.clear) goes straight to a pane the
// connection knows only while its switch is on; off, every call goes
// through the session, which answers feature_disabled.
func TestConn_GatedPaneMethodsRouteOnlyWhileOn(t *testing.T) {
	for _, on := range []bool{true, false} {
		system := quietSystem(t)
		var viaSession, direct atomic.Int32
		pane := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch msg := ctx.Message().(type) {
			case *kit.Call:
				if msg.Route {
					ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: "w1:p1", PID: ctx.Self()})
				}
				ctx.Respond(kit.OK())
			case *kit.PaneCall:
				direct.Add(1)
				ctx.Respond(kit.OK())
			}
		}))
		session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			if call, ok := ctx.Message().(*kit.Call); ok {
				viaSession.Add(1)
				ctx.RequestWithCustomSender(pane, call, ctx.Sender())
			}
		}))
		l := startGatewayWith(t, system, Options{Session: session, GateOpen: func(gate string) bool { return on && gate == protocol.GateKittyGraphics }})
		c := l.dial()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(c, `{"id":"%d","method":"pane.graphics.clear","params":{"pane_id":"w1:p1","layer_id":"a"}}`+"\n", i)
			if line, err := r.ReadString('\n'); err != nil || strings.TrimSpace(line) != fmt.Sprintf(`{"id":"%d","result":{"type":"ok"}}`, i) {
				t.Fatalf("on=%v call %d: %q, %v", on, i, line, err)
			}
		}
		c.Close()
		wantSession, wantDirect := int32(3), int32(0)
		if on {
			wantSession, wantDirect = 1, 2
		}
		if viaSession.Load() != wantSession || direct.Load() != wantDirect {
			t.Fatalf("on=%v: %d through the session, %d direct; want %d and %d", on, viaSession.Load(), direct.Load(), wantSession, wantDirect)
		}
	}
}

// finder is a read model that knows one pane, under two id forms, while
// on is set.
type finder struct {
	pid *actor.PID
	on  atomic.Bool
}

func (f *finder) Read(*kit.Call) *kit.Reply { return nil }

func (f *finder) AgentTerm(*kit.Call, protocol.Target) (string, bool) { return "", false }

func (f *finder) Workspace(*kit.Call) (protocol.WorkspaceInfo, string, bool) {
	return protocol.WorkspaceInfo{}, "", false
}

func (f *finder) Tab(*kit.Call) (protocol.TabInfo, bool) { return protocol.TabInfo{}, false }

func (f *finder) PaneActor(call *kit.Call) (*actor.PID, string) {
	if id := call.Params.(protocol.Targeted).TargetID(); f.on.Load() && (id == "w1:p1" || id == "p_1") {
		return f.pid, "w1:p1"
	}
	return nil, ""
}

// A pane's call whose id the session's read model resolves goes straight
// to the pane, named by its current id, without entering the session's
// mailbox; one the read model cannot resolve (the session has messages
// waiting, an unknown id) goes through the session, and so does one the
// pane refuses (NotThisPane: it lost the id since).
func TestConn_PaneCallsFoundInTheReadModel(t *testing.T) {
	system := quietSystem(t)
	var viaSession atomic.Int32
	own := "w1:p1"
	named := make(chan string, 8)
	pane := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *renamePane:
			own = msg.id
			ctx.Respond(msg)
		case *kit.Call:
			ctx.Respond(kit.OK())
		case *kit.PaneCall:
			named <- msg.PaneID
			if msg.PaneID != own {
				ctx.Respond(&kit.NotThisPane{Call: msg.Call})
				return
			}
			ctx.Respond(kit.OK())
		}
	}))
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if call, ok := ctx.Message().(*kit.Call); ok {
			viaSession.Add(1)
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", call.Params.(protocol.Targeted).TargetID())))
		}
	}))
	f := &finder{pid: pane}
	f.on.Store(true)
	l := startGatewayWith(t, system, Options{Session: session, Reads: f})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	send := func(id, paneID string) string {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%s","method":"pane.send_text","params":{"pane_id":"%s","text":"a"}}`+"\n", id, paneID)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %s: %v", id, err)
		}
		return strings.TrimSpace(line)
	}
	for i, id := range []string{"p_1", "w1:p1"} {
		if a := send(fmt.Sprint(i+1), id); a != fmt.Sprintf(`{"id":"%d","result":{"type":"ok"}}`, i+1) {
			t.Fatalf("call naming %s: %s", id, a)
		}
		if got := <-named; got != "w1:p1" {
			t.Fatalf("the pane was sent id %q for %s, want its current id w1:p1", got, id)
		}
	}
	if n := viaSession.Load(); n != 0 {
		t.Fatalf("%d calls entered the session, want none", n)
	}
	// Not resolvable now: through the session, which answers.
	f.on.Store(false)
	if a := send("3", "p_1"); !strings.Contains(a, "pane p_1 not found") || viaSession.Load() != 1 {
		t.Fatalf("an id the read model cannot resolve: %s, %d through the session", a, viaSession.Load())
	}
	// The pane lost the id the read model still gives it: the session answers.
	f.on.Store(true)
	if _, err := system.Root.RequestFuture(pane, &renamePane{id: "w2:p1"}, time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if a := send("4", "w1:p1"); !strings.Contains(a, "pane w1:p1 not found") || viaSession.Load() != 2 {
		t.Fatalf("a pane that lost the id: %s, %d through the session", a, viaSession.Load())
	}
}
