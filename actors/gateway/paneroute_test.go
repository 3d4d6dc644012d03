package gateway

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// oneView is a View of workspace ws ("one", folder /proj) with tab
// ws:t1 and pane ws:p1 (terminal t_1, raw id 1), which hosts agent bob
// and whose actor is pid; extra names a second pane's id in that tab
// ("" for none).
func oneView(ws string, pid *actor.PID, extra string) *view.View {
	tab := ws + ":t1"
	ids := []string{ws + ":p1"}
	if extra != "" {
		ids = append(ids, extra)
	}
	v := &view.View{
		Spaces:      []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: ws, Number: 1, Label: "one", ActiveTabID: tab}, Cwd: "/proj", TabEnd: 1, PaneEnd: len(ids)}},
		Tabs:        []view.Tab{{Info: protocol.TabInfo{TabID: tab, WorkspaceID: ws}, PaneEnd: len(ids), Layout: &protocol.PaneLayoutSnapshot{TabID: tab, FocusedPaneID: ids[0]}}},
		FocusedPane: 0, FocusedWS: ws, FocusedTab: tab,
		Raw: make([]uint64, len(ids)),
	}
	v.Panes = make([]atomic.Pointer[view.Pane], len(ids))
	for i, id := range ids {
		p := &view.Pane{Info: protocol.PaneInfo{PaneID: id, TerminalID: fmt.Sprintf("t_%d", i+1), WorkspaceID: ws, TabID: tab}, PID: pid}
		if i == 0 {
			p.Agent, p.Shown = &protocol.AgentInfo{PaneID: id}, &agents.Shown{Agent: "claude", Name: "bob"}
		}
		v.Panes[i].Store(p)
		v.Raw[i] = uint64(i + 1)
	}
	v.Index()
	return v
}

// lineClient writes one request at a time and reads its answer.
func lineClient(t *testing.T, c net.Conn) func(id, method, params string) string {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	return func(id, method, params string) string {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%s","method":"%s","params":%s}`+"\n", id, method, params)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %s: %v", id, err)
		}
		return strings.TrimSpace(line)
	}
}

// countingSession is a session that counts the calls that reach it and
// answers each with a result typed "session".
func countingSession(t *testing.T, system *actor.ActorSystem) (*actor.PID, *atomic.Int32) {
	var n atomic.Int32
	return system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			n.Add(1)
			ctx.Respond(kit.Done(protocol.Encoded{Type: "session", JSON: []byte(`{}`)}))
		}
	})), &n
}

// A pane's call is routed from the read side straight to the pane, with
// its current ids, without entering the session's mailbox, for every id
// form; the connection keeps the pane's route and sends the next call
// naming that id as a PaneCall. A pane that lost the id (NotThisPane) or
// is gone (a dead letter) has the call routed from the read side again,
// which answers the id's error.
func TestConn_PaneCallsFoundInTheReadModel(t *testing.T) {
	system := quietSystem(t)
	own := "w1:p1"
	var requests, direct atomic.Int32
	paneActor := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *renamePane:
			own = msg.id
			ctx.Respond(msg)
		case *pane.Request:
			if msg.PaneID != own {
				ctx.Respond(kit.Fail(fmt.Errorf("sent as %s, the pane is %s", msg.PaneID, own)))
				return
			}
			requests.Add(1)
			ctx.Respond(kit.OK())
		case *kit.PaneCall:
			if msg.PaneID != own {
				ctx.Respond(&kit.NotThisPane{Call: msg.Call})
				return
			}
			direct.Add(1)
			ctx.Respond(kit.OK())
		}
	}))
	session, viaSession := countingSession(t, system)
	rs := view.NewReadSide()
	rs.Publish(oneView("w1", paneActor, ""))
	l := startGatewayWith(t, system, Options{Session: session, Reads: rs})
	c := l.dial()
	defer c.Close()
	send := lineClient(t, c)
	text := func(id string) string { return fmt.Sprintf(`{"pane_id":%q,"text":"a"}`, id) }
	for i, id := range []string{"p_1", "w1:p1", "w1-1", "w1:p1"} {
		if a := send(fmt.Sprint(i+1), "pane.send_text", text(id)); a != fmt.Sprintf(`{"id":"%d","result":{"type":"ok"}}`, i+1) {
			t.Fatalf("call naming %s: %s", id, a)
		}
	}
	if requests.Load() != 3 || direct.Load() != 1 {
		t.Fatalf("%d routed requests, %d direct calls; want 3 (one per id form) and then 1 direct", requests.Load(), direct.Load())
	}
	// The pane lost the id: routed again, from a View that no longer has it.
	if _, err := system.Root.RequestFuture(paneActor, &renamePane{id: "w2:p1"}, time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	rs.Publish(oneView("w2", paneActor, ""))
	if a := send("5", "pane.send_text", text("w1:p1")); !strings.Contains(a, protocol.CodePaneNotFound) || !strings.Contains(a, "pane w1:p1 not found") {
		t.Fatalf("a call to a renamed pane: %s", a)
	}
	if a := send("6", "pane.send_text", text("w2:p1")); a != `{"id":"6","result":{"type":"ok"}}` {
		t.Fatalf("a call by the new id: %s", a)
	}
	// The pane is gone (a dead letter): routed again, the View answers.
	if err := system.Root.PoisonFuture(paneActor).Wait(); err != nil {
		t.Fatal(err)
	}
	rs.Publish(oneView("w3", nil, ""))
	if a := send("7", "pane.send_text", text("w2:p1")); !strings.Contains(a, "pane w2:p1 not found") {
		t.Fatalf("a call to a gone pane: %s", a)
	}
	if n := viaSession.Load(); n != 0 {
		t.Fatalf("%d calls entered the session, want none", n)
	}
}

// A gated pane method (pane.graphics.clear) is routed from the read side
// only while its switch is on; off, every call goes to the session, which
// answers feature_disabled.
func TestConn_GatedPaneMethodsRouteOnlyWhileOn(t *testing.T) {
	for _, on := range []bool{true, false} {
		system := quietSystem(t)
		var atPane atomic.Int32
		paneActor := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch ctx.Message().(type) {
			case *pane.Request, *kit.PaneCall:
				atPane.Add(1)
				ctx.Respond(kit.OK())
			}
		}))
		session, viaSession := countingSession(t, system)
		rs := view.NewReadSide()
		rs.Publish(oneView("w1", paneActor, ""))
		l := startGatewayWith(t, system, Options{Session: session, Reads: rs, GateOpen: func(gate string) bool { return on && gate == protocol.GateKittyGraphics }})
		c := l.dial()
		send := lineClient(t, c)
		for i := 1; i <= 3; i++ {
			send(fmt.Sprint(i), "pane.graphics.clear", `{"pane_id":"w1:p1","layer_id":"a"}`)
		}
		c.Close()
		wantSession, wantPane := int32(3), int32(0)
		if on {
			wantSession, wantPane = 0, 3
		}
		if viaSession.Load() != wantSession || atPane.Load() != wantPane {
			t.Fatalf("on=%v: %d through the session, %d at the pane; want %d and %d", on, viaSession.Load(), atPane.Load(), wantSession, wantPane)
		}
	}
}

// The agents actor's calls are routed to it from the read side, carrying
// the terminal of the pane they name (a hook's pane by any id form, an
// agent by its pane's id or its name, the view methods naming nothing);
// a name nobody has gets the read side's agent_not_found. A workspace's
// or tab's own call goes to the entities supervisor with the record the
// View holds. None enters the session.
func TestConn_AgentAndEntityCallsFoundInTheReadModel(t *testing.T) {
	system := quietSystem(t)
	got := make(chan string, 8)
	agentsPID := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*agents.Request); ok {
			got <- r.Call.Method + " " + r.TermID
			ctx.Respond(kit.OK())
		}
	}))
	delivered := make(chan *entities.Deliver, 8)
	ents := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if d, ok := ctx.Message().(*entities.Deliver); ok {
			delivered <- d
			ctx.Respond(kit.OK())
		}
	}))
	session, viaSession := countingSession(t, system)
	rs := view.NewReadSide()
	rs.Publish(oneView("w1", nil, "w1:p2"))
	l := startGatewayWith(t, system, Options{Session: session, Reads: rs, AgentsActor: agentsPID, Entities: ents})
	c := l.dial()
	defer c.Close()
	send := lineClient(t, c)
	for i, tc := range []struct{ method, params, want string }{
		{"pane.report_metadata", `{"pane_id":"p_2","source":"hook","title":"x"}`, "pane.report_metadata t_2"},
		{"agent.rename", `{"target":"w1:p1","name":"al"}`, "agent.rename t_1"},
		{"agent.rename", `{"target":"bob","name":"al"}`, "agent.rename t_1"},
		{"agent.view.get", `{}`, "agent.view.get "},
	} {
		id := fmt.Sprint(i + 1)
		if a := send(id, tc.method, tc.params); a != fmt.Sprintf(`{"id":"%s","result":{"type":"ok"}}`, id) {
			t.Fatalf("%s: %s", tc.method, a)
		}
		if g := <-got; g != tc.want {
			t.Fatalf("the agents actor got %q, want %q", g, tc.want)
		}
	}
	if a := send("5", "agent.rename", `{"target":"nobody","name":"al"}`); !strings.Contains(a, "no agent at nobody") {
		t.Fatalf("an unknown name: %s", a)
	}
	if a := send("6", "workspace.rename", `{"workspace_id":"1","label":"x"}`); a != `{"id":"6","result":{"type":"ok"}}` {
		t.Fatalf("workspace.rename: %s", a)
	}
	d := <-delivered
	if req, ok := d.Msg.(*wsactor.Request); !ok || d.ID != "w1" || req.Info.Label != "one" || req.Cwd != "/proj" {
		t.Fatalf("the supervisor got %s %#v, want w1's request with its record", d.ID, d.Msg)
	}
	if a := send("7", "tab.rename", `{"tab_id":"w1:t1","label":"x"}`); a != `{"id":"7","result":{"type":"ok"}}` {
		t.Fatalf("tab.rename: %s", a)
	}
	if d := <-delivered; d.ID != "w1:t1" {
		t.Fatalf("the supervisor got %s, want w1:t1", d.ID)
	}
	if a := send("8", "workspace.rename", `{"workspace_id":"w9","label":"x"}`); !strings.Contains(a, "workspace w9 not found") {
		t.Fatalf("an unknown workspace: %s", a)
	}
	if n := viaSession.Load(); n != 0 {
		t.Fatalf("%d calls entered the session, want none", n)
	}
}

// A read issued while the session's mailbox holds a write sent before it
// waits in the read side, not in the session's mailbox, and is answered
// with the write applied: the session handles the write alone.
func TestConn_ReadWaitsForAWriteSentBeforeIt(t *testing.T) {
	system := quietSystem(t)
	rs := view.NewReadSide()
	rs.Publish(oneView("w1", nil, ""))
	var calls atomic.Int32
	handling, release := make(chan struct{}), make(chan struct{})
	// The session: its mailbox counts for the read side; the write (a
	// split) is held until the test releases it, then published.
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			calls.Add(1)
			close(handling)
			<-release
			rs.Publish(oneView("w1", nil, "w1:p2"))
			ctx.Respond(kit.OK())
		}
	}, actor.WithMailbox(actor.Unbounded(rs))))
	l := startGatewayWith(t, system, Options{Session: session, Reads: rs})
	writer, reader := l.dial(), l.dial()
	defer writer.Close()
	defer reader.Close()
	fmt.Fprintf(writer, `{"id":"w","method":"pane.split","params":{"direction":"right"}}`+"\n")
	<-handling
	fmt.Fprintf(reader, `{"id":"r","method":"pane.list","params":{}}`+"\n")
	answered := make(chan string, 1)
	go func() {
		line, _ := readAnswer(reader)
		answered <- line
	}()
	close(release)
	if a, _ := readAnswer(writer); a != `{"id":"w","result":{"type":"ok"}}` {
		t.Fatalf("the write: %s", a)
	}
	if a := <-answered; !strings.Contains(a, `"id":"r"`) || !strings.Contains(a, `"w1:p2"`) {
		t.Fatalf("the read issued behind the write: %s, want the split's pane w1:p2 in it", a)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d calls entered the session, want 1 (the write)", n)
	}
}

// renamePane gives the test's pane another id.
type renamePane struct{ id string }
