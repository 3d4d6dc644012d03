package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestWeb_ThroughputCost measures what a connected dashboard costs a
// flooding pane: `seq 1 N` drained until its marker is seen, with no
// dashboard and with one WebSocket watching that pane's screen and the
// bus (what the page does), taking turns; it prints the medians. Timing
// decides nothing: it runs only with HERDR_WEB_BENCH=1.
func TestWeb_ThroughputCost(t *testing.T) {
	if os.Getenv("HERDR_WEB_BENCH") == "" {
		t.Skip("set HERDR_WEB_BENCH=1 to measure the dashboard's cost on pane throughput")
	}
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"127.0.0.1:0\"\n")
	s := h.Start(t, "bench")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	p := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir}).RootPane.PaneID
	s.WaitPrompt(t, p)

	run := func(i int) time.Duration {
		mark := fmt.Sprintf("done-%d", i)
		start := time.Now()
		c := s.Dial(t)
		defer c.Close()
		line := fmt.Sprintf(`{"id":"w","method":"pane.wait_for_output","params":{"pane_id":%q,"source":"recent","match":{"type":"substring","value":%q},"timeout_ms":60000}}`, p, mark)
		s.Run(t, p, fmt.Sprintf("seq 1 1000000; echo %s", strings.Replace(mark, "-", "''-", 1)))
		if _, err := c.RoundTrip([]byte(line)); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	dashboard := func() (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		ws, _, err := websocket.Dial(ctx, strings.Replace(url, "http://", "ws://", 1)+"&x=1", &websocket.DialOptions{HTTPHeader: http.Header{}})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(-1)
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"id":"1","method":"session.snapshot","params":{}}`))
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"id":"2","method":"screen.subscribe","params":{"pane_ids":["`+p+`"]}}`))
		frames := make(chan int, 1)
		go func() {
			n := 0
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					frames <- n
					return
				}
				n++
			}
		}()
		return func() { cancel(); <-frames; ws.CloseNow() }
	}
	url = strings.Replace(url, "/?token=", "/ws?token=", 1)
	var none, with []time.Duration
	run(-1) // warm up
	for i := 0; i < 7; i++ {
		// Alternate which goes first, so drift favours neither.
		if i%2 == 0 {
			none = append(none, run(2*i))
		}
		stop := dashboard()
		with = append(with, run(2*i+1))
		stop()
		if i%2 == 1 {
			none = append(none, run(2*i))
		}
	}
	med := func(d []time.Duration) time.Duration { d = slices.Clone(d); slices.Sort(d); return d[len(d)/2] }
	t.Logf("runs: none %v, with %v", none, with)
	t.Logf("seq 1 1000000 through a 200x50 pane, medians of 7 alternating runs: no dashboard %v, dashboard watching %v (%.2fx)",
		med(none), med(with), float64(med(with))/float64(med(none)))
}
