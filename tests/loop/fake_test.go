package loop

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// startFake opens a workspace whose shell finds the fake claude first on
// PATH, runs it, and waits until the server recognises it. It returns
// the pane and the fake's log.
func startFake(t *testing.T, s *Server) (pane, log string) {
	t.Helper()
	bin := WriteFakeClaude(t, Mkdir(t, s, "bin"))
	log = filepath.Join(s.Home.Dir, "fake.log")
	created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "focus": true})
	pane = created.RootPane.PaneID
	runFake(t, s, pane, bin, log)
	return pane, log
}

// runFake runs the fake by its path, its log named on the command line
// (a restored pane's shell has the environment of its own).
func runFake(t *testing.T, s *Server, pane, bin, log string) {
	t.Helper()
	s.Run(t, pane, "FAKE_LOG="+log+" "+filepath.Join(bin, "claude"))
	WaitFor(t, "the fake claude recognised", func() bool {
		r := s.Call("agent.get", map[string]any{"target": pane})
		return r.Error == nil
	})
}

// cue types a line into the fake.
func cue(t *testing.T, s *Server, pane, line string) {
	t.Helper()
	OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "text": line + "\r"}), "ok")
}

// agent is the pane's agent record.
func agent(t *testing.T, s *Server, pane string) protocol.AgentInfo {
	t.Helper()
	return OK[protocol.AgentInfoResult](t, s.CallT(t, "agent.get", map[string]any{"target": pane}), "agent_info").Agent
}

// waitStatus waits for one of the statuses.
func waitStatus(t *testing.T, s *Server, pane string, st ...protocol.AgentStatus) {
	t.Helper()
	WaitFor(t, fmt.Sprint("agent ", pane, " ", st), func() bool {
		r := s.Call("agent.get", map[string]any{"target": pane})
		if r.Error != nil {
			return false
		}
		var res protocol.AgentInfoResult
		return protocol.Unmarshal(r.Result, &res) == nil && slices.Contains(st, res.Agent.AgentStatus)
	})
}

// logLines is what the fake was given, one entry a line.
func logLines(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
}

func waitLog(t *testing.T, path string, want ...string) {
	t.Helper()
	WaitFor(t, "the fake's log "+strings.Join(want, ", "), func() bool {
		return strings.Join(logLines(t, path), "|") == strings.Join(want, "|")
	})
}

func queueOf(t *testing.T, s *Server, pane string) protocol.AgentQueue {
	t.Helper()
	return OK[protocol.AgentQueueResult](t, s.CallT(t, "agent.queue.list", map[string]any{"target": pane}), "agent_queue").Queue
}
