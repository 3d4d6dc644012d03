package tuinav

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The sidebar's git marks (issue 17): the workspace's branch, its distance
// from upstream and a mark for uncommitted changes, read by the server's
// workspace actor (workspace.git_status) and refreshed after output.
func TestTUI_SidebarGitMarks(t *testing.T) {
	h := NewHome(t)
	up := filepath.Join(h.Dir, "up")
	GitRepo(t, up)
	repo := filepath.Join(h.Dir, "repo")
	for _, args := range [][]string{
		{"clone", "-q", up, repo},
		{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "ahead"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s := h.Start(t, "git")
	c := Attach(t, h, "git", repo)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.WaitScreen(t, "the branch and ahead mark", func(s string) bool { return strings.Contains(SidebarRow(s, "main"), "main ↑1") })

	st := OK[protocol.WorkspaceGitStatus](t, ExtCall(t, s, "workspace.git_status", map[string]any{"workspace_id": "w1"}), "workspace_git_status")
	if !st.Repo || st.Branch != "main" || st.Ahead != 1 || st.Dirty {
		t.Errorf("workspace.git_status = %+v", st)
	}
	Fail(t, s.Call("workspace.git_status", map[string]any{"workspace_id": "w1", "cwd": "relative"}), protocol.CodeInvalidParams)

	ShellReady(t, c, "ready")
	c.Type("echo x > new.txt; echo made-$((6*7))\r")
	c.WaitText(t, "made-42")
	c.WaitScreen(t, "the dirty mark after output", func(s string) bool { return strings.Contains(SidebarRow(s, "main"), "main ↑1 *") })
}

// TestTUI_FoldedWorktreeGroupSurvivesReattach: a worktree group folded
// with a click on its chevron is the session's (client.ui_state.set,
// session.json): after detaching and attaching again it is still folded.
func TestTUI_FoldedWorktreeGroupSurvivesReattach(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "fold")
	s.CreateWorkspace(t, map[string]any{"cwd": repo, "label": "api"})
	OK[protocol.WorktreeCreated](t, s.Call("worktree.create", map[string]any{"workspace_id": "w1", "branch": "feat"}), "worktree_created")
	c := Attach(t, h, "fold", h.Dir)
	screen := c.WaitScreen(t, "the group unfolded", func(s string) bool { return strings.Contains(s, "▾") && strings.Contains(s, "feat") })
	x, y := -1, -1
	for i, l := range Lines(screen) {
		if j := strings.Index(l, "▾"); j >= 0 {
			x, y = len([]rune(l[:j])), i
			break
		}
	}
	c.Type(SgrMouse(0, x, y, false) + SgrMouse(0, x, y, true))
	c.WaitScreen(t, "the group folded", func(s string) bool { return strings.Contains(s, "▸") && !strings.Contains(sidebarText(s), "feat") })
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("detach exit %d", code)
	}
	// The client's client.ui_state.set may still wait on its connection
	// behind a slower request (the sidebar's git status) when the client
	// has gone: it is answered in order all the same.
	var st protocol.ClientUIState
	if !Eventually(func() bool {
		st = OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.get", struct{}{}), "client_ui_state")
		return len(st.CollapsedSpaceKeys) == 1
	}) {
		t.Fatalf("the session keeps %v", st.CollapsedSpaceKeys)
	}
	c2 := Attach(t, h, "fold", h.Dir)
	c2.WaitScreen(t, "still folded after re-attaching", func(s string) bool {
		return strings.Contains(s, "▸") && strings.Contains(s, "api") && !strings.Contains(sidebarText(s), "feat")
	})
}

// sidebarText is the spaces section of the sidebar: each row's text left
// of the sidebar's border, down to the agents header.
func sidebarText(screen string) string {
	var b strings.Builder
	for _, l := range Lines(screen) {
		side, _, _ := strings.Cut(l, "│")
		if strings.TrimSpace(side) == "agents" {
			break
		}
		b.WriteString(side + "\n")
	}
	return b.String()
}
