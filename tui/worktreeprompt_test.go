package tui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/herdr-go/herdr/protocol"
)

// prefix G asks for the new worktree's branch before it creates anything:
// a typed name is the branch, enter alone lets the server generate one.
// The group the new workspace lands in is unfolded so it can be seen.
func TestWorktreePrompt_AsksForTheBranchAndUnfoldsTheGroup(t *testing.T) {
	f := &fakeServer{}
	m, _ := testModel(t, f)
	m.side.collapsed = map[string]bool{"/repo": true, "/other": true}
	create := func(typed string) protocol.WorktreeCreateParams {
		t.Helper()
		before := len(f.requests("worktree.create"))
		m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
		m.Update(keyRunes("G"))
		if m.mode != modeRename || len(f.requests("worktree.create")) != before {
			t.Fatalf("prefix G: mode %v, %d worktree.create sent before a branch was asked", m.mode, len(f.requests("worktree.create")))
		}
		if typed != "" {
			m.Update(keyRunes(typed))
		}
		if bar := ansi.Strip(render(m)); !strings.Contains(bar, "new worktree · branch") || !strings.Contains(bar, typed+"▏") {
			t.Fatalf("the prompt is not drawn:\n%s", bar)
		}
		_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		if cmd == nil {
			t.Fatal("enter created nothing")
		}
		if _, ok := cmd().(worktreeCreatedMsg); !ok {
			t.Fatal("enter's command is not the worktree.create")
		}
		reqs := f.requests("worktree.create")
		if len(reqs) != before+1 {
			t.Fatalf("%d worktree.create, want %d", len(reqs), before+1)
		}
		var p protocol.WorktreeCreateParams
		if err := json.Unmarshal(reqs[before].Params, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := create("feature-x")
	if p.Branch == nil || *p.Branch != "feature-x" || !p.Focus || p.WorkspaceID == nil || *p.WorkspaceID != "w1" {
		t.Errorf("typed branch: params %+v", p)
	}
	if p := create(""); p.Branch != nil {
		t.Errorf("enter alone sent branch %q; want none (the server generates it)", *p.Branch)
	}
	// Esc asks nothing of the server.
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(keyRunes("G"))
	m.Update(tea.KeyPressMsg{Code: tea.KeyEsc})
	if n := len(f.requests("worktree.create")); m.mode != modeTerminal || n != 2 {
		t.Errorf("esc: mode %v, %d worktree.create", m.mode, n)
	}

	m.Update(worktreeCreatedMsg{res: protocol.WorktreeCreated{Workspace: protocol.WorkspaceInfo{WorkspaceID: "w3", Worktree: &protocol.WorkspaceWorktreeInfo{RepoKey: "/repo", IsLinkedWorktree: true}}}})
	if m.side.collapsed["/repo"] || !m.side.collapsed["/other"] {
		t.Errorf("after the create: folded %v, want only /other", m.side.collapsed)
	}
	waitFor(t, "the unfold told to the session", func() bool { return len(f.requests("client.ui_state.set")) == 1 })
	if got := string(f.requests("client.ui_state.set")[0].Params); got != `{"collapsed_space_keys":["/other"]}` {
		t.Errorf("client.ui_state.set %s", got)
	}
}
