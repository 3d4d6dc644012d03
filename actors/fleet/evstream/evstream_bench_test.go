package evstream

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Fan-in of the fleet event stream, for the fleet note: N members (each
// its own connection) publish b.N events in all, at once, to one
// in-process hub storing on disk; one fleet subscriber reads them. It
// reports the events a second the stream took and delivered, and the
// p50/p99 from a publish to its delivery. Run with a fixed count, e.g.
// go test ./actors/fleet/evstream -run '^$' -bench FanIn -benchtime 5000x
func BenchmarkFanIn(b *testing.B) {
	for _, n := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) { fanIn(b, n) })
	}
}

func fanIn(b *testing.B, members int) {
	ctx := context.Background()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: b.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		b.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		b.Fatal("nats server did not start")
	}
	b.Cleanup(s.Shutdown)
	conn := func() jetstream.JetStream {
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		js, _ := jetstream.New(nc)
		return js
	}
	sjs := conn()
	if _, err := Ensure(ctx, sjs, Config{}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	done := make(chan struct{})
	sub, err := Subscribe(ctx, sjs, Config{}, Options{}, func(d Delivery) {
		if d.Event == nil || len(d.Event.Data) < 8 {
			return
		}
		sent := time.Unix(0, int64(binary.BigEndian.Uint64(d.Event.Data)))
		lat = append(lat, time.Since(sent))
		if len(lat) == b.N {
			close(done)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Stop()
	pubs := make([]*Publisher, members)
	for i := range pubs {
		pubs[i], _ = NewPublisher(conn(), Config{}, fmt.Sprintf("m%d", i))
	}
	// A pane event's envelope is a few hundred bytes.
	body := make([]byte, 300)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, p := range pubs {
		share := b.N / members
		if i < b.N%members {
			share++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := slices.Clone(body)
			for range share {
				binary.BigEndian.PutUint64(msg, uint64(time.Now().UnixNano()))
				if _, err := p.Publish(ctx, "pane_agent_status_changed", msg); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(time.Minute):
		b.Fatalf("%d of %d delivered", len(lat), b.N)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "events/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
