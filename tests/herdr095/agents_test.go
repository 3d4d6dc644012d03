package herdr095

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_SelfReportedAgentClearedOnExit: an agent that reported
// itself (a label the detector does not know, as a sandboxed agent is) is
// cleared once its process exits and the shell has the terminal again, as
// Herdr 0.9.2 does: pane.get shows no agent and status unknown, and a
// pane_agent_detected without an agent goes out.
func TestHerdr095_SelfReportedAgentClearedOnExit(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	p := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir()}).RootPane.PaneID
	s.WaitPrompt(t, p)
	s.Run(t, p, "cat")
	WaitFor(t, "cat in front of the pane", func() bool {
		info := OK[protocol.PaneProcessInfoResult](t, s.Call("pane.process_info", map[string]any{"pane_id": p}), "pane_process_info").ProcessInfo
		return slices.ContainsFunc(info.ForegroundProcesses, func(pr protocol.PaneProcessInfoProcess) bool { return pr.Name == "cat" })
	})
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": p, "source": "sandbox", "agent": "mybot", "state": "working"}), "ok")
	got := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": p}), "pane_info").Pane
	if got.Agent == nil || *got.Agent != "mybot" || got.AgentStatus != protocol.StatusWorking {
		t.Fatalf("after the report: agent %v, status %s; want mybot working", got.Agent, got.AgentStatus)
	}
	events := s.Dial(t)
	if ack := MustRoundTrip(t, events, `{"id":"sub","method":"events.subscribe","params":{"subscriptions":[{"type":"pane.agent_detected"}]}}`); !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %s", ack)
	}
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"ctrl+d"}}), "ok") // cat ends
	WaitFor(t, "the self-reported agent cleared", func() bool {
		got = OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": p}), "pane_info").Pane
		return got.Agent == nil
	})
	if got.AgentStatus != protocol.StatusUnknown {
		t.Fatalf("after the agent exited: status %s, want unknown", got.AgentStatus)
	}
	_ = events.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	for {
		line, err := events.ReadLine()
		if err != nil {
			t.Fatalf("no pane_agent_detected without an agent: %v", err)
		}
		if strings.Contains(string(line), `"pane_agent_detected"`) && strings.Contains(string(line), `"pane_id":"`+p+`"`) {
			if strings.Contains(string(line), `"agent":`) {
				t.Fatalf("the event names an agent still: %s", line)
			}
			break
		}
	}
}
