//go:build unix

package dispatch

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// eventKinds reads events from a subscription until one of kind until
// arrives, returning the kinds seen (with their workspace ids).
func eventKinds(t *testing.T, c *protocol.Client, until string) []string {
	t.Helper()
	var seen []string
	_ = c.Conn().SetDeadline(time.Now().Add(CallTimeout))
	for {
		raw, err := c.ReadLine()
		if err != nil {
			t.Fatalf("after %v: %v", seen, err)
		}
		var ev struct {
			Data struct {
				Type        string `json:"type"`
				WorkspaceID string `json:"workspace_id"`
				Workspace   struct {
					WorkspaceID string `json:"workspace_id"`
				} `json:"workspace"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		id := ev.Data.WorkspaceID
		if id == "" {
			id = ev.Data.Workspace.WorkspaceID
		}
		seen = append(seen, ev.Data.Type+":"+id)
		if ev.Data.Type == until {
			return seen
		}
	}
}

// Two worktree workspaces from a real repository: created grouped under
// the main checkout's, listed, one refused removal while dirty and then
// forced, the group closed only on purpose; events in order.
func TestE2E_Worktrees(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "wt")
	s.CreateWorkspace(t, map[string]any{"cwd": repo})
	s.CreateWorkspace(t, nil) // an unrelated workspace, after which the group must stay together

	sub := s.Dial(t)
	kinds := `[{"type":"workspace.created"},{"type":"workspace.updated"},{"type":"workspace.closed"},{"type":"tab.created"},{"type":"pane.created"},{"type":"worktree.created"},{"type":"worktree.opened"},{"type":"worktree.removed"}]`
	if ack, err := sub.RoundTrip([]byte(`{"id":"sub","method":"events.subscribe","params":{"subscriptions":` + kinds + `}}`)); err != nil || !strings.Contains(string(ack), "subscription_started") {
		t.Fatalf("subscribe: %s %v", ack, err)
	}

	a := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "feature/Big_Idea"}), "worktree_created")
	home := filepath.Join(h.Dir, "h")
	wantPath := filepath.Join(home, ".herdr", "worktrees", "repo", "feature-big-idea")
	if a.Worktree.Path != wantPath || a.Worktree.Branch == nil || *a.Worktree.Branch != "feature/Big_Idea" || !a.Worktree.IsLinkedWorktree {
		t.Fatalf("worktree %+v, want %s on feature/Big_Idea", a.Worktree, wantPath)
	}
	if wt := a.Workspace.Worktree; wt == nil || !wt.IsLinkedWorktree || wt.CheckoutPath != wantPath || wt.RepoName != "repo" {
		t.Fatalf("provenance %+v", a.Workspace.Worktree)
	}
	if got := eventKinds(t, sub, "worktree_created"); strings.Join(got, " ") != "workspace_updated:w1 workspace_created:w3 tab_created: pane_created: worktree_created:w3" {
		t.Fatalf("create events: %v", got)
	}
	b := OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1"}), "worktree_created")
	if b.Worktree.Branch == nil || !strings.HasPrefix(*b.Worktree.Branch, "worktree/") {
		t.Fatalf("default branch %v", b.Worktree.Branch)
	}
	eventKinds(t, sub, "worktree_created")

	// Grouped: w1, its worktrees, then the unrelated w2.
	var order []string
	for _, w := range OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces {
		order = append(order, w.WorkspaceID)
	}
	if strings.Join(order, ",") != "w1,w3,w4,w2" {
		t.Fatalf("workspace order %v, want the group together", order)
	}
	list := OK[protocol.WorktreeList](t, s.Call("worktree.list", map[string]any{"workspace_id": "w3"}), "worktree_list")
	open := map[string]string{}
	for _, wt := range list.Worktrees {
		if wt.OpenWorkspaceID != nil {
			open[wt.Path] = *wt.OpenWorkspaceID
		}
	}
	if len(list.Worktrees) != 3 || open[repo] != "w1" || open[wantPath] != "w3" || list.Source.RepoRoot != repo || *list.Source.SourceWorkspaceID != "w3" {
		t.Fatalf("list %+v", list)
	}
	// A fake agent in each worktree workspace, one of them working.
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(FakeClaudeCLI), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"w3:p1", "w4:p1"} {
		s.WaitPrompt(t, p)
		s.Run(t, p, "PATH="+bin+":$PATH claude")
	}
	s.WaitLine(t, "w3:p1", "claude ready")
	s.Run(t, "w3:p1", "w")
	WaitFor(t, "an agent in each worktree, one working", func() bool {
		byWS := map[string]protocol.AgentStatus{}
		for _, a := range OK[protocol.AgentList](t, s.Call("agent.list", nil), "agent_list").Agents {
			byWS[a.WorkspaceID] = a.AgentStatus
		}
		return len(byWS) == 2 && byWS["w3"] == protocol.StatusWorking && byWS["w4"] != ""
	})

	// Opening an open one says so.
	again := OK[protocol.WorktreeOpened](t, s.Call("worktree.open", map[string]any{"workspace_id": "w1", "branch": "feature/Big_Idea"}), "worktree_opened")
	if !again.AlreadyOpen || again.Workspace.WorkspaceID != "w3" {
		t.Fatalf("open again: %+v", again)
	}
	eventKinds(t, sub, "worktree_opened")

	// A dirty checkout is kept unless forced; the branch always stays.
	s.Run(t, "w3:p1", "q") // the agent quits; its shell takes the next command
	WaitFor(t, "the agent to leave w3", func() bool {
		for _, a := range OK[protocol.AgentList](t, s.Call("agent.list", nil), "agent_list").Agents {
			if a.WorkspaceID == "w3" {
				return false
			}
		}
		return true
	})
	s.Run(t, "w3:p1", "echo change > dirty.txt && echo written-$((40+2))")
	WaitFor(t, "the checkout made dirty", func() bool { return strings.Contains(s.Read(t, "w3:p1", "recent", 20).Text, "written-42") })
	Fail(t, s.Call("worktree.remove", map[string]any{"workspace_id": "w3"}), "dirty_worktree_requires_force")
	if _, err := os.Stat(wantPath); err != nil {
		t.Fatalf("a refused remove touched the checkout: %v", err)
	}
	Fail(t, s.Call("worktree.remove", map[string]any{"workspace_id": "w1"}), "not_linked_worktree")
	rm := OK[protocol.WorktreeRemoved](t, s.Call("worktree.remove", map[string]any{"workspace_id": "w3", "force": true}), "worktree_removed")
	if !rm.Forced || rm.Path != wantPath {
		t.Fatalf("removed %+v", rm)
	}
	if got := eventKinds(t, sub, "workspace_closed"); strings.Join(got, " ") != "worktree_removed:w3 workspace_closed:w3" {
		t.Fatalf("remove events: %v", got)
	}
	if _, err := os.Stat(wantPath); !os.IsNotExist(err) {
		t.Fatalf("checkout still there: %v", err)
	}
	if err := exec.Command("git", "-C", repo, "show-ref", "--verify", "--quiet", "refs/heads/feature/Big_Idea").Run(); err != nil {
		t.Fatal("the branch went with its worktree")
	}
	// Reopening the kept branch makes a checkout again? No: open finds
	// only existing checkouts.
	Fail(t, s.Call("worktree.open", map[string]any{"workspace_id": "w1", "branch": "feature/Big_Idea"}), "worktree_not_found")
	Fail(t, s.Call("worktree.list", map[string]any{"cwd": h.Dir}), "not_git_worktree")

	// The main checkout's workspace closes with its group only on purpose.
	Fail(t, s.Call("workspace.close", map[string]any{"workspace_id": "w1"}), "workspace_group_close_required")
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w1", "close_group": true}), "ok")
	if left := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces; len(left) != 1 || left[0].WorkspaceID != "w2" {
		t.Fatalf("after closing the group: %+v", left)
	}
	if _, err := os.Stat(b.Worktree.Path); err != nil {
		t.Fatalf("closing a workspace deleted its checkout: %v", err)
	}
}

// Bad input is refused before any git runs.
func TestE2E_WorktreeValidation(t *testing.T) {
	s := StartServer(t)
	Fail(t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "cwd": "/tmp"}), "invalid_request")
	Fail(t, s.Call("worktree.create", map[string]any{"cwd": "relative/dir"}), "invalid_request")
	Fail(t, s.Call("worktree.create", map[string]any{"cwd": "/tmp", "branch": ""}), "invalid_request")
	Fail(t, s.Call("worktree.open", map[string]any{"cwd": "/tmp"}), "invalid_request")
	Fail(t, s.Call("worktree.open", map[string]any{"cwd": "/tmp", "branch": "a", "path": "/x"}), "invalid_request")
	Fail(t, s.Call("worktree.list", nil), "no_active_workspace")
	Fail(t, s.Call("worktree.remove", map[string]any{"workspace_id": "w9"}), "workspace_not_found")
}

// Herdr's legacy id forms resolve wherever a target is taken, and answers
// carry the canonical ids.
func TestE2E_LegacyIDs(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1-1", "direction": "right"}), "pane_info")
	for _, id := range []string{"w1-2", "p_w1_2", "p_2", "w1:p2"} {
		got := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": id}), "pane_info")
		if got.Pane.PaneID != "w1:p2" {
			t.Errorf("%s resolved to %s", id, got.Pane.PaneID)
		}
	}
	read := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": "w1-1", "source": "visible"}), "pane_read").Read
	if read.PaneID != "w1:p1" {
		t.Fatalf("pane.read answered for %s", read.PaneID)
	}
	tab := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "t_w1_1"}), "tab_info")
	if tab.Tab.TabID != "w1:t1" {
		t.Fatalf("tab %s", tab.Tab.TabID)
	}
	if ws := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w_1"}), "workspace_info"); ws.Workspace.WorkspaceID != "w1" {
		t.Fatalf("workspace %s", ws.Workspace.WorkspaceID)
	}
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1-9"}), "pane_not_found")
}
