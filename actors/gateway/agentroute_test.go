package gateway

import (
	"bufio"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// agentFinder is a read model that knows pane w1:p1 (terminal t_1),
// which hosts an agent, while on is set.
type agentFinder struct{ on atomic.Bool }

func (f *agentFinder) Read(*kit.Call) *kit.Reply                { return nil }
func (f *agentFinder) PaneActor(*kit.Call) (*actor.PID, string) { return nil, "" }

func (f *agentFinder) Workspace(call *kit.Call) (protocol.WorkspaceInfo, string, bool) {
	if id := call.Params.(protocol.Targeted).TargetID(); f.on.Load() && (id == "w1" || id == "1") {
		return protocol.WorkspaceInfo{WorkspaceID: "w1", Label: "one"}, "/proj", true
	}
	return protocol.WorkspaceInfo{}, "", false
}

func (f *agentFinder) Tab(call *kit.Call) (protocol.TabInfo, bool) {
	if id := call.Params.(protocol.Targeted).TargetID(); f.on.Load() && id == "w1:t1" {
		return protocol.TabInfo{TabID: "w1:t1", WorkspaceID: "w1"}, true
	}
	return protocol.TabInfo{}, false
}

func (f *agentFinder) AgentTerm(call *kit.Call, t protocol.Target) (string, bool) {
	if !f.on.Load() {
		return "", false
	}
	id := ""
	if tg, ok := call.Params.(protocol.Targeted); ok {
		id = tg.TargetID()
	}
	switch {
	case t == protocol.TargetNone:
		return "", true
	case id == "w1:p1", t == protocol.TargetPane && id == "p_1":
		return "t_1", true
	}
	return "", false
}

// The agents actor's calls go to it straight from the connection when
// the session's read model resolves their target (a hook's pane by any
// id form, an agent by its pane's id, the view methods naming nothing),
// carrying the pane's terminal; an agent named by its name, or any call
// while the read model cannot say, goes through the session.
func TestConn_AgentCallsFoundInTheReadModel(t *testing.T) {
	system := quietSystem(t)
	var viaSession atomic.Int32
	got := make(chan string, 8)
	agentsPID := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*agents.Request); ok {
			got <- r.Call.Method + " " + r.TermID
			ctx.Respond(kit.OK())
		}
	}))
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if call, ok := ctx.Message().(*kit.Call); ok {
			viaSession.Add(1)
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeAgentNotFound, "no agent at %s", call.Params.(protocol.Targeted).TargetID())))
		}
	}))
	f := &agentFinder{}
	f.on.Store(true)
	l := startGatewayWith(t, system, Options{Session: session, Reads: f, AgentsActor: agentsPID})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	send := func(id, method, params string) string {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%s","method":"%s","params":%s}`+"\n", id, method, params)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %s: %v", id, err)
		}
		return strings.TrimSpace(line)
	}
	for i, tc := range []struct{ method, params, want string }{
		{"pane.report_metadata", `{"pane_id":"p_1","source":"hook","title":"x"}`, "pane.report_metadata t_1"},
		{"agent.rename", `{"target":"w1:p1","name":"bob"}`, "agent.rename t_1"},
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
	if n := viaSession.Load(); n != 0 {
		t.Fatalf("%d calls entered the session, want none", n)
	}
	// A name is the session's to resolve, and so is every id while the
	// read model cannot say.
	if a := send("4", "agent.rename", `{"target":"bob","name":"al"}`); !strings.Contains(a, "no agent at bob") || viaSession.Load() != 1 {
		t.Fatalf("an agent by name: %s, %d through the session", a, viaSession.Load())
	}
	f.on.Store(false)
	if a := send("5", "agent.rename", `{"target":"w1:p1","name":"al"}`); !strings.Contains(a, "no agent at w1:p1") || viaSession.Load() != 2 {
		t.Fatalf("while the read model cannot say: %s, %d through the session", a, viaSession.Load())
	}
	select {
	case g := <-got:
		t.Fatalf("the agents actor also got %q", g)
	default:
	}
}

// A workspace's or tab's own call goes to the entities supervisor
// straight from the connection, carrying the record the session's read
// model holds of it (the workspace by any id form); one the read model
// cannot resolve goes through the session.
func TestConn_EntityCallsFoundInTheReadModel(t *testing.T) {
	system := quietSystem(t)
	var viaSession atomic.Int32
	got := make(chan *entities.Deliver, 8)
	ents := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if d, ok := ctx.Message().(*entities.Deliver); ok {
			got <- d
			ctx.Respond(kit.OK())
		}
	}))
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if call, ok := ctx.Message().(*kit.Call); ok {
			viaSession.Add(1)
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s not found", call.Params.(protocol.Targeted).TargetID())))
		}
	}))
	f := &agentFinder{}
	f.on.Store(true)
	l := startGatewayWith(t, system, Options{Session: session, Reads: f, Entities: ents})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	send := func(id, method, params string) string {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%s","method":"%s","params":%s}`+"\n", id, method, params)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %s: %v", id, err)
		}
		return strings.TrimSpace(line)
	}
	if a := send("1", "workspace.rename", `{"workspace_id":"1","label":"x"}`); a != `{"id":"1","result":{"type":"ok"}}` {
		t.Fatalf("workspace.rename: %s", a)
	}
	d := <-got
	if req, ok := d.Msg.(*wsactor.Request); !ok || d.ID != "w1" || req.Info.Label != "one" || req.Cwd != "/proj" {
		t.Fatalf("the supervisor got %s %#v, want w1's request with its record", d.ID, d.Msg)
	}
	if a := send("2", "tab.rename", `{"tab_id":"w1:t1","label":"x"}`); a != `{"id":"2","result":{"type":"ok"}}` {
		t.Fatalf("tab.rename: %s", a)
	}
	if d := <-got; d.ID != "w1:t1" {
		t.Fatalf("the supervisor got %s, want w1:t1", d.ID)
	}
	if n := viaSession.Load(); n != 0 {
		t.Fatalf("%d calls entered the session, want none", n)
	}
	if a := send("3", "workspace.rename", `{"workspace_id":"w9","label":"x"}`); !strings.Contains(a, "workspace w9 not found") || viaSession.Load() != 1 {
		t.Fatalf("an unknown workspace: %s, %d through the session", a, viaSession.Load())
	}
}
