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

// BenchmarkLayoutWrites_200Panes: the layout writes a client makes most
// (a resize, a swap, a zoom toggle, a move of a workspace) with 200 panes,
// each answered through the mailbox, its tab re-arranged and its events
// published.
func BenchmarkLayoutWrites_200Panes(b *testing.B) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	b.Cleanup(system.Shutdown)
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	session := system.Root.Spawn(Props(opts))
	call := func(method, params string) {
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			b.Fatal(err)
		}
		r, err := system.Root.RequestFuture(session, &kit.Call{ID: "b", Method: method, Params: p}, 10*time.Second).Result()
		if err != nil {
			b.Fatal(err)
		}
		if r, ok := r.(*kit.Reply); ok && r.Err != nil {
			b.Fatalf("%s: %v", method, r.Err)
		}
	}
	for i := 0; i < 199; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	call("pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`)
	writes := []struct{ method, params string }{
		{"pane.resize", `{"pane_id":"w1:p1","direction":"right","amount":0.1}`},
		{"pane.swap", `{"pane_id":"w1:p1","direction":"right"}`},
		{"pane.zoom", `{"pane_id":"w1:p1","mode":"toggle"}`},
		{"pane.resize", `{"pane_id":"w1:p1","direction":"left","amount":0.1}`},
		{"workspace.move", `{"workspace_id":"w1","insert_index":1}`},
	}
	i := 0
	for b.Loop() {
		w := writes[i%len(writes)]
		call(w.method, w.params)
		i++
	}
}
