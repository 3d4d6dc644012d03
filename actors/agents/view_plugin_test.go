package agents

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A view set by a plugin ends when the plugin is disabled or unlinked:
// the client in front is told as for agent.view.clear, before the call
// that disabled it is answered; a view naming a disabled plugin answers
// plugin_disabled, an unlinked one plugin_not_found.
func TestView_EndsWithItsPlugin(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	seen := &log{}
	standIn := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *kit.Push, *kit.Reply:
			seen.add(m)
		}
	}))
	agents := system.Root.Spawn(Props(Options{Events: standIn, Clients: standIn, Log: quiet}))
	system.Root.Send(agents, &SetSession{PID: standIn})
	set := func() *kit.Reply {
		prm, err := protocol.DecodeParams("agent.view.set", []byte(`{"source":"plugin:e2e.fixture"}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(agents, &Request{Call: &kit.Call{Method: "agent.view.set", Params: prm}}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	code := func(r *kit.Reply) string {
		if r.Err == nil {
			return ""
		}
		return protocol.AsError(r.Err).Code
	}
	on := map[string]bool{"e2e.fixture": true}
	system.Root.Send(agents, &SetEnabledPlugins{IDs: on, Linked: on})
	if r := set(); r.Err != nil {
		t.Fatalf("view of an enabled plugin: %v", r.Err)
	}
	disabled := kit.Done(protocol.PluginDisabled{})
	system.Root.Send(agents, &SetEnabledPlugins{IDs: map[string]bool{}, Linked: on, Reply: disabled, To: standIn})
	if r := set(); code(r) != protocol.CodePluginDisabled {
		t.Fatalf("view of a disabled plugin: %+v", r)
	}
	time.Sleep(20 * time.Millisecond) // the stand-in logs what was sent before the answer
	var order []string
	for _, m := range seen.all() {
		switch m := m.(type) {
		case *kit.Push:
			if v, ok := m.Data.(protocol.AgentViewResult); ok {
				order = append(order, map[bool]string{true: "view on", false: "view off"}[v.Active])
			}
		case *kit.Reply:
			if m == disabled {
				order = append(order, "disable answered")
			}
		}
	}
	if len(order) != 3 || order[0] != "view on" || order[1] != "view off" || order[2] != "disable answered" {
		t.Fatalf("the client and the caller saw %v, want the view on, off, then the disable answered", order)
	}
	system.Root.Send(agents, &SetEnabledPlugins{IDs: map[string]bool{}, Linked: map[string]bool{}})
	if r := set(); code(r) != protocol.CodePluginNotFound {
		t.Fatalf("view of an unlinked plugin: %+v", r)
	}
}
