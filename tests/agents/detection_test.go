package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// detectionAgents are the agents Herdr recognises; each gets a fake CLI of
// that name.
var detectionAgents = []string{
	"pi", "claude", "codex", "gemini", "cursor", "devin", "agy", "cline", "omp", "mastracode",
	"opencode", "copilot", "kimi", "kiro", "droid", "amp", "grok", "hermes", "kilo", "qodercli", "maki",
}

// TestDetection runs a fake CLI for every recognised agent, each in its own
// workspace of one server, and checks over the API that the pane's agent
// goes working → blocked → idle as its screen changes, with agent.explain
// naming a matched rule of that state each time. StartServer skips it on
// Windows: the fake agents are sh scripts.
func TestDetection(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	bin := Mkdir(t, s, "bin")
	screens := AgentScreens(t)
	for _, a := range detectionAgents {
		dir := filepath.Join(screens, a)
		if strings.Contains(dir, "'") {
			t.Skipf("module path %q cannot be quoted for sh", dir)
		}
		if err := os.WriteFile(filepath.Join(bin, a), []byte(fmt.Sprintf(FakeAgentCLI, dir)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"PATH": bin + ":" + os.Getenv("PATH")}

	panes := map[string]string{} // agent → pane id
	for _, a := range detectionAgents {
		created := s.CreateWorkspace(t, map[string]any{"cwd": s.Home.Dir, "env": env, "label": a})
		panes[a] = created.RootPane.PaneID
	}
	for _, a := range detectionAgents {
		s.Run(t, panes[a], a)
	}

	// Which workspace is the active one decides idle versus done (below).
	active := activeWorkspace(t, s)

	for _, phase := range []protocol.AgentStatus{protocol.StatusWorking, protocol.StatusBlocked, protocol.StatusIdle} {
		want := func(a string) protocol.AgentStatus { return phase }
		if phase == protocol.StatusIdle {
			// A finished turn (working/blocked → idle) counts as seen only
			// in the active tab of the active workspace; elsewhere the
			// public status is "done" until the tab is focused.
			want = func(a string) protocol.AgentStatus {
				if paneWorkspace(panes[a]) == active {
					return protocol.StatusIdle
				}
				return protocol.StatusDone
			}
		}
		got := map[string]protocol.PaneInfo{}
		if !Eventually(func() bool {
			all := true
			for _, a := range detectionAgents {
				p := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": panes[a]}), "pane_info").Pane
				got[a] = p
				all = all && p.Agent != nil && *p.Agent == a && p.AgentStatus == want(a)
			}
			return all
		}) {
			var b strings.Builder
			for _, a := range detectionAgents {
				p := got[a]
				label := "<none>"
				if p.Agent != nil {
					label = *p.Agent
				}
				if label != a || p.AgentStatus != want(a) {
					fmt.Fprintf(&b, "\n  %s: agent %s status %s, want %s; screen:\n%s", a, label, p.AgentStatus, want(a), s.Read(t, panes[a], "visible", 0).Text)
				}
			}
			t.Fatalf("phase %s not reached:%s", phase, b.String())
		}
		for _, a := range detectionAgents {
			e := OK[protocol.AgentExplainResult](t, s.CallT(t, "agent.explain", map[string]any{"target": panes[a]}), "agent_explain").Explain
			if e.Agent != a || e.State != string(phase) || e.MatchedRule == nil || e.MatchedRule.State != string(phase) || e.FallbackReason != nil {
				t.Errorf("%s in phase %s: explain agent %q state %q rule %+v fallback %v", a, phase, e.Agent, e.State, e.MatchedRule, e.FallbackReason)
			}
		}
		if phase == protocol.StatusIdle {
			var done []string
			for _, a := range detectionAgents {
				if got[a].AgentStatus == protocol.StatusDone {
					done = append(done, a)
				}
			}
			t.Logf("after blocked: %d panes done (unseen, outside active workspace %s), the rest idle", len(done), active)
			break
		}
		// Advance every fake agent to its next screen at once.
		var wg sync.WaitGroup
		for _, a := range detectionAgents {
			wg.Add(1)
			go func(p string) {
				defer wg.Done()
				OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": p, "keys": []string{"Enter"}}), "ok")
			}(panes[a])
		}
		wg.Wait()
	}

	// agent.list names all of them.
	var listed []string
	for _, ag := range OK[protocol.AgentList](t, s.CallT(t, "agent.list", nil), "agent_list").Agents {
		if ag.Agent != nil {
			listed = append(listed, *ag.Agent)
		}
	}
	sort.Strings(listed)
	want := append([]string(nil), detectionAgents...)
	sort.Strings(want)
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("agent.list agents = %v, want %v", listed, want)
	}
}

// activeWorkspace is the id of the workspace the server marks focused.
func activeWorkspace(t *testing.T, s *Server) string {
	t.Helper()
	for _, w := range OK[protocol.WorkspaceList](t, s.CallT(t, "workspace.list", nil), "workspace_list").Workspaces {
		if w.Focused {
			return w.WorkspaceID
		}
	}
	t.Fatal("no focused workspace")
	return ""
}

// paneWorkspace is the workspace part of a canonical pane id (w3:p1 → w3).
func paneWorkspace(pane string) string {
	w, _, _ := strings.Cut(pane, ":")
	return w
}
