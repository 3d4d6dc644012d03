//go:build unix

package pane

import (
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A wait pending while a flood goes by searches only the lines each batch
// changed (emulator.ReadChanged); the line it waits for, written in the
// middle of the flood and still in its window at the end, is found and
// answered as the whole read finds it.
func TestWaitForOutput_FindsALineAmidAFlood(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	cmd := "sleep 0.2; seq 1 20000; echo mid-''marker-7 of the flood; seq 1 30; sleep 100"
	props, _, err := NewRuntime().Start(Spec{TerminalID: "term_w", Argv: []string{"/bin/sh", "-c", cmd}, Cwd: os.TempDir(), Env: os.Environ(), Cols: 120, Rows: 40, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	wait, err := protocol.DecodeParams("pane.wait_for_output", []byte(`{"pane_id":"w1:p1","source":"recent","match":{"type":"regex","value":"^mid-marker-\\d+ of"},"timeout_ms":30000}`))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *kit.Reply, 1)
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) { // the pane watches who waits
		switch m := ctx.Message().(type) {
		case *actor.Started:
			ctx.Request(ctx.Spawn(props), &Request{Call: &kit.Call{Method: "pane.wait_for_output", Params: wait}, PaneID: "w1:p1"})
		case *kit.Reply:
			done <- m
		}
	}))
	t.Cleanup(func() { system.Root.Stop(parent) })
	var r *kit.Reply
	select {
	case r = <-done:
	case <-time.After(40 * time.Second):
		t.Fatal("the wait was never answered")
	}
	if r.Err != nil {
		t.Fatalf("the wait failed: %v", r.Err)
	}
	m, ok := r.Result.(protocol.OutputMatched)
	if !ok || m.MatchedLine == nil || *m.MatchedLine != "mid-marker-7 of the flood" {
		t.Fatalf("matched %+v, want the line mid-marker-7 of the flood", r.Result)
	}
}
