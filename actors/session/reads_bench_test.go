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
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkFacts_200Panes: what the session spends on one pane's facts
// (a new revision and scroll, as every output batch tells it) with 200
// panes, publish included; a call every 100 facts waits for them.
func BenchmarkFacts_200Panes(b *testing.B) {
	call, system, session := benchSession(b)
	for i := 0; i < 200; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	panes := call("pane.list", `{}`).(protocol.PaneList).Panes
	rev := uint64(0)
	for b.Loop() {
		rev++
		p := panes[rev%uint64(len(panes))]
		system.Root.Send(session, &pane.Facts{TerminalID: p.TerminalID, Revision: rev, Scroll: protocol.PaneScrollInfo{ViewportRows: 38, MaxOffsetFromBottom: rev}})
		if rev%100 == 0 {
			call("workspace.list", `{}`)
		}
	}
	call("workspace.list", `{}`)
}

// BenchmarkFocus_200Panes: a write that changes only the focus (every
// info's focused flag) with 200 panes, answered through the mailbox.
func BenchmarkFocus_200Panes(b *testing.B) {
	call, _, _ := benchSession(b)
	for i := 0; i < 200; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	i := 0
	for b.Loop() {
		i++
		call("workspace.focus", `{"workspace_id":"w`+[]string{"1", "2"}[i%2]+`"}`)
	}
}

// benchSession starts a session with a quiet pane runtime for a
// benchmark, and returns its call: a method with its params as JSON,
// routed as a connection routes it (a read answered from the read side, a
// write through the mailbox); an error fails the benchmark.
func benchSession(b *testing.B) (call func(method, params string) protocol.Result, system *actor.ActorSystem, session *actor.PID) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	b.Cleanup(system.Shutdown)
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	routes := connect(system, &opts)
	session = system.Root.Spawn(Props(opts))
	call = func(method, params string) protocol.Result {
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			b.Fatal(err)
		}
		r, err := ask(system, routes, session, &kit.Call{ID: "b", Method: method, Params: p}, 10*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		reply, ok := r.(*kit.Reply)
		if !ok || reply.Err != nil {
			b.Fatalf("%s: %v", method, r)
		}
		return reply.Result
	}
	return call, system, session
}
