package server

import (
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkPaneList_Pipelined500_200Panes: 500 pane.list requests in
// flight on one connection, with 200 panes: the reads answered from the
// session's read side, or through its mailbox.
func BenchmarkPaneList_Pipelined500_200Panes(b *testing.B) { benchPipelined(b, "pane.list", 200) }

// BenchmarkReadDuringSplits measures a pane.get round trip (an idle
// client's, every 2 ms) while another connection splits a pane and closes
// it again without pause, with 200 panes: a read that waits behind the
// session's writes pays for them.
func BenchmarkReadDuringSplits(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	var first string
	for i := 0; i < 200; i++ {
		var ws protocol.WorkspaceCreated
		if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, &ws); err != nil {
			b.Fatal(err)
		}
		if first == "" {
			first = ws.RootPane.PaneID
		}
	}
	var stop atomic.Bool
	done := make(chan error, 1)
	go func() {
		w := dial(b, sock)
		for !stop.Load() {
			var split protocol.PaneInfoResult
			if err := w.Call("pane.split", map[string]any{"target_pane_id": first, "direction": "right"}, &split); err != nil {
				done <- err
				return
			}
			if err := w.Call("pane.close", map[string]any{"pane_id": split.Pane.PaneID}, nil); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	r := dial(b, sock)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if err := r.Call("pane.get", map[string]any{"pane_id": first}, nil); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		time.Sleep(2 * time.Millisecond)
	}
	b.StopTimer()
	stop.Store(true)
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
}
