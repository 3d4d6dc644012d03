package tui

import (
	"net"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

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
		for _, it := range m.side.sidebarItems() {
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
	for _, it := range m.side.sidebarItems() {
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
	m.mouse(mouseMsg{X: chevron.x + 2, Y: chevron.y, Action: mousePress, Button: tea.MouseLeft})
	if got := strings.Join(spaces(), " / "); got != "!|▸ 1 api| / main|↑2 *|" {
		t.Errorf("folded = %q (the worktree hidden, its blocked status on the group)", got)
	}
	// The session keeps the fold (session.json's collapsed_space_keys).
	m.mouse(mouseMsg{X: chevron.x + 2, Y: chevron.y, Action: mousePress, Button: tea.MouseLeft})
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
	if !m.git.host.gitShown() {
		t.Fatal("the default sidebar shows no git marks: the test reads nothing")
	}
	now := time.Now()
	m.git.pending, m.git.burst, m.git.last = true, now.Add(-2*gitMaxWait), now
	m.git.typed = now
	m.git.focused()
	if !m.git.pending {
		t.Fatal("git was read during the echo of typing")
	}
	m.git.typed = now.Add(-time.Second)
	m.git.focused()
	if m.git.pending {
		t.Fatal("output that goes on without typing was not read after gitMaxWait")
	}
}

// fakeGitHost is the client as the git marks see it: a snapshot, whether
// the rows show git tokens, and a server answering workspace.git_status
// (or refusing it) that counts what it was asked.
type fakeGitHost struct {
	snap   protocol.SessionSnapshot
	shown  bool
	refuse bool
	asked  []string
}

func (h *fakeGitHost) snapshot() *protocol.SessionSnapshot { return &h.snap }
func (h *fakeGitHost) gitShown() bool                      { return h.shown }
func (h *fakeGitHost) rpc() rpcFunc {
	return func(method string, params, out any) error {
		p := params.(protocol.WorkspaceGitStatusParams)
		h.asked = append(h.asked, p.WorkspaceID+"@"+*p.Cwd)
		if h.refuse {
			return &protocol.Error{Code: protocol.CodeUnknownMethod, Message: method}
		}
		*out.(*protocol.WorkspaceGitStatus) = protocol.WorkspaceGitStatus{WorkspaceID: p.WorkspaceID, Repo: true, Branch: "main\u009b"}
		return nil
	}
}

// The git marks on their own: each workspace's folder is asked once, and
// again only when it changes or is forced; the answers are kept cleaned;
// output arms one timer; a server without the method turns them off, and
// rows without git tokens ask nothing.
func TestGitMarks_OnTheirOwn(t *testing.T) {
	h := &fakeGitHost{snap: twoPanes(), shown: true}
	cwd := "/src/proj"
	h.snap.Workspaces[0].ActiveTabID = h.snap.Panes[0].TabID
	h.snap.Panes[0].Cwd = &cwd
	g := &gitMarks{host: h}
	run := func(cmds []tea.Cmd) {
		for _, c := range cmds {
			g.answer(c().(gitMsg))
		}
	}
	run(g.ask(""))
	if len(h.asked) != 1 || h.asked[0] != "w1@/src/proj" || g.st["w1"].Branch != "main\uFFFD" {
		t.Fatalf("first ask: asked %v, marks %+v", h.asked, g.st)
	}
	if cmds := g.ask(""); len(cmds) != 0 {
		t.Fatalf("asked again with no folder changed: %d", len(cmds))
	}
	run(g.ask("w1"))
	if len(h.asked) != 2 {
		t.Fatalf("forced: asked %v", h.asked)
	}
	if g.afterOutput() == nil || g.afterOutput() != nil || !g.pending {
		t.Fatal("output armed no timer, or two")
	}
	h.refuse = true
	run(g.ask("w1"))
	if !g.off || g.ask("w1") != nil || g.afterOutput() != nil {
		t.Fatalf("refused: off %v", g.off)
	}
	g2 := &gitMarks{host: &fakeGitHost{snap: twoPanes()}}
	if g2.ask("") != nil || g2.afterOutput() != nil {
		t.Fatal("rows without git tokens asked")
	}
}
