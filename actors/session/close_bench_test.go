package session

import (
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkSplitClose_200Panes: a pane split off and closed again, then
// a one-pane tab made and closed, with 200 panes: the close path
// (pane_closed, the tab re-arranged or closed, the actor stopped) through
// the mailbox.
func BenchmarkSplitClose_200Panes(b *testing.B) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	b.Cleanup(system.Shutdown)
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	session := system.Root.Spawn(Props(opts))
	call := func(method, params string) protocol.Result {
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			b.Fatal(err)
		}
		r, err := system.Root.RequestFuture(session, &kit.Call{ID: "b", Method: method, Params: p}, 10*time.Second).Result()
		if err != nil {
			b.Fatal(err)
		}
		reply, ok := r.(*kit.Reply)
		if !ok || reply.Err != nil {
			b.Fatalf("%s: %v", method, r)
		}
		return reply.Result
	}
	for i := 0; i < 200; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	for b.Loop() {
		p := call("pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`).(protocol.PaneInfoResult).Pane
		call("pane.close", `{"pane_id":"`+p.PaneID+`"}`)
		t := call("tab.create", `{"workspace_id":"w2","cwd":"/tmp"}`).(protocol.TabCreated).Tab
		call("tab.close", `{"tab_id":"`+t.TabID+`"}`)
	}
}
