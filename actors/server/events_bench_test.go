package server

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkSendTextToMatch measures send_input → pane.wait_for_output
// matched on one connection (the echo through a real shell).
func BenchmarkSendTextToMatch(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
		b.Fatal(err)
	}
	// Let the shell print its prompt before timing.
	c.Call("pane.wait_for_output", map[string]any{"pane_id": "w1:p1", "source": "visible", "match": map[string]string{"type": "substring", "value": "#"}, "timeout_ms": 5000}, nil)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tok := fmt.Sprintf("tok%dx", i)
		start := time.Now()
		if err := c.Call("pane.send_input", map[string]any{"pane_id": "w1:p1", "text": "echo " + tok[:3] + "''" + tok[3:], "keys": []string{"Enter"}}, nil); err != nil {
			b.Fatal(err)
		}
		err := c.Call("pane.wait_for_output", map[string]any{"pane_id": "w1:p1", "source": "recent", "lines": 5,
			"match": map[string]string{"type": "regex", "value": tok + "$"}, "timeout_ms": 5000}, nil)
		if err != nil {
			var r protocol.PaneRead
			c.Call("pane.read", map[string]any{"pane_id": "w1:p1", "source": "recent", "lines": 8}, &r)
			b.Fatalf("iteration %d: %v; screen:\n%s", i, err, r.Read.Text)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkFanOut100Subscribers: 100 subscribers each receive every one of
// b.N events; no subscriber that keeps reading may get events_lost.
func BenchmarkFanOut100Subscribers(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil)
	const subs = 100
	var wg sync.WaitGroup
	counts := make([]int, subs)
	ready := make(chan struct{}, subs)
	for i := 0; i < subs; i++ {
		s := dial(b, sock)
		if ack, err := s.RoundTrip([]byte(`{"id":"s","method":"events.subscribe","params":{"subscriptions":[{"type":"tab.renamed"}]}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
			b.Fatalf("subscribe: %s %v", ack, err)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ready <- struct{}{}
			for counts[i] < b.N {
				line, err := s.ReadLine()
				if err != nil || strings.Contains(string(line), "events_lost") {
					return
				}
				counts[i]++
			}
		}(i)
	}
	for i := 0; i < subs; i++ {
		<-ready
	}
	b.ResetTimer()
	// Pipeline the renames: one write, answers read afterwards.
	var req strings.Builder
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(&req, `{"id":"%d","method":"tab.rename","params":{"tab_id":"w1:t1","label":"l%d"}}`+"\n", i, i)
	}
	go c.Conn().Write([]byte(req.String()))
	for i := 0; i < b.N; i++ {
		if _, err := c.ReadLine(); err != nil {
			b.Fatal(err)
		}
	}
	wg.Wait()
	b.StopTimer()
	for i, n := range counts {
		if n != b.N {
			b.Fatalf("subscriber %d got %d of %d events", i, n, b.N)
		}
	}
	b.ReportMetric(float64(subs*b.N)/b.Elapsed().Seconds(), "deliveries/s")
}
