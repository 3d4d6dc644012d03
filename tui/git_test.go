package tui

import (
	"net"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// A worktree group folds under its repository's workspace: a click on the
// chevron hides the worktrees and rolls their status up into its icon;
// git marks follow the branch row.
func TestSidebar_WorktreeGroupFoldsAndGitMarks(t *testing.T) {
	m := panelModel(t, "")
	wt := func(linked bool) *protocol.WorkspaceWorktreeInfo {
		return &protocol.WorkspaceWorktreeInfo{RepoKey: "/r", RepoName: "r", RepoRoot: "/r", IsLinkedWorktree: linked}
	}
	m.snap.Workspaces = []protocol.WorkspaceInfo{
		{WorkspaceID: "w1", Number: 1, Label: "api", Focused: true, TabCount: 1, AgentStatus: protocol.StatusIdle, Worktree: wt(false)},
		{WorkspaceID: "w2", Number: 2, Label: "feat", TabCount: 1, AgentStatus: protocol.StatusBlocked, Worktree: wt(true)},
	}
	m.git.st = map[string]protocol.WorkspaceGitStatus{"w1": {Repo: true, Branch: "main", Ahead: 2, Dirty: true}}
	spaces := func() []string {
		var out []string
		for _, it := range m.sidebarItems() {
			if it.kind == "workspace" {
				var b strings.Builder
				for _, s := range it.segs {
					b.WriteString(s.text + "|")
				}
				out = append(out, b.String())
			}
		}
		return out
	}
	if got := strings.Join(spaces(), " / "); got != "○|▾ 1 api| / main|↑2 *| / !|↳ 2 feat|" {
		t.Errorf("unfolded = %q", got)
	}
	var chevron sideItem
	for _, it := range m.sidebarItems() {
		if it.toggle != "" {
			chevron = it
		}
	}
	g := m.geometry()
	m.sentArea, m.lastActive = [2]int{g.area.Width, g.area.Height}, time.Now() // no size to claim
	f := &fakeServer{}
	a, b := net.Pipe()
	go f.serve(b)
	t.Cleanup(func() { a.Close(); b.Close() })
	m.link = &link{req: newRPCConn(a, nil)}
	m.mouse(tea.MouseMsg{X: chevron.x + 2, Y: chevron.y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if got := strings.Join(spaces(), " / "); got != "!|▸ 1 api| / main|↑2 *|" {
		t.Errorf("folded = %q (the worktree hidden, its blocked status on the group)", got)
	}
	// The session keeps the fold (session.json's collapsed_space_keys).
	m.mouse(tea.MouseMsg{X: chevron.x + 2, Y: chevron.y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	waitFor(t, "two client.ui_state.set", func() bool { return len(f.requests("client.ui_state.set")) == 2 })
	sets := f.requests("client.ui_state.set")
	if string(sets[0].Params) != `{"collapsed_space_keys":["/r"]}` || string(sets[1].Params) != `{"collapsed_space_keys":[]}` {
		t.Errorf("client.ui_state.set params %s then %s", sets[0].Params, sets[1].Params)
	}
}

// Output that never pauses has its marks read every gitMaxWait, unless it
// is the echo of someone typing: git's processes wait for the typing to
// stop rather than share the keystrokes' cores.
func TestGit_NoReadWhileTyping(t *testing.T) {
	m := panelModel(t, "")
	if !m.gitShown() {
		t.Fatal("the default sidebar shows no git marks: the test reads nothing")
	}
	now := time.Now()
	m.git.pending, m.git.burst, m.git.last = true, now.Add(-2*gitMaxWait), now
	m.git.typed = now
	m.gitFocused()
	if !m.git.pending {
		t.Fatal("git was read during the echo of typing")
	}
	m.git.typed = now.Add(-time.Second)
	m.gitFocused()
	if m.git.pending {
		t.Fatal("output that goes on without typing was not read after gitMaxWait")
	}
}
