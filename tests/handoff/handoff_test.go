//go:build unix

package handoff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// handoffRig is a server with four panes: a shell with scrollback, a
// sleep, a counter that never stops printing, and a fake claude mid-turn.
type handoffRig struct {
	s                                *Server
	shell, sleeper, counter, claudeP string
}

func newHandoffRig(t *testing.T) *handoffRig {
	s := StartServer(t)
	// The server that takes over is not the test's child: stop it at the end.
	StopHeir(t, s)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(FakeClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &handoffRig{s: s}
	env := map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}
	s.CreateWorkspace(t, map[string]any{"env": env})
	r.shell = "w1:p1"
	split := func() string {
		return OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.split", map[string]any{"target_pane_id": r.shell, "direction": "down", "env": env}), "pane_info").Pane.PaneID
	}
	r.sleeper, r.counter, r.claudeP = split(), split(), split()
	s.Run(t, r.shell, "for i in $(seq 0 49); do echo scrollback-line-$i; done")
	s.WaitLine(t, r.shell, "scrollback-line-49")
	s.Run(t, r.sleeper, "sleep 1000")
	s.Run(t, r.counter, `i=0; while :; do i=$((i+1)); echo "n=$i"; sleep 0.01; done`)
	s.Run(t, r.claudeP, "claude")
	s.WaitLine(t, r.claudeP, "claude ready")
	s.Run(t, r.claudeP, "w")
	WaitFor(t, "claude working", func() bool {
		a := r.agent(t)
		return a.Agent != nil && *a.Agent == "claude" && a.AgentStatus == protocol.StatusWorking
	})
	return r
}

func (r *handoffRig) agent(t *testing.T) protocol.AgentInfo {
	resp := r.s.Call("agent.get", map[string]any{"target": r.claudeP})
	if resp.Error != nil {
		return protocol.AgentInfo{}
	}
	return OK[protocol.AgentInfoResult](t, resp, "agent_info").Agent
}

// pids maps each pane to its shell's pid and its foreground group.
func (r *handoffRig) pids(t *testing.T) map[string][2]uint32 {
	out := map[string][2]uint32{}
	for _, p := range []string{r.shell, r.sleeper, r.counter, r.claudeP} {
		info := OK[protocol.PaneProcessInfoResult](t, r.s.CallT(t, "pane.process_info", map[string]any{"pane_id": p}), "pane_process_info").ProcessInfo
		if info.ShellPID == nil || info.ForegroundProcessGroupID == nil {
			t.Fatalf("%s: no process info: %+v", p, info)
		}
		out[p] = [2]uint32{*info.ShellPID, *info.ForegroundProcessGroupID}
	}
	return out
}

// counts reads the counter pane's numbers, oldest first.
func (r *handoffRig) counts(t *testing.T) []int {
	var out []int
	for _, l := range Lines(r.s.Read(t, r.counter, "recent", 1000).Text) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "n="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// handoff runs `herdr server live-handoff` and returns how long it took.
func (r *handoffRig) handoff(t *testing.T, args ...string) (string, int, time.Duration) {
	start := time.Now()
	_, stderr, code := r.s.CLI(append([]string{"server", "live-handoff"}, args...)...)
	return stderr, code, time.Since(start)
}

func TestHandoff_PanesSurviveANewServer(t *testing.T) {
	r := newHandoffRig(t)
	s := r.s
	if pong := OK[protocol.Pong](t, s.CallT(t, "ping", nil), "pong"); pong.Capabilities == nil || !pong.Capabilities.LiveHandoff {
		t.Fatalf("ping does not offer live_handoff: %+v", pong.Capabilities)
	}
	before := r.pids(t)
	panesBefore := OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list").Panes

	// A subscriber, and a client that keeps asking while the handoff runs.
	sub := s.Dial(t)
	_ = sub.Conn().SetDeadline(time.Now().Add(time.Minute))
	if ack, err := sub.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"tab.renamed"}]}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %s %v", ack, err)
	}
	OK[protocol.TabInfoResult](t, s.CallT(t, "tab.rename", map[string]any{"tab_id": "w1:t1", "label": "before"}), "tab_info")
	// The sidebar state (the clients actor's, not the session's) comes along.
	OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.set", map[string]any{"collapsed_space_keys": []string{"/repo/.git"}, "sidebar_width": 29}), "client_ui_state")
	var first struct {
		Seq uint64 `json:"seq"`
	}
	line, err := sub.ReadLine()
	if err != nil || json.Unmarshal(line, &first) != nil {
		t.Fatalf("first event: %s %v", line, err)
	}
	slowestPing := pingWhile(s.Socket)

	atHandoff := r.counts(t)
	fresh := filepath.Join(t.TempDir(), "herdr-next")
	if err := CopyFile(filepath.Join(filepath.Dir(HerdrBin), "herdr-full"), fresh); err != nil { // the program that serves
		t.Fatal(err)
	}
	stderr, code, took := r.handoff(t, "--import-exe", fresh)
	worst := slowestPing()
	if code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	if got := s.WaitExit(t); got != 0 {
		t.Fatalf("old server exit code %d, want 0", got)
	}
	t.Logf("handoff took %v; the slowest ping meanwhile took %v", took, worst)

	// The same panes, terminals and processes, served by the new binary.
	panesAfter := OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list").Panes
	if len(panesAfter) != len(panesBefore) {
		t.Fatalf("%d panes after, %d before", len(panesAfter), len(panesBefore))
	}
	for i := range panesBefore {
		if panesAfter[i].PaneID != panesBefore[i].PaneID || panesAfter[i].TerminalID != panesBefore[i].TerminalID {
			t.Fatalf("pane %d: %s/%s after, %s/%s before", i, panesAfter[i].PaneID, panesAfter[i].TerminalID, panesBefore[i].PaneID, panesBefore[i].TerminalID)
		}
	}
	after := r.pids(t)
	for _, p := range []string{r.shell, r.sleeper, r.counter, r.claudeP} {
		// The counter's foreground job is a new sleep every 10 ms.
		if after[p][0] != before[p][0] || (p != r.counter && after[p][1] != before[p][1]) {
			t.Fatalf("processes after %v, before %v", after, before)
		}
	}
	for _, pids := range before {
		if err := syscall.Kill(int(pids[0]), 0); err != nil {
			t.Fatalf("shell %d is gone: %v", pids[0], err)
		}
	}
	if ui := OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.get", struct{}{}), "client_ui_state"); ui.SidebarWidth == nil || *ui.SidebarWidth != 29 || len(ui.CollapsedSpaceKeys) != 1 {
		t.Fatalf("sidebar state after the handoff: %+v", ui)
	}
	// Scrollback, and the agent's state, came along.
	if text := s.Read(t, r.shell, "recent", 200).Text; !HasLine(text, "scrollback-line-0") || !HasLine(text, "scrollback-line-49") {
		t.Fatalf("scrollback lost:\n%s", text)
	}
	if a := r.agent(t); a.Agent == nil || *a.Agent != "claude" || a.AgentStatus != protocol.StatusWorking {
		t.Fatalf("agent after the handoff: %+v", a)
	}
	// The counter printed on through the handoff: no number missing, none twice.
	WaitFor(t, "the counter to go on", func() bool {
		c := r.counts(t)
		return len(c) > 0 && len(atHandoff) > 0 && c[len(c)-1] > atHandoff[len(atHandoff)-1]+50
	})
	counts := r.counts(t)
	for i := 1; i < len(counts); i++ {
		if counts[i] != counts[i-1]+1 {
			t.Fatalf("counter jumps from %d to %d", counts[i-1], counts[i])
		}
	}
	// Input reaches the adopted shell.
	s.Run(t, r.shell, "echo after-handoff")
	s.WaitLine(t, r.shell, "after-handoff")

	// The old subscription ended with an error; one that resumes from
	// where it was gets what came after.
	if line, err := sub.ReadLine(); err != nil || !strings.Contains(string(line), "server_unavailable") {
		t.Fatalf("old stream's last line: %s %v, want a server_unavailable error", line, err)
	}
	resumed := s.Dial(t)
	params := fmt.Sprintf(`{"since_seq":%d,"subscriptions":[{"type":"tab.renamed"}]}`, first.Seq+1)
	if ack, err := resumed.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":` + params + `}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("resubscribe: %s %v", ack, err)
	}
	OK[protocol.TabInfoResult](t, s.CallT(t, "tab.rename", map[string]any{"tab_id": "w1:t1", "label": "after"}), "tab_info")
	line, err = resumed.ReadLine()
	var next struct {
		Seq  uint64 `json:"seq"`
		Data struct {
			Label string `json:"label"`
		} `json:"data"`
	}
	if err != nil || json.Unmarshal(line, &next) != nil || next.Data.Label != "after" || next.Seq <= first.Seq {
		t.Fatalf("resumed stream: %s %v (first seq %d)", line, err, first.Seq)
	}
}

// A new server that fails at start leaves the old one serving, panes and all.
func TestHandoff_FailingBinaryLeavesTheOldServer(t *testing.T) {
	r := newHandoffRig(t)
	s := r.s
	broken := filepath.Join(t.TempDir(), "herdr-broken")
	if err := os.WriteFile(broken, []byte("#!/bin/sh\necho broken >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stderr, code, _ := r.handoff(t, "--import-exe", broken)
	if code != 1 || !strings.Contains(stderr, "handoff_failed") {
		t.Fatalf("handoff to a broken binary: exit %d, stderr %s", code, stderr)
	}
	if s.Exited() {
		t.Fatal("the old server exited")
	}
	before := r.counts(t)
	WaitFor(t, "the counter to go on", func() bool { c := r.counts(t); return len(c) > 0 && c[len(c)-1] > before[len(before)-1]+20 })
	s.Run(t, r.shell, "echo still-here")
	s.WaitLine(t, r.shell, "still-here")
	if a := r.agent(t); a.AgentStatus != protocol.StatusWorking {
		t.Fatalf("agent after a failed handoff: %s", a.AgentStatus)
	}
	// A refused version check is a failure before anything moves, too.
	stderr, code, _ = r.handoff(t, "--expected-version", "0.0.0-nope")
	if code != 1 || !strings.Contains(stderr, "expected version") {
		t.Fatalf("handoff with a version mismatch: exit %d, stderr %s", code, stderr)
	}
	if s.Exited() {
		t.Fatal("the old server exited after a refused version")
	}
	OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list")
}

// An attached client follows the handoff by itself: with no key pressed,
// it reconnects and shows what its pane printed after the handoff (a
// counter past the last number the new server had when the old one was
// gone); then its keys reach the adopted shell.
func TestHandoff_AttachedClientFollows(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	StopHeir(t, s)
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "before")
	panes := OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list").Panes
	if len(panes) != 1 {
		t.Fatalf("%d panes, want 1", len(panes))
	}
	pane := panes[0].PaneID
	c.Type(`i=0; while :; do i=$((i+1)); echo "tock-$i"; sleep 0.1; done` + "\r")
	c.WaitScreen(t, "the counter on the client's screen", func(screen string) bool { return lastTock(screen) > 0 })
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t)
	// The old server is gone; the new one has printed up to handedOver.
	// A larger number on the client's screen came from the new server.
	handedOver := lastTock(s.Read(t, pane, "recent", 200).Text)
	if handedOver == 0 {
		t.Fatalf("no counter in the adopted pane:\n%s", s.Read(t, pane, "recent", 200).Text)
	}
	c.WaitScreen(t, fmt.Sprintf("a counter past %d without a keypress", handedOver), func(screen string) bool {
		return lastTock(screen) > handedOver
	})
	if c.Exited() {
		t.Fatal("the client exited at the handoff")
	}
	c.Type("\x03") // ctrl+c ends the counter; the adopted shell reads keys
	ShellReady(t, c, "after")
}

// lastTock is the largest tock-N on a screen, or 0.
func lastTock(text string) int {
	last := 0
	for _, m := range tockRE.FindAllStringSubmatch(text, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			last = max(last, n)
		}
	}
	return last
}

var tockRE = regexp.MustCompile(`tock-(\d+)`)

// BenchmarkHandoff measures the pause a live handoff makes: how long the
// handoff takes, and the slowest ping a client made meanwhile (requests
// wait in the socket's backlog for the new server). Four panes as in the
// tests above. go test ./tests/ -run '^$' -bench Handoff -benchtime 10x
func BenchmarkHandoff(b *testing.B) {
	h := NewHome(b)
	s := h.Start(b, "bench")
	StopHeir(b, s)
	s.CreateWorkspace(b, nil)
	for range 3 {
		OK[protocol.PaneInfoResult](b, s.CallT(b, "pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down"}), "pane_info")
	}
	var pauses, pings []time.Duration
	for range b.N {
		slowestPing := pingWhile(s.Socket)
		start := time.Now()
		if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
			b.Fatalf("live-handoff: %s", stderr)
		}
		pauses = append(pauses, time.Since(start))
		pings = append(pings, slowestPing())
		WaitFor(b, "the new server", func() bool { return s.PingOnce() })
	}
	slices.Sort(pauses)
	slices.Sort(pings)
	b.ReportMetric(float64(pauses[len(pauses)/2].Microseconds())/1000, "handoff-p50-ms")
	b.ReportMetric(float64(pauses[len(pauses)-1].Microseconds())/1000, "handoff-max-ms")
	b.ReportMetric(float64(pings[len(pings)/2].Microseconds())/1000, "ping-wait-p50-ms")
	b.ReportMetric(float64(pings[len(pings)-1].Microseconds())/1000, "ping-wait-max-ms")
}

// pingWhile pings sock on a new connection every few milliseconds until
// the returned function is called; that returns the slowest answer.
func pingWhile(sock string) func() time.Duration {
	stop, worst := make(chan struct{}), make(chan time.Duration, 1)
	go func() {
		var slowest time.Duration
		defer func() { worst <- slowest }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			start := time.Now()
			if c, err := protocol.Connect(sock); err == nil {
				_ = c.Conn().SetDeadline(time.Now().Add(30 * time.Second))
				c.Do("p", "ping", nil)
				c.Close()
			}
			slowest = max(slowest, time.Since(start))
			time.Sleep(2 * time.Millisecond)
		}
	}()
	return func() time.Duration { close(stop); return <-worst }
}
