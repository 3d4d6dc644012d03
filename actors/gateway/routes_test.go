package gateway

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// answering is an actor that answers every call with a result whose type
// is its name, counting the calls.
func answering(t *testing.T, system *actor.ActorSystem, name string) (*actor.PID, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	result := protocol.Encoded{Type: name, JSON: []byte(`{}`)}
	pid, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			calls.Add(1)
			ctx.Respond(kit.Done(result))
		}
	}), name)
	if err != nil {
		t.Fatal(err)
	}
	return pid, &calls
}

// The connection answers ping and server.stop itself; every other call
// goes to its owner's actor: the session for the methods whose target it
// resolves, the owner's own actor for the rest.
func TestRoutes_ByOwner(t *testing.T) {
	system := quietSystem(t)
	session, sessionCalls := answering(t, system, "session")
	owners := map[protocol.Owner]*actor.PID{}
	for _, o := range []protocol.Owner{protocol.OwnerClients, protocol.OwnerPlugins, protocol.OwnerIntegrations, protocol.OwnerWeb, protocol.OwnerMachines, protocol.OwnerTasks, protocol.OwnerBuffers, protocol.OwnerEvents, protocol.OwnerCommands, protocol.OwnerFleet, protocol.OwnerAudit, protocol.OwnerLoop, protocol.OwnerReview, protocol.OwnerWorktrees, protocol.OwnerReloads} {
		owners[o], _ = answering(t, system, o.String())
	}
	var stopped atomic.Bool
	opts := Options{Session: session, Owners: owners, Stop: func() { stopped.Store(true) }}
	if err := opts.Check(); err != nil {
		t.Fatal(err)
	}
	l := startGatewayWith(t, system, opts)
	c := l.dial()
	defer c.Close()
	wantPong(t, c)
	for _, r := range []struct{ method, params, owner string }{
		{"pane.list", `{}`, "session"},
		{"pane.read", `{"pane_id":"w1:p1","source":"recent"}`, "session"},
		{"agent.view.get", `{}`, "session"},
		{"tab.rename", `{"tab_id":"w1:t1","label":"x"}`, "session"},
		{"notification.show", `{"title":"hi"}`, "clients"},
		{"plugin.list", `{}`, "plugins"},
		{"integration.install", `{"target":"codex"}`, "integrations"},
		{"web.url", `{}`, "web"},
		{"machine.list", `{}`, "machines"},
		{"task.list", `{}`, "tasks"},
		{"buffer.paste", `{"pane_id":"w1:p1"}`, "buffers"},
		{"events.wait", `{"match_event":{"event":"pane_created"}}`, "events"},
		{"command.invoke", `{"command_id":"x"}`, "commands"},
		// The calls whose context or source their owner reads from the
		// read side go to it, not through the session.
		{"plugin.action.invoke", `{"action_id":"x"}`, "plugins"},
		{"plugin.pane.open", `{"plugin_id":"p","entrypoint":"e"}`, "plugins"},
		{"plugin.pane.focus", `{"pane_id":"w1:p1"}`, "plugins"},
		{"plugin.pane.close", `{"pane_id":"w1:p1"}`, "plugins"},
		{"popup.open", `{"command":"true"}`, "clients"},
		{"worktree.list", `{}`, "worktrees"},
		{"worktree.create", `{"cwd":"/tmp","branch":"b"}`, "worktrees"},
		{"worktree.open", `{"cwd":"/tmp","branch":"b"}`, "worktrees"},
		{"worktree.remove", `{"workspace_id":"w1"}`, "worktrees"},
		// Another machine's ids and the fleet scope go to the machines actor.
		{"pane.read", `{"pane_id":"build/w1:p1","source":"recent"}`, "machines"},
		{"agent.list", `{"machines":"all"}`, "machines"},
		{"session.snapshot", `{"machines":"all"}`, "machines"},
		{"agent.list", `{}`, "session"},
	} {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, `{"id":"1","method":%q,"params":%s}`+"\n", r.method, r.params)
		line, err := readAnswer(c)
		if err != nil || !strings.Contains(line, `"type":"`+r.owner+`"`) {
			t.Errorf("%s answered %q, %v; want the %s actor's answer", r.method, line, err, r.owner)
		}
	}
	before := sessionCalls.Load()
	wantPong(t, c)
	if sessionCalls.Load() != before {
		t.Fatal("ping reached the session")
	}
	line, err := call(c, "s", "server.stop")
	if err != nil || !strings.Contains(line, `"type":"ok"`) {
		t.Fatalf("server.stop = %q, %v", line, err)
	}
	waitClosed(t, c, "after server.stop")
	if !stopped.Load() || sessionCalls.Load() != before {
		t.Fatalf("server.stop: Stop called %v; reached the session %v", stopped.Load(), sessionCalls.Load() != before)
	}
}

// A server whose gateway is given no actor for an owner in the table, or
// an actor for an owner it does not send calls to, or whose table names
// an owner it does not know, does not start: Check names the method and
// the owner.
func TestRoutes_CheckRefusesAnUnroutableOwner(t *testing.T) {
	system := quietSystem(t)
	pid, _ := answering(t, system, "any")
	full := map[protocol.Owner]*actor.PID{protocol.OwnerClients: pid, protocol.OwnerPlugins: pid, protocol.OwnerIntegrations: pid, protocol.OwnerWeb: pid, protocol.OwnerMachines: pid, protocol.OwnerTasks: pid, protocol.OwnerBuffers: pid, protocol.OwnerEvents: pid, protocol.OwnerCommands: pid, protocol.OwnerFleet: pid, protocol.OwnerAudit: pid, protocol.OwnerLoop: pid, protocol.OwnerReview: pid, protocol.OwnerWorktrees: pid, protocol.OwnerReloads: pid}
	if err := (&Options{Session: pid, Owners: full}).Check(); err != nil {
		t.Fatalf("every owner given: %v", err)
	}
	noWeb := map[protocol.Owner]*actor.PID{protocol.OwnerClients: pid, protocol.OwnerPlugins: pid, protocol.OwnerIntegrations: pid, protocol.OwnerMachines: pid, protocol.OwnerTasks: pid, protocol.OwnerBuffers: pid, protocol.OwnerEvents: pid, protocol.OwnerCommands: pid, protocol.OwnerFleet: pid, protocol.OwnerAudit: pid, protocol.OwnerLoop: pid, protocol.OwnerReview: pid, protocol.OwnerWorktrees: pid, protocol.OwnerReloads: pid}
	err := (&Options{Session: pid, Owners: noWeb}).Check()
	if err == nil || !strings.Contains(err.Error(), "gives it to web, and no actor is given for that owner") {
		t.Errorf("web missing: %v", err)
	}
	extra := map[protocol.Owner]*actor.PID{protocol.OwnerPane: pid}
	for o, p := range full {
		extra[o] = p
	}
	if err := (&Options{Session: pid, Owners: extra}).Check(); err == nil || !strings.Contains(err.Error(), "owner pane, which the gateway does not send calls to") {
		t.Errorf("an actor for pane: %v", err)
	}
	unknown := []protocol.Method{{Name: "x.new", Owner: protocol.Owner(99), Shape: protocol.ShapeAnswer}}
	if err := (&Options{Session: pid, Owners: full}).checkAgainst(unknown); err == nil || !strings.Contains(err.Error(), "method x.new: the method table (protocol) gives it to owner(99)") {
		t.Errorf("an unknown owner: %v", err)
	}
}

// The connection's own methods are exactly those the table gives the
// gateway.
func TestRoutes_GatewayRegistryMatchesTable(t *testing.T) {
	if err := Registry.Check(); err != nil {
		t.Fatal(err)
	}
}

// A read the session's read side routes never reaches the session; a
// write of the session's goes to the session; a call for another machine
// or one the connection answers itself is never offered to the read side.
func TestRoutes_ReadsAnsweredFromTheReadSide(t *testing.T) {
	system := quietSystem(t)
	session, sessionCalls := answering(t, system, "session")
	machines, _ := answering(t, system, "machines")
	rs := view.NewReadSide()
	rs.Publish(oneView("w1", nil, ""))
	owners := map[protocol.Owner]*actor.PID{protocol.OwnerMachines: machines}
	for _, o := range []protocol.Owner{protocol.OwnerClients, protocol.OwnerPlugins, protocol.OwnerIntegrations, protocol.OwnerWeb, protocol.OwnerTasks} {
		owners[o], _ = answering(t, system, o.String())
	}
	l := startGatewayWith(t, system, Options{Session: session, Owners: owners, Reads: rs})
	c := l.dial()
	defer c.Close()
	for _, r := range []struct{ method, params, answer string }{
		{"pane.list", `{}`, "pane_list"},
		{"pane.get", `{"pane_id":"w1:p9"}`, "pane_not_found"},
		{"workspace.create", `{}`, "session"},
		{"agent.list", `{"machines":"all"}`, "machines"},
		{"plugin.list", `{}`, "plugins"},
	} {
		before := sessionCalls.Load()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, `{"id":"1","method":%q,"params":%s}`+"\n", r.method, r.params)
		line, err := readAnswer(c)
		if err != nil || !strings.Contains(line, `"`+r.answer+`"`) {
			t.Errorf("%s answered %q, %v; want %s", r.method, line, err, r.answer)
		}
		if reached := sessionCalls.Load() != before; reached != (r.answer == "session") {
			t.Errorf("%s: reached the session: %v", r.method, reached)
		}
	}
	wantPong(t, c)
}
