package fleet

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkRelayReplay: a member that was down while b.N events went into
// the stream, from its start (joining the hub included) until its bus
// has them all. go test ./actors/fleet -run '^$' -bench RelayReplay
// -benchtime 10000x
func BenchmarkRelayReplay(b *testing.B) {
	hubCfg := hubConfig(b, "hub")
	srv, err := startHub(hubCfg, b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Shutdown()
	url := hubURL(hubCfg.Listen)
	nc := connectT(b, url)
	js, _ := jetstream.New(nc)
	cfg := evstream.Config{}
	stream, err := evstream.Ensure(ctxT(b), js, cfg)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	info, err := stream.Info(ctxT(b))
	if err != nil {
		b.Fatal(err)
	}
	if err := writeSeq(filepath.Join(dir, EventsSeqFile), info.State.LastSeq+1); err != nil {
		b.Fatal(err)
	}
	line := []byte(`{"event":"workspace_renamed","seq":1,"data":{"type":"workspace_renamed","workspace_id":"w1","label":"x"}}`)
	for range b.N {
		if _, err := js.PublishAsync(evstream.DefaultPrefix+".gamma.workspace_renamed", line); err != nil {
			b.Fatal(err)
		}
	}
	<-js.PublishAsyncComplete()

	sys := actor.NewActorSystem()
	bus := sys.Root.Spawn(events.Props(b.N+64, quiet()))
	got := make(chan int, 1024)
	probe := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*events.Events); ok {
			got <- len(m.List)
			ctx.Send(bus, &events.Ack{Sub: ctx.Self()})
		}
	}))
	sys.Root.Send(bus, &events.Subscribe{Sub: probe, Kinds: protocol.LifecycleKinds, Fleet: true, Typed: true})
	b.ResetTimer()
	start := time.Now()
	member := config.Fleet{Name: "beta", URL: []string{url}, User: "herdr", Password: "secret"}
	_, stop := spawnT(b, sys, Options{Config: member, StateDir: dir, Events: bus, Stream: cfg, Log: quiet()})
	defer stop()
	for total := 0; total < b.N; {
		select {
		case n := <-got:
			total += n
		case <-time.After(60 * time.Second):
			b.Fatalf("replayed %d of %d", total, b.N)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
}
