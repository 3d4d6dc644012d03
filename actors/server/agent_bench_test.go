package server

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// benchServer starts a server with n panes (one workspace each); with
// agents, every pane hosts a hook-reported agent.
func benchServer(b *testing.B, n int, agents bool) *protocol.Client {
	b.Helper()
	sock := startServer(b)
	c, err := protocol.Connect(sock)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	for i := 0; i < n; i++ {
		var created protocol.WorkspaceCreated
		if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, &created); err != nil {
			b.Fatalf("workspace %d: %v", i, err)
		}
		if agents {
			states := []string{"idle", "working", "blocked"}
			if err := c.Call("pane.report_agent", map[string]any{"pane_id": created.RootPane.PaneID, "source": "bench", "agent": "mybot", "state": states[i%3]}, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	return c
}

func benchList(b *testing.B, method string, agents bool) {
	c := benchServer(b, 200, agents)
	for b.Loop() {
		if err := c.Call(method, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPaneList_200Panes: pane.list over one connection with 200 panes.
func BenchmarkPaneList_200Panes(b *testing.B) { benchList(b, "pane.list", false) }

// BenchmarkAgentList_200Agents: agent.list with 200 panes hosting agents.
func BenchmarkAgentList_200Agents(b *testing.B) { benchList(b, "agent.list", true) }

// cpuTicks is this process's user plus system time in clock ticks.
func cpuTicks(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		b.Skip("no /proc/self/stat")
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime
}

// BenchmarkIdleCPU_100Panes reports the CPU the (in-process) server uses
// over 30 s with 100 idle shell panes, as a percentage of one core.
// Run it alone: go test ./actors/server -run XXX -bench IdleCPU -benchtime 1x
func BenchmarkIdleCPU_100Panes(b *testing.B) {
	benchServer(b, 100, false)
	time.Sleep(3 * time.Second) // prompts drawn, detection settled
	const window = 30 * time.Second
	var pct float64
	for b.Loop() {
		start := cpuTicks(b)
		time.Sleep(window)
		used := time.Duration(cpuTicks(b)-start) * 10 * time.Millisecond // 100 ticks a second
		pct = 100 * used.Seconds() / window.Seconds()
	}
	b.ReportMetric(pct, "%cpu")
	b.Logf("idle server with 100 panes: %.3f%% of a core over %v", pct, window)
}
