//go:build unix

package pane

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkPaneFlood_Seq and _Text time a program's whole output through
// a real pane (a 200x50 PTY, the runtime's reads, the emulator) until a
// pane.wait_for_output for its last line answers: the pane's output path
// in one process, for a before/after with tests/bench/benchpair.sh
// (throughput.sh times the same through the server and the CLI).
func BenchmarkPaneFlood_Seq(b *testing.B) { benchFlood(b, "seq 1 300000") }

func BenchmarkPaneFlood_Text(b *testing.B) {
	path := filepath.Join(b.TempDir(), "text")
	var sb strings.Builder
	for i := 0; sb.Len() < 8<<20; i++ {
		sb.WriteString(strings.Repeat(string(rune('a'+i%26)), 99) + "\n")
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	benchFlood(b, "cat "+path)
}

func benchFlood(b *testing.B, cmd string) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	b.Cleanup(system.Shutdown)
	rt := NewRuntime()
	wait, err := protocol.DecodeParams("pane.wait_for_output", []byte(`{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"flood-end"},"timeout_ms":60000}`))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		props, _, err := rt.Start(Spec{TerminalID: "term_b", Argv: []string{"/bin/sh", "-c", cmd + "; echo flood-''end; sleep 100"}, Cwd: os.TempDir(), Env: os.Environ(), Cols: 200, Rows: 50, ScrollbackBytes: 10 << 20, Log: quiet})
		if err != nil {
			b.Fatal(err)
		}
		// The wait is asked by an actor: the pane watches who waits.
		done := make(chan *kit.Reply, 1)
		parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *actor.Started:
				ctx.Request(ctx.Spawn(props), &Request{Call: &kit.Call{Method: "pane.wait_for_output", Params: wait}, PaneID: "w1:p1"})
			case *kit.Reply:
				done <- m
			}
		}))
		select {
		case r := <-done:
			if r.Err != nil {
				b.Fatal(r.Err)
			}
		case <-time.After(70 * time.Second):
			b.Fatal("the flood's end never showed")
		}
		system.Root.Stop(parent)
	}
}
