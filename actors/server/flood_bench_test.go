package server

import (
	"sort"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkPingUnderFlood measures an idle client's ping round trip while
// 100 panes flood output (yes through their PTYs), next to the same server
// with the panes idle. The request path must not queue behind parsing.
func BenchmarkPingUnderFlood(b *testing.B) { benchUnderFlood(b, "ping", nil) }

// BenchmarkPaneSendTextUnderFlood is BenchmarkPingUnderFlood for a pane's
// own call (an empty pane.send_text to a pane that does not flood): the
// session, busy with the flooding panes' facts, is not on its way.
func BenchmarkPaneSendTextUnderFlood(b *testing.B) {
	benchUnderFlood(b, "pane.send_text", map[string]any{"pane_id": "w1:p1", "text": ""})
}

func benchUnderFlood(b *testing.B, method string, params any) {
	for _, flood := range []bool{false, true} {
		name := "idle100"
		if flood {
			name = "flood100"
		}
		b.Run(name, func(b *testing.B) {
			sock := startServer(b)
			c := dial(b, sock)
			var panes, workspaces []string
			for len(panes) < 100 {
				var ws protocol.WorkspaceCreated
				if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, &ws); err != nil {
					b.Fatal(err)
				}
				workspaces = append(workspaces, ws.Workspace.WorkspaceID)
				panes = append(panes, ws.RootPane.PaneID)
				for j := 1; j < 10; j++ {
					var tab protocol.TabCreated
					if err := c.Call("tab.create", map[string]any{"workspace_id": ws.Workspace.WorkspaceID}, &tab); err != nil {
						b.Fatal(err)
					}
					panes = append(panes, tab.RootPane.PaneID)
				}
			}
			if flood {
				for _, pane := range panes[1:] { // w1:p1 stays quiet
					if err := c.Call("pane.send_input", map[string]any{"pane_id": pane, "text": "exec yes 'herdr flood 0123456789 abcdefghijklmnopqrstuvwxyz'", "keys": []string{"Enter"}}, nil); err != nil {
						b.Fatal(err)
					}
				}
				time.Sleep(time.Second) // let the floods reach full speed
			}
			p := dial(b, sock)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if err := p.Call(method, params, nil); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				time.Sleep(5 * time.Millisecond) // an idle client's pace, not a tight loop
			}
			b.StopTimer()
			// Close the floods before the server stops: stopping, each pane
			// saves its lines (persist_scrollback_lines), and 100 full
			// scrollbacks (10 MB each) could outlast the server's stop
			// (the session's 10 s), failing the run with no result line.
			// A closed pane saves nothing.
			for _, ws := range workspaces {
				if err := c.Call("workspace.close", map[string]any{"workspace_id": ws}, nil); err != nil {
					b.Fatal(err)
				}
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
		})
	}
}
