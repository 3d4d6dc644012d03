package board

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/protocol"
)

// The board's claim path under contention, for the fleet note: claims a
// second and the p50/p99 of a successful claim with N members claiming
// at once, against one in-process hub storing on disk. Run with a fixed
// count, e.g. go test ./actors/fleet/board -run '^$' -bench Claim -benchtime 300x
//
// BenchmarkClaimRace: every member tries every task in the same order, so
// each task is raced by all N (the worst case of CAS contention).
// BenchmarkClaimNext: every member takes its next ready task as a
// dispatcher does (a listing of the ready tasks, then a claim).

func benchBoards(b *testing.B, n int) []*Board {
	b.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: b.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		b.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		b.Fatal("nats server did not start")
	}
	b.Cleanup(s.Shutdown)
	var out []*Board
	for range n {
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		js, _ := jetstream.New(nc)
		bd, err := Open(context.Background(), js, Config{})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, bd)
	}
	return out
}

func runClaims(b *testing.B, claimers int, next bool) {
	ctx := context.Background()
	boards := benchBoards(b, claimers)
	for i := 0; i < b.N; i++ {
		if _, err := boards[0].Create(ctx, Spec{Title: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	lost := 0
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := range claimers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := Member{Name: fmt.Sprintf("m%d", c)}
			var mine []time.Duration
			misses := 0
			for i := 1; ; i++ {
				t0 := time.Now()
				var err error
				if next {
					var got *Task
					got, _, err = boards[c].ClaimNext(ctx, m)
					if err == nil && got == nil {
						break
					}
				} else {
					if i > b.N {
						break
					}
					_, _, err = boards[c].Claim(ctx, protocol.TaskID(uint64(i)), m)
				}
				var pe *protocol.Error
				if errors.As(err, &pe) && pe.Code == protocol.CodeTaskNotReady {
					misses++
					continue
				}
				if err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			lost += misses
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(lat) != b.N {
		b.Fatalf("%d claims won for %d tasks", len(lat), b.N)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "claims/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lost)/float64(b.N), "lost-races/claim")
}

func BenchmarkClaimRace(b *testing.B) {
	for _, n := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("claimers=%d", n), func(b *testing.B) { runClaims(b, n, false) })
	}
}

func BenchmarkClaimNext(b *testing.B) {
	for _, n := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("claimers=%d", n), func(b *testing.B) { runClaims(b, n, true) })
	}
}
