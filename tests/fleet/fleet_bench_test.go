//go:build unix

package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Figures for the fleet: what a fleet-scoped agent.list costs with three
// machines of 100 agents each, and how long a remote agent's status
// change takes to reach a local fleet subscriber. Every part is real: the
// remote herdr servers, one OpenSSH server in front of them, the local
// server's links. Timing decides nothing; the figures are metrics.
//
//	go test ./tests -run '^$' -bench BenchmarkFleet_ -benchtime 200x -count 1

// benchFleet is a local server linked to n remote servers. The remotes
// share one home, so one sshd reaches them all and each saved machine
// picks its server by --remote-session (machine m1 → session r1, …).
type benchFleet struct {
	local   *Server
	remotes []*Server
	labels  []string
}

func startBenchFleet(b *testing.B, n int, before func(remote *Server)) *benchFleet {
	b.Helper()
	remoteHome := NewHome(b)
	f := &benchFleet{}
	for i := range n {
		remote := remoteHome.Start(b, fmt.Sprintf("r%d", i+1))
		if before != nil {
			before(remote)
		}
		f.remotes = append(f.remotes, remote)
	}
	ssh := StartSSHRemote(b, remoteHome)
	localHome := NewHome(b)
	localHome.Env = ssh.LocalEnv(localHome)
	for i := range n {
		label := fmt.Sprintf("m%d", i+1)
		if _, errOut, code := RunCLI(b, localHome.Env, "machine", "add", "build", "--label", label, "--remote-session", fmt.Sprintf("r%d", i+1)); code != 0 {
			b.Fatalf("machine add %s: exit %d: %s", label, code, errOut)
		}
		f.labels = append(f.labels, label)
	}
	f.local = localHome.Start(b, "bench")
	WaitFor(b, "every machine online", func() bool {
		list := OK[protocol.MachineList](b, f.local.CallT(b, "machine.list", map[string]any{}), "machine_list")
		online := 0
		for _, m := range list.Machines {
			if m.State == protocol.MachineOnline {
				online++
			}
		}
		return online == n
	})
	return f
}

// dialLong is a socket connection without the per-call deadline Dial
// sets, for loops that outlast it.
func dialLong(b *testing.B, s *Server) *protocol.Client {
	b.Helper()
	c := s.Dial(b)
	_ = c.Conn().SetDeadline(time.Time{})
	return c
}

// roundTrip sends one request line and fails on an error answer.
func roundTrip(b *testing.B, c *protocol.Client, line []byte) []byte {
	b.Helper()
	resp, err := c.RoundTrip(line)
	if err != nil {
		b.Fatal(err)
	}
	if bytes.Contains(resp, []byte(`"error":{`)) {
		b.Fatalf("%s answered %s", line, Clip(resp))
	}
	return resp
}

func request(id, method string, params any) []byte {
	line, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	return line
}

// addHookAgents makes n workspaces on s, each root pane declared a
// claude agent by a hook (pane.report_agent): real panes, no agent
// processes.
func addHookAgents(b *testing.B, s *Server, n int) []string {
	b.Helper()
	c := dialLong(b, s)
	var panes []string
	for i := range n {
		var created protocol.WorkspaceCreated
		resp := roundTrip(b, c, request("w", "workspace.create", map[string]any{"cwd": s.Home.Dir, "label": fmt.Sprintf("ws%d", i)}))
		var r struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(resp, &r); err != nil || json.Unmarshal(r.Result, &created) != nil {
			b.Fatalf("workspace.create answered %s", Clip(resp))
		}
		p := created.RootPane.PaneID
		roundTrip(b, c, request("a", "pane.report_agent", map[string]any{"pane_id": p, "source": "bench", "agent": "claude", "state": "idle"}))
		panes = append(panes, p)
	}
	return panes
}

// agentCount counts an agent.list answer's agents, those with a machine
// apart.
func agentCount(b *testing.B, resp []byte) (local, remote int) {
	b.Helper()
	var r struct {
		Result struct {
			Agents []struct {
				Machine *protocol.MachineRef `json:"machine"`
				Stale   bool                 `json:"stale"`
			} `json:"agents"`
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		b.Fatalf("agent.list answered %s: %v", Clip(resp), err)
	}
	for _, a := range r.Result.Agents {
		switch {
		case a.Machine == nil:
			local++
		case !a.Stale:
			remote++
		}
	}
	return local, remote
}

// profileServer records s's CPU with perf while the timed part runs,
// when HERDR_FLEET_PERF names a directory (the server is another
// process: the benchmark's own -cpuprofile shows only the client). The
// returned stop ends the recording.
func profileServer(b *testing.B, s *Server, name string) (stop func()) {
	b.Helper()
	dir := os.Getenv("HERDR_FLEET_PERF")
	if dir == "" {
		return func() {}
	}
	out := filepath.Join(dir, name+".perf.data")
	cmd := exec.Command("perf", "record", "-F", "999", "-g", "-o", out, "-p", strconv.Itoa(s.Cmd.Process.Pid))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("perf record: %v", err)
	}
	time.Sleep(500 * time.Millisecond) // perf attaches asynchronously; not a pass/fail wait
	return func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		_ = cmd.Wait()
		b.Logf("server %s profile: perf report -i %s", s.Name, out)
	}
}

// spread reports the median and p99 of samples in microseconds.
func spread(b *testing.B, samples []time.Duration, name string) {
	if len(samples) == 0 {
		return
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	b.ReportMetric(float64(s[len(s)/2].Nanoseconds())/1e3, name+"-median-us")
	b.ReportMetric(float64(s[min(len(s)-1, len(s)*99/100)].Nanoseconds())/1e3, name+"-p99-us")
}

// BenchmarkFleet_AgentList3x100 times agent.list {"machines":"all"} on a
// local server linked to three machines of 100 agents each (ns/op, plus
// fleet-median/p99), and agent.list of the same server's own (empty)
// agents for comparison (local-median/p99).
func BenchmarkFleet_AgentList3x100(b *testing.B) {
	const perMachine = 100
	f := startBenchFleet(b, 3, func(remote *Server) { addHookAgents(b, remote, perMachine) })
	c := dialLong(b, f.local)
	fleet := request("l", "agent.list", map[string]any{"machines": "all"})
	var resp []byte
	WaitFor(b, "300 remote agents in the fleet list", func() bool {
		resp = roundTrip(b, c, fleet)
		_, remote := agentCount(b, resp)
		return remote == 3*perMachine
	})
	stopProfile := profileServer(b, f.local, "agentlist-local")
	var fleetTimes []time.Duration
	for b.Loop() {
		start := time.Now()
		roundTrip(b, c, fleet)
		fleetTimes = append(fleetTimes, time.Since(start))
	}
	stopProfile()
	spread(b, fleetTimes, "fleet")
	// After the loop: b.Loop's timer reset drops metrics reported before.
	b.ReportMetric(float64(len(resp)), "fleet-answer-bytes")

	own := request("o", "agent.list", map[string]any{})
	var localTimes []time.Duration
	for range len(fleetTimes) {
		start := time.Now()
		roundTrip(b, c, own)
		localTimes = append(localTimes, time.Since(start))
	}
	spread(b, localTimes, "local")

	// What one mirror re-read of a 100-agent machine costs: the two
	// reads on the remote's own socket, then the local side's decoding
	// and qualifying of their answers (what a link does per refresh).
	rc := dialLong(b, f.remotes[0])
	ref := protocol.MachineRef{ID: "m-00000000", Label: f.labels[0]}
	var reads, qualify []time.Duration
	var snapBytes, listBytes int
	for range 50 {
		start := time.Now()
		snap := roundTrip(b, rc, request("s", "session.snapshot", map[string]any{}))
		list := roundTrip(b, rc, request("a", "agent.list", map[string]any{}))
		reads = append(reads, time.Since(start))
		snapBytes, listBytes = len(snap), len(list)
		start = time.Now()
		for _, raw := range [][]byte{snap, list} {
			v, err := protocol.DecodeJSON(raw)
			if err != nil {
				b.Fatal(err)
			}
			protocol.QualifyValue(v, ref)
		}
		qualify = append(qualify, time.Since(start))
	}
	spread(b, reads, "reread-remote")
	spread(b, qualify, "reread-decode")
	b.ReportMetric(float64(snapBytes+listBytes), "reread-bytes")
}

// statusStream is an event subscription whose lines are stamped with
// the moment they were read.
type statusStream struct {
	lines chan stampedLine
}

type stampedLine struct {
	at   time.Time
	line []byte
}

func subscribeStatuses(b *testing.B, s *Server, fleet bool) *statusStream {
	b.Helper()
	c := dialLong(b, s)
	params := map[string]any{"subscriptions": []map[string]any{{"type": "pane_agent_status_changed"}}}
	if fleet {
		params["machines"] = "all"
	}
	resp, err := c.RoundTrip(request("sub", "events.subscribe", params))
	if err != nil || !bytes.Contains(resp, []byte(`"subscription_started"`)) {
		b.Fatalf("events.subscribe: %v %s", err, Clip(resp))
	}
	st := &statusStream{lines: make(chan stampedLine, 1024)}
	go func() {
		defer close(st.lines)
		for {
			line, err := c.ReadLine()
			if err != nil {
				return
			}
			st.lines <- stampedLine{at: time.Now(), line: line}
		}
	}()
	return st
}

// await returns when the event saying pane went working (or, for
// working=false, anything else) was read.
func (st *statusStream) await(b *testing.B, pane string, working bool) time.Time {
	b.Helper()
	deadline := time.After(WaitTimeout)
	for {
		select {
		case l, ok := <-st.lines:
			if !ok {
				b.Fatal("the subscription ended")
			}
			var ev struct {
				Event string `json:"event"`
				Data  struct {
					PaneID      string `json:"pane_id"`
					AgentStatus string `json:"agent_status"`
				} `json:"data"`
			}
			if json.Unmarshal(l.line, &ev) != nil || ev.Event != "pane_agent_status_changed" || ev.Data.PaneID != pane {
				continue
			}
			if (ev.Data.AgentStatus == "working") == working {
				return l.at
			}
		case <-deadline:
			b.Fatalf("no status event for %s (working=%v)", pane, working)
		}
	}
}

// BenchmarkFleet_RemoteStatusToLocalEvent times a remote agent's status
// change (pane.report_agent on the remote's own socket, working and idle
// in turn) until a local fleet subscriber reads it (fleet-median/p99),
// beside a subscriber on the remote server itself, the floor
// (remote-median/p99). One op is one change seen by both.
func BenchmarkFleet_RemoteStatusToLocalEvent(b *testing.B) {
	var pane string
	f := startBenchFleet(b, 1, func(remote *Server) { pane = addHookAgents(b, remote, 1)[0] })
	qualified := f.labels[0] + "/" + pane
	local := dialLong(b, f.local)
	WaitFor(b, "the remote agent in the fleet list", func() bool {
		_, remote := agentCount(b, roundTrip(b, local, request("l", "agent.list", map[string]any{"machines": "all"})))
		return remote == 1
	})
	atLocal := subscribeStatuses(b, f.local, true)
	atRemote := subscribeStatuses(b, f.remotes[0], false)
	c := dialLong(b, f.remotes[0])

	stopProfile := profileServer(b, f.local, "status-local")
	defer stopProfile()
	var fleetTimes, remoteTimes []time.Duration
	working := false
	for b.Loop() {
		working = !working
		state := "idle"
		if working {
			state = "working"
		}
		report := request("r", "pane.report_agent", map[string]any{"pane_id": pane, "source": "bench", "agent": "claude", "state": state})
		start := time.Now()
		roundTrip(b, c, report)
		remoteTimes = append(remoteTimes, atRemote.await(b, pane, working).Sub(start))
		fleetTimes = append(fleetTimes, atLocal.await(b, qualified, working).Sub(start))
	}
	spread(b, fleetTimes, "fleet")
	spread(b, remoteTimes, "remote")
}
